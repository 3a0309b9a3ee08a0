"""The schedulers the LR tests compare with PaddlePaddle 3.3.1: each case builds one from a
module that is ``paddle.optimizer.lr`` (tests/tools/make_lr_fixtures.py, in the side venv) or
``phiops.optimizer.lr`` (tests/optimizer/test_lr_schedulers.py), with the same arguments. Imports
neither."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

STEPS = 25

# case -> a function of the lr module that returns a new scheduler
CASES: dict[str, Callable[[ModuleType], Any]] = {
    "noam": lambda lr: lr.NoamDecay(d_model=64, warmup_steps=8, learning_rate=2.0),
    "piecewise": lambda lr: lr.PiecewiseDecay(boundaries=[3, 7, 12], values=[1.0, 0.5, 0.1, 0.01]),
    "natural_exp": lambda lr: lr.NaturalExpDecay(learning_rate=0.5, gamma=0.1),
    "inverse_time": lambda lr: lr.InverseTimeDecay(learning_rate=0.5, gamma=0.3),
    "polynomial": lambda lr: lr.PolynomialDecay(learning_rate=0.5, decay_steps=10, power=2.0),
    "polynomial_cycle": lambda lr: lr.PolynomialDecay(
        learning_rate=0.5, decay_steps=6, end_lr=0.01, power=1.5, cycle=True
    ),
    "linear_warmup_float": lambda lr: lr.LinearWarmup(
        learning_rate=0.5, warmup_steps=6, start_lr=0.0, end_lr=0.5
    ),
    "linear_warmup_scheduler": lambda lr: lr.LinearWarmup(
        learning_rate=lr.CosineAnnealingDecay(0.4, T_max=7, eta_min=0.02),
        warmup_steps=5,
        start_lr=0.01,
        end_lr=0.4,
    ),
    "exponential": lambda lr: lr.ExponentialDecay(learning_rate=0.5, gamma=0.9),
    "multi_step": lambda lr: lr.MultiStepDecay(learning_rate=0.5, milestones=[4, 9, 15], gamma=0.5),
    "step": lambda lr: lr.StepDecay(learning_rate=0.5, step_size=4, gamma=0.7),
    "lambda": lambda lr: lr.LambdaDecay(learning_rate=0.5, lr_lambda=lambda epoch: 0.95**epoch),
    "cosine": lambda lr: lr.CosineAnnealingDecay(learning_rate=0.5, T_max=6, eta_min=0.01),
    "multiplicative": lambda lr: lr.MultiplicativeDecay(
        learning_rate=0.5, lr_lambda=lambda epoch: 0.9 if epoch % 2 else 0.97
    ),
    "one_cycle_cos": lambda lr: lr.OneCycleLR(max_learning_rate=1.0, total_steps=30),
    "one_cycle_linear_three_phase": lambda lr: lr.OneCycleLR(
        max_learning_rate=0.8,
        total_steps=28,
        divide_factor=10.0,
        end_learning_rate=0.001,
        phase_pct=0.25,
        anneal_strategy="linear",
        three_phase=True,
    ),
    "cyclic_triangular": lambda lr: lr.CyclicLR(
        base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=4
    ),
    "cyclic_triangular2": lambda lr: lr.CyclicLR(
        base_learning_rate=0.1,
        max_learning_rate=1.0,
        step_size_up=3,
        step_size_down=5,
        mode="triangular2",
    ),
    "cyclic_exp_range": lambda lr: lr.CyclicLR(
        base_learning_rate=0.1,
        max_learning_rate=1.0,
        step_size_up=4,
        mode="exp_range",
        exp_gamma=0.9,
    ),
    "cyclic_scale_fn": lambda lr: lr.CyclicLR(
        base_learning_rate=0.1,
        max_learning_rate=1.0,
        step_size_up=4,
        scale_fn=lambda x: 1.0 / (1.0 + 0.1 * x),
        scale_mode="iterations",
    ),
    "linear_lr": lambda lr: lr.LinearLR(learning_rate=0.5, total_steps=10),
    "linear_lr_down": lambda lr: lr.LinearLR(
        learning_rate=0.5, total_steps=8, start_factor=1.0, end_factor=0.1
    ),
    "warm_restarts": lambda lr: lr.CosineAnnealingWarmRestarts(learning_rate=0.5, T_0=5),
    "warm_restarts_mult": lambda lr: lr.CosineAnnealingWarmRestarts(
        learning_rate=0.5, T_0=3, T_mult=2, eta_min=0.01
    ),
    "last_epoch_given": lambda lr: lr.StepDecay(learning_rate=0.5, step_size=3, last_epoch=4),
}

# cases whose schedulers also jump: step(epoch) for each of these epochs, in order
JUMPS = {
    "cosine": [3, 10, 4, 17],
    "step": [2, 9, 5],
    "warm_restarts": [2, 7, 11, 4],
    "warm_restarts_mult": [1, 5, 12, 30, 2],
    "exponential": [6, 1],
}

# ReduceOnPlateau: constructor arguments and the metrics given to step()
PLATEAU_CASES: dict[str, dict[str, Any]] = {
    "min_rel": {"learning_rate": 1.0, "patience": 2, "factor": 0.5},
    "max_abs_cooldown": {
        "learning_rate": 1.0,
        "mode": "max",
        "threshold_mode": "abs",
        "threshold": 0.05,
        "patience": 1,
        "cooldown": 2,
        "factor": 0.3,
        "min_lr": 0.05,
    },
}
PLATEAU_METRICS = [
    5.0,
    4.0,
    4.0,
    4.1,
    3.99,
    3.5,
    3.5,
    3.5,
    3.6,
    3.7,
    3.2,
    3.2,
    3.2,
    3.2,
    3.2,
    3.3,
    1.0,
    1.0,
    1.01,
    1.0,
    1.0,
    0.9,
    0.9,
    0.9,
    0.95,
]
