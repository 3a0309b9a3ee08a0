"""``GradScaler`` and ``AmpScaler``: PaddlePaddle's loss scaling for mixed-precision training.

``scale(loss)`` multiplies the loss by the scaling factor; the optimizer's step first unscales
the gradients (PaddlePaddle's ``check_finite_and_unscale_`` op for each dtype: times 1/scale,
and checked for NaN/Inf) and skips the update when one is not finite. With dynamic loss
scaling the factor is multiplied by ``decr_ratio`` after ``decr_every_n_nan_or_inf`` steps with
non-finite gradients, and by ``incr_ratio`` after ``incr_every_n_steps`` finite steps in a row.

As PaddlePaddle 3.3.1's, a scaler created while the default place is the CPU warns and is
disabled (``scale`` returns the loss, ``step``/``minimize`` just update), unless
``FLAGS_amp_on_cpu`` is set; and dynamic loss scaling turns itself off (with a warning) when the
last ``auto_cast`` named a dtype other than float16.
"""

from __future__ import annotations

import enum
import warnings
from collections import defaultdict
from typing import Any

import numpy as np

from phiops.runtime.amp.mixed_precision import LAST_AMP_DTYPE, _amp_place
from phiops.runtime.backends import assign_array, default_place
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


def _check_finite_and_unscale(grads: list[Any], scale: Any) -> bool:
    """Unscales ``grads`` (of one dtype) in place with the ``check_finite_and_unscale_`` op, as
    PaddlePaddle's scaler does for each dtype group; whether one was not finite. float16 and
    bfloat16 gradients go through float32 copies, which is what PHI's GPU kernels compute (in
    float32, rounded back), as the op has float32/float64 kernels on the CPU."""
    unscale = op_api("check_finite_and_unscale_")
    if grads[0].dtype in (DataType.FLOAT16, DataType.BFLOAT16):
        cast = op_api("cast")
        wide = [cast(grad, DataType.FLOAT32) for grad in grads]
        _, found_infinite = unscale(wide, scale)
        for grad, unscaled in zip(grads, wide):
            written = assign_array(grad.array, unscaled.array.astype(grad.array.dtype))
            if written is not grad.array:
                grad.array = written
    else:
        _, found_infinite = unscale(grads, scale)
    return bool(found_infinite.numpy().reshape(-1)[0])


class OptimizerState(enum.Enum):
    """Where an optimizer is between two ``update()`` calls."""

    INIT = 0
    UNSCALED = 1
    STEPPED = 2


# the keys of a scaler's state_dict, PaddlePaddle's
_STATE_KEYS = (
    "scale",
    "incr_ratio",
    "decr_ratio",
    "incr_every_n_steps",
    "decr_every_n_nan_or_inf",
    "incr_count",
    "decr_count",
    "use_dynamic_loss_scaling",
)


def _refresh_optimizer_state() -> dict[str, OptimizerState]:
    return {"state": OptimizerState.INIT}


def _parameters_of(optimizer: Any) -> list[Any]:
    params = getattr(optimizer, "_parameters", None)
    if params is None:
        raise InvalidArgumentError(
            f"GradScaler: expected a phiops optimizer, got {type(optimizer).__name__}"
        )
    return list(params)


class AmpScaler:
    """PaddlePaddle's ``paddle.amp.AmpScaler``: loss scaling whose ``minimize`` also updates
    the scaling factor (``GradScaler`` splits that into ``step`` and ``update``)."""

    def __init__(
        self,
        enable: bool = True,
        init_loss_scaling: float = 2.0**15,
        incr_ratio: float = 2.0,
        decr_ratio: float = 0.5,
        incr_every_n_steps: int = 1000,
        decr_every_n_nan_or_inf: int = 1,
        use_dynamic_loss_scaling: bool = True,
    ) -> None:
        if enable and not _amp_place(default_place()):
            warnings.warn(
                "AmpScaler can only be enabled on CUDAPlace, XPUPlace and CustomPlace, current "
                f"place is {default_place()}, so it makes no effect. (phiops: set "
                "FLAGS_amp_on_cpu to use it on the CPU)",
                stacklevel=2,
            )
            enable = False
        self._enable = bool(enable)
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale: Any = None
        if self._enable:
            if not incr_ratio > 1.0:
                raise InvalidArgumentError(
                    f"GradScaler: incr_ratio must be > 1.0, got {incr_ratio!r}"
                )
            if not decr_ratio < 1.0:
                raise InvalidArgumentError(
                    f"GradScaler: decr_ratio must be < 1.0, got {decr_ratio!r}"
                )
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
            self._found_inf = False
            self._cache_found_inf: bool | None = None
            self._scale = self._scale_tensor(init_loss_scaling)
            self._optimizer_states: defaultdict[int, dict[str, OptimizerState]] = defaultdict(
                _refresh_optimizer_state
            )

    @staticmethod
    def _scale_tensor(value: float) -> Any:
        return to_tensor(np.array([value], dtype=np.float32))

    # -- scaling ----------------------------------------------------------------------------
    def scale(self, var: Any) -> Any:
        """``var`` multiplied by the loss scaling factor (``var`` itself when disabled)."""
        if not isinstance(var, Tensor):
            raise InvalidArgumentError(
                f"AmpScaler.scale(): var must be a Tensor, got {type(var).__name__}"
            )
        if self._enable and LAST_AMP_DTYPE.value != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(
                f"It is not recommended to use dynamic loss scaling for {LAST_AMP_DTYPE.value}, "
                "so GradScaler is disable by default.",
                stacklevel=2,
            )
        if not self._enable:
            return var
        return var * self._scale

    def _unscale(self, optimizer: Any) -> None:
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        groups: dict[Any, list[Any]] = {}
        for param in _parameters_of(optimizer):
            if param._grad is not None:
                groups.setdefault(param._grad.dtype, []).append(param._grad)
        found = False
        for grads in groups.values():
            found = _check_finite_and_unscale(grads, self._scale) or found
        self._found_inf = found
        state["state"] = OptimizerState.UNSCALED

    def _step_optimizer(self, optimizer: Any, run: Any) -> Any:
        if self._found_inf:
            self._cache_found_inf = True
            return None
        result = run()
        self._cache_found_inf = False
        return result

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale the gradients (unless ``unscale_`` did), update the parameters unless a
        gradient is NaN/Inf, then update the scaling factor."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result = self._step_optimizer(optimizer, lambda: optimizer.minimize(*args, **kwargs))
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_refresh_optimizer_state)
        return (None, None) if result is None else result

    def _update(self) -> None:
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                current = float(self._scale.numpy().reshape(-1)[0])
                print(
                    f"Found inf or nan, current scale is: {current}, decrease to: "
                    f"{current}*{float(self._decr_ratio)}"
                )
                self._scale = self._scale * self._decr_ratio
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * self._incr_ratio
                self._incr_count = 0

    # -- settings ---------------------------------------------------------------------------
    def is_enable(self) -> bool:
        """Whether loss scaling is on."""
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        """Whether the scaling factor is updated dynamically."""
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        """Set the initial factor, and the current factor with it."""
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = self._scale_tensor(new_init_loss_scaling)

    def get_incr_ratio(self) -> float:
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        if not new_incr_ratio > 1.0:
            raise InvalidArgumentError(
                f"GradScaler: incr_ratio must be > 1.0, got {new_incr_ratio!r}"
            )
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self) -> float:
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        if not new_decr_ratio < 1.0:
            raise InvalidArgumentError(
                f"GradScaler: decr_ratio must be < 1.0, got {new_decr_ratio!r}"
            )
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    # -- state ------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The scaler's state (empty when disabled), as PaddlePaddle's."""
        if not self._enable:
            return {}
        return {
            "scale": self._scale.numpy(),
            "incr_ratio": self._incr_ratio,
            "decr_ratio": self._decr_ratio,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "incr_count": self._incr_count,
            "decr_count": self._decr_count,
            "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling,
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from ``state_dict()``."""
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The input state dict is empty, possibly because it was saved from a disabled "
                "instance of GradScaler."
            )
        missing = sorted(set(_STATE_KEYS) - set(state_dict))
        if missing:
            raise InvalidArgumentError(f"GradScaler.load_state_dict: missing keys {missing}")
        self._init_loss_scaling = float(np.asarray(state_dict["scale"]).reshape(-1)[0])
        self._scale = self._scale_tensor(self._init_loss_scaling)
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


class GradScaler(AmpScaler):
    """PaddlePaddle's ``paddle.amp.GradScaler``: ``scale(loss).backward()``, then
    ``step(optimizer)`` and ``update()`` (or ``minimize(optimizer, scaled)`` for both)."""

    def __init__(
        self,
        enable: bool = True,
        init_loss_scaling: float = 2.0**16,
        incr_ratio: float = 2.0,
        decr_ratio: float = 0.5,
        incr_every_n_steps: int = 2000,
        decr_every_n_nan_or_inf: int = 1,
        use_dynamic_loss_scaling: bool = True,
    ) -> None:
        super().__init__(
            enable,
            init_loss_scaling,
            incr_ratio,
            decr_ratio,
            incr_every_n_steps,
            decr_every_n_nan_or_inf,
            use_dynamic_loss_scaling,
        )

    def step(self, optimizer: Any) -> None:
        """Unscale the gradients (unless ``unscale_`` did) and update the parameters unless a
        gradient is NaN/Inf; ``update()`` then adjusts the scaling factor."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        self._step_optimizer(optimizer, optimizer.step)
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_refresh_optimizer_state)
        return None

    def update(self) -> None:
        """Adjust the scaling factor after ``step`` (dynamic loss scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def unscale_(self, optimizer: Any) -> None:
        """Multiply ``optimizer``'s parameters' gradients by 1/scale now (to clip them before
        ``step``); an error when called twice before ``update()`` or after ``step()``."""
        return super()._unscale(optimizer)
