"""Gradient-check cases of the basic24 ops (fill, assign_out_, ...), for CASES in
test_gradcheck_ops.py, in float64."""

from __future__ import annotations

import phiops
import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def basic24_cases() -> list[Case]:
    return [
        # the filled values do not depend on x: its gradient is zero, as the differences are
        case("fill", "[2,3]", lambda x: C.fill(x, 1.5), uniform((2, 3), 2400)),
        case(
            "assign_out_",
            "[2,3]-into-[4]",
            lambda x: C.assign_out_(x, phiops.zeros([4], dtype="float64")),
            uniform((2, 3), 2401),
        ),
    ]


BASIC24_CASES = basic24_cases()
