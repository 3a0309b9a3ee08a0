"""Gradient-check cases of the lstm24 ops (lstm, gru), for CASES in test_gradcheck_ops.py, in
float64: input's LoD is set inside the function, on the tensor the check hands it. lstm's check
differentiates hidden only: as in PaddlePaddle 3.3.1, no gradient flows from the cell output."""

from __future__ import annotations

from typing import Any

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform

LOD = [[0, 3, 4, 4, 6]]  # four sequences, the third empty


def _with_lod(x: Any) -> Any:
    x.set_lod(LOD)
    return x


def lstm24_cases() -> list[Case]:
    return [
        case(
            "lstm",
            "[6,8]-peephole-reverse-h0",
            lambda x, h0, c0, w, b: C.lstm(_with_lod(x), h0, c0, w, b, True, True, False, "sigmoid", "tanh", "tanh")[0],
            uniform((6, 8), 2460, -1.0, 1.0),
            uniform((4, 2), 2461, -1.0, 1.0),
            uniform((4, 2), 2462, -1.0, 1.0),
            uniform((2, 8), 2463, -1.0, 1.0),
            uniform((1, 14), 2464, -1.0, 1.0),
        ),
        case(
            "gru",
            "[6,6]-origin-h0",
            lambda x, h0, w, b: C.gru(_with_lod(x), h0, w, b, "tanh", "sigmoid", False, True, False),
            uniform((6, 6), 2465, -1.0, 1.0),
            uniform((4, 2), 2466, -1.0, 1.0),
            uniform((2, 6), 2467, -1.0, 1.0),
            uniform((1, 6), 2468, -1.0, 1.0),
        ),
    ]


LSTM24_CASES = lstm24_cases()
