"""Rprop (PaddlePaddle's ``rprop_``): per parameter ``prevs`` (the last gradient, 0 where its
sign flipped) and ``learning_rates`` (a step size per element, starting at the learning
rate); the op takes the step sizes as its learning rate, with ``learning_rate_range`` and
``etas`` as two-element tensors of the parameters' dtype."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters
from phiops.runtime.optimizer.rule import Accumulator, OpCall

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop: each element moves by its own step size against the sign of its gradient; the
    step grows by ``etas[1]`` while the sign holds and shrinks by ``etas[0]`` when it flips,
    within ``learning_rate_range``."""

    _supports_masters = True
    # rprop_'s learning_rate is the per-element step sizes (state), not the scalar rate
    _master_rate_argument = None

    def __init__(
        self,
        learning_rate: float = 0.001,
        learning_rate_range: tuple[float, float] = (1e-5, 50),
        parameters: Iterable[Tensor] | None = None,
        etas: tuple[float, float] = (0.5, 1.2),
        grad_clip: Any = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        if (
            learning_rate is None
            or isinstance(learning_rate, bool)
            or not isinstance(learning_rate, (int, float))
        ):
            raise InvalidArgumentError(
                f"Rprop: learning_rate must be a number (the initial step size), got "
                f"{learning_rate!r}"
            )
        low, high = _pair("learning_rate_range", learning_rate_range)
        if not 0.0 < low <= learning_rate <= high:
            raise InvalidArgumentError(
                "Rprop: 0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1] "
                f"must hold, got learning_rate {learning_rate!r} and range {(low, high)}"
            )
        minus, plus = _pair("etas", etas)
        if not 0.0 < minus < 1.0 < plus:
            raise InvalidArgumentError(
                f"Rprop: 0 < etas[0] < 1 < etas[1] must hold, got {(minus, plus)}"
            )
        # PaddlePaddle passes weight_decay=0.0 (an L2Decay of 0, which adds nothing)
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        keep_masters(self, "Rprop", multi_precision)
        self._range, self._etas = (low, high), (minus, plus)
        self._state_spec = (Accumulator("prevs"), Accumulator("learning_rates", learning_rate))
        # (dtype, place) -> (learning_rate_range, etas) as tensors
        self._constants: dict[object, tuple[Tensor, Tensor]] = {}

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return self._state_spec

    def _check_static(self) -> None:
        super()._check_static()
        raise UnimplementedError(
            "Rprop.minimize() in a static program is not implemented (its range and etas "
            "tensors are not built into programs); use it eagerly"
        )

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        prevs, rates = state
        # the constants in the dtype the op steps: a master weight's float32 when there is one
        owner = self._masters.get(id(parameter), parameter)
        key = (owner.dtype, parameter.place)
        constants = self._constants.get(key)
        if constants is None:
            dtype = owner.dtype.numpy_dtype
            constants = self._constants[key] = (
                to_tensor(np.array(self._range, dtype), place=parameter.place),
                to_tensor(np.array(self._etas, dtype), place=parameter.place),
            )
        return OpCall("rprop_", (parameter, grad, prevs, rates, None, *constants, False))


def _pair(label: str, value: Any) -> tuple[float, float]:
    try:
        first, second = value
        return float(first), float(second)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"Rprop: {label} must be two numbers, got {value!r}") from None
