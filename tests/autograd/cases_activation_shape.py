"""Gradient-check cases of the activations, shape and creation, dropout), added to
``CASES`` in test_gradcheck_ops.py.

``cases()`` builds them with that module's ``case`` and input helpers, imported when it is
called (test_gradcheck_ops imports this module while it is being defined). Inputs stay away
from the kinks: no values near 0 for relu6, elu, selu, prelu; none near +-3 for hardswish,
near the bounds for hardtanh, hardsigmoid and relu6 (6).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import phiops.generated as phi


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


def shape_cases() -> list[Any]:
    from tests.autograd.test_gradcheck_ops import away_from_zero, case, uniform

    x = uniform((3, 4), 30)
    cases = [
        case("split_with_num", "axis1", lambda t: phi.split_with_num(t, 2, 1), x),
        case("split_with_num", "axis-2", lambda t: phi.split_with_num(t, 3, -2), x),
        case("add_n", "three", lambda a, b, c: phi.add_n([a, b, c]), x, uniform((3, 4), 31), x),
        case("tile", "[2,1,3]", lambda t: phi.tile(t, [2, 1, 3]), x),
        case("tile", "short", lambda t: phi.tile(t, [2]), x),
        case("flip", "[0,-1]", lambda t: phi.flip(t, [0, -1]), x),
        case("roll", "axes", lambda t: phi.roll(t, [1, -2], [0, 1]), x),
        case("roll", "flat", lambda t: phi.roll(t, [5], []), x),
        case("pad", "[1,0,2,3]", lambda t: phi.pad(t, [1, 0, 2, 3], 0.5), x),
        case("tril", "0", lambda t: phi.tril(t, 0), x),
        case("triu", "1", lambda t: phi.triu(t, 1), x),
        case("cumsum", "axis1", lambda t: phi.cumsum(t, 1), x),
        case("cumsum", "flat-exclusive-reverse", lambda t: phi.cumsum(t, -1, True, True, True), x),
        case("cumprod", "dim1", lambda t: phi.cumprod(t, 1), away_from_zero((3, 4), 32)),
        case(
            "cumprod",
            "exclusive-reverse",
            lambda t: phi.cumprod(t, 0, True, True),
            away_from_zero((3, 4), 33),
        ),
        case(
            "cumprod",
            "with-zero",
            lambda t: phi.cumprod(t, 1),
            np.array([[2.0, 0.0, 3.0, -1.5], [0.5, 1.5, 0.0, 2.0]]),
        ),
        case(
            "meshgrid", "3", lambda a, b: phi.meshgrid([a, b]), uniform((3,), 34), uniform((2,), 35)
        ),
        case("diag", "vector", lambda t: phi.diag(t, 1, 0.5), uniform((3,), 36)),
        case("diag", "matrix", lambda t: phi.diag(t, -1), x),
    ]
    for mode in ("constant", "reflect", "replicate", "circular"):
        for fmt, shape in (("NCDHW", (1, 2, 2, 3, 4)), ("NDHWC", (1, 2, 3, 4, 2))):
            cases.append(
                case(
                    "pad3d",
                    f"{mode}-{fmt}",
                    lambda t, m=mode, f=fmt: phi.pad3d(t, [2, 1, 1, 2, 1, 0], m, 0.25, f),
                    uniform(shape, 37),
                )
            )
    return cases


def cases() -> list[Any]:
    """Every gradient-check case of this module."""
    return activation_cases() + dropout_cases() + shape_cases()
