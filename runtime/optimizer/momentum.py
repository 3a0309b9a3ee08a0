"""Momentum SGD (PaddlePaddle's ``momentum_``; ``merged_momentum_`` for the multi-tensor step):
one ``velocity`` per parameter. L2 decay goes into the op as ``l2_decay`` (the parameter's own
L2Decay, else the optimizer's float or L2Decay); an L1Decay is added to the gradient first, as
PaddlePaddle's Momentum does."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import (
    Optimizer,
    check_multi_precision,
    regularization_of,
)
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import L2Decay, WeightDecayRegularizer, parameter_regularizer

__all__ = ["Momentum"]

# The merged ops' master_param: an empty list, which they read as none, rather than None, for
# which the generated API leaves its cached fast path (it reads an optional Tensor[] as a list).
NO_MASTER_COPIES: list[Tensor] = []
_VELOCITY = (Accumulator("velocity"),)


class Momentum(Optimizer):
    """Momentum SGD (PaddlePaddle's ``momentum_`` / ``merged_momentum_``), with Nesterov's
    variant; L2 weight decay is applied inside the op as ``l2_decay``, L1 to the gradient."""

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        momentum: float = 0.9,
        parameters: Iterable[Tensor] | None = (),
        use_nesterov: bool = False,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        rescale_grad: float = 1.0,
        use_multi_tensor: bool = True,
        name: str | None = None,
    ) -> None:
        if momentum is None or isinstance(momentum, bool) or not isinstance(momentum, (int, float)):
            raise InvalidArgumentError(f"Momentum: momentum must be a number, got {momentum!r}")
        regularization = regularization_of(weight_decay, "Momentum")
        # L2 decay is fused into the op; anything else is the base class's, on the gradient
        fused = isinstance(regularization, L2Decay)
        super().__init__(
            learning_rate, parameters, None if fused else regularization, grad_clip, name
        )
        check_multi_precision("Momentum", multi_precision, self._parameters)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._coeff = regularization._coeff if fused else None
        self._rescale_grad = float(rescale_grad)
        self._use_multi_tensor = bool(use_multi_tensor)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _VELOCITY

    def _op_regularization(self, parameter: Any) -> tuple[str, float]:
        """The op's (regularization_method, regularization_coeff) for ``parameter``: its own
        L2Decay's, none when it has another regularizer (added to the gradient), else the
        optimizer's L2 decay."""
        own = parameter_regularizer(parameter)
        if isinstance(own, L2Decay):
            return "l2_decay", float(own._coeff)
        if own is not None or self._coeff is None:
            return "", 0.0
        return "l2_decay", float(self._coeff)

    def _regularized(self, parameter: Any, grad: Any) -> Any:
        """A parameter's own L2Decay is fused into the op: its gradient is left as it is."""
        if isinstance(parameter_regularizer(parameter), L2Decay):
            return grad
        return super()._regularized(parameter, grad)

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        method, coeff = self._op_regularization(parameter)
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
        regularizations = [self._op_regularization(p) for p in params]
        fused = any(method for method, _ in regularizations)
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
                    [method for method, _ in regularizations] if fused else [],
                    [coeff for _, coeff in regularizations] if fused else [],
                    False,
                    self._rescale_grad,
                ),
            )
        ]
