"""The parameter-group training runs the tests compare with PaddlePaddle 3.3.1: the Linear layer
of tests/optimizer/regularizer_cases.py trained by an optimizer given parameter groups (dicts
with ``params`` and their own ``learning_rate`` factor and ``weight_decay``). Each case builds
its optimizer from ``lib`` (``paddle`` or ``phiops``) and the layer. Imports neither."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

import numpy as np

from tests.optimizer.regularizer_cases import BIAS, INPUT, STEPS, WEIGHT

_Make = Callable[..., Any]

CASES: dict[str, tuple[_Make, _Make]] = {
    # case -> (the weight's ParamAttr regularizer or None, the optimizer of (lib, layer, rate))
    "sgd_lr_and_l1": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.SGD(
            learning_rate=rate,
            weight_decay=0.02,
            parameters=[
                {
                    "params": [layer.weight],
                    "learning_rate": 0.5,
                    "weight_decay": lib.regularizer.L1Decay(0.05),
                },
                {"params": [layer.bias]},
            ],
        ),
    ),
    "momentum_float_group_over_l1": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.Momentum(
            learning_rate=rate,
            weight_decay=lib.regularizer.L1Decay(0.01),
            parameters=[
                {"params": [layer.weight], "weight_decay": 0.03},
                {"params": [layer.bias], "learning_rate": 2.0},
            ],
        ),
    ),
    "momentum_group_default_replaces_param_attr": (
        lambda lib: lib.regularizer.L1Decay(0.2),
        lambda lib, layer, rate: lib.optimizer.Momentum(
            learning_rate=rate,
            weight_decay=0.04,
            parameters=[{"params": [layer.weight]}, {"params": [layer.bias], "learning_rate": 0.5}],
        ),
    ),
    "momentum_none_group_has_no_decay": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.Momentum(
            learning_rate=rate,
            weight_decay=0.05,
            parameters=[{"params": [layer.weight], "weight_decay": None}, {"params": [layer.bias]}],
        ),
    ),
    "adam_l2_and_none": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.Adam(
            learning_rate=rate,
            weight_decay=0.02,
            parameters=[
                {
                    "params": [layer.weight],
                    "learning_rate": 0.3,
                    "weight_decay": lib.regularizer.L2Decay(0.05),
                },
                {"params": [layer.bias], "weight_decay": None},
            ],
        ),
    ),
    "adam_scheduler_and_factor": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.Adam(
            learning_rate=rate,
            parameters=[
                {"params": [layer.weight], "learning_rate": 0.25},
                {"params": [layer.bias]},
            ],
        ),
    ),
    "sgd_global_norm_clip_per_group": (
        lambda lib: None,
        lambda lib, layer, rate: lib.optimizer.SGD(
            learning_rate=rate,
            grad_clip=lib.nn.ClipGradByGlobalNorm(1.0),
            parameters=[{"params": [layer.weight]}, {"params": [layer.bias]}],
        ),
    ),
}


RATE = 0.1
# the cases whose learning rate is StepDecay(0.2, step_size=2, gamma=0.5), stepped after each step
SCHEDULED = {"adam_scheduler_and_factor"}


def train(lib: ModuleType, case: str, **options: Any) -> tuple[np.ndarray, np.ndarray]:
    """Run ``case`` with ``lib``; the weight and the bias after STEPS steps. ``options`` are set
    as attributes of the optimizer (``_use_multi_tensor``)."""
    own, make = CASES[case]
    regularizer = own(lib)
    weight_attr = None if regularizer is None else lib.ParamAttr(regularizer=regularizer)
    layer = lib.nn.Linear(3, 2, weight_attr=weight_attr)
    layer.weight.set_value(WEIGHT)
    layer.bias.set_value(BIAS)
    scheduler = lib.optimizer.lr.StepDecay(0.2, step_size=2, gamma=0.5)
    optimizer = make(lib, layer, scheduler if case in SCHEDULED else RATE)
    for key, value in options.items():
        setattr(optimizer, key, value)
    x = lib.to_tensor(INPUT)
    for _ in range(STEPS):
        out = layer(x)
        (out * out).sum().backward()
        optimizer.step()
        optimizer.clear_grad()
        scheduler.step()
    return layer.weight.numpy(), layer.bias.numpy()
