"""Adadelta (PaddlePaddle's ``adadelta_``): per parameter ``_avg_squared_grad`` and
``_avg_squared_update`` (PaddlePaddle's accumulator names, leading underscore included)."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["Adadelta"]

_STATE = (Accumulator("_avg_squared_grad"), Accumulator("_avg_squared_update"))


class Adadelta(Optimizer):
    """Adadelta: the gradient scaled by the ratio of the roots of running averages of squared
    updates and squared gradients (``rho`` their decay), times the learning rate. A parameter
    group may set ``epsilon`` and ``rho``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"epsilon", "rho"})

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        epsilon: float = 1.0e-6,
        rho: float = 0.95,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        require_number("Adadelta", "learning_rate", learning_rate, scheduler=True)
        require_number("Adadelta", "epsilon", epsilon)
        require_number("Adadelta", "rho", rho)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._rho = float(epsilon), float(rho)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _STATE

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        squared_grad, squared_update = state
        return OpCall(
            "adadelta_",
            (
                parameter,
                grad,
                squared_grad,
                squared_update,
                rate,
                None,
                self._option(parameter, "rho", self._rho),
                self._option(parameter, "epsilon", self._epsilon),
            ),
        )
