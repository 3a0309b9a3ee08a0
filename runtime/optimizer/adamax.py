"""Adamax (PaddlePaddle's ``adamax_``): per parameter ``moment``, ``inf_norm`` and
``beta1_pow_acc``; the op reads the beta power, and the optimizer advances it after the step
(PaddlePaddle's ``_finish_update``: ``scale`` by ``beta1``; in a static program a ``scale_``
after every update op)."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.inplace import write_inplace
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax: Adam's first moment divided by an exponentially weighted infinity norm of the
    gradient. A parameter group may set ``beta1``, ``beta2`` and ``epsilon``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"beta1", "beta2", "epsilon"})
    _fill_options = {"beta1_pow_acc": "beta1"}

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-08,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        require_number("Adamax", "learning_rate", learning_rate, scheduler=True)
        for label, value in (("beta1", beta1), ("beta2", beta2)):
            require_number("Adamax", label, value)
            if not 0 <= value < 1:
                raise InvalidArgumentError(f"Adamax: {label} must be in [0, 1), got {value!r}")
        require_number("Adamax", "epsilon", epsilon, minimum=0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)
        self._state_spec = (
            Accumulator("moment"),
            Accumulator("inf_norm"),
            Accumulator("beta1_pow_acc", self._beta1, (1,)),
        )

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return self._state_spec

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        moment, inf_norm, beta1_pow = state
        return OpCall(
            "adamax_",
            (
                parameter,
                grad,
                rate,
                moment,
                inf_norm,
                beta1_pow,
                None,
                self._option(parameter, "beta1", self._beta1),
                self._option(parameter, "beta2", self._beta2),
                self._option(parameter, "epsilon", self._epsilon),
                False,
            ),
        )

    def _finish_calls(self, parameter: Any, state: tuple[Any, ...]) -> tuple[OpCall, ...]:
        """``beta1_pow = scale(beta1_pow, beta1)`` in place (``scale_``)."""
        beta1 = self._option(parameter, "beta1", self._beta1)
        return (OpCall("scale_", (state[2], beta1, 0.0, True)),)

    def _update(
        self, parameter: Tensor, grad: Tensor, rate: Tensor, state: tuple[Any, ...]
    ) -> None:
        """The ``adamax_`` step, then ``beta1_pow = scale(beta1_pow, beta1)`` in place."""
        super()._update(parameter, grad, rate, state)
        beta1_pow = state[2]
        beta1 = self._option(parameter, "beta1", self._beta1)
        write_inplace(beta1_pow, op_api("scale")(beta1_pow, beta1, 0.0, True))
