"""Gradient-check cases of the detection ops (grid_sample bilinear in 2-D and 3-D with each
padding mode), for CASES in test_gradcheck_ops.py, in float64. Grid positions stay inside the
smooth pieces (finite differences of a step would not be the kernel's gradient)."""

from __future__ import annotations

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def detect_cases() -> list[Case]:
    return [
        case(
            "grid_sample",
            "[2,2,3,4]-[2,3,2,2]-zeros-aligned",
            lambda x, grid: phi.grid_sample(x, grid, "bilinear", "zeros", True),
            uniform((2, 2, 3, 4), 600),
            uniform((2, 3, 2, 2), 601, -1.2, 1.2),
        ),
        case(
            "grid_sample",
            "[1,2,3,4]-[1,2,3,2]-border-not_aligned",
            lambda x, grid: phi.grid_sample(x, grid, "bilinear", "border", False),
            uniform((1, 2, 3, 4), 602),
            uniform((1, 2, 3, 2), 603, -0.7, 0.7),
        ),
        case(
            "grid_sample",
            "[1,1,3,4]-[1,2,2,2]-reflection",
            lambda x, grid: phi.grid_sample(x, grid, "bilinear", "reflection", True),
            uniform((1, 1, 3, 4), 604),
            uniform((1, 2, 2, 2), 605, -1.8, 1.8),
        ),
        case(
            "grid_sample",
            "[1,2,2,3,3]-[1,2,2,1,3]-zeros-not_aligned",
            lambda x, grid: phi.grid_sample(x, grid, "bilinear", "zeros", False),
            uniform((1, 2, 2, 3, 3), 606),
            uniform((1, 2, 2, 1, 3), 607, -1.0, 1.0),
        ),
    ]


DETECT_CASES: list[Case] = detect_cases()
