"""The creation, manipulation and index ops of issue 24 (unique_consecutive, index_add,
expand_as, multiplex, ...): every registered dtype against numpy, the registrations against
PaddlePaddle 3.3.1's, 0-D, empty, non-contiguous inputs, negative axes, NaN, bad input, the
paddle.* functions and Tensor methods. tests/ops/test_manip24_paddle.py compares PaddlePaddle
3.3.1's recorded results and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.generated import backward as B
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
OPS = ("unique_consecutive", "index_add", "expand_as", "multiplex")
OPS += ("broadcast_tensors", "tril_indices", "triu_indices", "fill_diagonal")
OPS += ("fill_diagonal_tensor", "numel", "bitwise_left_shift", "bitwise_right_shift")
GRADS = ("index_add_grad", "expand_as_grad", "multiplex_grad")
GRADS += ("broadcast_tensors_grad", "fill_diagonal_grad", "fill_diagonal_tensor_grad")


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def whole(shape: tuple[int, ...], dtype: DataType, seed: int = 0) -> np.ndarray:
    """Whole numbers in [-5, 5] (every dtype holds them exactly)."""
    values = np.random.default_rng(seed).integers(-5, 6, size=shape)
    if dtype == D.BOOL:
        return (values > 0).astype(bool)
    if dtype in (D.COMPLEX64, D.COMPLEX128):
        return (values + 1j * np.flip(values)).astype(dtype.numpy_dtype)
    return values.astype(dtype.numpy_dtype)


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- unique_consecutive -------------------------------------------------------------------------


def unique_consecutive_reference(x: np.ndarray, axis: int | None):
    """Runs of equal elements (slices) by a plain loop."""
    if axis is None:
        items = list(x.reshape(-1))
        same = lambda a, b: a == b  # noqa: E731
    else:
        items = list(np.moveaxis(x, axis, 0))
        same = lambda a, b: bool(np.array_equal(a, b))  # noqa: E731
    kept, inverse, counts = [], [], []
    for item in items:
        if kept and same(kept[-1], item):
            counts[-1] += 1
        else:
            kept.append(item)
            counts.append(1)
        inverse.append(len(kept) - 1)
    out = np.array(kept, dtype=x.dtype)
    if axis is not None:
        out = np.moveaxis(out.reshape((len(kept),) + np.moveaxis(x, axis, 0).shape[1:]), 0, axis)
    return out, np.array(inverse), np.array(counts)


@op_test("unique_consecutive", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unique_consecutive"), ids=lambda d: d.name.lower())
def test_unique_consecutive_matches_numpy(dtype: DataType) -> None:
    x = np.array([[1, 1, 2], [1, 1, 2], [0, 0, 3], [0, 0, 3]]).astype(dtype.numpy_dtype)
    for axis in (None, 0, 1, -1):
        out, index, counts = C.unique_consecutive(
            t(x), True, True, [] if axis is None else [axis], D.INT64
        )
        want = unique_consecutive_reference(x, axis)
        np.testing.assert_array_equal(out.numpy(), want[0])
        assert out.dtype == dtype
        np.testing.assert_array_equal(index.numpy(), want[1])
        np.testing.assert_array_equal(counts.numpy(), want[2])
        assert index.dtype == counts.dtype == D.INT64


@op_test("unique_consecutive", kind="edge")
def test_unique_consecutive_edges() -> None:
    out, index, counts = C.unique_consecutive(t(3.0, "float32"), True, True, [], D.INT32)
    assert out.shape == [1] and index.numpy().tolist() == [0] and counts.numpy().tolist() == [1]
    assert index.dtype == D.INT32
    empty = C.unique_consecutive(t(np.zeros(0, "float32")), True, True, [], D.INT64)
    assert [o.shape for o in empty] == [[0], [0], [0]]
    # NaN is never equal; a NaN first gives PaddlePaddle 3.3.1's extra entry of count 0
    nan = np.array([np.nan, np.nan, 1.0, 1.0, np.nan, 2.0], "float32")
    out, index, counts = C.unique_consecutive(t(nan), True, True, [], D.INT64)
    np.testing.assert_array_equal(out.numpy(), [np.nan, np.nan, np.nan, 1.0, np.nan, 2.0])
    assert index.numpy().tolist() == [1, 2, 3, 3, 4, 5]
    assert counts.numpy().tolist() == [0, 1, 1, 2, 1, 1]
    out, index, counts = C.unique_consecutive(t(nan[2:]), True, True, [], D.INT64)
    assert counts.numpy().tolist() == [2, 1, 1]
    only = C.unique_consecutive(t(np.array([1, 1, 2], "int64")), False, False, [], D.INT64)
    assert only[1] is None and only[2] is None
    strided = t(np.array([5, 9, 5, 9, 6], "int32"))[::2]
    assert C.unique_consecutive(strided, False, True, [], D.INT64)[2].numpy().tolist() == [2, 1]
    with pytest.raises(InvalidArgumentError, match="dtype"):
        C.unique_consecutive(t([1.0]), True, True, [], D.FLOAT32)
    with pytest.raises(InvalidArgumentError, match="axis"):
        C.unique_consecutive(t(np.ones((2, 2))), True, True, [2], D.INT64)
    with pytest.raises(InvalidArgumentError, match="axis"):
        C.unique_consecutive(t(1.0), True, True, [0], D.INT64)


def test_paddle_unique_consecutive_returns_what_was_asked() -> None:
    x = t(np.array([1, 1, 2, 2, 3, 1], "int64"))
    assert phiops.unique_consecutive(x).numpy().tolist() == [1, 2, 3, 1]
    out, inverse, counts = x.unique_consecutive(True, True, dtype="int32")
    assert inverse.numpy().tolist() == [0, 0, 1, 1, 2, 3] and counts.dtype == D.INT32
    out, counts = phiops.unique_consecutive(x, return_counts=True)
    assert counts.numpy().tolist() == [2, 2, 1, 1]
    with pytest.raises(InvalidArgumentError, match="axis"):
        phiops.unique_consecutive(x, axis=[0])


# -- index_add ----------------------------------------------------------------------------------


def index_add_reference(x: np.ndarray, index: np.ndarray, value: np.ndarray, axis: int):
    out = np.moveaxis(x.copy(), axis, 0)
    moved = np.moveaxis(value, axis, 0)
    for i, position in enumerate(index):
        out[position] += moved[i]
    return np.moveaxis(out, 0, axis)


@op_test("index_add", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("index_add"), ids=lambda d: d.name.lower())
def test_index_add_matches_numpy(dtype: DataType) -> None:
    x = whole((3, 4), dtype, 1)
    for axis, index in ((0, [2, 0, 2]), (1, [3, -1]), (-2, [1])):
        shape = list(x.shape)
        shape[axis] = len(index)
        value = whole(tuple(shape), dtype, 2)
        for index_dtype in ("int32", "int64"):
            got = C.index_add(t(x), t(index, index_dtype), t(value), axis)
            assert got.dtype == dtype
            want = index_add_reference(x, np.array(index) % x.shape[axis], value, axis)
            np.testing.assert_array_equal(got.numpy(), want)


@op_test("index_add", kind="edge")
def test_index_add_edges() -> None:
    x = np.arange(6.0).reshape(2, 3)
    empty = C.index_add(t(x), t(np.zeros(0, "int64")), t(np.zeros((0, 3))), 0)
    np.testing.assert_array_equal(empty.numpy(), x)
    strided = t(np.arange(12.0).reshape(2, 6))[:, ::2]
    got = C.index_add(strided, t([0, 0]), t(np.ones((2, 2))), 1)
    np.testing.assert_array_equal(got.numpy()[:, 0], [2.0, 8.0])
    with pytest.raises(InvalidArgumentError, match="index"):
        C.index_add(t(x), t([2]), t(np.ones((1, 3))), 0)
    with pytest.raises(InvalidArgumentError, match="index"):
        C.index_add(t(x), t([[0]]), t(np.ones((1, 3))), 0)
    with pytest.raises(InvalidArgumentError, match="index"):
        C.index_add(t(x), t([0.0]), t(np.ones((1, 3))), 0)
    with pytest.raises(InvalidArgumentError, match="add_value"):
        C.index_add(t(x), t([0]), t(np.ones((1, 2))), 0)
    with pytest.raises(InvalidArgumentError, match="add_value"):
        C.index_add(t(x), t([0, 1]), t(np.ones((1, 3))), 0)
    with pytest.raises(InvalidArgumentError, match="add_value"):
        C.index_add(t(x), t([0]), t(np.ones((1, 3), "float32")), 0)
    with pytest.raises(InvalidArgumentError, match="axis"):
        C.index_add(t(x), t([0]), t(np.ones((1, 3))), 2)
    with pytest.raises(InvalidArgumentError, match="x"):
        C.index_add(t(1.0), t([0]), t(1.0), 0)


def test_index_add_grad_gathers_the_added_slices() -> None:
    out_grad = np.arange(12.0).reshape(3, 4)
    x_grad, value_grad = B.index_add_grad(t([2, -3]), t(np.zeros((2, 4))), t(out_grad), 0)
    np.testing.assert_array_equal(x_grad.numpy(), out_grad)
    np.testing.assert_array_equal(value_grad.numpy(), out_grad[[2, 0]])


def test_paddle_index_add_scales_by_alpha() -> None:
    x = np.ones((2, 3))
    got = phiops.index_add(t(x), t([1]), 0, t(np.full((1, 3), 2.0)), alpha=3)
    np.testing.assert_array_equal(got.numpy(), [[1, 1, 1], [7, 7, 7]])
    target = t(x.copy())
    assert target.index_add_(t([0]), 1, t(np.ones((2, 1)))) is target
    np.testing.assert_array_equal(target.numpy()[:, 0], [2.0, 2.0])
    out = t(np.zeros((2, 3)))
    phiops.index_add(t(x), t([0]), 0, t(np.ones((1, 3))), out=out)
    np.testing.assert_array_equal(out.numpy()[0], [2, 2, 2])


# -- expand_as ----------------------------------------------------------------------------------


@op_test("expand_as", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("expand_as"), ids=lambda d: d.name.lower())
def test_expand_as_matches_numpy(dtype: DataType) -> None:
    x = whole((3, 1), dtype, 3)
    y = t(np.zeros((2, 3, 4), dtype.numpy_dtype))
    got = C.expand_as(t(x), y, [])
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.numpy(), np.broadcast_to(x, (2, 3, 4)))
    np.testing.assert_array_equal(
        C.expand_as(t(x), None, [3, 5]).numpy(), np.broadcast_to(x, (3, 5))
    )


@op_test("expand_as", kind="edge")
def test_expand_as_edges() -> None:
    assert C.expand_as(t(2.5), t(np.zeros((2, 3))), []).numpy().tolist() == [[2.5] * 3] * 2
    assert C.expand_as(t(np.ones((1, 2))), t(np.zeros((0, 2))), []).shape == [0, 2]
    # y's shape wins over target_shape, as in PaddlePaddle 3.3.1
    assert C.expand_as(t([1.0, 2.0]), t(np.zeros((3, 2))), [4, 2]).shape == [3, 2]
    strided = t(np.arange(6.0))[::2]
    np.testing.assert_array_equal(
        C.expand_as(strided, None, [2, 3]).numpy(), [[0, 2, 4], [0, 2, 4]]
    )
    with pytest.raises(InvalidArgumentError, match="x"):
        C.expand_as(t(np.ones(2)), t(np.zeros((2, 3))), [])
    with pytest.raises(InvalidArgumentError, match="rank"):
        C.expand_as(t(np.ones((2, 3))), t(np.zeros(3)), [])
    with pytest.raises(InvalidArgumentError, match="target_shape"):
        C.expand_as(t(np.ones(3)), None, [])
    with pytest.raises(InvalidArgumentError, match="target_shape"):
        C.expand_as(t(np.ones(3)), None, [-1, 3])


def test_expand_as_grad_sums_the_broadcast_axes() -> None:
    out_grad = np.arange(24.0).reshape(2, 3, 4)
    got = B.expand_as_grad(t(np.zeros((3, 1))), t(out_grad), [2, 3, 4])
    np.testing.assert_array_equal(got.numpy(), out_grad.sum(axis=(0, 2)).reshape(3, 1))


# -- multiplex ----------------------------------------------------------------------------------


@op_test("multiplex", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("multiplex"), ids=lambda d: d.name.lower())
def test_multiplex_matches_numpy(dtype: DataType) -> None:
    candidates = [whole((4, 3), dtype, seed) for seed in (4, 5, 6)]
    rows = np.array([[2], [0], [1], [2]])
    for index_dtype in ("int32", "int64"):
        got = C.multiplex([t(c) for c in candidates], t(rows, index_dtype))
        assert got.dtype == dtype
        want = np.stack([candidates[k][i] for i, k in enumerate(rows[:, 0])])
        np.testing.assert_array_equal(got.numpy(), want)


@op_test("multiplex", kind="edge")
def test_multiplex_edges() -> None:
    a, b = np.arange(12.0).reshape(3, 2, 2), -np.arange(12.0).reshape(3, 2, 2)
    fewer = C.multiplex([t(a), t(b)], t([[1], [0]], "int32"))
    np.testing.assert_array_equal(fewer.numpy(), np.stack([b[0], a[1]]))
    none = C.multiplex([t(a), t(b)], t(np.zeros((0, 1), "int32")))
    assert none.shape == [0, 2, 2]
    strided = t(np.arange(8.0).reshape(4, 2))[::2]
    got = C.multiplex([strided, t(np.zeros((2, 2)))], t([[0], [1]], "int32"))
    np.testing.assert_array_equal(got.numpy(), [[0, 1], [0, 0]])
    two = [t(np.ones((2, 3))), t(np.zeros((2, 3)))]
    with pytest.raises(InvalidArgumentError, match="index"):
        C.multiplex(two, t([[2], [0]], "int32"))
    with pytest.raises(InvalidArgumentError, match="index"):
        C.multiplex(two, t([[-1], [0]], "int32"))
    with pytest.raises(InvalidArgumentError, match="index"):
        C.multiplex(two, t([1, 0], "int32"))
    with pytest.raises(InvalidArgumentError, match="index"):
        C.multiplex(two, t([[1], [0], [1]], "int32"))
    with pytest.raises(InvalidArgumentError, match="index"):
        C.multiplex(two, t([[1.0], [0.0]]))
    with pytest.raises(InvalidArgumentError, match="inputs"):
        C.multiplex(two[:1], t([[0], [0]], "int32"))
    with pytest.raises(InvalidArgumentError, match="inputs"):
        C.multiplex([t(np.ones(2)), t(np.zeros(2))], t([[1], [0]], "int32"))
    with pytest.raises(InvalidArgumentError, match="inputs"):
        C.multiplex([two[0], t(np.zeros((2, 4)))], t([[1], [0]], "int32"))


def test_multiplex_grad_routes_each_row_to_its_candidate() -> None:
    out_grad = np.arange(6.0).reshape(3, 2)
    grads = B.multiplex_grad(
        [t(np.zeros((3, 2))), t(np.zeros((3, 2)))], t([[1], [0], [1]], "int32"), t(out_grad)
    )
    np.testing.assert_array_equal(grads[0].numpy(), [[0, 0], [2, 3], [0, 0]])
    np.testing.assert_array_equal(grads[1].numpy(), [[0, 1], [0, 0], [4, 5]])


# -- broadcast_tensors --------------------------------------------------------------------------


@op_test("broadcast_tensors", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("broadcast_tensors"), ids=lambda d: d.name.lower())
def test_broadcast_tensors_matches_numpy(dtype: DataType) -> None:
    arrays = [whole((2, 1, 3), dtype, 7), whole((4, 1), dtype, 8), whole((), dtype, 9)]
    got = C.broadcast_tensors([t(a) for a in arrays])
    for mine, want in zip(got, np.broadcast_arrays(*arrays)):
        assert mine.dtype == dtype
        np.testing.assert_array_equal(mine.numpy(), want)


@op_test("broadcast_tensors", kind="edge")
def test_broadcast_tensors_edges() -> None:
    (single,) = C.broadcast_tensors([t(np.ones((2, 3)))])
    assert single.shape == [2, 3]
    assert [o.shape for o in C.broadcast_tensors([t(1.0), t(np.ones((0, 1)))])] == [[0, 1]] * 2
    strided = t(np.arange(6.0))[::2]
    got = C.broadcast_tensors([strided, t(np.zeros((2, 1)))])
    np.testing.assert_array_equal(got[0].numpy(), [[0, 2, 4], [0, 2, 4]])
    with pytest.raises(InvalidArgumentError, match="input"):
        C.broadcast_tensors([t(np.ones((2, 3))), t(np.ones(2))])
    with pytest.raises(InvalidArgumentError, match="dtype"):
        C.broadcast_tensors([t(np.ones(3)), t(np.ones(3, "int32"))])
    with pytest.raises(InvalidArgumentError, match="input"):
        C.broadcast_tensors([])


def test_broadcast_tensors_grad_sums_the_broadcast_axes() -> None:
    grads = B.broadcast_tensors_grad(
        [t(np.zeros((2, 1))), t(np.zeros(3))], [t(np.ones((2, 3))), t(np.ones((2, 3)) * 2)]
    )
    np.testing.assert_array_equal(grads[0].numpy(), [[3.0], [3.0]])
    np.testing.assert_array_equal(grads[1].numpy(), [4.0, 4.0, 4.0])


# -- tril_indices, triu_indices -----------------------------------------------------------------


@op_test("tril_indices", "triu_indices", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("tril_indices"), ids=lambda d: d.name.lower())
def test_tril_triu_indices_match_numpy(dtype: DataType) -> None:
    for rows, cols, offset in ((4, 3, 0), (3, 5, 1), (5, 5, -2), (2, 6, 3)):
        lower = C.tril_indices(rows, cols, offset, dtype)
        assert lower.dtype == dtype
        np.testing.assert_array_equal(lower.numpy(), np.tril_indices(rows, offset, cols))
        upper = C.triu_indices(rows, cols, offset, dtype)
        assert upper.dtype == dtype
        np.testing.assert_array_equal(upper.numpy(), np.triu_indices(rows, offset, cols))


@op_test("tril_indices", "triu_indices", kind="edge")
def test_tril_triu_indices_edges() -> None:
    assert C.tril_indices(0, 4, 0, D.INT64).shape == [2, 0]
    assert C.tril_indices(-1, 4, 0, D.INT64).shape == [2, 0]  # as PaddlePaddle 3.3.1
    assert C.tril_indices(3, 4, -5, D.INT64).shape == [2, 0]
    assert C.tril_indices(3, 4, 9, D.INT64).shape == [2, 12]
    assert C.triu_indices(3, 4, 9, D.INT32).shape == [2, 0]
    assert C.triu_indices(3, 4, -9, D.INT32).shape == [2, 12]
    # no float kernel, as in PaddlePaddle 3.3.1 (NotFound there too)
    with pytest.raises(NotFoundError, match="tril_indices"):
        C.tril_indices(3, 3, 0, D.FLOAT32)
    with pytest.raises(NotFoundError, match="triu_indices"):
        C.triu_indices(3, 3, 0, D.FLOAT32)


def test_paddle_tril_triu_indices() -> None:
    np.testing.assert_array_equal(phiops.tril_indices(3, 3).numpy(), np.tril_indices(3))
    upper = phiops.triu_indices(3, None, 1, "int32")
    assert upper.dtype == D.INT32
    np.testing.assert_array_equal(upper.numpy(), np.triu_indices(3, 1))
    with pytest.raises(InvalidArgumentError, match="row"):
        phiops.tril_indices(-1, 3)
    with pytest.raises(InvalidArgumentError, match="col"):
        phiops.triu_indices(3, 2.5)


# -- fill_diagonal ------------------------------------------------------------------------------


def fill_diagonal_reference(x: np.ndarray, value: float, offset: int, wrap: bool) -> np.ndarray:
    """A 2-D x's diagonal by (row, column) pairs; wrapped blocks start dims[1] + 1 rows on."""
    out = x.copy()
    rows, cols = x.shape
    for row in range(rows):
        block, within = divmod(row, cols + 1)
        if block and not wrap:
            break
        column = within + offset
        if within < cols and 0 <= column < cols:
            out[row, column] = value
    return out


@op_test("fill_diagonal", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fill_diagonal"), ids=lambda d: d.name.lower())
def test_fill_diagonal_matches_numpy(dtype: DataType) -> None:
    for shape, offset, wrap in (((3, 4), 0, False), ((3, 4), 1, False), ((4, 3), -1, False)):
        x = whole(shape, dtype, 10)
        got = C.fill_diagonal(t(x), 3.0, offset, wrap)
        assert got.dtype == dtype
        want = fill_diagonal_reference(x, np.asarray(3.0).astype(x.dtype), offset, wrap)
        np.testing.assert_array_equal(got.numpy(), want)
    tall = whole((7, 3), dtype, 11)
    np.testing.assert_array_equal(
        C.fill_diagonal(t(tall), 1.0, 0, True).numpy(),
        fill_diagonal_reference(tall, np.asarray(1.0).astype(tall.dtype), 0, True),
    )


@op_test("fill_diagonal", kind="edge")
def test_fill_diagonal_edges() -> None:
    # an integer x truncates the value; a cube gets its diagonal, other 3-D shapes PHI's walk
    assert np.diag(C.fill_diagonal(t(np.zeros((3, 3), "int32")), 2.7, 0, False).numpy()).tolist() == [2, 2, 2]
    cube = C.fill_diagonal(t(np.zeros((2, 2, 2))), 5.0, 0, False).numpy()
    assert cube[0, 0, 0] == 5.0 and cube.sum() == 5.0  # as PaddlePaddle 3.3.1
    cube = C.fill_diagonal(t(np.zeros((2, 2, 2))), 5.0, 0, True).numpy()
    assert cube[0, 0, 0] == cube[1, 1, 1] == 5.0 and cube.sum() == 10.0
    assert C.fill_diagonal(t(np.zeros((0, 3))), 1.0, 0, False).shape == [0, 3]
    strided = t(np.zeros((4, 3)))[::2]
    np.testing.assert_array_equal(
        C.fill_diagonal(strided, 1.0, 0, False).numpy(), [[1, 0, 0], [0, 1, 0]]
    )
    with pytest.raises(InvalidArgumentError, match="x"):
        C.fill_diagonal(t(np.zeros(3)), 1.0, 0, False)


def test_fill_diagonal_grad_zeroes_the_written_positions() -> None:
    got = B.fill_diagonal_grad(t(np.full((3, 4), 2.0)), 5.0, 1, False)
    np.testing.assert_array_equal(got.numpy(), fill_diagonal_reference(np.full((3, 4), 2.0), 0.0, 1, False))


def test_tensor_fill_diagonal_writes_in_place() -> None:
    x = t(np.zeros((3, 3)))
    assert x.fill_diagonal_(4.0, offset=-1) is x
    np.testing.assert_array_equal(x.numpy(), np.diag([4.0, 4.0], -1))


# -- fill_diagonal_tensor -----------------------------------------------------------------------


def fill_diagonal_tensor_reference(x, y, offset, dim1, dim2):
    out = np.moveaxis(x.copy(), (dim1, dim2), (-2, -1))
    rows, cols = out.shape[-2:]
    k = 0
    for i in range(rows):
        j = i + offset
        if 0 <= j < cols:
            out[..., i, j] = y[..., k]
            k += 1
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


@op_test("fill_diagonal_tensor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fill_diagonal_tensor"), ids=lambda d: d.name.lower())
def test_fill_diagonal_tensor_matches_numpy(dtype: DataType) -> None:
    x = whole((2, 3, 4), dtype, 12)
    for offset, dim1, dim2, y_shape in ((0, 1, 2, (2, 3)), (1, 2, 0, (3, 1)), (-1, 2, 1, (2, 3))):
        y = whole(y_shape, dtype, 13)
        got = C.fill_diagonal_tensor(t(x), t(y), offset, dim1, dim2)
        assert got.dtype == dtype
        np.testing.assert_array_equal(
            got.numpy(), fill_diagonal_tensor_reference(x, y, offset, dim1, dim2)
        )


@op_test("fill_diagonal_tensor", kind="edge")
def test_fill_diagonal_tensor_edges() -> None:
    x = np.zeros((3, 4))
    got = C.fill_diagonal_tensor(t(x), t([1.0, 2.0, 3.0]), -1, 1, -2)  # negative dims count from the end
    np.testing.assert_array_equal(got.numpy(), fill_diagonal_tensor_reference(x, np.array([1.0, 2.0, 3.0]), -1, 1, 0))
    assert C.fill_diagonal_tensor(t(x), t(np.zeros(0)), 9, 0, 1).shape == [3, 4]
    strided = t(np.zeros((6, 3)))[::2]
    np.testing.assert_array_equal(
        C.fill_diagonal_tensor(strided, t([1.0, 2.0, 3.0]), 0, 0, 1).numpy(), np.diag([1.0, 2.0, 3.0])
    )
    with pytest.raises(InvalidArgumentError, match="'y'"):
        C.fill_diagonal_tensor(t(x), t([1.0, 2.0]), 0, 0, 1)
    with pytest.raises(InvalidArgumentError, match="'y'"):
        C.fill_diagonal_tensor(t(x), t(np.ones(3, "int64")), 0, 0, 1)
    with pytest.raises(InvalidArgumentError, match="dim"):
        C.fill_diagonal_tensor(t(x), t([1.0, 2.0, 3.0]), 0, 0, 0)
    with pytest.raises(InvalidArgumentError, match="dim2"):
        C.fill_diagonal_tensor(t(x), t([1.0, 2.0, 3.0]), 0, 0, 2)
    with pytest.raises(InvalidArgumentError, match="x"):
        C.fill_diagonal_tensor(t(np.zeros(3)), t([1.0]), 0, 0, 1)


def test_fill_diagonal_tensor_grad_zeroes_the_diagonal_and_skips_y() -> None:
    got = B.fill_diagonal_tensor_grad(t(np.full((3, 4), 2.0)), 1, 0, 1)
    want = np.full((3, 4), 2.0)
    want[[0, 1, 2], [1, 2, 3]] = 0
    np.testing.assert_array_equal(got.numpy(), want)
    x = phi.to_tensor(np.zeros((2, 2)), stop_gradient=False)
    y = phi.to_tensor(np.ones(2), stop_gradient=False)
    grads = phiops.grad([C.fill_diagonal_tensor(x, y, 0, 0, 1)], [x, y], allow_unused=True)
    assert grads[1] is None


def test_tensor_fill_diagonal_tensor_methods() -> None:
    z = t(np.zeros((3, 3)))
    np.testing.assert_array_equal(z.fill_diagonal_tensor(t(np.ones(3))).numpy(), np.eye(3))
    assert z.fill_diagonal_tensor_(t(np.ones(2)), offset=-1) is z
    np.testing.assert_array_equal(z.numpy(), np.eye(3, k=-1))


# -- numel --------------------------------------------------------------------------------------


@op_test("numel", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("numel"), ids=lambda d: d.name.lower())
def test_numel_counts_every_dtype(dtype: DataType) -> None:
    x = phi.to_tensor(np.zeros((2, 3, 4), np.float32)).astype(dtype) if dtype == D.BFLOAT16 else t(
        np.zeros((2, 3, 4), dtype.numpy_dtype)
    )
    size = C.numel(x)
    assert size.dtype == D.INT64 and size.shape == [] and int(size.numpy()) == 24


@op_test("numel", kind="edge")
def test_numel_edges() -> None:
    assert int(C.numel(t(2.0)).numpy()) == 1
    assert int(C.numel(t(np.zeros((0, 3)))).numpy()) == 0
    assert int(C.numel(t(np.zeros((4, 6)))[::2, 1:]).numpy()) == 10


# -- bitwise_left_shift, bitwise_right_shift ----------------------------------------------------


def shift_reference(x: np.ndarray, y: np.ndarray, left: bool, arithmetic: bool) -> np.ndarray:
    """PHI's functors element by element, in Python integers."""
    bits = x.dtype.itemsize * 8
    x, y = np.broadcast_arrays(x, y)
    out = []
    for a, b in zip(x.reshape(-1).tolist(), y.reshape(-1).tolist()):
        if b < 0 or b >= bits:
            out.append(-1 if (not left and arithmetic and a < 0) else 0)
        elif left:
            out.append(a << b)
        elif arithmetic or x.dtype.kind == "u":
            out.append(a >> b)
        else:
            out.append((a % (1 << bits)) >> b)
    wrapped = [v % (1 << bits) for v in out]  # C's wrap-around, then the sign back
    if x.dtype.kind == "i":
        wrapped = [v - (1 << bits) if v >= 1 << (bits - 1) else v for v in wrapped]
    return np.array(wrapped, dtype=x.dtype).reshape(x.shape)


@op_test("bitwise_left_shift", "bitwise_right_shift", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("bitwise_left_shift"), ids=lambda d: d.name.lower())
def test_bitwise_shifts_match_numpy(dtype: DataType) -> None:
    bits = dtype.numpy_dtype.itemsize * 8
    values = [-7, -1, 5, 100, 3, -128, 1, 0] if dtype != D.UINT8 else [7, 255, 5, 100, 3, 128, 1, 0]
    x = np.array(values).astype(dtype.numpy_dtype).reshape(2, 4)
    y = np.array([1, 3, 0, 7, bits - 1, 2, bits, -1 if dtype != D.UINT8 else 200])
    y = y.astype(dtype.numpy_dtype).reshape(2, 4)
    for arithmetic in (True, False):
        left = C.bitwise_left_shift(t(x), t(y), arithmetic)
        assert left.dtype == dtype
        np.testing.assert_array_equal(left.numpy(), shift_reference(x, y, True, arithmetic))
        right = C.bitwise_right_shift(t(x), t(y), arithmetic)
        np.testing.assert_array_equal(right.numpy(), shift_reference(x, y, False, arithmetic))


@op_test("bitwise_left_shift", "bitwise_right_shift", kind="edge")
def test_bitwise_shift_edges() -> None:
    column, row = np.array([[1], [-2]], "int64"), np.array([1, 2, 63], "int64")
    np.testing.assert_array_equal(
        C.bitwise_left_shift(t(column), t(row), True).numpy(), shift_reference(column, row, True, True)
    )
    assert C.bitwise_right_shift(t(np.int32(-9)), t(np.int32(40)), True).numpy() == -1
    assert C.bitwise_right_shift(t(np.int32(-9)), t(np.int32(31)), False).numpy() == 1
    assert C.bitwise_left_shift(t(np.zeros(0, "int8")), t(np.int8(1)), True).shape == [0]
    with pytest.raises(InvalidArgumentError, match="'y'"):
        C.bitwise_left_shift(t(np.ones(2, "int64")), t(np.ones(2, "int32")), True)
    with pytest.raises(InvalidArgumentError, match="y"):
        C.bitwise_right_shift(t(np.ones(2, "int64")), t(np.ones(3, "int64")), True)


def test_paddle_bitwise_shifts_write_out() -> None:
    x, y = t(np.array([1, 8], "int32")), t(np.array([2, 1], "int32"))
    assert phiops.bitwise_left_shift(x, y).numpy().tolist() == [4, 16]
    out = t(np.zeros(2, "int32"))
    assert phiops.bitwise_right_shift(x, y, False, out) is out
    assert out.numpy().tolist() == [0, 4]
    assert x.bitwise_left_shift(y, is_arithmetic=False).numpy().tolist() == [4, 16]
