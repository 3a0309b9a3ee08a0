"""Linear-algebra ops (bmm, mv, dot, kron, cross, trace, diagonal, diag_embed,
inverse, cholesky): every registered dtype against numpy in
float64 (complex128), the registrations against PaddlePaddle 3.3.1's, shapes (0-D, empty,
ranks that differ, negative axes, non-contiguous inputs) and bad input. The edge behaviours
written here are PaddlePaddle 3.3.1's (tests/ops/test_linalg_paddle.py compares recorded
results and gradients)."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
TABLE = paddle_data()["kernels"]


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def np_cross(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
    return np.cross(x, y, axisa=axis, axisb=axis, axisc=axis)


# op -> (input shapes, attributes, float64 reference)
OPS: dict[str, tuple[tuple[tuple[int, ...], ...], tuple, Callable[..., np.ndarray]]] = {
    "bmm": (((2, 3, 4), (2, 4, 5)), (), np.matmul),
    "mv": (((3, 4), (4,)), (), np.matmul),
    "dot": (((3, 5), (3, 5)), (), lambda x, y: (x * y).sum(-1)),
    "kron": (((2, 3), (3, 1, 2)), (), np.kron),
    "cross": (((4, 3, 2), (4, 3, 2)), (9,), lambda x, y: np_cross(x, y, 1)),
    "trace": (((3, 4, 5),), (1, -1, 0), lambda x: np.trace(x, 1, 2, 0)),
    "diagonal": (((3, 4, 5),), (-1, 2, 0), lambda x: np.diagonal(x, -1, 2, 0)),
    "diag_embed": (((2, 3),), (1, 0, 2), lambda x: diag_embed_reference(x, 1, 0, 2)),
    "inverse": (((2, 3, 3),), (), np.linalg.inv),
    "cholesky": (((2, 3, 3),), (False,), np.linalg.cholesky),
}
# inputs made well conditioned (diagonally dominant) for the ops that invert
CONDITION = {
    "inverse": lambda a: a + 6 * np.eye(a.shape[-1], dtype=a.dtype),
    "cholesky": lambda a: spd(a),
}


def spd(a: np.ndarray) -> np.ndarray:
    """A symmetric positive-definite matrix (batch) made from ``a``."""
    return (a @ np.swapaxes(a, -1, -2) + 3 * np.eye(a.shape[-1])).astype(a.dtype)


# data movement only: compared exactly, in the input's own dtype
EXACT = {"diagonal", "diag_embed"}


def diag_embed_reference(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """Loops: out[..., i, i + offset] = x[..., i] in (batch..., rows, cols), then rows and cols
    moved to dim1 and dim2."""
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    for i in range(x.shape[-1]):
        row, col = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., row, col] = x[..., i]
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


def call(op: str, *arrays: np.ndarray, attrs: tuple | None = None):
    return getattr(phi, op)(
        *(phi.to_tensor(a) for a in arrays), *(OPS[op][1] if attrs is None else attrs)
    )


@op_test(*OPS, kind="dtypes")
@pytest.mark.parametrize("op, dtype", [(op, dtype) for op in OPS for dtype in cpu_dtypes(op)])
def test_op_matches_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    shapes, _, reference = OPS[op]
    arrays = [sample(shape, dtype, seed=seed, low=-2, high=2) for seed, shape in enumerate(shapes)]
    arrays = [CONDITION.get(op, lambda a: a)(a) for a in arrays]
    out = call(op, *arrays)
    assert out.dtype == dtype
    if op in EXACT:
        expected = reference(*arrays)
        assert out.shape == list(expected.shape)
        np.testing.assert_array_equal(out.numpy(), expected)
        return
    expected = reference(*(wide(a) for a in arrays))
    assert out.shape == list(expected.shape)
    if dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        rtol = tolerance(dtype)
        if dtype is D.FLOAT16:  # sums of products of values in [-2, 2]
            rtol = {"rtol": 4e-3, "atol": 1e-2}
        np.testing.assert_allclose(out.numpy(), expected, **rtol)


@pytest.mark.parametrize("op", sorted(OPS))
def test_registered_dtypes_are_paddles(op: str) -> None:
    numpy_lacks = {"float8_e4m3fn", "float8_e5m2"}
    for name in (op, f"{op}_grad") if f"{op}_grad" in TABLE else (op,):
        assert {d.name.lower() for d in cpu_dtypes(name)} == set(TABLE[name]) - numpy_lacks, name


# -- shapes -------------------------------------------------------------------------------------


@op_test(*OPS, kind="edge")
def test_empty_operands_give_empty_or_zero_results() -> None:
    f64 = np.float64
    assert call("bmm", np.ones((0, 2, 3)), np.ones((0, 3, 2))).shape == [0, 2, 2]
    # PaddlePaddle 3.3.1 leaves memory uninitialised for K = 0; phiops gives the sum of nothing
    np.testing.assert_array_equal(call("bmm", np.ones((2, 2, 0)), np.ones((2, 0, 3))).numpy(), 0)
    assert call("mv", np.ones((0, 3)), np.ones(3)).shape == [0]
    empty_dot = call("dot", np.ones(0, f64), np.ones(0, f64))
    assert empty_dot.shape == [] and empty_dot.numpy() == 0
    assert call("kron", np.ones((0, 2)), np.ones((3, 2))).shape == [0, 4]
    assert call("cross", np.ones((0, 3)), np.ones((0, 3)), attrs=(1,)).shape == [0, 3]
    np.testing.assert_array_equal(
        call("trace", np.ones((2, 0, 3)), attrs=(0, 1, 2)).numpy(), [0, 0]
    )
    assert call("diagonal", np.ones((2, 0, 3)), attrs=(0, 1, 2)).shape == [2, 0]
    assert call("diag_embed", np.ones((2, 0)), attrs=(0, -2, -1)).shape == [2, 0, 0]
    # a diagonal beyond the matrices is empty (PaddlePaddle 3.3.1: [2, 0])
    assert call("diagonal", np.ones((2, 3, 4)), attrs=(7, 1, 2)).shape == [2, 0]


@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("axes", [(0, 1), (2, 0), (-1, -3), (1, -1)])
def test_diagonal_offsets_and_axes(offset: int, axes: tuple[int, int]) -> None:
    x = np.arange(60.0).reshape(3, 4, 5)
    out = call("diagonal", x, attrs=(offset, *axes))
    np.testing.assert_array_equal(out.numpy(), np.diagonal(x, offset, *axes))


@pytest.mark.parametrize("offset", [-2, 0, 1])
@pytest.mark.parametrize("dims", [(-2, -1), (0, 2), (2, 0), (-1, 1), (1, -3)])
def test_diag_embed_offsets_and_dims(offset: int, dims: tuple[int, int]) -> None:
    x = np.arange(1.0, 7.0).reshape(2, 3)
    out = call("diag_embed", x, attrs=(offset, *dims))
    np.testing.assert_array_equal(out.numpy(), diag_embed_reference(x, offset, *dims))


def test_diag_embed_values_are_paddles() -> None:
    # PaddlePaddle 3.3.1: diag_embed(arange(6).reshape(2, 3), -2, 2, 0) has dims [5, 2, 5] and
    # starts 0 0 0 0 0 0 0 3
    out = call("diag_embed", np.arange(6.0).reshape(2, 3), attrs=(-2, 2, 0))
    assert out.shape == [5, 2, 5]
    np.testing.assert_array_equal(out.numpy().ravel()[:8], [0, 0, 0, 0, 0, 0, 0, 3])


def test_diag_embed_is_not_differentiable() -> None:
    x = phi.to_tensor(np.arange(3.0), stop_gradient=False)
    assert phi.diag_embed(x).stop_gradient


def test_kron_pads_the_lower_rank_and_takes_0d() -> None:
    x, y = np.arange(1.0, 3.0), np.arange(6.0).reshape(3, 2)
    out = call("kron", x, y)
    assert out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), np.kron(x, y))
    scalar = call("kron", np.array(2.0), y)
    assert scalar.shape == [3, 2]
    np.testing.assert_array_equal(scalar.numpy(), 2 * y)


def test_cross_default_axis_is_the_first_of_extent_3_and_axes_may_be_negative() -> None:
    x, y = sample((3, 3), D.FLOAT64, seed=1), sample((3, 3), D.FLOAT64, seed=2)
    np.testing.assert_allclose(call("cross", x, y).numpy(), np_cross(x, y, 0))
    np.testing.assert_allclose(call("cross", x, y, attrs=(-1,)).numpy(), np_cross(x, y, 1))
    # PaddlePaddle 3.3.1: cross([1, 2, 3], [4, 5, 6]) = [-3, 6, -3]
    np.testing.assert_array_equal(
        call("cross", np.array([1.0, 2, 3]), np.array([4.0, 5, 6])).numpy(), [-3, 6, -3]
    )


def test_dot_of_rows_and_integers() -> None:
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    out = call("dot", x, x)
    assert out.dtype == D.INT64 and out.shape == [2]
    np.testing.assert_array_equal(out.numpy(), [5, 50])


@pytest.mark.parametrize("offset", [-3, -1, 0, 2, 5])
def test_trace_offsets_and_negative_axes(offset: int) -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(
        call("trace", x, attrs=(offset, -1, 0)).numpy(), np.trace(x, offset, 2, 0)
    )
    # PaddlePaddle 3.3.1: trace(arange(24).reshape(2, 3, 4), -1, -1, 0) = [15, 23, 31]
    np.testing.assert_array_equal(call("trace", x, attrs=(-1, -1, 0)).numpy(), [15, 23, 31])


def test_non_contiguous_operands() -> None:
    base = sample((4, 6, 8), D.FLOAT64, seed=3)
    x = base[:, ::2, 1::2]  # [4, 3, 4], strided
    y = np.swapaxes(base[:, :4, :3], 1, 2)  # [4, 3, 4] transposed view... as [B, K, N] below
    np.testing.assert_allclose(
        call("bmm", x, np.swapaxes(x, 1, 2)).numpy(), x @ np.swapaxes(x, 1, 2)
    )
    np.testing.assert_allclose(call("mv", x[0].T, x[1, :, 0]).numpy(), x[0].T @ x[1, :, 0])
    np.testing.assert_allclose(call("dot", x[0].T, x[1].T).numpy(), (x[0] * x[1]).sum(0))
    np.testing.assert_allclose(call("kron", x[0].T, y[0]).numpy(), np.kron(x[0].T, y[0]))
    np.testing.assert_allclose(
        call("cross", x, y, attrs=(1,)).numpy(), np_cross(x, y, 1), rtol=1e-12
    )
    np.testing.assert_allclose(call("trace", x.T, attrs=(0, 0, 2)).numpy(), np.trace(x.T, 0, 0, 2))
    np.testing.assert_array_equal(
        call("diagonal", x.T, attrs=(1, 0, 2)).numpy(), np.diagonal(x.T, 1, 0, 2)
    )
    np.testing.assert_array_equal(
        call("diag_embed", x[0].T, attrs=(0, -2, -1)).numpy(),
        diag_embed_reference(x[0].T, 0, -2, -1),
    )


def test_nan_and_inf_propagate() -> None:
    x = np.array([[np.nan, 1.0], [np.inf, 2.0]])
    np.testing.assert_array_equal(call("mv", x, np.array([1.0, 1.0])).numpy(), [np.nan, np.inf])
    np.testing.assert_array_equal(call("trace", x, attrs=(0, 0, 1)).numpy(), np.nan)
    np.testing.assert_array_equal(call("trace", x, attrs=(-1, 0, 1)).numpy(), np.inf)


# -- bad input ----------------------------------------------------------------------------------

BAD = [
    ("bmm", ((3, 4), (4, 5)), (), "argument 'x' must have 3 dimensions"),
    ("bmm", ((2, 3, 4), (3, 4, 5)), (), "argument 'y' .* batch size"),
    ("bmm", ((2, 3, 4), (2, 5, 5)), (), "argument 'y' .* rows"),
    ("mv", ((2, 3, 4), (4,)), (), "argument 'x' must have 2 dimensions"),
    ("mv", ((3, 4), (4, 1)), (), "argument 'vec' must have 1 dimension"),
    ("mv", ((3, 4), (5,)), (), "argument 'vec' .* columns"),
    ("dot", ((), ()), (), "argument 'x' must have 1 or 2 dimensions"),
    ("dot", ((2, 2, 3), (2, 2, 3)), (), "argument 'x' must have 1 or 2 dimensions"),
    ("dot", ((3,), (4,)), (), "argument 'y' must have the dims"),
    ("cross", ((4, 2), (4, 2)), (9,), "no dimension of extent 3"),
    ("cross", ((4, 3), (4, 3)), (0,), "extent 3 along axis 0"),
    ("cross", ((4, 3), (4, 3)), (5,), "argument 'axis' must be in"),
    ("cross", ((4, 3), (1, 3)), (9,), "argument 'y' must have the dims"),
    ("trace", ((3,),), (0, 0, 1), "argument 'x' must have at least 2 dimensions"),
    ("trace", ((2, 3, 4),), (0, 1, -2), "'axis1' .* 'axis2' .* different"),
    ("trace", ((3, 4),), (0, 0, 2), "argument 'axis2' must be in"),
    ("diagonal", ((3,),), (0, 0, 1), "argument 'x' must have at least 2 dimensions"),
    ("diagonal", ((2, 3, 4),), (0, 1, 1), "'axis1' .* 'axis2' .* different"),
    ("diagonal", ((2, 3, 4),), (0, -4, 1), "argument 'axis1' must be in"),
    ("diag_embed", ((),), (0, -2, -1), "argument 'dim1' must be in"),
    ("diag_embed", ((3,),), (0, 0, 0), "'dim1' .* 'dim2' .* different"),
    ("diag_embed", ((3,),), (0, 0, 2), "argument 'dim2' must be in"),
    ("inverse", ((3,),), (), "argument 'x' must have at least 2 dimensions"),
    ("inverse", ((2, 3),), (), "argument 'x' must hold square matrices"),
    # PaddlePaddle 3.3.1 refuses a zero LU pivot (and a NaN one, below)
    ("inverse", ((2, 2),), (), "argument 'x' holds a singular matrix"),
    ("cholesky", ((3,),), (False,), "argument 'x' must have at least 2 dimensions"),
    ("cholesky", ((2, 3),), (False,), "argument 'x' must hold square matrices"),
    # PaddlePaddle 3.3.1's Eigen LLT fails on it: not positive definite
    ("cholesky", ((2, 2),), (True,), "not positive definite"),
]


@pytest.mark.parametrize(
    "op, shapes, attrs, message", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_bad_shapes_are_named_errors(op: str, shapes, attrs: tuple, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"{op}.*{message}"):
        call(op, *(np.ones(shape) for shape in shapes), attrs=attrs)


@pytest.mark.parametrize("op", ["bmm", "mv", "dot", "kron", "cross"])
def test_operands_of_two_dtypes_are_refused_as_in_paddle(op: str) -> None:
    shapes = OPS[op][0]
    with pytest.raises(InvalidArgumentError, match="must have the dtype of argument 'x'"):
        call(op, np.ones(shapes[0], np.float32), np.ones(shapes[1], np.float64))


def test_unregistered_dtype_is_refused() -> None:
    with pytest.raises(Exception, match="trace"):
        call("trace", np.ones((2, 2), bool), attrs=(0, 0, 1))
    with pytest.raises(Exception, match="diag_embed"):  # PaddlePaddle 3.3.1 has no float16 one
        call("diag_embed", np.ones(3, np.float16), attrs=(0, -2, -1))


@op_test("inverse", kind="edge")
def test_inverse_of_empty_batches_and_nan() -> None:
    assert call("inverse", np.ones((0, 2, 2))).shape == [0, 2, 2]
    assert call("inverse", np.ones((2, 0, 0))).shape == [2, 0, 0]
    with pytest.raises(InvalidArgumentError, match="inverse.*argument 'x' holds NaN"):
        call("inverse", np.array([[np.nan, 1.0], [1.0, 1.0]]))
    x = np.array([[4.0, 7.0], [2.0, 6.0]])
    np.testing.assert_allclose(call("inverse", x).numpy(), [[0.6, -0.7], [-0.2, 0.4]], rtol=1e-14)
    strided = np.arange(1.0, 19.0).reshape(2, 3, 3).transpose(0, 2, 1) + 9 * np.eye(3)
    np.testing.assert_allclose(call("inverse", strided).numpy(), np.linalg.inv(strided), rtol=1e-12)


@op_test("cholesky", kind="edge")
def test_cholesky_upper_lower_triangle_and_empty() -> None:
    # PaddlePaddle 3.3.1: cholesky([[4, 2], [2, 3]], upper=True) = [[2, 1], [0, sqrt(2)]]
    a = np.array([[4.0, 2.0], [2.0, 3.0]])
    np.testing.assert_allclose(
        call("cholesky", a, attrs=(True,)).numpy(), [[2, 1], [0, np.sqrt(2)]], rtol=1e-15
    )
    # only the lower triangle is read: an upper one of junk changes nothing
    junk = np.array([[4.0, 100.0], [2.0, 3.0]])
    np.testing.assert_array_equal(
        call("cholesky", junk, attrs=(False,)).numpy(), call("cholesky", a, attrs=(False,)).numpy()
    )
    assert call("cholesky", np.ones((0, 2, 2)), attrs=(False,)).shape == [0, 2, 2]
    strided = spd(sample((3, 3), D.FLOAT64, seed=5)).T
    np.testing.assert_allclose(
        call("cholesky", strided, attrs=(False,)).numpy(), np.linalg.cholesky(strided), rtol=1e-12
    )
