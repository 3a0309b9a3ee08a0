"""``phi.optimizer``: runtime/optimizer.py's SGD, Momentum, Adam and AdamW, taking a float or a
learning-rate scheduler (``phi.optimizer.lr``) as ``learning_rate``, as PaddlePaddle's do."""

from __future__ import annotations

import inspect
from typing import Any

from phiops.runtime import optimizer as _base
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn import lr

__all__ = ["SGD", "Momentum", "Adam", "AdamW", "lr"]


class _Scheduled:
    """Reads the scheduler's current rate before each step."""

    def __init__(self, learning_rate: Any = 0.001, *args: Any, **kwargs: Any) -> None:
        scheduler = learning_rate if isinstance(learning_rate, lr.LRScheduler) else None
        self._scheduler = None  # the base class sets the first rate through set_lr
        rate = scheduler() if scheduler is not None else learning_rate
        super().__init__(rate, *args, **kwargs)  # type: ignore[call-arg]
        self._scheduler = scheduler

    def step(self) -> None:
        if self._scheduler is not None:
            rate = self._scheduler()
            if rate != self.get_lr():  # type: ignore[attr-defined]
                _base.Optimizer.set_lr(self, rate)  # type: ignore[arg-type]
        super().step()  # type: ignore[misc]

    def set_lr(self, value: float) -> None:
        if self._scheduler is not None:
            raise InvalidArgumentError(
                "set_lr: this optimizer's learning rate comes from an LRScheduler; step the scheduler"
            )
        super().set_lr(value)  # type: ignore[misc]


class SGD(_Scheduled, _base.SGD):
    pass


class Momentum(_Scheduled, _base.Momentum):
    pass


class Adam(_Scheduled, _base.Adam):
    pass


class AdamW(_Scheduled, _base.AdamW):
    pass


# The mixin takes (learning_rate, *args, **kwargs); what a reader of help() or an IDE needs is the
# optimizer's own parameters, which are the base class's.
for _optimizer in (SGD, Momentum, Adam, AdamW):
    _optimizer.__signature__ = inspect.signature(_optimizer.__mro__[2])
    _optimizer.__doc__ = _optimizer.__mro__[2].__doc__
