"""Gradient-check case of interp_antialias (issue 25/24), for CASES in test_gradcheck_ops.py, in
float64: a bicubic downsampling of height and upsampling of width, channels last."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def interp24_cases() -> list[Case]:
    return [
        case(
            "interp_antialias",
            "bicubic-down-up-nhwc",
            lambda x: C.interp_antialias(
                x, None, None, None, "NHWC", 0, 3, 5, [], "bicubic", False, 0
            ),
            uniform((1, 7, 3, 2), 2400),
        ),
    ]


INTERP24_CASES = interp24_cases()
