"""Gradient-check cases of the lod24 ops (sequence_pool, sequence_conv), for CASES in
test_gradcheck_ops.py, in float64: the input's LoD is set inside the function, on the tensor the
check hands it."""

from __future__ import annotations

from typing import Any

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform

LOD = [[0, 2, 2, 5, 7]]


def _with_lod(x: Any) -> Any:
    x.set_lod(LOD)
    return x


def lod24_cases() -> list[Case]:
    return [
        case(
            "sequence_pool",
            "[7,3]-sqrt",
            lambda x: C.sequence_pool(_with_lod(x), False, "SQRT", 0.0),
            uniform((7, 3), 2450),
        ),
        case(
            "sequence_conv",
            "[7,3]-trainable",
            lambda x, pad, w: C.sequence_conv(_with_lod(x), pad, w, 3, True, -1, 1),
            uniform((7, 3), 2451),
            uniform((2, 3), 2452),
            uniform((9, 2), 2453),
        ),
    ]


LOD24_CASES = lod24_cases()
