"""The linalg24 ops (lu, lu_unpack, eig, lstsq, matrix_rank_atol_rtol, baddbmm): every
registered dtype against numpy references (a loop-per-matrix getrf written here, np.linalg.eig's
defining equation, np.linalg.lstsq, numpy's singular values, x @ y), the
registrations against PaddlePaddle 3.3.1's, shapes (square, tall, wide, batches, empty batches,
non-contiguous inputs) and bad input. The edge values written here are PaddlePaddle 3.3.1's
(tests/ops/test_linalg24_paddle.py compares recorded results and gradients)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
TABLE = paddle_data()["kernels"]


def loose(dtype: DataType) -> dict[str, float]:
    """Factorizations lose a few digits more than elementwise ops."""
    if dtype in (D.FLOAT32, D.COMPLEX64):
        return {"rtol": 1e-4, "atol": 1e-4}
    return {"rtol": 1e-10, "atol": 1e-10}


def np_getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK getrf on one matrix, element by element: packed factors, 1-based pivots, info."""
    lu = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    m, n = lu.shape
    pivots, info = [], 0
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(lu[j:, j].real) + np.abs(lu[j:, j].imag)))
        pivots.append(p + 1)
        lu[[j, p]] = lu[[p, j]]
        if lu[j, j] == 0:
            info = info or j + 1
            continue
        for i in range(j + 1, m):
            lu[i, j] /= lu[j, j]
            for c in range(j + 1, n):
                lu[i, c] -= lu[i, j] * lu[j, c]
    return lu, np.array(pivots, np.int32), info


def np_permutation(pivots: np.ndarray, m: int) -> np.ndarray:
    """P with x = P L U from 1-based pivots: the swaps applied to the identity's rows, transposed."""
    rows = np.eye(m)
    for i, p in enumerate(pivots):
        rows[[i, p - 1]] = rows[[p - 1, i]]
    return rows.T


def sample_matrix(shape: tuple[int, ...], dtype: DataType, seed: int = 0) -> np.ndarray:
    return sample(shape, dtype, seed=seed, low=-2, high=2)


@op_test("lu", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lu"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 3), (3, 5)], ids=str)
def test_lu_matches_getrf_for_each_dtype(dtype: DataType, shape: tuple[int, ...]) -> None:
    x = sample_matrix(shape, dtype, seed=1)
    out, pivots, infos = phi.lu(phi.to_tensor(x), True)
    assert (out.dtype, pivots.dtype, infos.dtype) == (dtype, D.INT32, D.INT32)
    assert pivots.shape == list(shape[:-2]) + [min(shape[-2:])]
    assert infos.shape == list(shape[:-2])
    flat = x.reshape((-1,) + shape[-2:])
    got = out.numpy().reshape(flat.shape)
    got_pivots = pivots.numpy().reshape(flat.shape[0], -1)
    for i, matrix in enumerate(flat):
        expected, expected_pivots, info = np_getrf(matrix)
        np.testing.assert_allclose(got[i], expected, **loose(dtype))
        np.testing.assert_array_equal(got_pivots[i], expected_pivots)
        assert infos.numpy().reshape(-1)[i] == info


@op_test("lu_unpack", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lu_unpack"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("shape", [(3, 3), (2, 5, 3), (3, 4)], ids=str)
def test_lu_unpack_rebuilds_x_for_each_dtype(dtype: DataType, shape: tuple[int, ...]) -> None:
    x = sample_matrix(shape, dtype, seed=2)
    out, pivots, _ = phi.lu(phi.to_tensor(x), True)
    pmat, lower, upper = phi.lu_unpack(out, pivots, True, True)
    m, n = shape[-2:]
    k = min(m, n)
    assert pmat.shape == list(shape[:-2]) + [m, m] and pmat.dtype == dtype
    assert lower.shape == list(shape[:-2]) + [m, k]
    assert upper.shape == list(shape[:-2]) + [k, n]
    packed = out.numpy()
    np.testing.assert_array_equal(lower.numpy(), np.tril(packed[..., :k], -1) + np.eye(m, k))
    np.testing.assert_array_equal(upper.numpy(), np.triu(packed[..., :k, :]))
    flat_pivots = pivots.numpy().reshape(-1, k)
    flat_p = pmat.numpy().reshape(-1, m, m)
    for i, piv in enumerate(flat_pivots):
        np.testing.assert_array_equal(flat_p[i], np_permutation(piv, m))
    rebuilt = pmat.numpy() @ lower.numpy() @ upper.numpy()
    np.testing.assert_allclose(rebuilt, x, **loose(dtype))


@op_test("eig", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("eig"), ids=lambda d: d.name.lower())
def test_eig_solves_the_eigenproblem_for_each_dtype(dtype: DataType) -> None:
    x = sample_matrix((2, 4, 4), dtype, seed=3)
    w, v = phi.eig(phi.to_tensor(x))
    complex_dtype = D.COMPLEX64 if dtype in (D.FLOAT32, D.COMPLEX64) else D.COMPLEX128
    assert (w.dtype, v.dtype, w.shape, v.shape) == (complex_dtype, complex_dtype, [2, 4], [2, 4, 4])
    wide = x.astype(np.complex128)
    values, vectors = w.numpy().astype(np.complex128), v.numpy().astype(np.complex128)
    np.testing.assert_allclose(wide @ vectors, vectors * values[..., None, :], **loose(dtype))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=-2), 1, **loose(dtype))
    for got, expected in zip(values, np.linalg.eigvals(wide)):
        nearest = [got[np.argmin(np.abs(got - value))] for value in expected]
        np.testing.assert_allclose(nearest, expected, **loose(dtype))


@op_test("lstsq", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lstsq"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("driver", ["gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_matches_numpy_for_each_dtype(dtype: DataType, driver: str) -> None:
    x, y = sample_matrix((2, 5, 3), dtype, seed=4), sample_matrix((2, 5, 2), dtype, seed=5)
    solution, residuals, rank, values = phi.lstsq(phi.to_tensor(x), phi.to_tensor(y), 0.0, driver)
    assert solution.dtype == dtype and rank.dtype == D.INT32
    for i in range(2):
        s, res, r, sv = np.linalg.lstsq(
            x[i].astype(np.float64), y[i].astype(np.float64), rcond=None
        )
        np.testing.assert_allclose(solution.numpy()[i], s, **loose(dtype))
        assert rank.numpy()[i] == r
        np.testing.assert_allclose(values.numpy()[i], sv, **loose(dtype))
        if driver == "gelsy":
            assert residuals.shape == [0]
        else:
            np.testing.assert_allclose(residuals.numpy()[i], res, **loose(dtype))


def test_the_registrations_are_paddles() -> None:
    names = ("lu", "lu_grad", "lu_unpack", "lu_unpack_grad", "eig", "eig_grad", "lstsq")
    for name in names + ("matrix_rank_atol_rtol", "baddbmm", "baddbmm_grad"):
        assert {d.name.lower() for d in cpu_dtypes(name)} == set(TABLE[name]), name


# ---- edges -------------------------------------------------------------------------------------


@op_test("lu", kind="edge")
def test_lu_edges() -> None:
    # PaddlePaddle 3.3.1: a zero matrix keeps its rows (pivots [1, 2]) and reports info 1
    out, pivots, infos = phi.lu(phi.zeros([2, 2], "float64"), True)
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(pivots.numpy(), [1, 2])
    assert infos.shape == [] and int(infos.numpy()) == 1
    # a zero second column: info 2, the batch's other matrix 0
    x = sample_matrix((2, 3, 3), D.FLOAT64, seed=6)
    x[0, :, 1] = 0
    np.testing.assert_array_equal(phi.lu(phi.to_tensor(x), True)[2].numpy(), [2, 0])
    # empty batch and empty matrices
    out, pivots, infos = phi.lu(phi.zeros([0, 2, 3], "float32"), True)
    assert (out.shape, pivots.shape, infos.shape) == ([0, 2, 3], [0, 2], [0])
    out, pivots, infos = phi.lu(phi.zeros([2, 0, 3], "float64"), True)
    assert (out.shape, pivots.shape, infos.shape) == ([2, 0, 3], [2, 0], [2])
    # a non-contiguous input
    base = sample_matrix((4, 4), D.FLOAT64, seed=7)
    got = phi.lu(phi.to_tensor(base).transpose([1, 0]), True)[0].numpy()
    np.testing.assert_allclose(got, np_getrf(base.T)[0], rtol=1e-12, atol=1e-12)
    # the example of PaddlePaddle's documentation
    x = phi.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    out, pivots, _ = phi.lu(x, True)
    np.testing.assert_allclose(out.numpy(), [[5, 6], [0.2, 0.8], [0.6, 0.5]], atol=1e-15)
    np.testing.assert_array_equal(pivots.numpy(), [3, 3])
    with pytest.raises(UnimplementedError, match="pivot"):
        phi.lu(x, False)
    with pytest.raises(InvalidArgumentError, match="'x' must have at least 2 dimensions"):
        phi.lu(phi.to_tensor(np.ones(3)), True)
    with pytest.raises(NotFoundError, match="kernel 'lu' has no registration"):
        phi.lu(phi.to_tensor(np.ones((2, 2), np.int64)), True)


@op_test("lu_unpack", kind="edge")
def test_lu_unpack_edges() -> None:
    x = phi.to_tensor(sample_matrix((3, 3), D.FLOAT64, seed=8))
    out, pivots, _ = phi.lu(x, True)
    # PaddlePaddle 3.3.1: what a flag leaves out is an empty [0] tensor
    pmat, lower, upper = phi.lu_unpack(out, pivots, False, True)
    assert (pmat.shape, lower.shape, upper.shape) == ([3, 3], [0], [0])
    pmat, lower, upper = phi.lu_unpack(out, pivots, True, False)
    assert (pmat.shape, lower.shape, upper.shape) == ([0], [3, 3], [3, 3])
    # the documentation's example: pivots [3, 3]
    pmat = phi.lu_unpack(phi.ones([3, 2], "float64"), phi.to_tensor(np.array([3, 3], np.int32)))[0]
    np.testing.assert_array_equal(pmat.numpy(), [[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    # an empty batch
    pmat, lower, upper = phi.lu_unpack(
        phi.zeros([0, 3, 2], "float32"), phi.zeros([0, 2], "int32"), True, True
    )
    assert (pmat.shape, lower.shape, upper.shape) == ([0, 3, 3], [0, 3, 2], [0, 2, 2])
    with pytest.raises(InvalidArgumentError, match=r"row indices in \[1, 3\]"):
        phi.lu_unpack(out, phi.to_tensor(np.array([1, 4, 3], np.int32)), True, True)
    with pytest.raises(InvalidArgumentError, match="'y' \\(the pivots\\) must be int32"):
        phi.lu_unpack(out, phi.to_tensor(np.array([1, 2, 3], np.int64)), True, True)
    with pytest.raises(InvalidArgumentError, match="'y' must have dims"):
        phi.lu_unpack(out, phi.to_tensor(np.array([1, 2], np.int32)), True, True)
    with pytest.raises(InvalidArgumentError, match="'y' must have at least 1 dimension"):
        phi.lu_unpack(out, phi.to_tensor(np.array(1, np.int32)), True, True)


@op_test("eig", kind="edge")
def test_eig_edges() -> None:
    # complex conjugate pairs from a real matrix (a rotation)
    w, v = phi.eig(phi.to_tensor(np.array([[0.0, -1.0], [1.0, 0.0]])))
    np.testing.assert_allclose(np.sort_complex(w.numpy()), [-1j, 1j], atol=1e-15)
    # an empty batch (PaddlePaddle 3.3.1: dims [2, 0] and [2, 0, 0])
    w, v = phi.eig(phi.zeros([2, 0, 0], "float64"))
    assert (w.shape, v.shape, w.dtype) == ([2, 0], [2, 0, 0], D.COMPLEX128)
    # a non-contiguous input
    base = sample_matrix((3, 3), D.FLOAT64, seed=9)
    w = phi.eig(phi.to_tensor(base).transpose([1, 0]))[0]
    np.testing.assert_allclose(
        np.sort_complex(w.numpy()), np.sort_complex(np.linalg.eigvals(base.T))
    )
    with pytest.raises(InvalidArgumentError, match="square"):
        phi.eig(phi.zeros([2, 3], "float64"))
    with pytest.raises(NotFoundError, match="kernel 'eig' has no registration"):
        phi.eig(phi.to_tensor(np.ones((2, 2), np.int32)))


@op_test("lstsq", kind="edge")
def test_lstsq_edges() -> None:
    x, y = sample_matrix((3, 5), D.FLOAT64, seed=10), sample_matrix((3, 2), D.FLOAT64, seed=11)
    # a wide x: the minimum-norm solution, no residuals
    solution, residuals, rank, values = phi.lstsq(phi.to_tensor(x), phi.to_tensor(y), 0.0, "gelsd")
    np.testing.assert_allclose(solution.numpy(), np.linalg.pinv(x) @ y, rtol=1e-10, atol=1e-12)
    assert (residuals.shape, rank.shape, values.shape) == ([0], [], [3])
    # a rank-deficient tall x: rcond decides the rank
    low = sample_matrix((5, 2), D.FLOAT64, seed=12) @ sample_matrix((2, 4), D.FLOAT64, seed=13)
    rank = phi.lstsq(phi.to_tensor(low), phi.to_tensor(low[:, :1]), 1e-10, "gelsy")[2]
    assert int(rank.numpy()) == 2
    # an empty batch
    solution, residuals, rank, values = phi.lstsq(
        phi.zeros([0, 4, 3], "float32"), phi.zeros([0, 4, 2], "float32"), 0.0, "gelsd"
    )
    assert (solution.shape, residuals.shape, rank.shape, values.shape) == (
        [0, 3, 2],
        [0, 2],
        [0],
        [0, 3],
    )
    with pytest.raises(InvalidArgumentError, match="'driver' must be one of"):
        phi.lstsq(phi.to_tensor(x), phi.to_tensor(y), 0.0, "gelsx")
    with pytest.raises(InvalidArgumentError, match="'y' must have the dtype"):
        phi.lstsq(phi.to_tensor(x), phi.to_tensor(y.astype(np.float32)), 0.0, "gels")
    with pytest.raises(InvalidArgumentError, match="'y' must have dims"):
        phi.lstsq(phi.to_tensor(x), phi.to_tensor(y[:2]), 0.0, "gels")
    with pytest.raises(NotFoundError, match="kernel 'lstsq' has no registration"):
        phi.lstsq(phi.to_tensor(x.astype(np.complex128)), phi.to_tensor(y), 0.0, "gels")


def test_paddle_linalg_lu_returns_infos_on_request() -> None:
    x = phiops.to_tensor(sample_matrix((3, 3), D.FLOAT64, seed=14))
    assert len(phiops.linalg.lu(x)) == 2
    factors, pivots, infos = phiops.linalg.lu(x, get_infos=True)
    assert infos.dtype == D.INT32 and infos.shape == []
    assert len(x.lu()) == 2


def test_paddle_linalg_lstsq_empties_what_the_driver_does_not_compute() -> None:
    x = phiops.to_tensor(sample_matrix((5, 3), D.FLOAT64, seed=15))
    y = phiops.to_tensor(sample_matrix((5, 2), D.FLOAT64, seed=16))
    _, residuals, rank, values = phiops.linalg.lstsq(x, y)  # gelsy
    assert (residuals.shape, rank.shape, values.shape) == ([0], [], [0])
    _, residuals, rank, values = phiops.linalg.lstsq(x, y, driver="gels")
    assert (residuals.shape, rank.shape, rank.dtype, values.shape) == ([2], [0], D.INT64, [0])
    _, residuals, rank, values = x.lstsq(y, driver="gelsd")
    assert (residuals.shape, rank.shape, values.shape) == ([2], [], [3])
    with pytest.raises(ValueError, match="driver"):
        phiops.linalg.lstsq(x, y, driver="qr")
    with pytest.raises(ValueError, match="should have same M"):
        phiops.linalg.lstsq(x, y[:4])


def np_rank(x: np.ndarray, atol: float, rtol: float, hermitian: bool = False) -> int:
    values = np.abs(np.linalg.eigvalsh(x)) if hermitian else np.linalg.svd(x, compute_uv=False)
    largest = values.max() if values.size else 0.0
    return int((values > max(atol, rtol * largest)).sum())


@op_test("matrix_rank_atol_rtol", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("matrix_rank_atol_rtol"), ids=lambda d: d.name.lower())
def test_matrix_rank_atol_rtol_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    low = sample_matrix((3, 4, 2), dtype, seed=17) @ sample_matrix((3, 2, 5), dtype, seed=18)
    low[1] *= 0.01
    real = np.zeros((), dtype.numpy_dtype).real.dtype
    # rtol at least eps * max(M, N): below it, rounding-level singular values would count
    eps = np.finfo(real).eps * 5
    atol, rtol = np.array([0.0, 0.05, 0.0], real), np.array([eps, eps, 0.5], real)
    out = phi.matrix_rank_atol_rtol(phi.to_tensor(low), phi.to_tensor(atol), phi.to_tensor(rtol))
    assert out.dtype == D.INT64 and out.shape == [3]
    wide = low.astype(np.complex128 if low.dtype.kind == "c" else np.float64)
    np.testing.assert_array_equal(
        out.numpy(), [np_rank(wide[i], atol[i], rtol[i]) for i in range(3)]
    )


@op_test("matrix_rank_atol_rtol", kind="edge")
def test_matrix_rank_atol_rtol_edges() -> None:
    low = sample_matrix((2, 4, 2), D.FLOAT64, seed=19) @ sample_matrix(
        (2, 2, 4), D.FLOAT64, seed=20
    )
    x = phi.to_tensor(low)
    zero = phi.to_tensor(np.array(0.0))
    # rtol None is eps * max(M, N), whatever atol is (PaddlePaddle 3.3.1): rank 2, not 4
    np.testing.assert_array_equal(phi.matrix_rank_atol_rtol(x, zero, None).numpy(), [2, 2])
    # tolerances broadcast with the batch: [3, 1] with [2] gives [3, 2]
    out = phi.matrix_rank_atol_rtol(x, phi.to_tensor(np.full((3, 1), 1e3)), None)
    assert out.shape == [3, 2] and not out.numpy().any()
    # hermitian: |eigenvalues| of the lower triangle
    h = low @ low.transpose(0, 2, 1)
    out = phi.matrix_rank_atol_rtol(phi.to_tensor(h), zero, phi.to_tensor(np.array(1e-9)), True)
    np.testing.assert_array_equal(out.numpy(), [2, 2])
    # empty matrices have rank 0
    out = phi.matrix_rank_atol_rtol(phi.zeros([2, 0, 3], "float32"), phi.to_tensor(np.float32(0.1)))
    np.testing.assert_array_equal(out.numpy(), [0, 0])
    with pytest.raises(InvalidArgumentError, match="'atol' must have the real dtype"):
        phi.matrix_rank_atol_rtol(x, phi.to_tensor(np.float32(0.1)), None)
    with pytest.raises(InvalidArgumentError, match="'atol' with dims \\[3\\] cannot be broadcast"):
        phi.matrix_rank_atol_rtol(x, phi.to_tensor(np.zeros(3)), None)
    with pytest.raises(InvalidArgumentError, match="square"):
        phi.matrix_rank_atol_rtol(phi.to_tensor(np.ones((2, 3))), zero, None, True)
    with pytest.raises(InvalidArgumentError, match="at least 2 dimensions"):
        phi.matrix_rank_atol_rtol(phi.to_tensor(np.ones(3)), zero, None)
    # paddle.linalg.matrix_rank's atol/rtol, numbers or tensors
    assert phiops.linalg.matrix_rank(x, atol=1e3).numpy().tolist() == [0, 0]
    assert phiops.linalg.matrix_rank(x, rtol=phiops.to_tensor(0.5)).shape == [2]
    with pytest.raises(ValueError, match="tol alone"):
        phiops.linalg.matrix_rank(x, tol=0.1, atol=0.1)


@op_test("baddbmm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("baddbmm"), ids=lambda d: d.name.lower())
def test_baddbmm_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    x, y = sample_matrix((2, 3, 4), dtype, seed=21), sample_matrix((2, 4, 5), dtype, seed=22)
    inp = sample_matrix((2, 3, 5), dtype, seed=23)
    out = phi.baddbmm(phi.to_tensor(inp), phi.to_tensor(x), phi.to_tensor(y), 0.5, -2.0)
    assert out.dtype == dtype and out.shape == [2, 3, 5]
    expected = 0.5 * inp.astype(np.float64) - 2.0 * (x.astype(np.float64) @ y.astype(np.float64))
    np.testing.assert_allclose(out.numpy(), expected, **loose(dtype))


@op_test("baddbmm", kind="edge")
def test_baddbmm_edges() -> None:
    x, y = sample_matrix((2, 3, 4), D.FLOAT64, seed=24), sample_matrix(
        (2, 4, 5), D.FLOAT64, seed=25
    )
    tx, ty = phi.to_tensor(x), phi.to_tensor(y)
    # input broadcasts from [1, 3, 1], [1, 1, 1] and (2-D) [2, 5] read as [2, 1, 5]
    for shape, shaped in (((1, 3, 1), (1, 3, 1)), ((1, 1, 1), (1, 1, 1)), ((2, 5), (2, 1, 5))):
        inp = sample_matrix(shape, D.FLOAT64, seed=26)
        got = phi.baddbmm(phi.to_tensor(inp), tx, ty, 2.0, 1.0).numpy()
        np.testing.assert_allclose(got, 2.0 * inp.reshape(shaped) + x @ y, rtol=1e-12)
    # beta 0 leaves input unread: its NaNs do not propagate (PaddlePaddle 3.3.1)
    nan = phi.to_tensor(np.full((2, 3, 5), np.nan))
    np.testing.assert_allclose(phi.baddbmm(nan, tx, ty, 0.0, 1.0).numpy(), x @ y, rtol=1e-12)
    # empty batches and an empty inner dim
    assert phi.baddbmm(phi.zeros([0, 3, 5], "float64"), phi.zeros([0, 3, 4], "float64"),
                       phi.zeros([0, 4, 5], "float64")).shape == [0, 3, 5]  # fmt: skip
    got = phi.baddbmm(phi.ones([2, 3, 5], "float64"), phi.zeros([2, 3, 0], "float64"),
                      phi.zeros([2, 0, 5], "float64"), 3.0)  # fmt: skip
    np.testing.assert_array_equal(got.numpy(), np.full((2, 3, 5), 3.0))
    # a non-contiguous x
    got = phi.baddbmm(
        phi.zeros([2, 3, 5], "float64"),
        phi.to_tensor(x.transpose(0, 2, 1).copy()).transpose([0, 2, 1]),
        ty,
    )
    np.testing.assert_allclose(got.numpy(), x @ y, rtol=1e-12)
    with pytest.raises(InvalidArgumentError, match="'x' must have 3 dimensions"):
        phi.baddbmm(phi.zeros([3, 5], "float64"), phi.to_tensor(x[0]), ty)
    with pytest.raises(InvalidArgumentError, match="'y' must have dims \\[B, K, N\\]"):
        phi.baddbmm(phi.zeros([2, 3, 5], "float64"), tx, phi.to_tensor(y[:, :3]))
    with pytest.raises(InvalidArgumentError, match="'input' with dims \\[2, 3, 6\\]"):
        phi.baddbmm(phi.zeros([2, 3, 6], "float64"), tx, ty)
    with pytest.raises(InvalidArgumentError, match="'input' must have 2 or 3 dimensions"):
        phi.baddbmm(phi.zeros([5], "float64"), tx, ty)
    with pytest.raises(InvalidArgumentError, match="'y' must have the dtype"):
        phi.baddbmm(phi.zeros([2, 3, 5], "float64"), tx, phi.to_tensor(y.astype(np.float32)))
    # paddle.baddbmm and the Tensor method: input first, then beta and alpha
    inp = phiops.to_tensor(np.ones((2, 3, 5)))
    np.testing.assert_allclose(
        inp.baddbmm(tx, ty, beta=0.5, alpha=2.0).numpy(), 0.5 + 2 * x @ y, rtol=1e-12
    )
