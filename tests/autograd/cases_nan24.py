"""Gradient-check cases of the nan24 ops (reduce_as, and the check_model_nan_inf pair), for
CASES in test_gradcheck_ops.py, in float64. The flag ops are checked as a pair, enable then
disable, so that every forward and backward pass leaves FLAGS_check_nan_inf off as it found it."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform

_TARGET = np.zeros((3, 1))


def nan24_cases() -> list[Case]:
    return [
        case(
            "reduce_as",
            "[2,3,4]-to-[3,1]",
            lambda x: C.reduce_as(x, phi.to_tensor(_TARGET)),
            uniform((2, 3, 4), 2424),
        ),
        case(
            ("enable_check_model_nan_inf", "disable_check_model_nan_inf"),
            "[2,3]-enable-then-disable",
            lambda x: C.disable_check_model_nan_inf(C.enable_check_model_nan_inf(x, 1) * x, 0),
            uniform((2, 3), 2425),
        ),
    ]


NAN24_CASES = nan24_cases()
