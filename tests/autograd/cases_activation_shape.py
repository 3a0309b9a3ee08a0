"""Gradient-check cases of the issue 8 ops (activations, shape and creation, dropout), added to
``CASES`` in test_gradcheck_ops.py.

``cases()`` builds them with that module's ``case`` and input helpers, imported when it is
called (test_gradcheck_ops imports this module while it is being defined). Inputs stay away
from the kinks: no values near 0 for relu6, elu, selu, prelu; none near +-3 for hardswish,
near the bounds for hardtanh, hardsigmoid and relu6 (6).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import generated as phi


def _away_from(points: tuple[float, ...], shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Values in [-8, 8], none within 0.2 of ``points``."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(-8, 8, size=shape)
    while True:
        near = np.zeros(shape, dtype=bool)
        for point in points:
            near |= np.abs(values - point) < 0.2
        if not near.any():
            return values
        values[near] = rng.uniform(-8, 8, size=int(near.sum()))


def activation_cases() -> list[Any]:
    from tests.autograd.test_gradcheck_ops import case, uniform

    cases = []
    for seed, shape in enumerate([(2, 3), ()]):
        label = str(list(shape)).replace(" ", "")
        kinks = _away_from((0.0, 6.0, -3.0, 3.0, -1.0, 2.0, -2.5, 2.5), shape, seed)
        cases += [
            case("relu6", label, phi.relu6, kinks),
            case("hardswish", label, phi.hardswish, kinks),
            case("hardsigmoid", label, lambda x: phi.hardsigmoid(x, 0.2, 0.5), kinks),
            case("swish", label, phi.swish, uniform(shape, seed)),
            case("elu", label, lambda x: phi.elu(x, 0.7), kinks),
            case("elu", f"{label}-negative_alpha", lambda x: phi.elu(x, -0.5), kinks),
            case("selu", label, phi.selu, kinks),
            case("softplus", label, phi.softplus, uniform(shape, seed)),
            case("softplus", f"{label}-beta2", lambda x: phi.softplus(x, 2.0, 3.0), kinks),
            case("softsign", label, phi.softsign, kinks),
            case("mish", label, lambda x: phi.mish(x, 20.0), uniform(shape, seed)),
            case("hardtanh", label, lambda x: phi.hardtanh(x, -1.0, 2.0), kinks),
            case("logsigmoid", label, phi.logsigmoid, uniform(shape, seed)),
            case("erf", label, phi.erf, uniform(shape, seed)),
        ]
    cases += [
        case(
            "prelu",
            f"{mode}-{data_format}",
            lambda x, a, f=data_format, m=mode: phi.prelu(x, a, f, m),
            _away_from((0.0,), (2, 3, 4), 10),
            uniform(alpha_shape, 11, 0.1, 0.9),
        )
        for mode, data_format, alpha_shape in (
            ("all", "NCHW", (1,)),
            ("channel", "NCHW", (3,)),
            ("channel", "NHWC", (4,)),
            ("element", "NCHW", (1, 3, 4)),
        )
    ]
    cases += [
        case(
            "logsumexp",
            f"axis{list(axis)}-keepdim{keepdim}",
            lambda x, a=axis, k=keepdim: phi.logsumexp(x, a, k),
            uniform((2, 3, 4), 12),
        )
        for axis, keepdim in (([0], False), ([-1, 1], True), ([], False))
    ]
    cases.append(case("logsumexp", "0d", lambda x: phi.logsumexp(x, [0]), uniform((), 13)))
    return cases


def dropout_cases() -> list[Any]:
    """A fixed seed makes the mask the same on every call, so finite differences see the
    function the gradient is of."""
    from tests.autograd.test_gradcheck_ops import case, uniform

    return [
        case(
            "dropout",
            f"{mode}-is_test{is_test}",
            lambda x, m=mode, t=is_test: phi.dropout(x, None, 0.4, t, m, 5, True),
            uniform((3, 4), 20),
        )
        for mode in ("upscale_in_train", "downscale_in_infer")
        for is_test in (False, True)
    ]


def cases() -> list[Any]:
    """Every issue 8 gradient-check case."""
    return activation_cases() + dropout_cases()
