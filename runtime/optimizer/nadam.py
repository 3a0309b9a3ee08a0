"""NAdam (PaddlePaddle's ``nadam_``) and RAdam (``radam_``): per parameter, powers kept per
element (PaddlePaddle's accumulators of the parameter's shape, starting at 1) and the two
moments."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["NAdam", "RAdam"]


def _check_adam_like(
    kind: str, learning_rate: Any, beta1: float, beta2: float, epsilon: float
) -> None:
    require_number(kind, "learning_rate", learning_rate, scheduler=True)
    if not isinstance(learning_rate, LRScheduler) and learning_rate < 0:
        raise InvalidArgumentError(f"{kind}: learning_rate must be >= 0, got {learning_rate!r}")
    require_number(kind, "epsilon", epsilon, minimum=0.0)
    for label, value in (("beta1", beta1), ("beta2", beta2)):
        require_number(kind, label, value)
        if not 0 <= value < 1:
            raise InvalidArgumentError(f"{kind}: {label} must be in [0, 1), got {value!r}")


_NADAM_STATE = (
    Accumulator("momentum_decay_pow", 1.0),
    Accumulator("beta2_pow", 1.0),
    Accumulator("mu_product", 1.0),
    Accumulator("moment1"),
    Accumulator("moment2"),
)
_RADAM_STATE = (
    Accumulator("beta1_pow", 1.0),
    Accumulator("beta2_pow", 1.0),
    Accumulator("rho", 1.0),
    Accumulator("moment1"),
    Accumulator("moment2"),
)


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum and the momentum schedule
    ``beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))``. A parameter group may set ``beta1``,
    ``beta2``, ``epsilon`` and ``momentum_decay``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"beta1", "beta2", "epsilon", "momentum_decay"})

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.002,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1.0e-8,
        momentum_decay: float = 0.004,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        _check_adam_like("NAdam", learning_rate, beta1, beta2, epsilon)
        require_number("NAdam", "momentum_decay", momentum_decay, minimum=0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)
        self._momentum_decay = float(momentum_decay)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _NADAM_STATE

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        return OpCall(
            "nadam_",
            (
                parameter,
                grad,
                rate,
                *state,
                None,
                self._option(parameter, "beta1", self._beta1),
                self._option(parameter, "beta2", self._beta2),
                self._option(parameter, "epsilon", self._epsilon),
                self._option(parameter, "momentum_decay", self._momentum_decay),
                False,
            ),
        )


class RAdam(Optimizer):
    """RAdam: Adam with its adaptive term rectified, and plain momentum while the variance
    of the adaptive term is not tractable (the first steps). A parameter group may set
    ``beta1``, ``beta2`` and ``epsilon``."""

    _supports_masters = True  # under amp.decorate(level="O2"): float32 master weights

    _group_options = frozenset({"beta1", "beta2", "epsilon"})

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1.0e-8,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        _check_adam_like("RAdam", learning_rate, beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = float(beta1), float(beta2), float(epsilon)

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return _RADAM_STATE

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        return OpCall(
            "radam_",
            (
                parameter,
                grad,
                rate,
                *state,
                None,
                self._option(parameter, "beta1", self._beta1),
                self._option(parameter, "beta2", self._beta2),
                self._option(parameter, "epsilon", self._epsilon),
                False,
            ),
        )
