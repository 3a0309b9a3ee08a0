"""InferMeta functions of ops with a Tensor[] input or more than three tensor inputs."""

from __future__ import annotations

from runtime.common import promote_types
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError
from runtime.infermeta.unary import check_axis

_RUNTIME = MetaConfig()


def _require_tensors(x: list[MetaTensor]) -> None:
    if not x:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor, got an empty list")


def concat_infer_meta(
    x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Join ``x`` along ``axis``: every tensor has the same rank (at least 1) and the same
    dims except along ``axis``; the dtype is the highest of the inputs' (the kernel runs on
    inputs cast to it)."""
    _require_tensors(x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise InvalidArgumentError(
            f"argument 'axis' must be an integer, got {type(axis).__name__} {axis!r}"
        )
    first = x[0].dims
    rank = len(first)
    if rank == 0:
        raise InvalidArgumentError(
            "argument 'x' holds 0-D tensors, which cannot be concatenated; use stack, or tensors "
            "of rank >= 1"
        )
    index = check_axis(axis, rank, "axis")
    total = 0
    for position, item in enumerate(x):
        dims = item.dims
        if len(dims) != rank:
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(dims)} must have the rank of 'x[0]' "
                f"with dims {list(first)}"
            )
        for i, (extent, expected) in enumerate(zip(dims, first)):
            if i != index and extent != expected:
                raise InvalidArgumentError(
                    f"argument 'x[{position}]' with dims {list(dims)} does not match 'x[0]' with "
                    f"dims {list(first)} outside axis {index}: dimension {i} differs "
                    f"({extent} vs {expected})"
                )
        total += dims[index]
    out.set_dims(first[:index] + (total,) + first[index + 1:])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)


def stack_infer_meta(x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """Stack ``x``, tensors of equal dims, along a new dimension ``axis`` in
    [-(rank + 1), rank + 1); the dtype is the highest of the inputs'."""
    _require_tensors(x)
    first = x[0].dims
    for position, item in enumerate(x):
        if item.dims != first:
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(item.dims)} must have the dims of "
                f"'x[0]' {list(first)}"
            )
    rank = len(first)
    if not -(rank + 1) <= axis <= rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-(rank + 1)}, {rank + 1}) for stacking tensors of rank "
            f"{rank}, got {axis}"
        )
    index = axis + rank + 1 if axis < 0 else axis
    out.set_dims(first[:index] + (len(x),) + first[index:])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)
