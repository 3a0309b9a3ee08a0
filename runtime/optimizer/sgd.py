"""SGD: ``param -= learning_rate * grad`` (PaddlePaddle's ``sgd_``); no state."""

from __future__ import annotations

from typing import Any, Iterable

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters
from phiops.runtime.optimizer.rule import OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """param -= learning_rate * grad (PaddlePaddle's ``sgd_``)."""

    _supports_masters = True

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        parameters: Iterable[Tensor] | None = (),
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        keep_masters(self, "SGD", multi_precision)

    # PaddlePaddle 3.3.1's CPU sgd_ has a bfloat16 kernel, which takes the master weight
    _master_kernel_dtypes = (DataType.BFLOAT16,)

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        return OpCall("sgd_", (parameter, rate, grad, None, False))
