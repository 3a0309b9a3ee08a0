"""Parameter initializers with PaddlePaddle's names and defaults (``paddle.nn.initializer``).

An initializer is called with a shape and a dtype and returns a numpy array; the numbers come
from the process generator (``phi.seed`` makes them repeatable).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from runtime.common import CPUPlace
from runtime.errors import InvalidArgumentError
from runtime.random import generator_for

__all__ = [
    "Initializer",
    "Constant",
    "Normal",
    "Uniform",
    "XavierUniform",
    "XavierNormal",
    "KaimingNormal",
    "KaimingUniform",
]


def _fans(shape: Sequence[int]) -> tuple[int, int]:
    """PaddlePaddle's fan_in/fan_out: [in, out] for 2-D weights (Linear), [out, in, k...] for
    convolution filters (receptive field multiplies both)."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Base: ``init(shape, dtype)`` -> numpy array."""

    def __call__(self, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        return self.draw(tuple(int(s) for s in shape)).astype(dtype)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def _rng() -> np.random.Generator:
        return generator_for(CPUPlace())


class Constant(Initializer):
    def __init__(self, value: float = 0.0) -> None:
        self.value = float(value)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.full(shape, self.value)


class Normal(Initializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        if std < 0:
            raise InvalidArgumentError(f"Normal: std must be >= 0, got {std}")
        self.mean, self.std = float(mean), float(std)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return self._rng().normal(self.mean, self.std, shape)


class Uniform(Initializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        if high < low:
            raise InvalidArgumentError(f"Uniform: high ({high}) must be >= low ({low})")
        self.low, self.high = float(low), float(high)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return self._rng().uniform(self.low, self.high, shape)


class XavierUniform(Initializer):
    """U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ) -> None:
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        fan_in = self.fan_in if self.fan_in is not None else fan_in
        fan_out = self.fan_out if self.fan_out is not None else fan_out
        limit = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return self._rng().uniform(-limit, limit, shape)


class XavierNormal(XavierUniform):
    """N(0, std), std = gain * sqrt(2 / (fan_in + fan_out))."""

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        fan_in = self.fan_in if self.fan_in is not None else fan_in
        fan_out = self.fan_out if self.fan_out is not None else fan_out
        return self._rng().normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


def _gain(nonlinearity: str, negative_slope: float) -> float:
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity in ("linear", "conv2d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    raise InvalidArgumentError(f"Kaiming: unsupported nonlinearity {nonlinearity!r}")


class KaimingNormal(Initializer):
    """N(0, std), std = gain / sqrt(fan_in) (gain sqrt(2) for relu)."""

    def __init__(
        self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu"
    ) -> None:
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in = self.fan_in if self.fan_in is not None else _fans(shape)[0]
        std = _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan_in)
        return self._rng().normal(0.0, std, shape)


class KaimingUniform(KaimingNormal):
    """U(-a, a), a = gain * sqrt(3 / fan_in)."""

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in = self.fan_in if self.fan_in is not None else _fans(shape)[0]
        limit = _gain(self.nonlinearity, self.negative_slope) * math.sqrt(3.0 / fan_in)
        return self._rng().uniform(-limit, limit, shape)
