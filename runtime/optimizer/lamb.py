"""LAMB (PaddlePaddle's ``lamb_``): per parameter ``moment1``, ``moment2``, ``beta1_pow_acc``
and ``beta2_pow_acc``; its weight decay (``lamb_weight_decay``) is the op's, not a
regularizer, and ``exclude_from_weight_decay_fn(parameter)`` turns it off for a parameter."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters
from phiops.runtime.optimizer.rule import Accumulator, OpCall

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """LAMB: an Adam direction plus ``lamb_weight_decay * param``, scaled by the trust ratio
    ``||param|| / ||direction||``. A parameter group may set ``beta1``, ``beta2``,
    ``epsilon``, ``lamb_weight_decay`` and ``exclude_from_weight_decay_fn``."""

    _supports_masters = True

    _group_options = frozenset(
        {"beta1", "beta2", "epsilon", "lamb_weight_decay", "exclude_from_weight_decay_fn"}
    )
    _fill_options = {"beta1_pow_acc": "beta1", "beta2_pow_acc": "beta2"}

    def __init__(
        self,
        learning_rate: float | Any = 0.001,
        lamb_weight_decay: float = 0.01,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-6,
        parameters: Iterable[Tensor] | None = None,
        grad_clip: Any = None,
        exclude_from_weight_decay_fn: Callable[[Tensor], bool] | None = None,
        multi_precision: bool = False,
        always_adapt: bool = False,
        name: str | None = None,
    ) -> None:
        require_number("Lamb", "learning_rate", learning_rate, scheduler=True)
        for label, value in (
            ("lamb_weight_decay", lamb_weight_decay),
            ("beta1", beta1),
            ("beta2", beta2),
            ("epsilon", epsilon),
        ):
            require_number("Lamb", label, value)
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise InvalidArgumentError(
                "Lamb: exclude_from_weight_decay_fn must be callable or None, got "
                f"{type(exclude_from_weight_decay_fn).__name__}"
            )
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        keep_masters(self, "Lamb", multi_precision)
        self._lamb_weight_decay = float(lamb_weight_decay)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self.always_adapt = bool(always_adapt)
        self._state_spec = (
            Accumulator("moment1"),
            Accumulator("moment2"),
            Accumulator("beta1_pow_acc", self._beta1, (1,)),
            Accumulator("beta2_pow_acc", self._beta2, (1,)),
        )

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return self._state_spec

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        option = self._option
        exclude = option(
            parameter, "exclude_from_weight_decay_fn", self._exclude_from_weight_decay_fn
        )
        decay = option(parameter, "lamb_weight_decay", self._lamb_weight_decay)
        if exclude is not None and exclude(parameter):
            decay = 0.0
        moment1, moment2, beta1_pow, beta2_pow = state
        return OpCall(
            "lamb_",
            (
                parameter,
                grad,
                rate,
                moment1,
                moment2,
                beta1_pow,
                beta2_pow,
                None,
                None,
                decay,
                option(parameter, "beta1", self._beta1),
                option(parameter, "beta2", self._beta2),
                option(parameter, "epsilon", self._epsilon),
                self.always_adapt,
                False,
            ),
        )
