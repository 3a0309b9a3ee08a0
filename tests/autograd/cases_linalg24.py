"""Gradient-check cases of the linalg24 ops (lu, lu_unpack, eig, baddbmm), for CASES in
test_gradcheck_ops.py, in float64: square, tall and wide matrices and a batch. lu's inputs keep
their pivot rows well apart (a diagonal-dominant block, its rows shuffled), so that the finite
differences do not change the pivoting; lu_unpack takes lu's pivots as a constant, and its P,
which takes no gradient, stays out of the loss; eig runs on the input cast to complex128 (the
cast's gradient keeps the real part, which PaddlePaddle's engine does for a real input) and is
checked through functions of the eigenpairs that do not depend on each eigenvector's phase (the
eigenvalues, |V|)."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from phiops.runtime.common import DataType
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def pivoted(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """A matrix whose partial pivoting is decided by wide margins: a dominant diagonal, its
    rows shuffled."""
    m, n = shape[-2:]
    a = uniform(shape, seed, -1.0, 1.0) + 6 * np.eye(m, n)
    return a[..., np.random.default_rng(seed).permutation(m), :]


def pivots_of(x: np.ndarray) -> np.ndarray:
    return phi.lu(phi.to_tensor(x), True)[1].numpy()


def eig_invariants(x):
    w, v = phi.eig(phi.cast(x, DataType.COMPLEX128))
    return phi.real(w), phi.imag(w), phi.abs(v)


def linalg24_cases() -> list[Case]:
    factors = phi.lu(phi.to_tensor(pivoted((2, 4, 3), 612)), True)[0].numpy()
    return [
        case("lu", "[3,3]", lambda x: phi.lu(x, True)[0], pivoted((3, 3), 600)),
        case("lu", "[4,3]-tall", lambda x: phi.lu(x, True)[0], pivoted((4, 3), 601)),
        case("lu", "[3,5]-wide", lambda x: phi.lu(x, True)[0], pivoted((3, 5), 602)),
        case("lu", "[2,3,3]", lambda x: phi.lu(x, True)[0], pivoted((2, 3, 3), 603)),
        case(
            "lu_unpack",
            "[3,3]",
            lambda x, y: phi.lu_unpack(x, y, True, True)[1:],
            uniform((3, 3), 604),
            pivots_of(pivoted((3, 3), 605)),
        ),
        case(
            "lu_unpack",
            "[2,4,3]-tall",
            lambda x, y: phi.lu_unpack(x, y, True, True)[1:],
            factors,
            pivots_of(pivoted((2, 4, 3), 612)),
        ),
        case(
            "lu_unpack",
            "[3,4]-wide",
            lambda x, y: phi.lu_unpack(x, y, True, True)[1:],
            uniform((3, 4), 606),
            pivots_of(pivoted((3, 4), 607)),
        ),
        case("eig", "[3,3]", eig_invariants, uniform((3, 3), 608)),
        case("eig", "[4,4]", eig_invariants, uniform((4, 4), 609)),
        case("eig", "[2,3,3]", eig_invariants, uniform((2, 3, 3), 610)),
    ]


LINALG24_CASES: list[Case] = linalg24_cases()


def baddbmm_cases() -> list[Case]:
    return [
        case(
            "baddbmm",
            "[2,3,5]+[2,3,4]x[2,4,5]",
            lambda i, x, y: phi.baddbmm(i, x, y, 0.5, 2.0),
            uniform((2, 3, 5), 613),
            uniform((2, 3, 4), 614),
            uniform((2, 4, 5), 615),
        ),
        case(
            "baddbmm",
            "[1,3,1]-broadcast",
            lambda i, x, y: phi.baddbmm(i, x, y, -1.5, 1.0),
            uniform((1, 3, 1), 616),
            uniform((2, 3, 2), 617),
            uniform((2, 2, 4), 618),
        ),
        case(
            "baddbmm",
            "[2,4]-2d-input",
            lambda i, x, y: phi.baddbmm(i, x, y, 1.0, 1.0),
            uniform((2, 4), 619),
            uniform((2, 3, 2), 620),
            uniform((2, 2, 4), 621),
        ),
    ]


LINALG24_CASES += baddbmm_cases()
