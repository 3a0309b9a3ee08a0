"""Gradient-check cases of the detect24 ops (psroi_pool, affine_channel), for CASES in test_gradcheck_ops.py,
in float64. psroi_pool is linear in x, so finite differences see its gradient exactly; the
boxes are constants (the op has no gradient for them)."""

from __future__ import annotations

import numpy as np

import phiops as phi
import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform

_BOXES = phi.to_tensor(np.array([[0.0, 0.0, 2.0, 3.0], [1.0, 1.0, 3.0, 3.0]]))
_BOXES_NUM = phi.to_tensor(np.array([1, 1], np.int32))


def detect24_cases() -> list[Case]:
    return [
        case(
            "psroi_pool",
            "[2,4,4,4]-2x2",
            lambda x: C.psroi_pool(x, _BOXES, _BOXES_NUM, 2, 2, 1, 1.0),
            uniform((2, 4, 4, 4), 2400),
        ),
        case(
            "affine_channel",
            "[2,3,4]-NCHW",
            lambda x, s, b: C.affine_channel(x, s, b, "NCHW"),
            uniform((2, 3, 4), 2401),
            uniform((3,), 2402),
            uniform((3,), 2403),
        ),
        case(
            "affine_channel",
            "[2,4,3]-AnyLayout",
            lambda x, s, b: C.affine_channel(x, s, b, "AnyLayout"),
            uniform((2, 4, 3), 2404),
            uniform((3,), 2405),
            uniform((3,), 2406),
        ),
    ]


DETECT24_CASES = detect24_cases()
