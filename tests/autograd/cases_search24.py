"""Gradient-check cases of the search24 ops (kthvalue, mode, nanmedian), for CASES in
test_gradcheck_ops.py, in float64.

Inputs hold distinct values far enough apart that the finite-difference steps keep every
element's rank (a tie's gradient goes to one index only, which finite differences cannot
see). With distinct values every value of a row is equally frequent, so mode picks the
smallest, and its gradient flows to that element.
"""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case


def _distinct(shape: tuple[int, ...], seed: int) -> np.ndarray:
    count = int(np.prod(shape))
    return (np.random.default_rng(seed).permutation(count) * 0.37 - 1.0).reshape(shape)


def search24_cases() -> list[Case]:
    return [
        case(
            "kthvalue",
            "[3,4]-k2-axis1",
            lambda x: C.kthvalue(x, 2, 1, False)[0],
            _distinct((3, 4), 1100),
        ),
        case(
            "kthvalue",
            "[2,3,4]-k3-axis0-keepdim",
            lambda x: C.kthvalue(x, 2, 0, True)[0],
            _distinct((2, 3, 4), 1101),
        ),
        case("mode", "[3,4]-axis-1", lambda x: C.mode(x, -1, False)[0], _distinct((3, 4), 1102)),
        case(
            "mode",
            "[3,4]-axis0-keepdim",
            lambda x: C.mode(x, 0, True)[0],
            _distinct((3, 4), 1103),
        ),
        case(
            "nanmedian",
            "[3,4]-axis1-avg",
            lambda x: C.nanmedian(x, [1], False, "avg")[0],
            _distinct((3, 4), 1104),
        ),
        case(
            "nanmedian",
            "[3,5]-axis1-min",
            lambda x: C.nanmedian(x, [1], True, "min")[0],
            _distinct((3, 5), 1105),
        ),
        case(
            "nanmedian",
            "[2,3,4]-axes[0,2]-avg",
            lambda x: C.nanmedian(x, [0, 2], False, "avg")[0],
            _distinct((2, 3, 4), 1106),
        ),
        case(
            "nanmedian",
            "[4]-all-avg",
            lambda x: C.nanmedian(x, [], True, "avg")[0],
            _distinct((4,), 1107),
        ),
    ]


SEARCH24_CASES = search24_cases()
