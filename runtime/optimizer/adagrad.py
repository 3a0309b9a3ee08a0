"""Adagrad (PaddlePaddle's ``adagrad_``): one ``moment`` per parameter, the running sum of the
squared gradient, starting at ``initial_accumulator_value``."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad: ``moment += grad^2``, ``param -= lr * grad / (sqrt(moment) + epsilon)``. A
    parameter group may set ``epsilon`` and ``initial_accumulator_value``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"epsilon", "initial_accumulator_value"})
    _fill_options = {"moment": "initial_accumulator_value"}

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        epsilon: float = 1.0e-6,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
        initial_accumulator_value: float = 0.0,
    ) -> None:
        require_number("Adagrad", "learning_rate", learning_rate, scheduler=True)
        require_number("Adagrad", "epsilon", epsilon)
        require_number("Adagrad", "initial_accumulator_value", initial_accumulator_value)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = float(epsilon)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self._state_spec = (Accumulator("moment", self.initial_accumulator_value),)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return self._state_spec

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        (moment,) = state
        epsilon = self._option(parameter, "epsilon", self._epsilon)
        return OpCall("adagrad_", (parameter, grad, moment, rate, None, epsilon, False))


def require_number(
    kind: str, label: str, value: Any, *, scheduler: bool = False, minimum: float | None = None
) -> None:
    """InvalidArgumentError unless ``value`` is a real number (or, with ``scheduler``, an
    LRScheduler), at least ``minimum`` when given: PaddlePaddle's constructors' checks."""
    if scheduler and isinstance(value, LRScheduler):
        return
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"{kind}: {label} must be a number, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidArgumentError(f"{kind}: {label} must be >= {minimum}, got {value!r}")
