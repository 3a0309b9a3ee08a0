"""The training runs the regularizer tests compare with PaddlePaddle 3.3.1: a Linear(3, 2) layer
from fixed values, trained STEPS steps on a fixed batch by an optimizer with a weight decay, its
weight perhaps with its own regularizer (ParamAttr). Each case builds from ``lib``, which is
``paddle`` (tests/tools/make_regularizer_fixtures.py) or ``phiops``
(tests/optimizer/test_regularizers.py). Imports neither."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

import numpy as np

STEPS = 4
WEIGHT = np.array([[0.5, -0.3], [0.0, 0.8], [-0.6, 0.2]], dtype="float32")
BIAS = np.array([0.1, -0.2], dtype="float32")
INPUT = np.array([[1.0, -2.0, 0.5], [0.3, 0.7, -1.2], [2.0, 0.1, 0.4], [-0.5, 1.5, 1.0]], "float32")

# case -> (optimizer, its weight_decay, the weight's own regularizer), each a function of lib
_Make = Callable[[ModuleType], Any]
CASES: dict[str, tuple[str, _Make, _Make]] = {}
for _optimizer in ("SGD", "Momentum", "Adam"):
    for _label, _decay, _own in (
        ("l1", lambda lib: lib.regularizer.L1Decay(0.05), lambda lib: None),
        ("l2", lambda lib: lib.regularizer.L2Decay(0.04), lambda lib: None),
        ("float", lambda lib: 0.03, lambda lib: None),
        ("own_l1", lambda lib: None, lambda lib: lib.regularizer.L1Decay(0.06)),
        ("own_l1_over_l2", lambda lib: 0.04, lambda lib: lib.regularizer.L1Decay(0.02)),
        (
            "own_l2_over_l1",
            lambda lib: lib.regularizer.L1Decay(0.05),
            lambda lib: lib.regularizer.L2Decay(0.07),
        ),
        (
            "own_l2_over_l2",
            lambda lib: lib.regularizer.L2Decay(0.01),
            lambda lib: lib.regularizer.L2Decay(0.09),
        ),
    ):
        CASES[f"{_optimizer.lower()}_{_label}"] = (_optimizer, _decay, _own)
CASES["adamw_own_l1"] = ("AdamW", lambda lib: 0.02, lambda lib: lib.regularizer.L1Decay(0.05))


def train(lib: ModuleType, case: str, **options: Any) -> tuple[np.ndarray, np.ndarray]:
    """Run ``case`` with ``lib``; returns the weight and the bias after STEPS steps."""
    optimizer_name, decay, own = CASES[case]
    regularizer = own(lib)
    weight_attr = None if regularizer is None else lib.ParamAttr(regularizer=regularizer)
    layer = lib.nn.Linear(3, 2, weight_attr=weight_attr)
    layer.weight.set_value(WEIGHT)
    layer.bias.set_value(BIAS)
    make = getattr(lib.optimizer, optimizer_name)
    optimizer = make(
        learning_rate=0.1, parameters=layer.parameters(), weight_decay=decay(lib), **options
    )
    x = lib.to_tensor(INPUT)
    for _ in range(STEPS):
        out = layer(x)
        (out * out).sum().backward()
        optimizer.step()
        optimizer.clear_grad()
    return layer.weight.numpy(), layer.bias.numpy()
