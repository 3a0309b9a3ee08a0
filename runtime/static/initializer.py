"""Parameter initializers, PaddlePaddle's (``paddle.nn.initializer``): each records the operations
that compute a parameter's first value in the startup program.

``create_parameter`` calls ``initializer.build(shape, dtype)`` while the startup program is the
one being built; the initializer appends its ops through the generated API (so the ops are typed
by InferMeta like any other) and returns the value, which ``create_parameter`` then marks
persistable and stores with ``builtin.set_parameter``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import Any

from runtime.common import DataType, Place
from runtime.dispatch.op_def import op_api
from runtime.errors import InvalidArgumentError
from runtime.ir.core import Value

__all__ = ["Initializer", "Constant", "Uniform", "Normal", "XavierUniform", "XavierNormal"]


def _number(value: Any, owner: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(
            f"{owner}(): argument '{name}' expects a number, got {type(value).__name__} {value!r}"
        )
    return float(value)


class Initializer(ABC):
    """Base class: ``build(shape, dtype)`` appends the ops computing the initial value to the
    program being built and returns that value."""

    @abstractmethod
    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        """Append the ops that compute a ``shape``/``dtype`` initial value; return the value."""


class Constant(Initializer):
    """Every element ``value``: ``pd_op.full``."""

    def __init__(self, value: float = 0.0) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidArgumentError(
                f"Constant(): argument 'value' expects a number, got {type(value).__name__} "
                f"{value!r}"
            )
        self.value = value

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        return op_api("full")(list(shape), self.value, dtype, Place())

    def __repr__(self) -> str:
        return f"Constant(value={self.value!r})"


class Uniform(Initializer):
    """Uniform in ``[low, high)``: ``pd_op.uniform``."""

    def __init__(self, low: float = -1.0, high: float = 1.0, seed: int = 0) -> None:
        self.low = _number(low, "Uniform", "low")
        self.high = _number(high, "Uniform", "high")
        if self.low > self.high:
            raise InvalidArgumentError(
                f"Uniform(): argument 'low' ({low}) must not be greater than 'high' ({high})"
            )
        self.seed = seed

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        return op_api("uniform")(list(shape), dtype, self.low, self.high, self.seed, Place())

    def __repr__(self) -> str:
        return f"Uniform(low={self.low!r}, high={self.high!r})"


class Normal(Initializer):
    """Normal with ``mean`` and standard deviation ``std``: ``pd_op.gaussian``."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, seed: int = 0) -> None:
        self.mean = _number(mean, "Normal", "mean")
        self.std = _number(std, "Normal", "std")
        if self.std < 0:
            raise InvalidArgumentError(f"Normal(): argument 'std' must be >= 0, got {std}")
        self.seed = seed

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        return op_api("gaussian")(list(shape), self.mean, self.std, self.seed, dtype, Place())

    def __repr__(self) -> str:
        return f"Normal(mean={self.mean!r}, std={self.std!r})"


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """PaddlePaddle's fan_in, fan_out: [in, out] for a matrix, [out, in, k...] for a conv kernel
    (times the receptive field), the single extent twice for a vector."""
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


class _Xavier(Initializer):
    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        seed: int = 0,
    ) -> None:
        name = type(self).__name__
        self.fan_in = None if fan_in is None else _number(fan_in, name, "fan_in")
        self.fan_out = None if fan_out is None else _number(fan_out, name, "fan_out")
        self.gain = _number(gain, name, "gain")
        self.seed = seed

    def _fan_sum(self, shape: tuple[int, ...]) -> float:
        fan_in, fan_out = _fans(shape)
        fan_in = fan_in if self.fan_in is None else self.fan_in
        fan_out = fan_out if self.fan_out is None else self.fan_out
        if fan_in + fan_out <= 0:
            raise InvalidArgumentError(
                f"{type(self).__name__}(): fan_in + fan_out must be positive for shape "
                f"{list(shape)}, got {fan_in} + {fan_out}"
            )
        return float(fan_in + fan_out)


class XavierUniform(_Xavier):
    """Uniform in ``±gain * sqrt(6 / (fan_in + fan_out))`` (Glorot): ``pd_op.uniform``."""

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        limit = self.gain * math.sqrt(6.0 / self._fan_sum(shape))
        return op_api("uniform")(list(shape), dtype, -limit, limit, self.seed, Place())


class XavierNormal(_Xavier):
    """Normal with std ``gain * sqrt(2 / (fan_in + fan_out))`` (Glorot): ``pd_op.gaussian``."""

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        std = self.gain * math.sqrt(2.0 / self._fan_sum(shape))
        return op_api("gaussian")(list(shape), 0.0, std, self.seed, dtype, Place())
