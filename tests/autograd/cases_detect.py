"""Gradient-check cases of the detection ops (grid_sample bilinear in 2-D and 3-D with each
padding mode), for CASES in test_gradcheck_ops.py, in float64. Grid positions stay inside the
smooth pieces (finite differences of a step would not be the kernel's gradient)."""

from __future__ import annotations

import numpy as np

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


def _boxes(*rows: tuple[float, float, float, float]) -> np.ndarray:
    return np.array(rows, np.float64)


def roi_cases() -> list[Case]:
    boxes = phi.to_tensor(_boxes((0.3, 0.6, 4.1, 3.7), (1.2, 0.2, 3.3, 4.4), (0.7, 1.1, 2.9, 2.3)))
    boxes_num = phi.to_tensor(np.array([2, 1], np.int32))
    return [
        case(
            "roi_align",
            "[2,1,5,6]-3boxes-2x3",
            lambda x: phi.roi_align(x, boxes, boxes_num, 2, 3, 1.0, -1, False),
            uniform((2, 1, 5, 6), 610),
        ),
        case(
            "roi_align",
            "[2,1,5,6]-3boxes-2x2-ratio2-scale0.8",
            lambda x: phi.roi_align(x, boxes, boxes_num, 2, 2, 0.8, 2, False),
            uniform((2, 1, 5, 6), 611),
        ),
        case(
            "roi_pool",
            "[2,1,5,6]-3boxes-2x2",
            lambda x: phi.roi_pool(x, boxes, boxes_num, 2, 2, 1.0),
            uniform((2, 1, 5, 6), 612),
        ),
    ]


DETECT_CASES += roi_cases()
