"""The model and data the data-parallel tests train, on several ranks and in one process."""

from __future__ import annotations

from typing import Iterator

import numpy as np

import phiops as paddle

GLOBAL_BATCH = 8
STEPS = 4


class Net(paddle.nn.Layer):
    def __init__(self, with_unused: bool = False) -> None:
        super().__init__()
        self.hidden = paddle.nn.Linear(5, 16)
        self.out = paddle.nn.Linear(16, 2)
        self.unused = paddle.nn.Linear(16, 2) if with_unused else None

    def forward(self, x: paddle.Tensor) -> paddle.Tensor:
        return self.out(paddle.nn.functional.relu(self.hidden(x)))


def batches(steps: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(42)
    for _ in range(steps):
        x = rng.standard_normal((GLOBAL_BATCH, 5)).astype(np.float32)
        y = rng.standard_normal((GLOBAL_BATCH, 2)).astype(np.float32)
        yield x, y
