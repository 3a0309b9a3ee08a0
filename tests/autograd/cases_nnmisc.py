"""Gradient-check cases of the nnmisc ops (warpctc), for CASES in test_gradcheck_ops.py, in
float64: the CTC loss of a padded batch (labels and lengths constant), with a sequence shorter
than the padding, and through F.ctc_loss's mean (norm_by_times scales the gradient, as
PaddlePaddle's does, so it is no derivative of the loss: tests/ops/test_nnmisc.py checks it)."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi
import phiops.nn.functional as F
from tests.autograd.test_gradcheck_ops import Case, case, uniform

_LABEL = np.array([[1, 2], [2, 2]], np.int32)
_LOGITS_LENGTH = np.array([5, 4], np.int64)
_LABEL_LENGTH = np.array([2, 1], np.int64)


def _t(array: np.ndarray) -> phi.Tensor:
    return phi.to_tensor(array)


def nnmisc_cases() -> list[Case]:
    logits = uniform((5, 2, 3), 2500, -1.0, 1.0)
    lengths = (_t(_LABEL), _t(_LOGITS_LENGTH), _t(_LABEL_LENGTH))
    return [
        case("warpctc", "[5,2,3]", lambda x: C.warpctc(x, *lengths, 0, False), logits),
        case("warpctc", "blank2", lambda x: C.warpctc(x, *lengths, 2, False), logits),
        case("warpctc", "F.ctc_loss-mean", lambda x: F.ctc_loss(x, *lengths), logits),
    ]


NNMISC_CASES = nnmisc_cases()
