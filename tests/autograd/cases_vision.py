"""Gradient-check cases of the vision ops (pixel_shuffle, pixel_unshuffle, channel_shuffle in
both data formats; unfold and fold with paddings, strides and dilations; affine_grid in 2-D and
3-D), for CASES in test_gradcheck_ops.py, in float64."""

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
        case(
            "unfold",
            "[1,2,5,6]-k2x3-s1x2-p1,0,1,1-d2x1",
            lambda x: phi.unfold(x, [2, 3], [1, 2], [1, 0, 1, 1], [2, 1]),
            uniform((1, 2, 5, 6), 406),
        ),
        case(
            "fold",
            "[1,8,12]-o6x5-k2x2-s2x2-p1,1",
            lambda x: phi.fold(x, [6, 5], [2, 2], [2, 2], [1, 1, 1, 1], [1, 1]),
            uniform((1, 8, 12), 407),
        ),
        case(
            "affine_grid",
            "[2,2,3]-[2,1,3,4]",
            lambda theta: phi.affine_grid(theta, [2, 1, 3, 4], True),
            uniform((2, 2, 3), 408),
        ),
        case(
            "affine_grid",
            "[1,3,4]-[1,1,2,3,2]-not_aligned",
            lambda theta: phi.affine_grid(theta, [1, 1, 2, 3, 2], False),
            uniform((1, 3, 4), 409),
        ),
    ]


VISION_CASES: list[Case] = vision_cases()
