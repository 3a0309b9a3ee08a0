"""Gradient-check cases of the misc24 ops (spectral_norm, fused_softmax_mask_upper_triangle), for
CASES in test_gradcheck_ops.py, in float64.

PaddlePaddle 3.3.1's spectral_norm_grad, which phiops reproduces, is the derivative of
spectral_norm only for a 1x1 weight: it uses sum(W / sigma) times out_grad elementwise where the
derivative has sum(out_grad * W) / sigma, and it takes the power-iterated u and v as constants.
Its case is therefore the 1x1 weight (where both give 0: W / sigma is constant there), times the
weight so that the check sees a nonzero gradient; tests/ops/test_misc24.py checks the formula on
larger weights and the recorded cases check it against PaddlePaddle."""

from __future__ import annotations

import phiops
import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def misc24_cases() -> list[Case]:
    u = phiops.to_tensor(uniform((1,), 2480))
    v = phiops.to_tensor(uniform((1,), 2481))
    return [
        case("spectral_norm", "[1,1]-times-weight",
             lambda w: C.spectral_norm(w, u, v, 0, 1, 1e-12) * w, uniform((1, 1), 2482)),
        case("fused_softmax_mask_upper_triangle", "[1,2,4,4]",
             C.fused_softmax_mask_upper_triangle, uniform((1, 2, 4, 4), 2483)),
    ]  # fmt: skip


MISC24_CASES = misc24_cases()
