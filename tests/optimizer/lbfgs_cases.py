"""The LBFGS runs compared with PaddlePaddle 3.3.1: tests/optimizer/optimizer2_cases.py's
Linear(4, 3) fitted to a fixed target by least squares plus a quartic term, a few
``step(closure)`` calls each. Each case builds from ``lib`` (``paddle`` in
tests/tools/make_optimizer2_fixtures.py, ``phiops`` in tests/optimizer/test_lbfgs.py). Imports
neither."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from tests.optimizer.optimizer2_cases import BIAS, INPUTS, WEIGHT

TARGET = np.random.default_rng(7).uniform(-1, 1, (6, 3)).astype("float32")
STEPS = 3

CASES: dict[str, dict[str, Any]] = {
    "lbfgs_fixed_step": {"learning_rate": 0.5, "max_iter": 5, "history_size": 3},
    "lbfgs_strong_wolfe": {"max_iter": 8, "line_search_fn": "strong_wolfe"},
    "lbfgs_short_history": {"learning_rate": 1.0, "max_iter": 10, "history_size": 2},
}


def train(lib: ModuleType, case: str) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """(weight, bias, the loss each step returned) after STEPS calls of step(closure)."""
    layer = lib.nn.Linear(4, 3)
    layer.weight.set_value(WEIGHT)
    layer.bias.set_value(BIAS)
    optimizer = lib.optimizer.LBFGS(parameters=layer.parameters(), **CASES[case])
    x, target = lib.to_tensor(INPUTS[0]), lib.to_tensor(TARGET)

    def closure() -> Any:
        optimizer.clear_grad()
        out = layer(x)
        diff = out - target
        loss = lib.mean(diff * diff) + 0.1 * lib.mean(out * out * out * out)
        loss.backward()
        return loss

    losses = [float(optimizer.step(closure)) for _ in range(STEPS)]
    return layer.weight.numpy(), layer.bias.numpy(), losses
