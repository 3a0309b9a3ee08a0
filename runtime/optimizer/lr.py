"""Learning-rate schedulers with PaddlePaddle's interface (``paddle.optimizer.lr``): call
``step()`` once per epoch (or per iteration); ``scheduler()`` / ``get_lr()`` is the rate."""

from __future__ import annotations

import math

from phiops.runtime.errors import InvalidArgumentError

__all__ = ["LRScheduler", "StepDecay", "CosineAnnealingDecay"]


class LRScheduler:
    def __init__(
        self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not isinstance(learning_rate, (int, float)) or learning_rate < 0:
            raise InvalidArgumentError(
                f"{type(self).__name__}: learning_rate must be a number >= 0, got {learning_rate!r}"
            )
        self.base_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.last_lr = self.base_lr
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def get_lr(self) -> float:
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        self.last_lr = self.get_lr()

    def state_dict(self) -> dict:
        return {"last_epoch": self.last_epoch, "last_lr": self.last_lr}

    def set_state_dict(self, state: dict) -> None:
        self.last_epoch, self.last_lr = state["last_epoch"], state["last_lr"]


class StepDecay(LRScheduler):
    """base_lr * gamma ** (epoch // step_size)."""

    def __init__(
        self,
        learning_rate: float,
        step_size: int,
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(step_size, int) or step_size <= 0:
            raise InvalidArgumentError(
                f"StepDecay: step_size must be a positive int, got {step_size!r}"
            )
        if gamma >= 1.0:
            raise InvalidArgumentError(f"StepDecay: gamma must be < 1.0, got {gamma}")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class CosineAnnealingDecay(LRScheduler):
    """eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2 (PaddlePaddle's closed form)."""

    def __init__(
        self,
        learning_rate: float,
        T_max: int,
        eta_min: float = 0.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:  # noqa: N803
        if not isinstance(T_max, int) or T_max <= 0:
            raise InvalidArgumentError(
                f"CosineAnnealingDecay: T_max must be a positive int, got {T_max!r}"
            )
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return (
            self.eta_min
            + (self.base_lr - self.eta_min)
            * (1 + math.cos(math.pi * self.last_epoch / self.T_max))
            / 2
        )
