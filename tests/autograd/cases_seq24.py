"""Gradient-check cases of the seq24 ops (add_position_encoding, ...), for CASES in
test_gradcheck_ops.py, in float64."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def seq24_cases() -> list[Case]:
    return [
        case(
            "add_position_encoding",
            "[2,3,4]-alpha0.5-beta2",
            lambda x: C.add_position_encoding(x, 0.5, 2.0),
            uniform((2, 3, 4), 2400),
        ),
    ]


SEQ24_CASES = seq24_cases()
