"""Gradient-check cases of the pool24 ops (lp_pool2d, fractional_max_pool2d/3d), for CASES in
test_gradcheck_ops.py, in float64. lp_pool2d takes its powers in float32 for every dtype, as
PaddlePaddle 3.3.1's CPU kernel does, so its differences use a larger step and tolerance."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform

_LP = {"eps": 1e-3, "rtol": 2e-3, "atol": 2e-4}


def pool24_cases() -> list[Case]:
    return [
        case("lp_pool2d", "[1,2,4,5]-p2-pad1",
             lambda x: C.lp_pool2d(x, [2, 2], [1, 2], [1, 1], False, True, "NCHW", "lp", False,
                                   False, "EXPLICIT", 2.0),
             uniform((1, 2, 4, 5), 2440, 0.5, 1.5), **_LP),
        case("fractional_max_pool2d", "[1,2,5,6]-u0.4",
             lambda x: C.fractional_max_pool2d(x, [3, 4], [0, 0], 0.4, True)[0],
             uniform((1, 2, 5, 6), 2441)),
        case("fractional_max_pool3d", "[1,1,4,4,5]-kernel2",
             lambda x: C.fractional_max_pool3d(x, [2, 3, 3], [2, 2, 2], 0.7, True)[0],
             uniform((1, 1, 4, 4, 5), 2442)),
    ]  # fmt: skip


POOL24_CASES = pool24_cases()
