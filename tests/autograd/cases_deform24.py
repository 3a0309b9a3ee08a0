"""Gradient-check case of deformable_conv (issue 24, deform24), for CASES in
test_gradcheck_ops.py, in float64: gradients for x, offset, filter and mask at once. The random
offsets keep the sampling points off whole pixels (some of them between -1 and 0, where only the
lower or right neighbours are read); a draw hits a kink of the bilinear interpolation with
probability ~0, so finite differences see the smooth piece the analytic gradient is taken on."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def deform24_cases() -> list[Case]:
    return [
        case(
            "deformable_conv",
            "[1,2,3,3]-k2x2-dg2-mask",
            lambda x, offset, filt, mask: C.deformable_conv(
                x, offset, filt, mask, [1, 1], [0, 0], [1, 1], 2, 1, 1
            ),
            uniform((1, 2, 3, 3), 2410),
            uniform((1, 16, 2, 2), 2411, -0.9, 0.9),
            uniform((2, 2, 2, 2), 2412),
            uniform((1, 8, 2, 2), 2413, 0.1, 1.0),
        ),
    ]


DEFORM24_CASES = deform24_cases()
