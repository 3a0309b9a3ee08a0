"""The linalg2 ops (solve, triangular_solve, cholesky_solve, det, slogdet, matrix_power,
multi_dot, p_norm, frobenius_norm, dist, addmm): every registered dtype against a numpy
reference in float64 (complex128), the registrations against PaddlePaddle 3.3.1's, shapes (0-D
results, empty operands, broadcast batches, vectors, negative axes, non-contiguous inputs) and
bad input. The edge values written here are PaddlePaddle 3.3.1's (tests/ops/test_linalg2_paddle.py
compares recorded results and gradients)."""

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
INF = float("inf")


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def dominant(a: np.ndarray) -> np.ndarray:
    """``a`` made diagonally dominant: well conditioned."""
    return (a + 8 * np.eye(a.shape[-1])).astype(a.dtype)


def np_slogdet(x: np.ndarray) -> np.ndarray:
    sign, logdet = np.linalg.slogdet(x)
    return np.stack([sign, logdet.astype(sign.dtype)])


def np_p_norm(x: np.ndarray, p: float, axis: int, keepdim: bool) -> np.ndarray:
    # PaddlePaddle 3.3.1 rounds the root's exponent 1/p to float32
    root = float(np.float32(1) / np.float32(p))
    return (np.abs(x) ** p).sum(axis=axis, keepdims=keepdim) ** root


def np_cholesky_solve(b: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray:
    triangle = np.triu(factor) if upper else np.tril(factor)
    a = triangle.swapaxes(-1, -2) @ triangle if upper else triangle @ triangle.swapaxes(-1, -2)
    return np.linalg.solve(a, b)


def np_triangular_solve(x, y, upper, transpose, unitriangular):
    t = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        t = np.where(np.eye(t.shape[-1], dtype=bool), 1, t)
    return np.linalg.solve(t.swapaxes(-1, -2) if transpose else t, y)


# op -> (kernel, input shapes, attributes, input makers, float64 reference)
OPS: dict[str, tuple[str, tuple, tuple, tuple, Callable[..., np.ndarray]]] = {
    "solve": ("solve", ((2, 3, 3), (2, 3, 2)), (), (dominant, None), np.linalg.solve),
    "triangular_solve": (
        "triangular_solve",
        ((3, 3), (3, 2)),
        (False, True, True),
        (dominant, None),
        lambda x, y: np_triangular_solve(x, y, False, True, True),
    ),
    "cholesky_solve": (
        "cholesky_solve",
        ((2, 3, 2), (2, 3, 3)),
        (True,),
        (None, dominant),
        lambda b, f: np_cholesky_solve(b, f, True),
    ),
    "det": ("determinant", ((2, 3, 3),), (), (None,), np.linalg.det),
    "slogdet": ("slogdet", ((2, 3, 3),), (), (None,), np_slogdet),
    "matrix_power": (
        "matrix_power",
        ((2, 3, 3),),
        (-3,),
        (dominant,),
        lambda x: np.linalg.matrix_power(x, -3),
    ),
    "p_norm": (
        "p_norm",
        ((3, 4),),
        (3.0, -1, 1e-12, True, False),
        (None,),
        lambda x: np_p_norm(x, 3.0, -1, True),
    ),
    "frobenius_norm": (
        "frobenius_norm",
        ((2, 3, 4),),
        ((0, -1), False, False),
        (None,),
        lambda x: np.sqrt((x * x).sum(axis=(0, 2))),
    ),
    "dist": (
        "dist",
        ((3, 4), (4,)),
        (2.0,),
        (None, None),
        lambda x, y: np.sqrt(((x - y) ** 2).sum()),
    ),
    "addmm": (
        "addmm",
        ((3,), (2, 4), (4, 3)),
        (0.5, 2.0),
        (None, None, None),
        lambda i, x, y: 0.5 * i + 2.0 * (x @ y),
    ),
}


def call(op: str, *arrays: np.ndarray, attrs: tuple | None = None):
    return getattr(phi, op)(
        *(phi.to_tensor(a) for a in arrays), *(OPS[op][2] if attrs is None else attrs)
    )


def make(op: str, dtype: DataType) -> list[np.ndarray]:
    _, shapes, _, makers, _ = OPS[op]
    arrays = [sample(shape, dtype, seed=seed, low=-1, high=1) for seed, shape in enumerate(shapes)]
    return [maker(a) if maker else a for maker, a in zip(makers, arrays)]


@op_test(*OPS, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype", [(op, dtype) for op in OPS for dtype in cpu_dtypes(OPS[op][0])]
)
def test_op_matches_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    arrays = make(op, dtype)
    out = call(op, *arrays)
    assert out.dtype == dtype
    expected = OPS[op][4](*(wide(a) for a in arrays))
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("multi_dot", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("multi_dot"), ids=lambda d: d.name.lower())
def test_multi_dot_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    arrays = [sample(s, dtype, seed=i) for i, s in enumerate([(4,), (4, 6), (6, 2), (2, 3)])]
    out = phi.multi_dot([phi.to_tensor(a) for a in arrays])
    assert out.dtype == dtype and out.shape == [3]
    expected = np.linalg.multi_dot([wide(a) for a in arrays])
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@pytest.mark.parametrize("op", sorted(OPS) + ["multi_dot"])
def test_registered_dtypes_are_paddles(op: str) -> None:
    kernel = OPS[op][0] if op in OPS else op
    for name in (kernel, f"{kernel}_grad"):
        assert {d.name.lower() for d in cpu_dtypes(name)} == set(TABLE[name]), name


# -- shapes and edges ---------------------------------------------------------------------------


@op_test("solve", "triangular_solve", "cholesky_solve", kind="edge")
def test_solvers_broadcast_batches_and_take_vectors() -> None:
    x = dominant(sample((2, 1, 3, 3), D.FLOAT64, seed=1))
    y = sample((4, 3, 2), D.FLOAT64, seed=2)
    out = call("solve", x, y)
    assert out.shape == [2, 4, 3, 2]
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(x, y), rtol=1e-12)
    # PaddlePaddle 3.3.1: a 1-D y is one right-hand side per matrix, solve([2,3,3], [3]) -> [2, 3]
    vector = call("solve", x[:, 0], y[0, :, 0])
    assert vector.shape == [2, 3]
    np.testing.assert_allclose(vector.numpy(), np.linalg.solve(x[:, 0], y[0, :, 0]), rtol=1e-12)
    tri = call("triangular_solve", x, y, attrs=(True, False, False))
    assert tri.shape == [2, 4, 3, 2]
    np.testing.assert_allclose(tri.numpy(), np.linalg.solve(np.triu(x), y), rtol=1e-12)
    chol = call("cholesky_solve", y, x, attrs=(False,))
    assert chol.shape == [2, 4, 3, 2]
    np.testing.assert_allclose(chol.numpy(), np_cholesky_solve(y, x, False), rtol=1e-12)
    assert call("solve", np.ones((0, 2, 2)), np.ones((0, 2, 1))).shape == [0, 2, 1]


def test_triangular_solve_reads_one_triangle_and_computes_through_a_zero_pivot() -> None:
    # PaddlePaddle 3.3.1: the lower triangle of [[2, 100], [1, 4]] solves [1, 2] as [0.5, 0.375]
    lower = call(
        "triangular_solve", np.array([[2.0, 100], [1, 4]]), np.array([[1.0], [2]]),
        attrs=(False, False, False),
    )  # fmt: skip
    np.testing.assert_allclose(lower.numpy(), [[0.5], [0.375]], rtol=1e-15)
    # unitriangular: [[2, 3], [1, 4]] read as [[1, 3], [0, 1]]: [-5, 2]
    unit = call(
        "triangular_solve", np.array([[2.0, 3], [1, 4]]), np.array([[1.0], [2]]),
        attrs=(True, False, True),
    )  # fmt: skip
    np.testing.assert_allclose(unit.numpy(), [[-5], [2]], rtol=1e-15)
    # a zero diagonal: PaddlePaddle 3.3.1 gives [-inf, inf], no error
    singular = call(
        "triangular_solve", np.array([[1.0, 2], [0, 0]]), np.array([[1.0], [2]]),
        attrs=(True, False, False),
    )  # fmt: skip
    np.testing.assert_array_equal(singular.numpy(), [[-np.inf], [np.inf]])


@op_test("det", "slogdet", "matrix_power", kind="edge")
def test_determinants_and_powers_at_the_edges() -> None:
    singular = np.array([[1.0, 2], [2, 4]])
    assert call("det", singular).numpy() == 0
    np.testing.assert_array_equal(call("slogdet", singular).numpy(), [0, -np.inf])
    # PaddlePaddle 3.3.1: slogdet([[0, 1], [1, 0]]) = [-1, 0]; det of 0 x 0 matrices is 1
    np.testing.assert_array_equal(call("slogdet", np.array([[0.0, 1], [1, 0]])).numpy(), [-1, 0])
    empty = call("det", np.ones((0, 2, 2)))
    assert empty.shape == [0]
    assert call("slogdet", np.ones((3, 2, 2))).shape == [2, 3]
    np.testing.assert_array_equal(call("matrix_power", singular, attrs=(0,)).numpy(), np.eye(2))
    with pytest.raises(InvalidArgumentError, match="matrix_power.*singular"):
        call("matrix_power", singular, attrs=(-1,))
    strided = dominant(sample((3, 3), D.FLOAT64, seed=4)).T
    np.testing.assert_allclose(
        call("matrix_power", strided, attrs=(5,)).numpy(),
        np.linalg.matrix_power(strided, 5),
        rtol=1e-12,
    )
    np.testing.assert_allclose(call("det", strided).numpy(), np.linalg.det(strided), rtol=1e-12)


@op_test("multi_dot", kind="edge")
def test_multi_dot_vector_ends_and_orders() -> None:
    a, b = sample((3,), D.FLOAT64, seed=1), sample((3,), D.FLOAT64, seed=2)
    out = phi.multi_dot([phi.to_tensor(a), phi.to_tensor(b)])
    assert out.shape == []
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-14)
    mats = [sample(s, D.FLOAT64, seed=i) for i, s in enumerate([(10, 2), (2, 10), (10, 3)])]
    np.testing.assert_allclose(
        phi.multi_dot([phi.to_tensor(m) for m in mats]).numpy(),
        np.linalg.multi_dot(mats),
        rtol=1e-12,
    )
    with pytest.raises(InvalidArgumentError, match="multi_dot.*at least 2"):
        phi.multi_dot([phi.to_tensor(a)])


@op_test("p_norm", "frobenius_norm", "dist", kind="edge")
def test_norms_orders_axes_and_empty_reductions() -> None:
    x = np.array([[1.0, -5, 3]])
    # PaddlePaddle 3.3.1: inf -> 5, -inf -> 1, 0 counts non-zeros, p = -1 is the harmonic form
    for p, expected in [(INF, 5), (-INF, 1), (0.0, 3), (-1.0, 1 / (1 + 1 / 5 + 1 / 3))]:
        out = call("p_norm", x, attrs=(p, 1, 1e-12, False, False))
        np.testing.assert_allclose(out.numpy(), [expected], rtol=1e-7)
    assert call("p_norm", np.ones((2, 3)), attrs=(2.0, 1, 1e-12, True, True)).shape == [1, 1]
    assert call("p_norm", np.ones((2, 0)), attrs=(2.0, 1, 1e-12, False, False)).shape == [2]
    # PaddlePaddle 3.3.1's kernel gives 0 for a 0-D x unless asvector
    assert call("p_norm", np.array(3.0), attrs=(2.0, -1, 1e-12, False, False)).numpy() == 0
    assert call("p_norm", np.array(3.0), attrs=(2.0, -1, 1e-12, False, True)).numpy() == 3
    kept = call("frobenius_norm", np.ones((2, 3, 4)), attrs=((-1, 0), True, False))
    assert kept.shape == [1, 3, 1]
    np.testing.assert_allclose(kept.numpy(), np.full((1, 3, 1), np.sqrt(8)))
    assert call("frobenius_norm", np.ones((2, 3)), attrs=((), False, False)).shape == []
    # complex: sqrt(sum(x * x)), not conjugated (PaddlePaddle 3.3.1)
    c = np.array([[1 + 1j, 2], [3, 4j]], dtype=np.complex64)
    np.testing.assert_allclose(
        call("frobenius_norm", c, attrs=((0, 1), False, False)).numpy(),
        np.sqrt(-3 + 2j),
        rtol=1e-6,
    )
    # PaddlePaddle 3.3.1: dist(ones([2, 3]), zeros([3]), p) = 6 (p = 0), 1 (inf), sqrt(6) (2)
    for p, expected in [(0.0, 6), (INF, 1), (2.0, np.sqrt(6))]:
        np.testing.assert_allclose(
            call("dist", np.ones((2, 3)), np.zeros(3), attrs=(p,)).numpy(), expected, rtol=1e-7
        )
    assert call("dist", np.ones(0), np.ones(0), attrs=(2.0,)).numpy() == 0


@op_test("addmm", kind="edge")
def test_addmm_broadcasts_input() -> None:
    x, y = sample((2, 4), D.FLOAT64, seed=1), sample((4, 3), D.FLOAT64, seed=2)
    for input in (np.ones((1, 1)), np.ones((2, 1)), np.arange(3.0), np.ones((2, 3))):
        out = call("addmm", input, x, y, attrs=(0.5, -2.0))
        np.testing.assert_allclose(out.numpy(), 0.5 * input - 2 * (x @ y), rtol=1e-12)
    strided = sample((4, 2), D.FLOAT64, seed=3).T
    np.testing.assert_allclose(
        call("addmm", np.ones(3), strided, y, attrs=(1.0, 1.0)).numpy(), 1 + strided @ y
    )


BAD = [
    ("solve", ((2, 3), (2, 1)), (), "argument 'x' must hold square matrices"),
    ("solve", ((3, 3), (2, 1)), (), "argument 'y' must have its second-to-last extent"),
    # PaddlePaddle 3.3.1 refuses a zero LU pivot
    ("solve", ((2, 2), (2, 1)), (), "argument 'x' holds a singular matrix"),
    ("triangular_solve", ((3,), (3, 1)), (True, False, False), "at least 2 dimensions"),
    ("triangular_solve", ((2, 3, 3), (4, 3, 1)), (True, False, False), "cannot be broadcast"),
    ("cholesky_solve", ((3, 1), (2, 2)), (False,), "argument 'x' must have its second-to-last"),
    ("det", ((2, 3),), (), "argument 'x' must hold square matrices"),
    ("slogdet", ((3,),), (), "at least 2 dimensions"),
    ("matrix_power", ((2, 3),), (2,), "square matrices"),
    ("p_norm", ((2, 3),), (2.0, 2, 1e-12, False, False), "argument 'axis' must be in"),
    ("dist", ((2, 3), (4,)), (2.0,), "cannot be broadcast"),
    ("addmm", ((2, 2), (2, 4), (4, 3)), (1.0, 1.0), "argument 'input'"),
    ("addmm", ((3,), (4,), (4, 3)), (1.0, 1.0), "argument 'x' must have 2 dimensions"),
    ("addmm", ((3,), (2, 4), (5, 3)), (1.0, 1.0), "argument 'y' must have as many rows"),
]


@op_test(*OPS, kind="edge")
@pytest.mark.parametrize(
    "op, shapes, attrs, message", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_bad_input_names_op_and_argument(
    op: str, shapes: tuple, attrs: tuple, message: str
) -> None:
    arrays = [np.ones(shape) for shape in shapes]
    with pytest.raises(InvalidArgumentError, match=op) as error:
        call(op, *arrays, attrs=attrs)
    assert message in str(error.value)


def test_mixed_dtypes_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="argument 'y' must have the dtype"):
        phi.solve(phi.to_tensor(np.eye(2)), phi.to_tensor(np.ones((2, 1), np.float32)))


# -- decompositions, ranks and the other norms --------------------------------------------------


def hermitian(a: np.ndarray) -> np.ndarray:
    """A Hermitian matrix (batch) with well-separated eigenvalues, made from ``a``."""
    n = a.shape[-1]
    h = (a + np.conj(np.swapaxes(a, -1, -2))) / 2 + np.diag(np.arange(n) * 3.0)
    return h.astype(a.dtype)


def np_renorm(x: np.ndarray, p: float, axis: int, max_norm: float) -> np.ndarray:
    others = tuple(i for i in range(x.ndim) if i != axis % x.ndim)
    norm = (np.abs(x) ** p).sum(axis=others, keepdims=True) ** (1 / p)
    return np.where(norm > max_norm, x * max_norm / norm, x)


# op -> (kernel, input maker, attributes, float64 reference of every output)
DECOMPOSITIONS: dict[str, tuple[str, Callable, tuple, Callable]] = {
    "qr": ("qr", lambda d: sample((2, 4, 3), d, seed=1), ("reduced",), lambda x: np.linalg.qr(x)),
    "svd": (
        "svd",
        lambda d: sample((2, 3, 4), d, seed=2),
        (False,),
        lambda x: np.linalg.svd(x, full_matrices=False),
    ),
    "eigh": (
        "eigh",
        lambda d: hermitian(sample((2, 3, 3), d, seed=3)),
        ("L",),
        lambda x: np.linalg.eigh(x),
    ),
    "eigvalsh": (
        "eigvalsh",
        lambda d: hermitian(sample((3, 3), d, seed=4)),
        ("U", False),
        lambda x: np.linalg.eigh(x, "U"),
    ),
    "matrix_rank": (
        "matrix_rank",
        lambda d: (sample((2, 3, 2), d, seed=5) @ sample((2, 2, 4), d, seed=6)).astype(
            d.numpy_dtype
        ),
        (0.0, True, False),
        lambda x: (np.linalg.matrix_rank(x),),
    ),
    "renorm": (
        "renorm",
        lambda d: sample((3, 4), d, seed=7),
        (2.0, 0, 1.0),
        lambda x: (np_renorm(x, 2.0, 0, 1.0),),
    ),
    "squared_l2_norm": (
        "squared_l2_norm",
        lambda d: sample((3, 4), d, seed=8),
        (),
        lambda x: ((x * x).sum().reshape(1),),
    ),
    "l1_norm": ("l1_norm", lambda d: sample((3, 4), d, seed=9), (), lambda x: (np.abs(x).sum(),)),
}


@op_test(*DECOMPOSITIONS, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype",
    [(op, dtype) for op in DECOMPOSITIONS for dtype in cpu_dtypes(DECOMPOSITIONS[op][0])],
)
def test_decompositions_match_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    """qr, svd and eigh give LAPACK's signs, as numpy does: compared directly."""
    _, make_input, attrs, reference = DECOMPOSITIONS[op]
    x = make_input(dtype)
    result = getattr(phi, op)(phi.to_tensor(x), *attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    # the rank in x's own precision (its eps decides the default tolerance)
    expected = reference(x if op == "matrix_rank" else wide(x))
    for out, want in zip(outs, expected):
        assert out.shape == list(np.shape(want))
        if op == "matrix_rank":
            assert out.dtype == D.INT64
            np.testing.assert_array_equal(out.numpy(), want)
            continue
        rtol = {"rtol": 1e-4, "atol": 1e-5} if dtype in (D.FLOAT32, D.COMPLEX64) else {}
        np.testing.assert_allclose(out.numpy(), want, **(rtol or tolerance(dtype)))


@op_test("matrix_rank_tol", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("matrix_rank_tol"), ids=lambda d: d.name.lower())
def test_matrix_rank_tol_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    x = (sample((2, 3, 2), dtype, seed=1) @ sample((2, 2, 3), dtype, seed=2)).astype(
        dtype.numpy_dtype
    )
    x[1] = np.diag([1.0, 1e-3, 0.5]).astype(dtype.numpy_dtype)
    real = np.float32 if dtype in (D.FLOAT32, D.COMPLEX64) else np.float64
    atol = np.array([1e-3, 1e-2], real)
    out = phi.matrix_rank_tol(phi.to_tensor(x), phi.to_tensor(atol), False, False)
    assert out.dtype == D.INT64
    expected = [np.linalg.matrix_rank(wide(x[i]), tol=atol[i]) for i in range(2)]
    np.testing.assert_array_equal(out.numpy(), expected)


def test_decomposition_registrations_are_paddles() -> None:
    for op in (*DECOMPOSITIONS, "matrix_rank_tol"):
        kernel = DECOMPOSITIONS[op][0] if op in DECOMPOSITIONS else op
        names = [kernel] + ([f"{kernel}_grad"] if f"{kernel}_grad" in TABLE else [])
        for name in names:
            assert {d.name.lower() for d in cpu_dtypes(name)} == set(TABLE[name]), name


@op_test("qr", "svd", kind="edge")
def test_qr_and_svd_modes_and_shapes() -> None:
    x = sample((2, 4, 3), D.FLOAT64, seed=1)
    q, r = phi.qr(phi.to_tensor(x), "complete")
    assert q.shape == [2, 4, 4] and r.shape == [2, 4, 3]
    np.testing.assert_allclose((q.numpy() @ r.numpy()), x, rtol=1e-12, atol=1e-12)
    q, r = phi.qr(phi.to_tensor(x), "r")
    assert q.shape == [0] and r.shape == [2, 3, 3]
    wide_q, wide_r = phi.qr(phi.to_tensor(x.swapaxes(-1, -2)), "reduced")
    assert wide_q.shape == [2, 3, 3] and wide_r.shape == [2, 3, 4]
    np.testing.assert_allclose(wide_q.numpy() @ wide_r.numpy(), x.swapaxes(-1, -2), atol=1e-12)
    u, s, vh = phi.svd(phi.to_tensor(x), True)
    assert u.shape == [2, 4, 4] and s.shape == [2, 3] and vh.shape == [2, 3, 3]
    assert s.dtype == D.FLOAT64
    c = sample((3, 2), D.COMPLEX64, seed=2)
    assert phi.svd(phi.to_tensor(c), False)[1].dtype == D.FLOAT32
    empty = phi.svd(phi.to_tensor(np.ones((0, 2, 3))), False)
    assert [t.shape for t in empty] == [[0, 2, 2], [0, 2], [0, 2, 3]]
    with pytest.raises(InvalidArgumentError, match="qr.*argument 'mode'"):
        phi.qr(phi.to_tensor(x), "full")
    with pytest.raises(InvalidArgumentError, match="svd.*at least 2 dimensions"):
        phi.svd(phi.to_tensor(np.ones(3)), False)


@op_test("eigh", "eigvalsh", kind="edge")
def test_eigh_reads_one_triangle() -> None:
    # PaddlePaddle 3.3.1: eigh([[2, 100], [1, 3]], 'U') = [-97.50125, 102.50125], 'L' =
    # [1.381966, 3.618034]
    x = phi.to_tensor(np.array([[2.0, 100], [1, 3]]))
    np.testing.assert_allclose(phi.eigh(x, "U")[0].numpy(), [-97.50124999, 102.50124999])
    np.testing.assert_allclose(phi.eigvalsh(x, "L", True)[0].numpy(), [1.38196601, 3.61803399])
    w, v = phi.eigh(phi.to_tensor(np.ones((0, 2, 2))), "L")
    assert w.shape == [0, 2] and v.shape == [0, 2, 2]
    with pytest.raises(InvalidArgumentError, match="eigh.*argument 'UPLO' must be 'L' or 'U'"):
        phi.eigh(x, "X")
    with pytest.raises(InvalidArgumentError, match="eigvalsh.*square matrices"):
        phi.eigvalsh(phi.to_tensor(np.ones((2, 3))), "L", False)


@op_test("matrix_rank", "matrix_rank_tol", kind="edge")
def test_matrix_rank_tolerances() -> None:
    # PaddlePaddle 3.3.1: the default tolerance keeps 1e-9 (rank 2), 0.05 drops it
    x = np.array([[[1.0, 2], [2, 4.1]], [[1, 0], [0, 1e-9]]])
    rank = phi.matrix_rank(phi.to_tensor(x), 0.0, True, False)
    np.testing.assert_array_equal(rank.numpy(), [2, 2])
    np.testing.assert_array_equal(phi.matrix_rank(phi.to_tensor(x), 0.05, False, False), [1, 1])
    per_matrix = phi.matrix_rank_tol(
        phi.to_tensor(x), phi.to_tensor(np.array([0.05, 0.0])), True, False
    )
    np.testing.assert_array_equal(per_matrix.numpy(), [1, 2])
    one = phi.matrix_rank_tol(phi.to_tensor(x), phi.to_tensor(np.array(0.05)), False, False)
    np.testing.assert_array_equal(one.numpy(), [1, 1])
    hermitian_rank = phi.matrix_rank(phi.to_tensor(np.array([[1.0, 2], [2, -4]])), 0.0, True, True)
    assert hermitian_rank.shape == [] and hermitian_rank.numpy() == 2
    with pytest.raises(InvalidArgumentError, match="matrix_rank.*at least 2 dimensions"):
        phi.matrix_rank(phi.to_tensor(np.ones(3)), 0.0, True, False)


@op_test("renorm", "squared_l2_norm", "l1_norm", kind="edge")
def test_renorm_and_the_whole_tensor_norms() -> None:
    x = np.array([[3.0, 4], [0.3, 0.4]])
    # PaddlePaddle 3.3.1: the first row (norm 5) scaled to norm 1, the second (0.5) kept
    np.testing.assert_allclose(
        phi.renorm(phi.to_tensor(x), 2.0, 0, 1.0).numpy(), [[0.6, 0.8], [0.3, 0.4]]
    )
    # a negative axis counts from the end
    np.testing.assert_allclose(
        phi.renorm(phi.to_tensor(x), 2.0, -1, 1.0).numpy(), np_renorm(x, 2.0, 1, 1.0)
    )
    assert phi.squared_l2_norm(phi.to_tensor(np.array(3.0))).shape == [1]
    np.testing.assert_array_equal(phi.squared_l2_norm(phi.to_tensor(np.ones(0))).numpy(), [0])
    assert phi.l1_norm(phi.to_tensor(np.ones(0, np.float32))).numpy() == 0
    strided = sample((4, 3), D.FLOAT32, seed=1).T
    np.testing.assert_allclose(
        phi.l1_norm(phi.to_tensor(strided)).numpy(), np.abs(strided).sum(), rtol=1e-6
    )


@op_test("eigvals", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("eigvals"), ids=lambda d: d.name.lower())
def test_eigvals_match_numpy_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 3), dtype, seed=11)
    out = phi.eigvals(phi.to_tensor(x))
    assert out.dtype == (D.COMPLEX64 if dtype in (D.FLOAT32, D.COMPLEX64) else D.COMPLEX128)
    expected = np.linalg.eigvals(wide(x))
    rtol = {"rtol": 1e-4, "atol": 1e-5} if dtype in (D.FLOAT32, D.COMPLEX64) else {}
    np.testing.assert_allclose(out.numpy(), expected, **(rtol or tolerance(dtype)))


@op_test("eigvals", kind="edge")
def test_eigvals_of_rotations_empty_batches_and_bad_input() -> None:
    # a rotation by 90 degrees: eigenvalues +i and -i, in LAPACK's order (PaddlePaddle 3.3.1's)
    out = phi.eigvals(phi.to_tensor(np.array([[0.0, -1], [1, 0]])))
    np.testing.assert_allclose(out.numpy(), [1j, -1j])
    assert phi.eigvals(phi.to_tensor(np.ones((0, 2, 2)))).shape == [0, 2]
    with pytest.raises(InvalidArgumentError, match="eigvals.*square matrices"):
        phi.eigvals(phi.to_tensor(np.ones((2, 3))))
