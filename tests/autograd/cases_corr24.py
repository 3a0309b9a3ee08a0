"""Gradient-check case of the corr24 op, for CASES in test_gradcheck_ops.py, in float64:
correlation is bilinear in its two inputs; stride1 2 and a 3-wide window exercise outputs whose
windows overlap and pixels no window reads."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform

CORR24_CASES: list[Case] = [
    case(
        "correlation",
        "[1,2,5,5]x[1,2,5,5]-pad1-k3-d2-s2,1",
        lambda x, y: C.correlation(x, y, 1, 3, 2, 2, 1),
        uniform((1, 2, 5, 5), 2401),
        uniform((1, 2, 5, 5), 2402),
    ),
]
