"""Gradient-check cases of the rnnt24 op warprnnt, for CASES in test_gradcheck_ops.py, in
float64 on a small padded batch (labels and lengths constant). With fastemit_lambda 0 the
gradient warp-transducer gives is the loss's derivative (FastEmit scales the label emissions'
gradients, so it is no derivative: tests/ops/test_rnnt24.py checks it)."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform

_LABEL = np.array([[1, 2], [2, 0]], np.int32)
_INPUT_LENGTHS = np.array([3, 2], np.int32)
_LABEL_LENGTHS = np.array([2, 1], np.int32)


def rnnt24_cases() -> list[Case]:
    lengths = tuple(phi.to_tensor(a) for a in (_LABEL, _INPUT_LENGTHS, _LABEL_LENGTHS))
    return [
        case(
            "warprnnt", "[2,3,3,3]",
            lambda x: C.warprnnt(x, *lengths, 0, 0.0), uniform((2, 3, 3, 3), 2600, -2.0, 0.0),
        ),
    ]  # fmt: skip


RNNT24_CASES = rnnt24_cases()
