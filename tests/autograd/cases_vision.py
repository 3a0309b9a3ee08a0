"""Gradient-check cases of the vision ops (pixel_shuffle, pixel_unshuffle, channel_shuffle),
for CASES in test_gradcheck_ops.py, in float64, in both data formats."""

from __future__ import annotations

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def vision_cases() -> list[Case]:
    return [
        case(
            "pixel_shuffle",
            "[1,8,2,3]-r2",
            lambda x: phi.pixel_shuffle(x, 2),
            uniform((1, 8, 2, 3), 400),
        ),
        case(
            "pixel_shuffle",
            "[1,2,3,9]-r3-NHWC",
            lambda x: phi.pixel_shuffle(x, 3, "NHWC"),
            uniform((1, 2, 3, 9), 401),
        ),
        case(
            "pixel_unshuffle",
            "[2,1,4,6]-r2",
            lambda x: phi.pixel_unshuffle(x, 2),
            uniform((2, 1, 4, 6), 402),
        ),
        case(
            "pixel_unshuffle",
            "[1,4,6,2]-r2-NHWC",
            lambda x: phi.pixel_unshuffle(x, 2, "NHWC"),
            uniform((1, 4, 6, 2), 403),
        ),
        case(
            "channel_shuffle",
            "[2,6,2,3]-g3",
            lambda x: phi.channel_shuffle(x, 3),
            uniform((2, 6, 2, 3), 404),
        ),
        case(
            "channel_shuffle",
            "[1,2,3,6]-g2-NHWC",
            lambda x: phi.channel_shuffle(x, 2, "NHWC"),
            uniform((1, 2, 3, 6), 405),
        ),
    ]


VISION_CASES: list[Case] = vision_cases()
