"""The training runs that compare the optimizers of issues 24 and 25 (Adagrad, RMSProp, Adamax,
Adadelta, Lamb, NAdam, RAdam, Rprop, ASGD, Adam and AdamW with amsgrad) with PaddlePaddle
3.3.1: a Linear(4, 3) from fixed values, trained STEPS steps on fixed batches (the loss
``mean(out^3) + sum(out^2)``, whose gradient changes sign), with weight decays, gradient
clipping, schedulers and parameter groups. Each case builds its optimizer from ``lib``
(``paddle`` in tests/tools/make_optimizer2_fixtures.py, ``phiops`` in
tests/optimizer/test_optimizers2.py). Imports neither."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

import numpy as np

STEPS = 20
RESUME_AT = 10
_RNG = np.random.default_rng(2024)
WEIGHT = _RNG.uniform(-1, 1, (4, 3)).astype("float32")
BIAS = _RNG.uniform(-0.5, 0.5, (3,)).astype("float32")
INPUTS = [_RNG.uniform(-1, 1, (6, 4)).astype("float32") for _ in range(STEPS)]

_Make = Callable[[ModuleType, Any], Any]


# the scheduler the case being built made, for build() to return
_MADE: list[Any] = []


def _scheduler(lib: ModuleType, rate: float) -> Any:
    scheduler = lib.optimizer.lr.StepDecay(rate, step_size=5, gamma=0.5)
    _MADE.append(scheduler)
    return scheduler


CASES: dict[str, _Make] = {
    "adagrad": lambda lib, layer: lib.optimizer.Adagrad(
        0.1,
        parameters=layer.parameters(),
        weight_decay=0.01,
        initial_accumulator_value=0.1,
    ),
    "adagrad_groups_l1": lambda lib, layer: lib.optimizer.Adagrad(
        0.1,
        parameters=[
            {
                "params": [layer.weight],
                "learning_rate": 0.5,
                "weight_decay": lib.regularizer.L1Decay(0.02),
            },
            {"params": [layer.bias]},
        ],
        weight_decay=0.01,
    ),
    "adagrad_group_options": lambda lib, layer: lib.optimizer.Adagrad(
        0.1,
        parameters=[
            {"params": [layer.weight], "epsilon": 1e-3, "initial_accumulator_value": 0.5},
            {"params": [layer.bias]},
        ],
    ),
    "rmsprop_group_options": lambda lib, layer: lib.optimizer.RMSProp(
        0.01,
        parameters=[
            {"params": [layer.weight], "rho": 0.8, "momentum": 0.3, "centered": True},
            {"params": [layer.bias], "epsilon": 1e-4},
        ],
    ),
    "adamax_group_options": lambda lib, layer: lib.optimizer.Adamax(
        0.05,
        parameters=[
            {"params": [layer.weight], "beta1": 0.8, "beta2": 0.9},
            {"params": [layer.bias], "epsilon": 1e-3, "learning_rate": 0.5},
        ],
    ),
    "adadelta_group_options": lambda lib, layer: lib.optimizer.Adadelta(
        1.0,
        parameters=[{"params": [layer.weight], "rho": 0.8}, {"params": [layer.bias]}],
    ),
    "lamb_group_options": lambda lib, layer: lib.optimizer.Lamb(
        0.05,
        parameters=[
            {"params": [layer.weight], "beta1": 0.8, "lamb_weight_decay": 0.1},
            {"params": [layer.bias], "beta2": 0.99, "epsilon": 1e-4},
        ],
    ),
    "nadam_group_options": lambda lib, layer: lib.optimizer.NAdam(
        0.01,
        parameters=[
            {"params": [layer.weight], "beta1": 0.8, "momentum_decay": 0.01},
            {"params": [layer.bias], "beta2": 0.99},
        ],
    ),
    "radam_group_options": lambda lib, layer: lib.optimizer.RAdam(
        0.01,
        parameters=[
            {"params": [layer.weight], "beta1": 0.8, "epsilon": 1e-4},
            {"params": [layer.bias], "beta2": 0.99},
        ],
    ),
    "rmsprop": lambda lib, layer: lib.optimizer.RMSProp(0.01, parameters=layer.parameters()),
    "rmsprop_centered_clipped": lambda lib, layer: lib.optimizer.RMSProp(
        _scheduler(lib, 0.01),
        rho=0.9,
        momentum=0.5,
        centered=True,
        parameters=layer.parameters(),
        grad_clip=lib.nn.ClipGradByGlobalNorm(1.0),
    ),
    "adamax": lambda lib, layer: lib.optimizer.Adamax(
        _scheduler(lib, 0.05),
        beta2=0.99,
        parameters=layer.parameters(),
        weight_decay=lib.regularizer.L2Decay(0.01),
    ),
    "adadelta": lambda lib, layer: lib.optimizer.Adadelta(
        1.0, rho=0.9, parameters=layer.parameters(), grad_clip=lib.nn.ClipGradByValue(0.5)
    ),
    "lamb": lambda lib, layer: lib.optimizer.Lamb(
        0.05,
        lamb_weight_decay=0.02,
        parameters=layer.parameters(),
        exclude_from_weight_decay_fn=lambda p: p.name.endswith(".b_0"),
    ),
    "lamb_always_adapt": lambda lib, layer: lib.optimizer.Lamb(
        0.05, lamb_weight_decay=0.0, parameters=layer.parameters(), always_adapt=True
    ),
    "nadam": lambda lib, layer: lib.optimizer.NAdam(
        _scheduler(lib, 0.01), parameters=layer.parameters(), weight_decay=0.01
    ),
    "radam": lambda lib, layer: lib.optimizer.RAdam(
        0.01, parameters=layer.parameters(), weight_decay=lib.regularizer.L1Decay(0.01)
    ),
    "rprop": lambda lib, layer: lib.optimizer.Rprop(
        0.01, learning_rate_range=(1e-4, 0.05), parameters=layer.parameters(), etas=(0.4, 1.3)
    ),
    "asgd": lambda lib, layer: lib.optimizer.ASGD(
        0.05, batch_num=3, parameters=layer.parameters(), weight_decay=0.01
    ),
    "adam_amsgrad": lambda lib, layer: lib.optimizer.Adam(
        0.05, parameters=layer.parameters(), weight_decay=0.01, amsgrad=True
    ),
    "adamw_amsgrad": lambda lib, layer: lib.optimizer.AdamW(
        0.05, parameters=layer.parameters(), weight_decay=0.1, amsgrad=True
    ),
}


def build(lib: ModuleType, case: str) -> tuple[Any, Any, Any]:
    """(the layer, its optimizer, its scheduler or None) for ``case``; the layer is named
    linear_0 in a fresh ``unique_name_guard``."""
    layer = lib.nn.Linear(4, 3)
    layer.weight.set_value(WEIGHT)
    layer.bias.set_value(BIAS)
    _MADE.clear()
    optimizer = CASES[case](lib, layer)
    return layer, optimizer, (_MADE[0] if _MADE else None)


def train(
    lib: ModuleType, layer: Any, optimizer: Any, scheduler: Any, first: int, last: int
) -> None:
    """Steps ``first`` .. ``last - 1`` (each on its own batch), stepping the scheduler."""
    for step in range(first, last):
        out = layer(lib.to_tensor(INPUTS[step]))
        loss = lib.mean(out * out * out) + lib.sum(out * out)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        if scheduler is not None:
            scheduler.step()


def state_arrays(optimizer: Any) -> dict[str, Any]:
    """The optimizer's state_dict with its tensors as numpy arrays."""
    return {
        key: value if isinstance(value, dict) else np.array(value.numpy())
        for key, value in optimizer.state_dict().items()
    }
