"""Gradient-check cases of the search24 ops (kthvalue, mode, nanmedian, index_sample,
repeat_interleave, repeat_interleave_with_tensor_index, unstack, amax, amin, reverse), for CASES in
test_gradcheck_ops.py, in float64.

Inputs hold distinct values far enough apart that the finite-difference steps keep every
element's rank (a tie's gradient goes to one index only, which finite differences cannot
see). With distinct values every value of a row is equally frequent, so mode picks the
smallest, and its gradient flows to that element.
"""

from __future__ import annotations

import numpy as np

import phiops
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
        case(
            "index_sample",
            "[3,4]-index[3,3]",
            lambda x: C.index_sample(
                x, phiops.to_tensor(np.array([[3, 0, 0], [1, 1, 2], [2, 2, 0]]))
            ),
            _distinct((3, 4), 1108),
        ),
        case(
            "repeat_interleave",
            "[2,3]-repeats2-axis1",
            lambda x: C.repeat_interleave(x, 2, 1, -1),
            _distinct((2, 3), 1109),
        ),
        case(
            "repeat_interleave",
            "paddle.repeat_interleave-flatten",
            lambda x: phiops.repeat_interleave(x, 3),
            _distinct((2, 2), 1110),
        ),
        case(
            "repeat_interleave_with_tensor_index",
            "[2,3]-repeats[1,0,2]",
            lambda x: C.repeat_interleave_with_tensor_index(
                x, phiops.to_tensor(np.array([1, 0, 2])), 1, -1
            ),
            _distinct((2, 3), 1111),
        ),
        case(
            "unstack",
            "[2,3]-axis1",
            lambda x: C.unstack(x, 1, 3)[0] * 2 + C.unstack(x, 1, 3)[2],
            _distinct((2, 3), 1112),
        ),
        case(
            "unbind",
            "[2,3]-axis-1",
            lambda x: C.unbind(x, -1)[0] * 2 + C.unbind(x, -1)[2],
            _distinct((2, 3), 1116),
        ),
        case("amax", "[3,4]-axis1", lambda x: C.amax(x, [1], False), _distinct((3, 4), 1113)),
        case("amin", "[3,4]-all-keepdim", lambda x: C.amin(x, [], True), _distinct((3, 4), 1114)),
        case(
            "amax",
            "paddle.amax-axis0",
            lambda x: phiops.amax(x, axis=0),
            _distinct((2, 3), 1115),
        ),
        case("reverse", "[2,3]-axis[0,1]", lambda x: C.reverse(x, [0, 1]), _distinct((2, 3), 1116)),
    ]


SEARCH24_CASES = search24_cases()
