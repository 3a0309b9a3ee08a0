"""Learning-rate schedulers with PaddlePaddle 3.3.1's interface (``paddle.optimizer.lr``): call
``step()`` once per epoch (or per iteration); ``scheduler()`` is the rate.

Each scheduler computes its rate as PaddlePaddle's does, operation for operation, so the floats
agree to the last bit: some (CosineAnnealingDecay, LinearLR) are recursive, from ``last_lr``, and
``step(epoch)`` jumps with a closed form where PaddlePaddle has one. ``state_dict()`` holds
``last_epoch`` and ``last_lr`` (and ReduceOnPlateau's counters, LinearWarmup's inner scheduler
under ``LinearWarmup_LR``).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "LRScheduler",
    "NoamDecay",
    "PiecewiseDecay",
    "NaturalExpDecay",
    "InverseTimeDecay",
    "PolynomialDecay",
    "LinearWarmup",
    "ExponentialDecay",
    "MultiStepDecay",
    "StepDecay",
    "LambdaDecay",
    "ReduceOnPlateau",
    "CosineAnnealingDecay",
    "MultiplicativeDecay",
    "OneCycleLR",
    "CyclicLR",
    "LinearLR",
    "CosineAnnealingWarmRestarts",
]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_number(kind: str, label: str, value: Any) -> None:
    if not _is_number(value):
        raise InvalidArgumentError(
            f"{kind}: {label} must be a float or an int, got {type(value).__name__}"
        )


def _check_positive_int(kind: str, label: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidArgumentError(f"{kind}: {label} must be a positive int, got {value!r}")


class LRScheduler:
    """The base class: ``base_lr``, ``last_epoch`` (the number of ``step()`` calls, -1 before
    the first, which the constructor makes) and ``last_lr`` (the rate ``__call__`` returns).
    A subclass gives ``get_lr()``, the rate at ``last_epoch``."""

    def __init__(
        self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        kind = type(self).__name__
        _check_number(kind, "learning_rate", learning_rate)
        if learning_rate < 0:
            raise InvalidArgumentError(f"{kind}: learning_rate must be >= 0, got {learning_rate}")
        if not isinstance(last_epoch, int) or isinstance(last_epoch, bool):
            raise InvalidArgumentError(f"{kind}: last_epoch must be an int, got {last_epoch!r}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        """The current learning rate."""
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or jump to ``epoch``) and compute the new rate."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            self.last_lr = self._closed_form_lr()
        self._report()

    def _closed_form_lr(self) -> float:
        """The rate at ``last_epoch`` after a jump; ``get_lr()`` unless it is recursive."""
        return self.get_lr()

    def _report(self) -> None:
        if self.verbose:
            print(
                f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                f"{self.last_lr}."
            )

    def get_lr(self) -> float:
        """The rate at ``last_epoch`` (each scheduler's own formula)."""
        raise NotImplementedError(f"{type(self).__name__} must define get_lr()")

    def state_keys(self) -> None:
        """Set ``self.keys``: the attributes ``state_dict()`` saves."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state: ``last_epoch`` and ``last_lr`` (and a subclass's own)."""
        self.state_keys()
        state: dict[str, Any] = {}
        for key in self.keys:
            if key not in self.__dict__:
                continue
            value = self.__dict__[key]
            if hasattr(value, "numpy") and hasattr(value, "size"):
                if value.size != 1:
                    raise InvalidArgumentError(
                        f"{type(self).__name__}.state_dict: '{key}' is a Tensor of "
                        f"{value.size} elements; it must have one"
                    )
                value = float(value)
            state[key] = value
        return state

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a ``state_dict()``; a missing key is an InvalidArgumentError naming it, extra
        keys a warning (as PaddlePaddle)."""
        kind = type(self).__name__
        if not isinstance(state_dict, dict):
            raise InvalidArgumentError(
                f"{kind}.set_state_dict: expected a dict, got {type(state_dict).__name__}"
            )
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise InvalidArgumentError(
                    f"{kind}.set_state_dict: the state has no '{key}' (it needs "
                    f"{', '.join(self.keys)})"
                )
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn(
                f"{kind}.set_state_dict: the state has keys this scheduler does not use: "
                f"{sorted(set(state_dict) - set(self.keys))}",
                stacklevel=2,
            )

    set_dict = set_state_dict


class NoamDecay(LRScheduler):
    """``learning_rate * d_model ** -0.5 * min(epoch ** -0.5, warmup_steps ** -1.5 * epoch)``
    (the Transformer's schedule; 1 in place of ``epoch ** -0.5`` at epoch 0)."""

    def __init__(
        self,
        d_model: int,
        warmup_steps: int,
        learning_rate: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_number("NoamDecay", "d_model", d_model)
        if d_model <= 0:
            raise InvalidArgumentError(f"NoamDecay: d_model must be > 0, got {d_model}")
        _check_number("NoamDecay", "warmup_steps", warmup_steps)
        if warmup_steps <= 0:
            raise InvalidArgumentError(f"NoamDecay: warmup_steps must be > 0, got {warmup_steps}")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch**-0.5
        b = self.warmup_steps**-1.5 * self.last_epoch
        return self.base_lr * (self.d_model**-0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    """``values[i]`` while the epoch is below ``boundaries[i]``, then the last value."""

    def __init__(
        self,
        boundaries: Sequence[int],
        values: Sequence[float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        for label, given in (("boundaries", boundaries), ("values", values)):
            if not isinstance(given, (list, tuple)):
                raise InvalidArgumentError(
                    f"PiecewiseDecay: {label} must be a list or a tuple, got {type(given).__name__}"
                )
        if len(boundaries) == 0:
            raise InvalidArgumentError("PiecewiseDecay: boundaries is empty")
        if len(values) <= len(boundaries):
            raise InvalidArgumentError(
                f"PiecewiseDecay: values must have one more element than boundaries, got "
                f"{len(values)} values for {len(boundaries)} boundaries"
            )
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[len(self.values) - 1]


class NaturalExpDecay(LRScheduler):
    """``learning_rate * exp(-gamma * epoch)``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        _check_number("NaturalExpDecay", "gamma", gamma)
        if gamma <= 0.0:
            raise InvalidArgumentError(
                f"NaturalExpDecay: gamma must be > 0 so that the rate decays, got {gamma}"
            )
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``learning_rate / (1 + gamma * epoch)``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        _check_number("InverseTimeDecay", "gamma", gamma)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """``(learning_rate - end_lr) * (1 - epoch / decay_steps) ** power + end_lr``, the epoch
    held at ``decay_steps``; with ``cycle`` the decay restarts, ``decay_steps`` growing to the
    next multiple above the epoch."""

    def __init__(
        self,
        learning_rate: float,
        decay_steps: int,
        end_lr: float = 0.0001,
        power: float = 1.0,
        cycle: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_positive_int("PolynomialDecay", "decay_steps", decay_steps)
        _check_number("PolynomialDecay", "end_lr", end_lr)
        _check_number("PolynomialDecay", "power", power)
        if power <= 0.0:
            raise InvalidArgumentError(
                f"PolynomialDecay: power must be > 0 so that the rate decays, got {power}"
            )
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch = self.last_epoch
        decay_steps = self.decay_steps
        if self.cycle:
            cycles = math.ceil(float(self.last_epoch) / float(self.decay_steps))
            if self.last_epoch == 0:
                cycles = 1
            decay_steps = self.decay_steps * cycles
        else:
            epoch = min(self.last_epoch, self.decay_steps)
        return (self.base_lr - self.end_lr) * (
            (1 - float(epoch) / float(decay_steps)) ** self.power
        ) + self.end_lr


class LinearWarmup(LRScheduler):
    """From ``start_lr`` to ``end_lr`` linearly over ``warmup_steps``, then ``learning_rate``:
    a float, or a scheduler stepped to ``epoch - warmup_steps``."""

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        warmup_steps: int,
        start_lr: float,
        end_lr: float,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not (_is_number(learning_rate) or isinstance(learning_rate, LRScheduler)):
            raise InvalidArgumentError(
                "LinearWarmup: learning_rate must be a float, an int or an LRScheduler, got "
                f"{type(learning_rate).__name__}"
            )
        _check_positive_int("LinearWarmup", "warmup_steps", warmup_steps)
        _check_number("LinearWarmup", "start_lr", start_lr)
        _check_number("LinearWarmup", "end_lr", end_lr)
        if end_lr <= start_lr:
            raise InvalidArgumentError(
                f"LinearWarmup: end_lr ({end_lr}) must be greater than start_lr ({start_lr})"
            )
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict[str, Any]:
        """The base state, and the wrapped scheduler's under ``LinearWarmup_LR``."""
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load the base state and the wrapped scheduler's (``LinearWarmup_LR``)."""
        if isinstance(self.learning_rate, LRScheduler):
            if not isinstance(state_dict, dict) or "LinearWarmup_LR" not in state_dict:
                raise InvalidArgumentError(
                    "LinearWarmup.set_state_dict: the state has no 'LinearWarmup_LR' (this "
                    "warmup wraps an LRScheduler)"
                )
            base = {k: v for k, v in state_dict.items() if k != "LinearWarmup_LR"}
            super().set_state_dict(base)
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])
        else:
            super().set_state_dict(state_dict)

    set_dict = set_state_dict

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(
                self.warmup_steps
            ) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """``learning_rate * gamma ** epoch``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        _check_number("ExponentialDecay", "gamma", gamma)
        if not 0.0 < gamma < 1.0:
            raise InvalidArgumentError(
                f"ExponentialDecay: gamma must be in (0, 1) so that the rate decays, got {gamma}"
            )
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma**self.last_epoch)


class MultiStepDecay(LRScheduler):
    """``learning_rate * gamma ** (the number of milestones the epoch has reached)``."""

    def __init__(
        self,
        learning_rate: float,
        milestones: Sequence[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(milestones, (tuple, list)):
            raise InvalidArgumentError(
                f"MultiStepDecay: milestones must be a list or a tuple, got "
                f"{type(milestones).__name__}"
            )
        if not all(milestones[i] < milestones[i + 1] for i in range(len(milestones) - 1)):
            raise InvalidArgumentError(
                f"MultiStepDecay: milestones must increase, got {list(milestones)}"
            )
        _check_number("MultiStepDecay", "gamma", gamma)
        if gamma >= 1.0:
            raise InvalidArgumentError(f"MultiStepDecay: gamma must be < 1.0, got {gamma}")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, milestone in enumerate(self.milestones):
            if self.last_epoch < milestone:
                return self.base_lr * (self.gamma**i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class StepDecay(LRScheduler):
    """``learning_rate * gamma ** (epoch // step_size)``."""

    def __init__(
        self,
        learning_rate: float,
        step_size: int,
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_positive_int("StepDecay", "step_size", step_size)
        _check_number("StepDecay", "gamma", gamma)
        if gamma >= 1.0:
            raise InvalidArgumentError(f"StepDecay: gamma must be < 1.0, got {gamma}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    """``learning_rate * lr_lambda(epoch)``."""

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise InvalidArgumentError(
                f"LambdaDecay: lr_lambda must be callable, got {type(lr_lambda).__name__}"
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` when ``metrics`` (given to ``step``) has not improved
    for more than ``patience`` epochs, then wait ``cooldown`` epochs; never below ``min_lr``."""

    def __init__(
        self,
        learning_rate: float,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float = 0,
        epsilon: float = 1e-8,
        verbose: bool = False,
    ) -> None:
        kind = "ReduceOnPlateau"
        mode = str(mode).lower()
        if mode not in ("min", "max"):
            raise InvalidArgumentError(f"{kind}: mode must be 'min' or 'max', got {mode!r}")
        _check_number(kind, "factor", factor)
        if factor >= 1.0:
            raise InvalidArgumentError(f"{kind}: factor must be < 1.0, got {factor}")
        threshold_mode = str(threshold_mode).lower()
        if threshold_mode not in ("rel", "abs"):
            raise InvalidArgumentError(
                f"{kind}: threshold_mode must be 'rel' or 'abs', got {threshold_mode!r}"
            )
        _check_number(kind, "learning_rate", learning_rate)
        if learning_rate < 0:
            raise InvalidArgumentError(f"{kind}: learning_rate must be >= 0, got {learning_rate}")
        self.mode = mode
        self.factor = factor
        self.threshold_mode = threshold_mode
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best: Any = None
        self.num_bad_epochs = 0
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def state_keys(self) -> None:
        """The counters, ``best`` and the base keys."""
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        """Record one epoch's ``metrics`` (a number, or a one-element Tensor or array) and
        reduce the rate if it has stopped improving."""
        if isinstance(metrics, np.ndarray) or hasattr(metrics, "numpy"):
            size = metrics.size
            if size != 1:
                raise InvalidArgumentError(
                    f"ReduceOnPlateau.step: metrics must have one element, got {size} (reduce "
                    "it with mean first)"
                )
            metrics = float(np.asarray(metrics).ravel()[0])
        elif not isinstance(metrics, (int, float, np.floating, np.integer)) or isinstance(
            metrics, bool
        ):
            raise InvalidArgumentError(
                "ReduceOnPlateau.step: metrics must be a number, a Tensor or a numpy array, got "
                f"{type(metrics).__name__}"
            )
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._report()

    def _is_better(self, current: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < best - best * self.threshold
        if self.mode == "min":
            return current < best - self.threshold
        if self.threshold_mode == "rel":
            return current > best + best * self.threshold
        return current > best + self.threshold


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from ``learning_rate`` to ``eta_min`` over ``T_max`` epochs (SGDR
    without restarts), computed recursively from the last rate as PaddlePaddle does;
    ``step(epoch)`` uses the closed form."""

    def __init__(
        self,
        learning_rate: float,
        T_max: int,  # noqa: N803
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_positive_int("CosineAnnealingDecay", "T_max", T_max)
        _check_number("CosineAnnealingDecay", "eta_min", eta_min)
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return (
                self.last_lr
                + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
            )
        return (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / (
            1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)
        ) * (self.last_lr - self.eta_min) + self.eta_min

    def _closed_form_lr(self) -> float:
        return (
            self.eta_min
            + (self.base_lr - self.eta_min)
            * (1 + math.cos(math.pi * self.last_epoch / self.T_max))
            / 2
        )


class MultiplicativeDecay(LRScheduler):
    """``learning_rate * lr_lambda(1) * ... * lr_lambda(epoch)``."""

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise InvalidArgumentError(
                f"MultiplicativeDecay: lr_lambda must be callable, got {type(lr_lambda).__name__}"
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        rate = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            rate = rate * self.lr_lambda(epoch)
        return rate


class OneCycleLR(LRScheduler):
    """The one-cycle policy: from ``max_learning_rate / divide_factor`` up to
    ``max_learning_rate`` over ``phase_pct`` of ``total_steps``, then down to
    ``end_learning_rate`` (with ``three_phase``, back to the initial rate first), annealed by
    cosine or linearly. Stepping past ``total_steps`` is an error."""

    def __init__(
        self,
        max_learning_rate: float,
        total_steps: int,
        divide_factor: float = 25.0,
        end_learning_rate: float = 0.0001,
        phase_pct: float = 0.3,
        anneal_strategy: str = "cos",
        three_phase: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        kind = "OneCycleLR"
        for label, value in (
            ("max_learning_rate", max_learning_rate),
            ("end_learning_rate", end_learning_rate),
            ("divide_factor", divide_factor),
        ):
            _check_number(kind, label, value)
            if value < 0:
                raise InvalidArgumentError(f"{kind}: {label} must be >= 0, got {value}")
        _check_positive_int(kind, "total_steps", total_steps)
        if not isinstance(phase_pct, float):
            raise InvalidArgumentError(
                f"{kind}: phase_pct must be a float, got {type(phase_pct).__name__}"
            )
        if not 0 <= phase_pct <= 1:
            raise InvalidArgumentError(f"{kind}: phase_pct must be in [0, 1], got {phase_pct}")
        if anneal_strategy not in ("cos", "linear"):
            raise InvalidArgumentError(
                f"{kind}: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}"
            )
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        if three_phase:
            if phase_pct >= 0.5:
                raise InvalidArgumentError(
                    f"{kind}: with three_phase, phase_pct must be < 0.5, got {phase_pct}"
                )
            self._step_config = [
                0,
                phase_pct * total_steps - 1,
                2 * phase_pct * total_steps - 2,
                total_steps - 1,
                total_steps - 1,
            ]
            self._steps_size = [
                self._step_config[1] - self._step_config[0],
                self._step_config[2] - self._step_config[1],
                self._step_config[3] - self._step_config[2],
                self._step_config[3] - self._step_config[2],
            ]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            self._step_config = [0, phase_pct * total_steps - 1, total_steps - 1, total_steps - 1]
            self._steps_size = [
                self._step_config[1] - self._step_config[0],
                self._step_config[2] - self._step_config[1],
                self._step_config[2] - self._step_config[1],
            ]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        self.anneal_func = (
            self._cos_annealing if anneal_strategy == "cos" else self._linear_annealing
        )
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        cos_out = math.cos(math.pi * pct) + 1
        return end_lr + (start_lr - end_lr) / 2.0 * cos_out

    @staticmethod
    def _linear_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        current = self.last_epoch
        if current > self.total_steps:
            raise InvalidArgumentError(
                f"OneCycleLR: stepped {current} times, past total_steps ({self.total_steps})"
            )
        last_phase = len(self._lr_config) - 2
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if current <= end_step or i == last_phase:
                percentage = (current - self._step_config[i]) / size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], percentage)
        raise AssertionError("unreachable: the last phase always matches")


class CyclicLR(LRScheduler):
    """Cycle between ``base_learning_rate`` and ``max_learning_rate`` (up in ``step_size_up``
    steps, down in ``step_size_down``), the amplitude scaled by ``mode`` ('triangular',
    'triangular2', 'exp_range') or by ``scale_fn`` of the cycle or the iteration."""

    def __init__(
        self,
        base_learning_rate: float,
        max_learning_rate: float,
        step_size_up: int,
        step_size_down: int | None = None,
        mode: str = "triangular",
        exp_gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: str = "cycle",
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        kind = "CyclicLR"
        _check_number(kind, "max_learning_rate", max_learning_rate)
        if max_learning_rate < 0:
            raise InvalidArgumentError(
                f"{kind}: max_learning_rate must be >= 0, got {max_learning_rate}"
            )
        _check_positive_int(kind, "step_size_up", step_size_up)
        if step_size_down is not None:
            _check_positive_int(kind, "step_size_down", step_size_down)
        if not isinstance(exp_gamma, float):
            raise InvalidArgumentError(
                f"{kind}: exp_gamma must be a float, got {type(exp_gamma).__name__}"
            )
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise InvalidArgumentError(
                f"{kind}: mode must be 'triangular', 'triangular2' or 'exp_range' when scale_fn "
                f"is None, got {mode!r}"
            )
        if scale_mode not in ("cycle", "iterations"):
            raise InvalidArgumentError(
                f"{kind}: scale_mode must be 'cycle' or 'iterations', got {scale_mode!r}"
            )
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = self._triangular_scale_fn, "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = self._triangular2_scale_fn, "cycle"
        else:
            self.scale_fn, self.scale_mode = self._exp_range_scale_fn, "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular_scale_fn(self, x: float) -> float:
        return 1.0

    def _triangular2_scale_fn(self, x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    def _exp_range_scale_fn(self, x: float) -> float:
        return self.gamma**x

    def get_lr(self) -> float:
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct_per_cycle = 1.0 + iterations / self.cycle_size - cycle
        if pct_per_cycle <= self.step_up_pct:
            scale_factor = pct_per_cycle / self.step_up_pct
        else:
            scale_factor = (1 - pct_per_cycle) / (1 - self.step_up_pct)
        base_height = self.amplitude * scale_factor
        scaled_by = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + base_height * self.scale_fn(scaled_by)


class LinearLR(LRScheduler):
    """From ``learning_rate * start_factor`` to ``learning_rate * end_factor`` linearly over
    ``total_steps``, then constant (recursive from the last rate, as PaddlePaddle)."""

    def __init__(
        self,
        learning_rate: float,
        total_steps: int,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        kind = "LinearLR"
        _check_number(kind, "start_factor", start_factor)
        if not 0 < start_factor <= 1.0:
            raise InvalidArgumentError(
                f"{kind}: start_factor must be in (0, 1], got {start_factor}"
            )
        _check_number(kind, "end_factor", end_factor)
        if not 0 <= end_factor <= 1.0:
            raise InvalidArgumentError(f"{kind}: end_factor must be in [0, 1], got {end_factor}")
        _check_positive_int(kind, "total_steps", total_steps)
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        base = self.total_steps * self.start_factor
        change = self.end_factor - self.start_factor
        factor = 1.0 + change / (base + (self.last_epoch - 1) * change)
        return self.last_lr * factor


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``learning_rate`` to ``eta_min`` that restarts after ``T_0``
    epochs, each period ``T_mult`` times the last (SGDR)."""

    def __init__(
        self,
        learning_rate: float,
        T_0: int,  # noqa: N803
        T_mult: int = 1,  # noqa: N803
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        _check_positive_int("CosineAnnealingWarmRestarts", "T_0", T_0)
        if not isinstance(T_mult, int) or isinstance(T_mult, bool) or T_mult < 1:
            raise InvalidArgumentError(
                f"CosineAnnealingWarmRestarts: T_mult must be an int >= 1, got {T_mult!r}"
            )
        _check_number("CosineAnnealingWarmRestarts", "eta_min", eta_min)
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur: float = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return (
            self.eta_min
            + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
        )

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch, restarting at the end of a period, or jump to ``epoch``."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise InvalidArgumentError(
                    f"CosineAnnealingWarmRestarts.step: epoch must be >= 0, got {epoch}"
                )
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult**n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._report()
