"""InferMeta functions of the rnnt24 ops (issue 24): warprnnt, following PaddlePaddle 3.3.1's
WarprnntInferMeta (paddle/phi/infermeta/multiary.cc) and the checks of its CPU kernel
(paddle/phi/kernels/impl/warprnnt_kernel_impl.h: rank 4 input, every extent positive)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["warprnnt_infer_meta"]

_RUNTIME = MetaConfig()


def warprnnt_infer_meta(
    input: MetaTensor,  # noqa: A002 - PaddlePaddle's name
    label: MetaTensor,
    input_lengths: MetaTensor,
    label_lengths: MetaTensor,
    blank: int,
    fastemit_lambda: float,
    loss: MetaTensor,
    warprnntgrad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``input`` [B, T, U + 1, D] (float32/float64), ``label`` [B, U] int32, ``input_lengths``
    and ``label_lengths`` [B] int32; ``loss`` is [B] and ``warprnntgrad`` of the input's dims,
    both of the input's dtype."""
    dims = tuple(input.dims)
    if len(dims) != 4:
        raise InvalidArgumentError(
            "argument 'input' must have rank 4 ([batch, max_input_length, max_label_length + 1, "
            f"num_classes]), got dims {list(dims)}"
        )
    if input.dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(
            f"argument 'input' must be float32 or float64, got {input.dtype.name.lower()}"
        )
    for axis, what in enumerate(
        ("batch", "max_input_length", "max_label_length + 1", "num_classes")
    ):
        if dims[axis] == 0:
            raise InvalidArgumentError(
                f"argument 'input': its extent {axis} ({what}) must be greater than 0, got "
                f"dims {list(dims)}"
            )
    batch = dims[0]
    labels_extent = dims[2] - 1 if dims[2] >= 0 else -1
    if (
        len(label.dims) != 2
        or not extents_match(label.dims[0], batch, config)
        or not extents_match(label.dims[1], labels_extent, config)
    ):
        raise InvalidArgumentError(
            f"argument 'label' must have dims [{batch}, {labels_extent}] ([batch, "
            "max_label_length], one less than extent 2 of 'input'), got "
            f"{list(label.dims)}"
        )
    if label.dtype is not DataType.INT32:
        raise InvalidArgumentError(
            f"argument 'label' must be int32 class ids, got {label.dtype.name.lower()}"
        )
    for name, length in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if len(length.dims) != 1 or not extents_match(length.dims[0], batch, config):
            raise InvalidArgumentError(
                f"argument '{name}' must have dims [{batch}] (one length per sequence), got "
                f"{list(length.dims)}"
            )
        if length.dtype is not DataType.INT32:
            raise InvalidArgumentError(
                f"argument '{name}' must be int32, got {length.dtype.name.lower()}"
            )
    if blank < 0 or (dims[3] >= 0 and blank >= dims[3]):
        raise InvalidArgumentError(
            f"argument 'blank' must be in [0, {dims[3]}) (a class of 'input'), got {blank}"
        )
    loss.set_dims((batch,))
    loss.set_dtype(input.dtype)
    loss.set_layout(input.layout)
    warprnntgrad.set_dims(dims)
    warprnntgrad.set_dtype(input.dtype)
    warprnntgrad.set_layout(input.layout)
