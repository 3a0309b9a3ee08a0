"""ASGD (PaddlePaddle's ``asgd_``, a stochastic average gradient): per parameter ``d`` (the
sum of the stored gradients), ``y`` (``batch_num`` stored gradients, one per batch slot) and
``m`` (the number of steps taken, int64). A step uses slot ``m % batch_num``: ``d += grad -
y[slot]``, ``y[slot] = grad``, ``param -= learning_rate / min(m + 1, batch_num) * d``."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD: each step replaces the gradient stored for its batch slot and moves the parameter
    along the average of the stored gradients."""

    _supports_masters = True

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        batch_num: int = 1,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        require_number("ASGD", "learning_rate", learning_rate, scheduler=True)
        if isinstance(batch_num, bool) or not isinstance(batch_num, int) or batch_num <= 0:
            raise InvalidArgumentError(f"ASGD: batch_num must be a positive int, got {batch_num!r}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        keep_masters(self, "ASGD", multi_precision)
        self._n = batch_num

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return (
            Accumulator("d"),
            Accumulator("y", prefix=(self._n,)),
            Accumulator("m", 0, (1,), DataType.INT64),
        )

    def _check_static(self) -> None:
        super()._check_static()
        raise UnimplementedError(
            "ASGD.minimize() in a static program is not implemented (its slot of y is chosen "
            "on the host each step); use it eagerly"
        )

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        d, y, count = state
        return OpCall("asgd_", (parameter, grad, rate, d, y, count, None, False))

    def _update(
        self, parameter: Tensor, grad: Tensor, rate: Tensor, state: tuple[Any, ...]
    ) -> None:
        """PaddlePaddle's eager step: the slot ``m % batch_num``, then ``m += 1``, then
        ``asgd_`` on that slot of ``y`` with ``n = min(m, batch_num)``."""
        d, ys, m = state
        steps = int(m.numpy().reshape(-1)[0])
        slot = steps % self._n
        m.set_value(np.array([steps + 1], np.int64))
        y = to_tensor(ys.numpy()[slot], place=parameter.place)
        count = to_tensor(np.array([min(steps + 1, self._n)], np.int64), place=parameter.place)
        super()._update(parameter, grad, rate, (d, y, count))
        ys.array[slot] = y.array
