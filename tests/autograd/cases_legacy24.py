"""Gradient-check cases of the legacy24 ops of issue 24 (gru_unit, ...), for CASES in
test_gradcheck_ops.py, in float64 on small inputs."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def legacy24_cases() -> list[Case]:
    return [
        case(
            "gru_unit",
            "[3,6]-bias-tanh-sigmoid",
            lambda x, h, w, b: C.gru_unit(x, h, w, b, 2, 1, False),
            uniform((3, 6), 2441), uniform((3, 2), 2442), uniform((2, 6), 2443),
            uniform((1, 6), 2444),
        ),
        # im2sequence has a float32 kernel only: through a cast, with steps and tolerances for
        # float32 (it is linear, so the differences are exact up to rounding)
        case(
            "im2sequence",
            "[2,2,4,3]-k2x2-pad",
            lambda x: C.im2sequence(C.cast(x, "float32"), None, [2, 2], [1, 2], [1, 0, 0, 1], [1, 1]),
            uniform((2, 2, 4, 3), 2445),
            eps=1e-2, rtol=1e-3, atol=1e-3,
        ),
    ]  # fmt: skip


LEGACY24_CASES = legacy24_cases()
