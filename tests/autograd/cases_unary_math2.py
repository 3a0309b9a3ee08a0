"""Gradient-check cases of the unary math ops (log1p ... thresholded_relu), for
CASES in test_gradcheck_ops.py, in float64.

Inputs stay where each op is smooth: above -1 for log1p, positive for log2 and log10, inside
(-1, 1) for asin, acos, atanh and erfinv, above 1 for acosh, inside (-pi/2, pi/2) for tan, away from 0
for reciprocal and celu, away from the thresholds (and from 0) for the shrinks and
thresholded_relu, off the rounding points for round and trunc.
"""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def _away_from(
    points: tuple[float, ...], shape: tuple[int, ...], seed: int, radius: float = 0.1
) -> np.ndarray:
    """Values in [-2, 2], none within ``radius`` of ``points``."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(-2, 2, size=shape)
    while True:
        near = np.zeros(shape, dtype=bool)
        for point in points:
            near |= np.abs(values - point) < radius
        if not near.any():
            return values
        values[near] = rng.uniform(-2, 2, size=int(near.sum()))


def unary_math2_cases() -> list[Case]:
    cases = []
    for seed, shape in enumerate([(2, 3), ()], start=300):
        label = str(list(shape)).replace(" ", "")
        any_x = uniform(shape, seed)
        inside_unit = uniform(shape, seed, -0.9, 0.9)
        positive_x = uniform(shape, seed, 0.2, 3.0)
        halves = tuple(k + 0.5 for k in range(-3, 3))
        tenth_halves = tuple(k / 10 + 0.05 for k in range(-21, 21))
        cases += [
            case("log1p", label, phi.log1p, uniform(shape, seed, -0.8, 3.0)),
            case("log2", label, phi.log2, positive_x),
            case("log10", label, phi.log10, positive_x),
            case("expm1", label, phi.expm1, any_x),
            case("round", label, phi.round, _away_from(halves, shape, seed)),
            case(
                "round",
                f"{label}-decimals_1",
                lambda x: phi.round(x, 1),
                _away_from(tenth_halves, shape, seed, radius=0.01),
            ),
            case("trunc", label, phi.trunc, _away_from((-2.0, -1.0, 0.0, 1.0, 2.0), shape, seed)),
            case("asin", label, phi.asin, inside_unit),
            case("acos", label, phi.acos, inside_unit),
            case("atan", label, phi.atan, any_x),
            case("sinh", label, phi.sinh, any_x),
            case("cosh", label, phi.cosh, any_x),
            case("asinh", label, phi.asinh, any_x),
            case("acosh", label, phi.acosh, uniform(shape, seed, 1.2, 4.0)),
            case("atanh", label, phi.atanh, inside_unit),
            case("tan", label, phi.tan, uniform(shape, seed, -1.3, 1.3)),
            case("reciprocal", label, phi.reciprocal, _away_from((0.0,), shape, seed)),
            case("celu", label, phi.celu, _away_from((0.0,), shape, seed)),
            case(
                "celu",
                f"{label}-alpha_0.5",
                lambda x: phi.celu(x, 0.5),
                _away_from((0.0,), shape, seed),
            ),
            case("hardshrink", label, phi.hardshrink, _away_from((-0.5, 0.5), shape, seed)),
            case(
                "softshrink",
                f"{label}-threshold_0.3",
                lambda x: phi.softshrink(x, 0.3),
                _away_from((-0.3, 0.3), shape, seed),
            ),
            case("tanh_shrink", label, phi.tanh_shrink, any_x),
            case("erfinv", label, phi.erfinv, inside_unit),
            case(
                "thresholded_relu",
                f"{label}-threshold_0.4_value_0.2",
                lambda x: phi.thresholded_relu(x, 0.4, 0.2),
                _away_from((0.4,), shape, seed),
            ),
        ]
    return cases


UNARY_MATH2_CASES: list[Case] = unary_math2_cases()
