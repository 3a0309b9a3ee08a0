"""RMSProp (PaddlePaddle's ``rmsprop_``): per parameter ``momentum``, ``mean_square`` and
``mean_grad`` (the last read only with ``centered``)."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["RMSProp"]

_STATE = (Accumulator("momentum"), Accumulator("mean_square"), Accumulator("mean_grad"))


class RMSProp(Optimizer):
    """RMSProp: the gradient divided by the root of a running average of its square (``rho``
    its decay), with momentum, optionally centred on the running mean of the gradient. A
    parameter group may set ``rho``, ``epsilon``, ``momentum`` and ``centered``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"rho", "epsilon", "momentum", "centered"})

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        rho: float = 0.95,
        epsilon: float = 1.0e-6,
        momentum: float = 0.0,
        centered: bool = False,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        require_number("RMSProp", "learning_rate", learning_rate, scheduler=True)
        for label, value in (("rho", rho), ("epsilon", epsilon), ("momentum", momentum)):
            require_number("RMSProp", label, value, minimum=0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho, self._epsilon = float(rho), float(epsilon)
        self._momentum, self._centered = float(momentum), bool(centered)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _STATE

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        momentum, mean_square, mean_grad = state
        return OpCall(
            "rmsprop_",
            (
                parameter,
                mean_square,
                grad,
                momentum,
                rate,
                mean_grad,
                None,
                self._option(parameter, "epsilon", self._epsilon),
                self._option(parameter, "rho", self._rho),
                self._option(parameter, "momentum", self._momentum),
                self._option(parameter, "centered", self._centered),
                False,
            ),
        )
