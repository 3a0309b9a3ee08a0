"""InferMeta functions of the lod24 ops (issue 24): the sequence ops that read a LoD
(runtime/tensor/lod.py), following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/. A LoD is data, not meta: the number of sequences, and so the rows of a
pooled output, is -1 here and comes from the kernel's result."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "sequence_pool_infer_meta",
    "sequence_conv_infer_meta",
    "sequence_conv_grad_infer_meta",
    "SEQUENCE_POOL_TYPES",
]

_RUNTIME = MetaConfig()

SEQUENCE_POOL_TYPES = ("AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST")


def sequence_pool_infer_meta(
    x: MetaTensor,
    is_test: bool,
    pooltype: str,
    pad_value: float,
    out: MetaTensor,
    max_index: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: [-1 (one row per sequence), x.dims[1:]...] of x's dtype; max_index: int32 of out's
    dims for MAX, an empty [0] for the other pooltypes (PHI's SequencePoolInferMeta, with the
    rows the kernel sets at run time unknown)."""
    if pooltype not in SEQUENCE_POOL_TYPES:
        raise InvalidArgumentError(
            f"argument 'pooltype' must be one of {', '.join(SEQUENCE_POOL_TYPES)}, got {pooltype!r}"
        )
    if len(x.dims) < 1:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension (its rows), got a 0-D tensor")
    if pooltype == "MAX" and len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions for pooltype MAX, got shape {list(x.dims)}"
        )
    dims = (UNKNOWN, *x.dims[1:])
    set_output(out, dims, x.dtype, x)
    set_output(max_index, dims if pooltype == "MAX" else (0,), DataType.INT32, x)


def _check_conv_padding(
    x: MetaTensor,
    padding_data: MetaTensor | None,
    context_length: int,
    padding_trainable: bool,
    context_start: int,
    config: MetaConfig,
) -> None:
    if not padding_trainable:
        return
    if context_start == 0 and context_length == 1:
        raise InvalidArgumentError(
            "argument 'padding_trainable' must be false when context_start is 0 and "
            "context_length is 1 (there is nothing to pad)"
        )
    up_pad, down_pad = max(0, -context_start), max(0, context_start + context_length - 1)
    if padding_data is None:
        raise InvalidArgumentError(
            f"argument 'padding_data' is required when padding_trainable is true: a "
            f"[{up_pad + down_pad}, {x.dims[1]}] tensor"
        )
    dims = padding_data.dims
    if (
        len(dims) != 2
        or not extents_match(dims[0], up_pad + down_pad, config)
        or not extents_match(dims[1], x.dims[1], config)
    ):
        raise InvalidArgumentError(
            f"argument 'padding_data' must have shape [{up_pad + down_pad}, {x.dims[1]}] "
            f"(up_pad {up_pad} + down_pad {down_pad} rows of x's width), got {list(dims)}"
        )


def sequence_conv_infer_meta(
    x: MetaTensor,
    padding_data: MetaTensor | None,
    filter: MetaTensor,
    context_length: int,
    padding_trainable: bool,
    context_start: int,
    context_stride: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: [x.dims[0], filter.dims[1]] of x's dtype (PHI's SequenceConvInferMeta)."""
    if context_stride != 1:
        raise InvalidArgumentError(
            f"argument 'context_stride' must be 1 (the only stride PaddlePaddle supports), got {context_stride}"
        )
    if context_length < 1:
        raise InvalidArgumentError(f"argument 'context_length' must be >= 1, got {context_length}")
    if len(x.dims) != 2 or len(filter.dims) != 2:
        raise InvalidArgumentError(
            f"arguments 'x' and 'filter' must be 2-D tensors, got shapes {list(x.dims)} and "
            f"{list(filter.dims)}"
        )
    if x.dims[1] != UNKNOWN and not extents_match(filter.dims[0], context_length * x.dims[1], config):
        raise InvalidArgumentError(
            f"argument 'filter' must have context_length * x's width = {context_length * x.dims[1]} "
            f"rows, got shape {list(filter.dims)}"
        )
    if filter.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'filter' must have x's dtype {x.dtype.name.lower()}, got {filter.dtype.name.lower()}"
        )
    _check_conv_padding(x, padding_data, context_length, padding_trainable, context_start, config)
    set_output(out, (x.dims[0], filter.dims[1]), x.dtype, x)


def sequence_conv_grad_infer_meta(
    x: MetaTensor,
    padding_data: MetaTensor | None,
    filter: MetaTensor,
    out_grad: MetaTensor,
    context_length: int,
    padding_trainable: bool,
    context_start: int,
    context_stride: int,
    x_grad: MetaTensor,
    padding_data_grad: MetaTensor,
    filter_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The gradients with x's, padding_data's (when given) and filter's dims and dtypes."""
    set_output(x_grad, x.dims, x.dtype, x)
    if padding_data is not None:
        set_output(padding_data_grad, padding_data.dims, padding_data.dtype, padding_data)
    set_output(filter_grad, filter.dims, filter.dtype, filter)
