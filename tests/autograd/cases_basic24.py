"""Gradient-check cases of the basic24 ops (fill, assign_out_, crop, shuffle_channel, ...), for CASES in
test_gradcheck_ops.py, in float64."""

from __future__ import annotations

import phiops
import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def basic24_cases() -> list[Case]:
    return [
        # the filled values do not depend on x: its gradient is zero, as the differences are
        case("fill", "[2,3]", lambda x: C.fill(x, 1.5), uniform((2, 3), 2400)),
        case(
            "assign_out_",
            "[2,3]-into-[4]",
            lambda x: C.assign_out_(x, phiops.zeros([4], dtype="float64")),
            uniform((2, 3), 2401),
        ),
        case(
            "crop",
            "[3,4]-[2,-1]-at-[1,1]",
            lambda x: C.crop(x, [2, -1], [1, 1]),
            uniform((3, 4), 2402),
        ),
        # group 3 of 6 channels: a permutation that is not its own inverse
        case(
            "shuffle_channel",
            "[1,6,2,1]-3",
            lambda x: C.shuffle_channel(x, 3),
            uniform((1, 6, 2, 1), 2403),
        ),
        case(
            "temporal_shift",
            "[4,4,1,2]-2-NCHW",
            lambda x: C.temporal_shift(x, 2, 0.25, "NCHW"),
            uniform((4, 4, 1, 2), 2404),
        ),
        case(
            "temporal_shift",
            "[4,1,2,4]-2-NHWC",
            lambda x: C.temporal_shift(x, 2, 0.25, "NHWC"),
            uniform((4, 1, 2, 4), 2405),
        ),
        case(
            "partial_concat",
            "2x[2,4]-1-2",
            lambda a, b: C.partial_concat([a, b], 1, 2),
            uniform((2, 4), 2406),
            uniform((2, 4), 2407),
        ),
        case(
            "partial_sum",
            "2x[2,4]-2-rest",
            lambda a, b: C.partial_sum([a, b], 2, -1),
            uniform((2, 4), 2408),
            uniform((2, 4), 2409),
        ),
    ]


BASIC24_CASES = basic24_cases()
