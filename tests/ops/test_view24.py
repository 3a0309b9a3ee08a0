"""The view24 strided views (as_strided, view_shape, view_dtype, tensor_unfold,
index_select_strided) and their gradients, against numpy references: each registered dtype,
shared memory (writes seen through the view and back), edges (0-D, empty, negative axes,
non-contiguous inputs, overlapping windows) and bad arguments. PaddlePaddle 3.3.1's recorded
values are checked by tests/ops/test_view24_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops._C_ops as C
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def strided_reference(x: np.ndarray, dims, stride, offset_elements: int) -> np.ndarray:
    """The elements a strided view reads, by explicit index arithmetic."""
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(dims, dtype=x.dtype)
    for index in np.ndindex(*dims):
        out[index] = flat[offset_elements + sum(i * s for i, s in zip(index, stride))]
    return out


def windows_reference(x: np.ndarray, axis: int, size: int, step: int) -> np.ndarray:
    axis %= x.ndim
    moved = np.moveaxis(x, axis, -1)
    count = (moved.shape[-1] - size) // step + 1
    slices = np.stack([moved[..., k * step : k * step + size] for k in range(count)], axis=-2)
    return np.moveaxis(slices, -2, axis)


def _tensor(values: np.ndarray) -> paddle.Tensor:
    return paddle.to_tensor(values)


@op_test("as_strided", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("as_strided"), ids=lambda d: d.name.lower())
def test_as_strided_reads_the_strided_elements_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype, seed=1)
    item = x.itemsize
    out = C.as_strided(_tensor(x), [3, 2, 2], [5, 1, 3], 2 * item)
    assert out.dtype == dtype and out.shape == [3, 2, 2]
    np.testing.assert_array_equal(out.numpy(), strided_reference(x, (3, 2, 2), (5, 1, 3), 2))


@op_test("view_shape", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("view_shape"), ids=lambda d: d.name.lower())
def test_view_shape_reshapes_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype, seed=2)
    out = C.view_shape(_tensor(x), [4, -1])
    assert out.dtype == dtype and out.shape == [4, 6]
    np.testing.assert_array_equal(out.numpy(), x.reshape(4, 6))


@op_test("view_dtype", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("view_dtype"), ids=lambda d: d.name.lower())
def test_view_dtype_reinterprets_the_bytes_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 4), dtype, seed=3)
    for target in (D.UINT8, D.INT16, D.FLOAT32, D.INT64):
        if 4 * x.itemsize % target.numpy_dtype.itemsize:
            continue
        out = C.view_dtype(_tensor(x), target)
        want = x.view(target.numpy_dtype)
        assert out.dtype == target and out.shape == list(want.shape)
        np.testing.assert_array_equal(out.numpy().view(np.uint8), want.view(np.uint8))


@op_test("tensor_unfold", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("tensor_unfold"), ids=lambda d: d.name.lower())
def test_tensor_unfold_takes_the_windows_for_each_dtype(dtype: DataType) -> None:
    x = sample((3, 7), dtype, seed=4)
    out = C.tensor_unfold(_tensor(x), 1, 3, 2)
    assert out.dtype == dtype and out.shape == [3, 3, 3]
    np.testing.assert_array_equal(out.numpy(), windows_reference(x, 1, 3, 2))


@op_test("index_select_strided", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("index_select_strided"), ids=lambda d: d.name.lower())
def test_index_select_strided_takes_one_slice_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype, seed=5)
    out = C.index_select_strided(_tensor(x), 2, 1)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), x[:, 2, :])


@op_test("as_strided", "view_shape", "view_dtype", "tensor_unfold", "index_select_strided", kind="edge")
def test_the_views_share_the_input_buffer_both_ways() -> None:
    x = paddle.zeros([2, 6])
    views = {
        "as_strided": paddle.as_strided(x, [3, 2], [2, 1], 4),
        "view_shape": paddle.view(x, [3, 4]),
        "tensor_unfold": paddle.unfold(x, 1, 2, 2),
        "index_select_strided": C.index_select_strided(x, 0, 0),
    }
    x[0, 1] = 5.0
    assert views["as_strided"].numpy()[0, 0] == 5.0
    assert views["view_shape"].numpy()[0, 1] == 5.0
    assert views["tensor_unfold"].numpy()[0, 0, 1] == 5.0
    assert views["index_select_strided"].numpy()[1] == 5.0
    views["view_shape"][2, 3] = 7.0
    assert x.numpy()[1, 5] == 7.0
    as_bits = paddle.view(x, "int32")
    as_bits[0, 0] = 0x3F800000  # the bits of 1.0
    assert x.numpy()[0, 0] == 1.0


@op_test("as_strided", kind="edge")
def test_as_strided_edges() -> None:
    x = _tensor(np.arange(12.0))
    # 0-D view of one element, negative strides inside the input, empty view anywhere
    assert C.as_strided(x, [], [], 3 * 8).numpy() == 3.0
    np.testing.assert_array_equal(C.as_strided(x, [3], [-2], 6 * 8).numpy(), [6.0, 4.0, 2.0])
    assert C.as_strided(x, [0, 5], [100, 100], 0).shape == [0, 5]
    # overlapping windows read the same elements
    np.testing.assert_array_equal(
        C.as_strided(x, [3, 3], [1, 1], 0).numpy(), [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    )
    # a non-contiguous input is read in its logical (C) order
    t = _tensor(np.arange(6.0).reshape(2, 3)).transpose([1, 0])
    np.testing.assert_array_equal(C.as_strided(t, [6], [1], 0).numpy(), [0, 3, 1, 4, 2, 5])


@op_test("as_strided", kind="edge")
def test_as_strided_refuses_bad_arguments() -> None:
    x = _tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(InvalidArgumentError, match="'dims' and 'stride'"):
        C.as_strided(x, [2, 3], [1], 0)
    with pytest.raises(InvalidArgumentError, match="reads elements 0 to 6"):
        C.as_strided(x, [7], [1], 0)
    with pytest.raises(InvalidArgumentError, match="reads elements -1"):
        C.as_strided(x, [2], [-1], 0)
    with pytest.raises(InvalidArgumentError, match="'dims' must not be negative"):
        C.as_strided(x, [-1], [1], 0)
    with pytest.raises(InvalidArgumentError, match="'offset' must not be negative"):
        C.as_strided(x, [1], [1], -4)
    with pytest.raises(UnimplementedError, match="multiple of the element size"):
        C.as_strided(x, [1], [1], 2)


@op_test("view_shape", kind="edge")
def test_view_shape_edges_and_bad_dims() -> None:
    x = _tensor(np.arange(6.0).reshape(2, 3))
    assert C.view_shape(_tensor(np.array(4.0)), [1, 1]).shape == [1, 1]
    assert C.view_shape(_tensor(np.zeros((0, 3))), [3, 0]).shape == [3, 0]
    # a transposed input: PaddlePaddle raises, phiops copies in the logical order
    np.testing.assert_array_equal(
        C.view_shape(x.transpose([1, 0]), [6]).numpy(), np.arange(6.0).reshape(2, 3).T.ravel()
    )
    with pytest.raises(InvalidArgumentError, match="one -1"):
        C.view_shape(x, [-1, -1])
    with pytest.raises(InvalidArgumentError, match="holds 4 elements"):
        C.view_shape(x, [4])
    with pytest.raises(InvalidArgumentError, match="does not divide"):
        C.view_shape(x, [4, -1])
    with pytest.raises(InvalidArgumentError, match="beside a 0"):
        C.view_shape(x, [0, -1])
    with pytest.raises(InvalidArgumentError, match="extents >= 0"):
        C.view_shape(x, [-2, 3])


@op_test("view_dtype", kind="edge")
def test_view_dtype_edges_and_bad_dtypes() -> None:
    x = _tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    assert C.view_dtype(x, D.INT32).shape == [1, 3]
    assert C.view_dtype(_tensor(np.array(1.0, np.float32)), D.INT32).numpy() == 0x3F800000
    assert C.view_dtype(_tensor(np.zeros((2, 0), np.float32)), D.FLOAT16).shape == [2, 0]
    t = _tensor(np.arange(4, dtype=np.int32).reshape(2, 2)).transpose([1, 0])
    np.testing.assert_array_equal(
        C.view_dtype(t, D.INT16).numpy(), np.array([[0, 2], [1, 3]], np.int32).view(np.int16)
    )
    with pytest.raises(InvalidArgumentError, match=r"input.shape\[1\] \(3\) must be a multiple of 2"):
        C.view_dtype(x, D.FLOAT64)
    with pytest.raises(InvalidArgumentError, match="0-D input"):
        C.view_dtype(_tensor(np.array(1.0, np.float32)), D.UINT8)


@op_test("tensor_unfold", kind="edge")
def test_tensor_unfold_edges_and_bad_arguments() -> None:
    x = sample((2, 5), D.FLOAT64, seed=6)
    np.testing.assert_array_equal(
        C.tensor_unfold(_tensor(x), -1, 2, 3).numpy(), windows_reference(x, -1, 2, 3)
    )
    assert C.tensor_unfold(_tensor(x), 0, 0, 1).shape == [3, 5, 0]
    assert C.tensor_unfold(_tensor(np.array(3.0)), 0, 1, 1).numpy().tolist() == [3.0]
    assert C.tensor_unfold(_tensor(np.zeros((0, 2))), 1, 2, 1).shape == [0, 1, 2]
    t = _tensor(x).transpose([1, 0])
    np.testing.assert_array_equal(
        C.tensor_unfold(t, 0, 2, 2).numpy(), windows_reference(x.T, 0, 2, 2)
    )
    with pytest.raises(InvalidArgumentError, match="'axis'"):
        C.tensor_unfold(_tensor(x), 2, 1, 1)
    with pytest.raises(InvalidArgumentError, match="'size' \\(6\\) must be at most"):
        C.tensor_unfold(_tensor(x), 1, 6, 1)
    with pytest.raises(InvalidArgumentError, match="'step'"):
        C.tensor_unfold(_tensor(x), 1, 2, 0)
    with pytest.raises(InvalidArgumentError, match="'size' must not be negative"):
        C.tensor_unfold(_tensor(x), 1, -1, 1)


@op_test("index_select_strided", kind="edge")
def test_index_select_strided_edges_and_bad_arguments() -> None:
    x = sample((2, 3), D.FLOAT32, seed=7)
    np.testing.assert_array_equal(C.index_select_strided(_tensor(x), 2, -1).numpy(), x[:, 2])
    assert C.index_select_strided(_tensor(np.arange(3.0)), 1, 0).numpy() == 1.0
    assert C.index_select_strided(_tensor(np.zeros((2, 0))), 1, 0).shape == [0]
    with pytest.raises(InvalidArgumentError, match="'index' must be in \\[0, 3\\)"):
        C.index_select_strided(_tensor(x), 3, 1)
    with pytest.raises(InvalidArgumentError, match="'index'"):
        C.index_select_strided(_tensor(x), -1, 1)
    with pytest.raises(InvalidArgumentError, match="'axis'"):
        C.index_select_strided(_tensor(x), 0, 2)


def _grad(out: paddle.Tensor, x: paddle.Tensor, weights: np.ndarray) -> np.ndarray:
    (grad,) = paddle.grad(out, [x], grad_outputs=_tensor(weights))
    return grad.numpy()


def test_as_strided_grad_sums_over_overlapping_reads() -> None:
    x = _tensor(np.arange(8.0))
    x.stop_gradient = False
    weights = np.arange(1.0, 10.0).reshape(3, 3)
    want = np.zeros(8)
    for (i, j), w in np.ndenumerate(weights):
        want[1 + 2 * i + j] += w
    np.testing.assert_array_equal(_grad(C.as_strided(x, [3, 3], [2, 1], 8), x, weights), want)


def test_tensor_unfold_grad_sums_over_overlapping_windows() -> None:
    x = _tensor(np.zeros((2, 7)))
    x.stop_gradient = False
    weights = sample((2, 3, 3), D.FLOAT64, seed=8)
    want = np.zeros((2, 7))
    for k in range(3):
        want[:, 2 * k : 2 * k + 3] += weights[:, k, :]
    np.testing.assert_allclose(_grad(C.tensor_unfold(x, 1, 3, 2), x, weights), want)


def test_view_and_index_grads_put_out_grad_back() -> None:
    x = _tensor(np.zeros((2, 3), np.float32))
    x.stop_gradient = False
    w = sample((3, 2), D.FLOAT32, seed=9)
    np.testing.assert_array_equal(_grad(paddle.view(x, [3, 2]), x, w), w.reshape(2, 3))
    w16 = sample((2, 6), D.FLOAT16, seed=10)
    np.testing.assert_array_equal(
        _grad(paddle.view(x, "float16"), x, w16), w16.view(np.float32)
    )
    row = sample((3,), D.FLOAT32, seed=11)
    want = np.zeros((2, 3), np.float32)
    want[1] = row
    np.testing.assert_array_equal(_grad(C.index_select_strided(x, 1, 0), x, row), want)


def test_paddle_functions_take_paddles_arguments() -> None:
    x = _tensor(np.arange(24.0).reshape(2, 3, 4).astype(np.float32))
    assert paddle.as_strided(x, shape=[4, 6], stride=[6, 1]).shape == [4, 6]
    assert x.as_strided([2, 2], [1, 1], 4).numpy().tolist() == [[1.0, 2.0], [2.0, 3.0]]
    assert x.view(-1, 8).shape == [3, 8]
    assert x.view(size=[6, 4]).shape == [6, 4]
    assert x.view(dtype="uint8").shape == [2, 3, 16]
    assert x.view(paddle.float32) is x
    assert paddle.view_as(x, paddle.zeros([8, 3])).shape == [8, 3]
    assert x.view_as(paddle.zeros([24])).shape == [24]
    assert x.unfold(-1, 2, 2).shape == [2, 3, 2, 2]


@op_test("einsum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("einsum"), ids=lambda d: d.name.lower())
def test_einsum_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    a, b = sample((2, 3, 4), dtype, seed=20), sample((2, 4, 5), dtype, seed=21)
    out, cache, xshape = C.einsum([_tensor(a), _tensor(b)], "bij,bjk->bik")
    assert out.dtype == dtype and out.shape == [2, 3, 5]
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype in (D.FLOAT32, D.COMPLEX64) else {"rtol": 1e-12}
    np.testing.assert_allclose(out.numpy(), np.einsum("bij,bjk->bik", a, b), **tol)
    assert [t.shape for t in xshape] == [[2, 3, 4], [2, 4, 5]] and len(cache) == 2


@op_test("einsum", kind="edge")
@pytest.mark.parametrize(
    "equation, shapes, numpy_equation",
    [
        ("ii", [(3, 3)], "ii"),
        ("ii->i", [(3, 3)], "ii->i"),
        ("ij->", [(2, 3)], "ij->"),
        ("i,i", [(4,), (4,)], "i,i"),
        ("ij,jk", [(2, 3), (3, 4)], "ij,jk"),
        ("...ij,...jk->...ik", [(2, 2, 3), (3, 2)], "...ij,...jk->...ik"),
        ("ij,jk,k->i", [(2, 3), (3, 4), (4,)], "ij,jk,k->i"),
        ("Ab,bC->CA", [(2, 3), (3, 2)], "Ab,bC->CA"),
        ("ij,jk->ik", [(0, 3), (3, 2)], "ij,jk->ik"),
        ("i->i", [()], None),
    ],
)
def test_einsum_edges(equation: str, shapes: list, numpy_equation: str | None) -> None:
    arrays = [sample(s, D.FLOAT64, seed=30 + i) for i, s in enumerate(shapes)]
    if numpy_equation is None:  # a 0-D operand named by a 1-label term
        with pytest.raises(InvalidArgumentError, match="names 1 dims, x\\[0\\] has 0"):
            C.einsum([_tensor(a) for a in arrays], equation)
        return
    out = C.einsum([_tensor(a) for a in arrays], equation)[0]
    np.testing.assert_allclose(out.numpy(), np.einsum(numpy_equation, *arrays), rtol=1e-12)


@op_test("einsum", kind="edge")
def test_einsum_broadcasts_extent_one_dims_and_refuses_bad_equations() -> None:
    a, b = sample((1, 2, 3), D.FLOAT64, seed=40), sample((4, 3, 2), D.FLOAT64, seed=41)
    out = paddle.einsum("bij,bjk->bik", _tensor(a), _tensor(b))
    np.testing.assert_allclose(out.numpy(), np.broadcast_to(a, (4, 2, 3)) @ b, rtol=1e-12)
    x = _tensor(np.zeros((2, 3)))
    for equation, message in [
        ("ij,jk->ik", "2 operand terms"),
        ("ij->ik", "output label 'k' is in no operand"),
        ("ij->ii", "appears twice"),
        ("i1->i", "labels must be letters"),
        ("ij->i->j", "more than one '->'"),
    ]:
        with pytest.raises(InvalidArgumentError, match=message):
            C.einsum([x], equation)
    with pytest.raises(InvalidArgumentError, match="do not broadcast"):
        C.einsum([x, _tensor(np.zeros((2, 4)))], "ij,ij->ij")
    with pytest.raises(InvalidArgumentError, match="one dtype"):
        C.einsum([x, _tensor(np.zeros((3,), np.float32))], "ij,j->i")
    with pytest.raises(InvalidArgumentError, match="at least one operand"):
        paddle.einsum("ij")


def test_einsum_grads_are_the_contractions_with_the_other_operands() -> None:
    a, b = sample((2, 3), D.FLOAT64, seed=50), sample((3, 4), D.FLOAT64, seed=51)
    ta, tb = _tensor(a), _tensor(b)
    ta.stop_gradient = tb.stop_gradient = False
    w = sample((2, 4), D.FLOAT64, seed=52)
    ga, gb = paddle.grad(paddle.einsum("ij,jk->ik", ta, tb), [ta, tb], grad_outputs=_tensor(w))
    np.testing.assert_allclose(ga.numpy(), w @ b.T, rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), a.T @ w, rtol=1e-12)
    s = _tensor(sample((3, 3), D.FLOAT64, seed=53))
    s.stop_gradient = False
    (g,) = paddle.grad(paddle.einsum("ii->i", s), [s], grad_outputs=_tensor(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(g.numpy(), np.diag([1.0, 2.0, 3.0]))
