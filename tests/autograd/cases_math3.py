"""Gradient-check cases of the math3 binary ops (atan2, copysign, heaviside, lerp), for CASES in
test_gradcheck_ops.py, in float64.

atan2 stays away from the origin; copysign's x and y stay away from 0 (where its gradient jumps);
heaviside's x holds exact zeros (the only places y gets a gradient) and values away from them;
the complex-number ops are checked through real functions of real parts (complex and
as_complex build the complex values, real, imag and as_real read them back); lerp's x and y are anywhere, broadcasting included (weight gets no gradient in
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
    scale = uniform((2, 3, 2), 918)
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
        # the complex-number ops, through real functions of real parts: complex(re, im) and
        # as_complex(pairs) build the complex input, real/imag/as_real read it back
        case(
            ("angle", "complex"),
            "[2,3]",
            lambda re, im: phi.angle(phi.complex(re, im)),
            away_from_zero((2, 3), 920),
            away_from_zero((2, 3), 921),
        ),
        case("angle", "real-[2,3]", phi.angle, away_from_zero((2, 3), 922)),
        case(
            ("real", "imag", "complex"),
            "[2,1]x[3]",
            lambda re, im: phi.real(phi.complex(re, im)) * phi.imag(phi.complex(re, im)),
            uniform((2, 1), 923),
            uniform((3,), 924),
        ),
        case(
            ("conj", "as_real", "as_complex"),
            "[2,3,2]",
            lambda pairs: phi.as_real(phi.conj(phi.as_complex(pairs))) * phi.to_tensor(scale),
            uniform((2, 3, 2), 925),
        ),
    ]


MATH3_CASES = math3_cases()
