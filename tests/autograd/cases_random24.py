"""Gradient-check cases of the random24 ops with a backward (poisson, exponential_,
gaussian_inplace, uniform_inplace), for CASES in test_gradcheck_ops.py, in float64.

A draw does not depend on its input, so each gradient is zero. For finite differences to see
that, every evaluation must draw the same numbers: the functions reseed the generator
(``phiops.seed``) or pass a nonzero ``seed`` attribute. Poisson rates stay away from where a
1e-6 step could change a draw of the seeded sampler.
"""

from __future__ import annotations

import numpy as np

import phiops
import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, positive


def _seeded(fn):
    def call(x):
        phiops.seed(2024)
        return fn(x)

    return call


def random24_cases() -> list[Case]:
    return [
        case("poisson", "[2,3]", _seeded(lambda x: C.poisson(x) * x), positive((2, 3), 1200)),
        case(
            "exponential_",
            "[2,3]-lam2",
            _seeded(lambda x: C.exponential_(x * 1, 2.0) + x),
            positive((2, 3), 1201),
        ),
        case(
            "gaussian_inplace",
            "[3,2]-seed7",
            lambda x: C.gaussian_inplace(x, 0.5, 2.0, 7) * x,
            positive((3, 2), 1202),
        ),
        case(
            "uniform_inplace",
            "[4]-seed9",
            lambda x: C.uniform_inplace(x, -1.0, 3.0, 9, 0, 0, 1.0) * x,
            np.array([0.5, -1.25, 2.0, 0.75]),
        ),
    ]


RANDOM24_CASES = random24_cases()


def random24_batch_cases() -> list[Case]:
    return [
        case(
            "gumbel_softmax",
            "[2,4]-t1-axis1",
            _seeded(lambda x: C.gumbel_softmax(x, 1.0, False, 1)),
            np.array([[0.5, -1.0, 1.5, 0.25], [2.0, 0.0, -0.5, 1.0]]),
        ),
    ]


RANDOM24_CASES = RANDOM24_CASES + random24_batch_cases()


def _shuffled(x):
    phiops.seed(2024)
    seed = phiops.to_tensor(np.array([5], np.int64))
    return C.shuffle_batch(x, seed, 0)[0]


RANDOM24_CASES = RANDOM24_CASES + [
    case("shuffle_batch", "[2,3,2]", _shuffled, np.arange(12.0).reshape(2, 3, 2) * 0.25 - 1.0),
]
