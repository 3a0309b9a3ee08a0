"""Gradient-check cases of the frame24 framework ops, for CASES in test_gradcheck_ops.py, in
float64: trans_layout is a transpose, linear in its input."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform

FRAME24_CASES: list[Case] = [
    case(
        "trans_layout",
        "[2,3,2]-perm[2,-3,1]",
        lambda x: C.trans_layout(x, [2, -3, 1]),
        uniform((2, 3, 2), 2480),
    ),
]
