"""Gradient-check cases of the linalg2 ops (solve, triangular_solve, cholesky_solve, det,
slogdet, matrix_power, multi_dot, p_norm, frobenius_norm, dist, addmm), for CASES in
test_gradcheck_ops.py, in float64: broadcast batches, vector right-hand sides, negative powers,
vector ends, the p of each kind, negative axes. Square operands are made well conditioned
(diagonally dominant); the triangular ops' inputs are full matrices, of which the gradient
must keep only the triangle the op reads."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform

INF = float("inf")


def dominant(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return uniform(shape, seed, -1.0, 1.0) + 4 * np.eye(shape[-1])


def linalg2_cases() -> list[Case]:
    return [
        case(
            "solve", "[2,3,3]x[2,3,2]", phi.solve, dominant((2, 3, 3), 500), uniform((2, 3, 2), 501)
        ),
        case(
            "solve",
            "[2,1,3,3]x[4,3,2]",
            phi.solve,
            dominant((2, 1, 3, 3), 502),
            uniform((4, 3, 2), 503),
        ),
        case("solve", "[2,3,3]x[3]", phi.solve, dominant((2, 3, 3), 504), uniform((3,), 505)),
        case(
            "triangular_solve",
            "[3,3]x[3,2]-upper",
            lambda x, y: phi.triangular_solve(x, y, True, False, False),
            dominant((3, 3), 506),
            uniform((3, 2), 507),
        ),
        case(
            "triangular_solve",
            "[2,1,3,3]x[2,3,2]-lower-transpose",
            lambda x, y: phi.triangular_solve(x, y, False, True, False),
            dominant((2, 1, 3, 3), 508),
            uniform((2, 3, 2), 509),
        ),
        case(
            "triangular_solve",
            "[3,3]x[3,1]-upper-unitriangular",
            lambda x, y: phi.triangular_solve(x, y, True, False, True),
            dominant((3, 3), 510),
            uniform((3, 1), 511),
        ),
        # PaddlePaddle's dY multiplies by the whole of y, not only the triangle the forward
        # reads (phiops's kernel does as PaddlePaddle's): checked with triangular factors, where
        # that is the true gradient
        case(
            "cholesky_solve",
            "[3,2]x[3,3]-lower",
            lambda x, y: phi.cholesky_solve(x, y, False),
            uniform((3, 2), 512),
            np.tril(dominant((3, 3), 513)),
        ),
        case(
            "cholesky_solve",
            "[2,3,2]x[1,3,3]-upper",
            lambda x, y: phi.cholesky_solve(x, y, True),
            uniform((2, 3, 2), 514),
            np.triu(dominant((1, 3, 3), 515)),
        ),
        case("det", "[3,3]", phi.det, uniform((3, 3), 516)),
        case("det", "[2,3,3]", phi.det, uniform((2, 3, 3), 517)),
        case("slogdet", "[2,3,3]", phi.slogdet, dominant((2, 3, 3), 518)),
        case("matrix_power", "[3,3]-n3", lambda x: phi.matrix_power(x, 3), uniform((3, 3), 519)),
        case(
            "matrix_power",
            "[2,3,3]-n-2",
            lambda x: phi.matrix_power(x, -2),
            dominant((2, 3, 3), 520),
        ),
        case(
            "multi_dot",
            "[3]x[3,4]x[4,2]",
            lambda a, b, c: phi.multi_dot([a, b, c]),
            uniform((3,), 521),
            uniform((3, 4), 522),
            uniform((4, 2), 523),
        ),
        case(
            "multi_dot",
            "[2,3]x[3,4]x[4,5]x[5]",
            lambda a, b, c, d: phi.multi_dot([a, b, c, d]),
            uniform((2, 3), 524),
            uniform((3, 4), 525),
            uniform((4, 5), 526),
            uniform((5,), 527),
        ),
        case("p_norm", "[3,4]-p2", lambda x: phi.p_norm(x, 2.0, 1), uniform((3, 4), 528)),
        case(
            "p_norm",
            "[2,3,4]-p3-axis_-2-keepdim",
            lambda x: phi.p_norm(x, 3.0, -2, 1e-12, True),
            uniform((2, 3, 4), 529),
        ),
        case(
            "p_norm",
            "[2,3]-inf-asvector",
            lambda x: phi.p_norm(x, INF, 0, 1e-12, False, True),
            uniform((2, 3), 530),
        ),
        case(
            "frobenius_norm",
            "[2,3,4]-axes_0_-1",
            lambda x: phi.frobenius_norm(x, [0, -1], False, False),
            uniform((2, 3, 4), 531),
        ),
        case(
            "frobenius_norm",
            "[3,4]-reduce_all-keepdim",
            lambda x: phi.frobenius_norm(x, [0], True, True),
            uniform((3, 4), 532),
        ),
        case(
            "dist",
            "[3,4]x[4]-p2",
            lambda x, y: phi.dist(x, y, 2.0),
            uniform((3, 4), 533),
            uniform((4,), 534),
        ),
        case(
            "dist",
            "[2,1,3]x[4,3]-p3",
            lambda x, y: phi.dist(x, y, 3.0),
            uniform((2, 1, 3), 535),
            uniform((4, 3), 536),
        ),
        case(
            "dist",
            "[3]x[3]-inf",
            lambda x, y: phi.dist(x, y, INF),
            uniform((3,), 537),
            uniform((3,), 538),
        ),
        case(
            "addmm",
            "[3]x[2,4]x[4,3]",
            lambda i, x, y: phi.addmm(i, x, y, 0.5, 2.0),
            uniform((3,), 539),
            uniform((2, 4), 540),
            uniform((4, 3), 541),
        ),
        case(
            "addmm",
            "[2,3]x[2,4]x[4,3]",
            phi.addmm,
            uniform((2, 3), 542),
            uniform((2, 4), 543),
            uniform((4, 3), 544),
        ),
        # decompositions: each output enters the loss; inputs with distinct singular values and
        # eigenvalues, where the outputs are differentiable (signs fixed by LAPACK)
        case("qr", "[4,3]", lambda x: phi.qr(x, "reduced"), uniform((4, 3), 545)),
        case("qr", "[2,3,3]-complete", lambda x: phi.qr(x, "complete"), dominant((2, 3, 3), 546)),
        case("qr", "[2,4]", lambda x: phi.qr(x, "reduced"), uniform((2, 4), 547)),
        case("svd", "[4,3]", lambda x: phi.svd(x, False), uniform((4, 3), 548)),
        case("svd", "[2,2,3]", lambda x: phi.svd(x, False), uniform((2, 2, 3), 549)),
        case("eigh", "[3,3]-L", lambda x: phi.eigh(symmetric(x), "L"), uniform((3, 3), 550)),
        case("eigh", "[2,3,3]-U", lambda x: phi.eigh(symmetric(x), "U"), uniform((2, 3, 3), 551)),
        case(
            "eigvalsh",
            "[2,3,3]-L",
            lambda x: phi.eigvalsh(symmetric(x), "L", False)[0],
            uniform((2, 3, 3), 552),
        ),
        case(
            "renorm",
            "[3,4]-p2-axis0",
            lambda x: phi.renorm(x, 2.0, 0, 1.5),
            uniform((3, 4), 553),
        ),
        case(
            "renorm",
            "[2,3,4]-p3-axis_-1",
            lambda x: phi.renorm(x, 3.0, -1, 1.0),
            uniform((2, 3, 4), 554),
        ),
        case("squared_l2_norm", "[3,4]", phi.squared_l2_norm, uniform((3, 4), 555)),
        case("squared_l2_norm", "[]", phi.squared_l2_norm, uniform((), 556)),
        # l1_norm has a float32 kernel only: through a cast, with steps and tolerances for float32
        case(
            "l1_norm",
            "[3,4]-float32",
            lambda x: phi.l1_norm(phi.cast(x, "float32")),
            uniform((3, 4), 557),
            eps=1e-2,
            rtol=1e-3,
            atol=1e-3,
        ),
    ]


def symmetric(x: phi.Tensor) -> phi.Tensor:
    """(x + x^T) / 2 plus a diagonal 0, 3, 6, ...: separated eigenvalues; the gradient check
    runs through it, since eigh reads one triangle while its gradient is symmetric."""
    n = x.shape[-1]
    return (x + phi.transpose(x, list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2])) * 0.5 + (
        phi.to_tensor(np.diag(np.arange(n) * 3.0))
    )


LINALG2_CASES: list[Case] = linalg2_cases()
