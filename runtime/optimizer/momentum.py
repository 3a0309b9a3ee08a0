"""Momentum SGD (PaddlePaddle's ``momentum_``; ``merged_momentum_`` for the multi-tensor step):
one ``velocity`` per parameter; ``weight_decay`` goes into the op as ``l2_decay``."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer, check_multi_precision, float_or_none
from phiops.runtime.optimizer.rule import Accumulator, OpCall

__all__ = ["Momentum"]

# The merged ops' master_param: an empty list, which they read as none, rather than None, for
# which the generated API leaves its cached fast path (it reads an optional Tensor[] as a list).
NO_MASTER_COPIES: list[Tensor] = []
_VELOCITY = (Accumulator("velocity"),)


class Momentum(Optimizer):
    """Momentum SGD (PaddlePaddle's ``momentum_`` / ``merged_momentum_``), with Nesterov's
    variant; ``weight_decay`` is applied inside the op as ``l2_decay``."""

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        momentum: float = 0.9,
        parameters: Iterable[Tensor] | None = (),
        use_nesterov: bool = False,
        weight_decay: float | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        rescale_grad: float = 1.0,
        use_multi_tensor: bool = True,
        name: str | None = None,
    ) -> None:
        if momentum is None or isinstance(momentum, bool) or not isinstance(momentum, (int, float)):
            raise InvalidArgumentError(f"Momentum: momentum must be a number, got {momentum!r}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        check_multi_precision("Momentum", multi_precision, self._parameters)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._coeff = float_or_none(weight_decay, "Momentum")
        self._rescale_grad = float(rescale_grad)
        self._use_multi_tensor = bool(use_multi_tensor)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _VELOCITY

    def _regularization(self) -> tuple[str, float]:
        return ("", 0.0) if self._coeff is None else ("l2_decay", self._coeff)

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        method, coeff = self._regularization()
        (velocity,) = state
        return OpCall(
            "momentum_",
            (
                parameter,
                grad,
                velocity,
                rate,
                None,
                self._momentum,
                self._use_nesterov,
                method,
                coeff,
                False,
                self._rescale_grad,
            ),
        )

    def _merged_calls(
        self, params: list[Tensor], grads: list[Tensor], rate: Tensor, state: list[list[Tensor]]
    ) -> list[OpCall]:
        method, coeff = self._regularization()
        count = len(params)
        (velocities,) = state
        return [
            OpCall(
                "merged_momentum_",
                (
                    params,
                    grads,
                    velocities,
                    [rate],
                    NO_MASTER_COPIES,
                    self._momentum,
                    self._use_nesterov,
                    [method] * count if method else [],
                    [coeff] * count if method else [],
                    False,
                    self._rescale_grad,
                ),
            )
        ]
