"""Momentum SGD (PaddlePaddle's ``momentum_``; ``merged_momentum_`` for the multi-tensor step):
one ``velocity`` per parameter. L2 decay goes into the op as ``l2_decay`` (the parameter's own
L2Decay, else the optimizer's float or L2Decay); an L1Decay is added to the gradient first, as
PaddlePaddle's Momentum does."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import L2Decay, WeightDecayRegularizer

__all__ = ["Momentum"]

# The merged ops' master_param: an empty list, which they read as none, rather than None, for
# which the generated API leaves its cached fast path (it reads an optional Tensor[] as a list).
NO_MASTER_COPIES: list[Tensor] = []
_VELOCITY = (Accumulator("velocity"),)


class Momentum(Optimizer):
    """Momentum SGD (PaddlePaddle's ``momentum_`` / ``merged_momentum_``), with Nesterov's
    variant; L2 weight decay is applied inside the op as ``l2_decay``, L1 to the gradient."""

    _supports_masters = True

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
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        keep_masters(self, "Momentum", multi_precision)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)
        self._use_multi_tensor = bool(use_multi_tensor)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _VELOCITY

    def _own_regularizer(self, parameter: Any) -> WeightDecayRegularizer | None:
        """PaddlePaddle's Momentum keeps a group's L2 decay out of ``param.regularizer`` (it
        becomes the group's fused ``l2_decay``): a group's other decay, else the ParamAttr's."""
        index = self._group_of.get(id(parameter))
        if index is None:
            return super()._own_regularizer(parameter)
        decay = self._param_groups[index]["weight_decay"]
        return None if isinstance(decay, L2Decay) else decay

    def _op_regularization(self, parameter: Any) -> tuple[str, float]:
        """The op's (regularization_method, regularization_coeff) for ``parameter``, as
        PaddlePaddle's Momentum fuses L2 decay: the parameter's own L2Decay; none when it has
        another regularizer (that goes on the gradient); else its group's or the optimizer's
        weight decay when that is an L2Decay."""
        own = self._own_regularizer(parameter)
        if isinstance(own, L2Decay):
            return "l2_decay", float(own._coeff)
        if own is not None:
            return "", 0.0
        index = self._group_of.get(id(parameter))
        default = (
            self._regularization if index is None else self._param_groups[index]["weight_decay"]
        )
        if isinstance(default, L2Decay):
            return "l2_decay", float(default._coeff)
        return "", 0.0

    def _regularized(self, parameter: Any, grad: Any) -> Any:
        """The gradient with the decay PaddlePaddle's Momentum adds to it: the parameter's own
        regularizer unless it is an L2Decay (fused), else the optimizer's unless it is one."""
        own = self._own_regularizer(parameter)
        if isinstance(own, L2Decay):
            return grad
        term = own if own is not None else self._regularization
        if term is None or isinstance(term, L2Decay):
            return grad
        return op_api("add_n")([grad, term(parameter, grad)])

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
