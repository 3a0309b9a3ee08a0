"""Gradient-check cases of the train24 ops (norm), for CASES in test_gradcheck_ops.py, in
float64."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def train24_cases() -> list[Case]:
    return [
        case(
            "norm",
            "[2,3,2]-axis-2",
            lambda x: C.norm(x, -2, 1e-10, False)[0],
            uniform((2, 3, 2), 2400),
        ),
    ]


TRAIN24_CASES = train24_cases()
