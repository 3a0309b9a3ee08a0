"""Gradient clipping with PaddlePaddle's classes (``paddle.nn.ClipGradByValue``,
``ClipGradByNorm``, ``ClipGradByGlobalNorm``): an optimizer given one as ``grad_clip`` clips the
gradients in ``step()`` before weight decay and the update, as PaddlePaddle's dygraph optimizers
do. Every computation is a generated op, so it runs on any place.

A SelectedRows gradient (an ``Embedding(..., sparse=True)`` weight's) is clipped as PaddlePaddle
3.3.1 clips it: its norm is that of its merged rows (each row once, repeats added);
ClipGradByGlobalNorm scales its values and keeps its rows as they are, ClipGradByNorm gives the
merged rows scaled (PHI's ``clip_by_norm_sr``). ClipGradByValue gives the merged rows clipped
(PHI's ``clip_sr``), where PaddlePaddle 3.3.1's dygraph ``ClipGradByValue`` fails on one."""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.selected_rows import SelectedRows

__all__ = [
    "ClipGradBase",
    "ClipGradByValue",
    "ClipGradByNorm",
    "ClipGradByGlobalNorm",
    "clip_by_norm",
]


def clip_by_norm(x: Any, max_norm: float, name: str | None = None) -> Any:
    """``paddle.nn.clip.clip_by_norm``: ``x`` scaled to L2 norm ``max_norm`` when its norm is
    larger, else ``x`` itself (the ``clip_by_norm`` op)."""
    return op_api("clip_by_norm")(x, _positive(max_norm, "clip_by_norm", "max_norm"))


def _positive(value: Any, owner: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise InvalidArgumentError(f"{owner}: {name} must be a positive number, got {value!r}")
    return float(value)


def _sum_of_squares(grad: Tensor) -> Tensor:
    """sum(grad**2) as a 0-D float32 tensor (float64 for float64 grads), PaddlePaddle's
    squared_l2_norm."""
    if grad.dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        grad = op_api("cast")(grad, DataType.FLOAT32)
    return op_api("sum")(op_api("multiply")(grad, grad), [], None, False)


def _is_selected_rows(grad: Tensor) -> bool:
    return grad.meta.kind is TensorKind.SELECTED_ROWS


def _rows_and_values(grad: Tensor, merge: bool) -> tuple[SelectedRows, Tensor]:
    """A SelectedRows gradient's storage (merged when ``merge``) and its value as a Tensor."""
    storage = grad.array.merged() if merge else grad.array
    return storage, TENSOR_TYPE.wrap(storage.value.array, storage.value.meta)


def _with_values(storage: SelectedRows, values: Tensor) -> Tensor:
    """A SelectedRows gradient with ``storage``'s rows and ``values``."""
    result = SelectedRows(storage.rows, storage.height, DenseTensor(values.array), check=False)
    return TENSOR_TYPE.wrap(result, result.meta)


def _squares(grad: Tensor) -> Tensor:
    """sum(grad**2); of the merged rows for a SelectedRows gradient."""
    if _is_selected_rows(grad):
        grad = _rows_and_values(grad, True)[1]
    return _sum_of_squares(grad)


class ClipGradBase:
    """Base: ``clip(params, grads)`` -> the gradients to apply, one per parameter."""

    def clip(self, params: list[Tensor], grads: list[Tensor]) -> list[Tensor]:
        raise NotImplementedError


class ClipGradByValue(ClipGradBase):
    """Each gradient element clipped into ``[min, max]`` (``min`` defaults to ``-max``)."""

    def __init__(self, max: float, min: float | None = None) -> None:
        for name, value in (("max", max), ("min", min)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float))
            ):
                raise InvalidArgumentError(
                    f"ClipGradByValue: {name} must be a number, got {value!r}"
                )
        low = -float(max) if min is None else float(min)
        if low > float(max):
            raise InvalidArgumentError(f"ClipGradByValue: min ({low}) must not exceed max ({max})")
        self.max, self.min = float(max), low

    def clip(self, params: list[Tensor], grads: list[Tensor]) -> list[Tensor]:
        clipped = []
        for grad in grads:
            if _is_selected_rows(grad):
                storage, values = _rows_and_values(grad, True)
                clipped.append(_with_values(storage, op_api("clip")(values, self.min, self.max)))
            else:
                clipped.append(op_api("clip")(grad, self.min, self.max))
        return clipped

    def __repr__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Each gradient scaled to L2 norm ``clip_norm`` where its norm exceeds it."""

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = _positive(clip_norm, "ClipGradByNorm", "clip_norm")

    def clip(self, params: list[Tensor], grads: list[Tensor]) -> list[Tensor]:
        clipped = []
        for grad in grads:
            storage = None
            if _is_selected_rows(grad):
                storage, grad = _rows_and_values(grad, True)
            norm = float(op_api("sqrt")(_sum_of_squares(grad)).item())
            if norm > self.clip_norm:
                grad = op_api("scale")(grad, self.clip_norm / norm, 0.0, True)
            clipped.append(grad if storage is None else _with_values(storage, grad))
        return clipped

    def __repr__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    """All gradients scaled by ``clip_norm / max(global_norm, clip_norm)``, the global norm being
    the L2 norm of all of them together; with ``auto_skip_clip``, only when it exceeds
    ``clip_norm``."""

    def __init__(
        self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False
    ) -> None:
        self.clip_norm = _positive(clip_norm, "ClipGradByGlobalNorm", "clip_norm")
        self.group_name = group_name
        self.auto_skip_clip = bool(auto_skip_clip)

    def clip(self, params: list[Tensor], grads: list[Tensor]) -> list[Tensor]:
        if not grads:
            return grads
        squares = [_squares(g) for g in grads]
        total = squares[0] if len(squares) == 1 else op_api("add_n")(squares)
        global_norm = op_api("sqrt")(total)
        if self.auto_skip_clip and float(global_norm.item()) <= self.clip_norm:
            return grads
        limit = op_api("full")([], self.clip_norm, global_norm.dtype)
        scale = op_api("divide")(limit, op_api("maximum")(global_norm, limit))
        clipped = []
        for grad in grads:
            factor = scale if scale.dtype is grad.dtype else op_api("cast")(scale, grad.dtype)
            if _is_selected_rows(grad):
                storage, values = _rows_and_values(grad, False)
                clipped.append(_with_values(storage, op_api("multiply")(values, factor)))
            else:
                clipped.append(op_api("multiply")(grad, factor))
        return clipped

    def __repr__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"
