"""Gradient-check cases of the math3 binary ops (atan2, copysign, heaviside, lerp), for CASES in
test_gradcheck_ops.py, in float64.

atan2 stays away from the origin; copysign's x and y stay away from 0 (where its gradient jumps);
heaviside's x holds exact zeros (the only places y gets a gradient) and values away from them;
lerp's x and y are anywhere, broadcasting included (weight gets no gradient in
PaddlePaddle 3.3.1: its lerp_grad has none).
"""

from __future__ import annotations

import numpy as np

import phiops
import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, away_from_zero, case, uniform


def math3_cases() -> list[Case]:
    with_zeros = np.array([[0.0, 1.5, -0.7], [0.0, -2.0, 0.0]])
    weight = uniform((2, 3), 917)
    return [
        case("atan2", "[2,3]", phi.atan2, away_from_zero((2, 3), 900), uniform((2, 3), 901)),
        case("atan2", "[]", phi.atan2, away_from_zero((), 902), away_from_zero((), 903)),
        case(
            "atan2",
            "paddle.atan2-[2,3]x[3]",
            phiops.atan2,
            away_from_zero((2, 3), 904),
            away_from_zero((3,), 905),
        ),
        case(
            "copysign",
            "[2,3]",
            phi.copysign,
            away_from_zero((2, 3), 906),
            away_from_zero((2, 3), 907),
        ),
        case(
            "copysign",
            "[2,3]x[3]",
            phi.copysign,
            away_from_zero((2, 3), 908),
            away_from_zero((3,), 909),
        ),
        # x away from 0 (its gradient is 0 there), then y alone where x holds exact zeros
        case(
            "heaviside", "[2,3]", phi.heaviside, away_from_zero((2, 3), 910), uniform((2, 3), 911)
        ),
        case(
            "heaviside",
            "y-at-zeros-[2,3]x[3]",
            lambda y: phi.heaviside(phi.to_tensor(with_zeros), y),
            uniform((3,), 912),
        ),
        # PaddlePaddle's lerp_grad gives x and y gradients only: weight is a constant
        case(
            "lerp",
            "[2,3]",
            lambda x, y: phi.lerp(x, y, phi.to_tensor(weight)),
            uniform((2, 3), 913),
            uniform((2, 3), 914),
        ),
        case(
            "lerp",
            "[3]x[2,1]x[]",
            lambda x, y: phi.lerp(x, y, phi.to_tensor(np.float64(0.3))),
            uniform((3,), 915),
            uniform((2, 1), 916),
        ),
    ]


MATH3_CASES = math3_cases()
