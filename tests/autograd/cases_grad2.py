"""Double-grad cases of the grad2 family (issue 24): the elementwise double grads added with
their kernels in runtime/kernels/impl/grad2_kernel.py. test_gradcheck_ops.py appends them to
``DOUBLE_CASES``; each is checked against central differences of the first gradients.

Inputs stay where the ops are smooth: abs, leaky_relu, elu and celu away from 0 (their second
derivatives jump there), log, sqrt, rsqrt and pow on positive values,
divisors away from 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform


def _away_from_zero(shape: Sequence[int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], size=tuple(shape)) * rng.uniform(0.3, 1.5, size=tuple(shape))


def _positive(shape: Sequence[int], seed: int) -> np.ndarray:
    return uniform(shape, seed, 0.5, 2.0)


GRAD2_DOUBLE_CASES: list[Case] = [
    case("sin", "[2,3]", phi.sin, uniform((2, 3), 200)),
    case("cos", "[2,3]", phi.cos, uniform((2, 3), 201)),
    case("log", "[2,3]", phi.log, _positive((2, 3), 202)),
    case("sqrt", "[2,3]", phi.sqrt, _positive((2, 3), 203)),
    case("rsqrt", "[2,3]", phi.rsqrt, _positive((2, 3), 204)),
    case("abs", "[2,3]", phi.abs, _away_from_zero((2, 3), 205), allow_unused=True),
    case(
        "leaky_relu",
        "[2,3]",
        lambda x: phi.leaky_relu(x, 0.1),
        _away_from_zero((2, 3), 206),
        allow_unused=True,
    ),
    case("elu", "[2,3]", lambda x: phi.elu(x, 0.7), _away_from_zero((2, 3), 207)),
    case("celu", "[2,3]", lambda x: phi.celu(x, 1.3), _away_from_zero((2, 3), 208)),
    case("softplus", "[2,3]", lambda x: phi.softplus(x, 1.5, 2.0), uniform((2, 3), 209, -1, 1)),
    case("pow", "[2,3]", lambda x: phi.pow(x, 2.5), _positive((2, 3), 210)),
    case("add", "[2,3]x[3]", phi.add, uniform((2, 3), 211), uniform((3,), 212), allow_unused=True),
    case(
        "subtract",
        "[2,1]x[2,3]",
        phi.subtract,
        uniform((2, 1), 213),
        uniform((2, 3), 214),
        allow_unused=True,
    ),
    case("divide", "[2,3]x[2,3]", phi.divide, uniform((2, 3), 215), _positive((2, 3), 216)),
    case("divide", "[2,1]x[3]", phi.divide, uniform((2, 1), 217), -_positive((3,), 218)),
    case(
        "reshape",
        "[2,3]->[3,2]",
        lambda x: phi.reshape(x, [3, 2]),
        uniform((2, 3), 219),
        allow_unused=True,
    ),
]
