"""InferMeta functions of ops with three tensor inputs."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType, promote_types
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims, index_depth, require_index_dtype
from phiops.runtime.infermeta.dims import dims_match, extents_match, numel

__all__ = ["where_infer_meta"]

_RUNTIME = MetaConfig()


def where_infer_meta(
    condition: MetaTensor,
    x: MetaTensor,
    y: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's WhereInferMeta, with the broadcasting ``paddle.where`` applies before it.

    ``condition`` must be bool (PHI's kernel reads it as bool); ``condition``, ``x`` and ``y``
    must broadcast pairwise, and ``out`` has their broadcast dims. The dtype is x's when x and
    y agree, else the promoted one (the dtype the kernel runs in).
    """
    if condition.dtype is not DataType.BOOL:
        raise InvalidArgumentError(
            f"argument 'condition' of where must be a bool tensor, got dtype "
            f"{condition.dtype.name.lower()}"
        )
    values = broadcast_dims(x.dims, y.dims, "x", "y")
    broadcast_dims(x.dims, condition.dims, "x", "condition")
    broadcast_dims(y.dims, condition.dims, "y", "condition")
    out.set_dims(broadcast_dims(values, condition.dims, "x", "condition"))
    out.set_dtype(promote_types([x.dtype, y.dtype]))
    out.set_layout(x.layout)


# Layer normalization --------------------------------------------------------------------------


def layer_norm_infer_meta(
    x: MetaTensor,
    scale: MetaTensor | None,
    bias: MetaTensor | None,
    epsilon: float,
    begin_norm_axis: int,
    out: MetaTensor,
    mean: MetaTensor,
    variance: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LayerNormInferMeta: ``out`` like ``x``; ``mean`` and ``variance`` hold one value
    per row of ``x`` flattened to [prod(dims[:begin_norm_axis]), prod(dims[begin_norm_axis:])],
    with dims ``dims[:begin_norm_axis]`` (PaddlePaddle 3.3.1 declares x [-1, 5, 16] with
    begin_norm_axis 2 to give a mean of [-1, 5]);
    ``scale`` and ``bias``, when given, have the row length as their element count; ``epsilon``
    is in [0, 0.001], compared in float32 as PHI does."""
    if not (np.float32(0.0) <= np.float32(epsilon) <= np.float32(0.001)):
        raise InvalidArgumentError(f"argument 'epsilon' must be in [0, 0.001], got {epsilon}")
    dims = tuple(x.dims)
    if not 0 < begin_norm_axis < len(dims):
        raise InvalidArgumentError(
            f"argument 'begin_norm_axis' must be in [1, {len(dims)}) for argument 'x' with dims "
            f"{list(dims)}, got {begin_norm_axis}"
        )
    right = numel(dims[begin_norm_axis:])
    for name, param in (("scale", scale), ("bias", bias)):
        if param is None:
            continue
        count = numel(param.dims)
        if not extents_match(count, right, config):
            raise InvalidArgumentError(
                f"argument '{name}' with dims {list(param.dims)} must have {right} elements "
                f"(the product of dims {list(dims[begin_norm_axis:])} of argument 'x' from "
                f"begin_norm_axis {begin_norm_axis}), got {count}"
            )
    out.share_meta(x)
    stats_dtype = DataType.FLOAT32 if x.dtype in (DataType.FLOAT16, DataType.BFLOAT16) else x.dtype
    for stat in (mean, variance):
        stat.set_dims(dims[:begin_norm_axis])
        stat.set_dtype(stats_dtype)
        stat.set_layout(x.layout)


# Scatter and scatter_nd_add (paddle/phi/infermeta/ternary.cc) ---------------------------------


def scatter_infer_meta(
    x: MetaTensor,
    index: MetaTensor,
    updates: MetaTensor,
    overwrite: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``; ``updates`` holds one row of ``x`` per entry of the 1-D ``index``."""
    require_index_dtype(index, "index")
    index_dims, dims, update_dims = index.dims, x.dims, updates.dims
    if len(index_dims) == 2 and extents_match(index_dims[1], 1, config):
        index_dims = index_dims[:1]
    if len(index_dims) > 1:
        raise InvalidArgumentError(
            f"argument 'index' must be 0-D or 1-D (or [N, 1]), got dims {list(index.dims)}"
        )
    if not dims:
        raise InvalidArgumentError("argument 'x' must have rank at least 1, got a 0-D tensor")
    rows = index_dims[0] if index_dims else 1
    expected = (rows,) + tuple(dims[1:])
    if not dims_match(tuple(update_dims), expected, config) and not (
        not index_dims and dims_match(tuple(update_dims), tuple(dims[1:]), config)
    ):
        raise InvalidArgumentError(
            f"argument 'updates' must have dims {list(expected)} (one row of 'x' per index), "
            f"got {list(update_dims)}"
        )
    if updates.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'updates' must have the dtype of 'x' ({x.dtype.name.lower()}), got "
            f"{updates.dtype.name.lower()}"
        )
    out.share_meta(x)


def scatter_nd_add_infer_meta(
    x: MetaTensor,
    index: MetaTensor,
    updates: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``; updates.dims must be index.dims[:-1] + x.dims[index.dims[-1]:]."""
    require_index_dtype(index, "index")
    dims, index_dims = x.dims, index.dims
    if not index_dims:
        raise InvalidArgumentError("argument 'index' must have rank at least 1, got a 0-D tensor")
    depth = index_depth(index_dims, len(dims))
    expected = tuple(index_dims[:-1]) + tuple(dims[depth:])
    if not dims_match(tuple(updates.dims), expected, config):
        raise InvalidArgumentError(
            f"argument 'updates' must have dims {list(expected)} (index.dims[:-1] + "
            f"x.dims[index.dims[-1]:]), got {list(updates.dims)}"
        )
    if updates.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'updates' must have the dtype of 'x' ({x.dtype.name.lower()}), got "
            f"{updates.dtype.name.lower()}"
        )
    out.share_meta(x)


def _check_channel_vector(
    param: MetaTensor | None, name: str, channels: int, x_dims: tuple
) -> None:
    if param is None:
        return
    if len(param.dims) != 1 or (channels != -1 and param.dims[0] not in (channels, -1)):
        raise InvalidArgumentError(
            f"argument '{name}' must be 1-D with {channels} elements (the channels of argument "
            f"'x' with dims {list(x_dims)}), got dims {list(param.dims)}"
        )


def group_norm_infer_meta(
    x: MetaTensor,
    scale: MetaTensor | None,
    bias: MetaTensor | None,
    epsilon: float,
    groups: int,
    data_format: str,
    y: MetaTensor,
    mean: MetaTensor,
    variance: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's GroupNormInferMeta: ``y`` like ``x``; ``mean`` and ``variance`` [N, groups];
    the channels (dim 1, or the last for NHWC/NDHWC/NLC) must divide into ``groups`` >= 1."""
    dims = tuple(x.dims)
    if len(dims) < 2:
        raise InvalidArgumentError(f"argument 'x' must have at least 2 dims, got {list(dims)}")
    channels = dims[-1] if data_format in ("NHWC", "NDHWC", "NLC") else dims[1]
    if groups < 1:
        raise InvalidArgumentError(f"argument 'groups' must be at least 1, got {groups}")
    if channels != -1 and channels % groups != 0:
        raise InvalidArgumentError(
            f"the channels of argument 'x' ({channels}, dims {list(dims)}, data_format "
            f"{data_format}) must be divisible by argument 'groups' ({groups})"
        )
    _check_channel_vector(scale, "scale", channels, dims)
    _check_channel_vector(bias, "bias", channels, dims)
    y.share_meta(x)
    for stat in (mean, variance):
        stat.set_dims((dims[0], groups))
        stat.set_dtype(x.dtype)
        stat.set_layout(x.layout)


def instance_norm_infer_meta(
    x: MetaTensor,
    scale: MetaTensor | None,
    bias: MetaTensor | None,
    epsilon: float,
    y: MetaTensor,
    saved_mean: MetaTensor,
    saved_variance: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's InstanceNormInferMeta: a 2-D to 5-D NC... ``x``; ``y`` like ``x``; the saved
    mean and inverse standard deviation [N * C]."""
    dims = tuple(x.dims)
    if not 2 <= len(dims) <= 5:
        raise InvalidArgumentError(f"argument 'x' must have 2 to 5 dims, got dims {list(dims)}")
    _check_channel_vector(scale, "scale", dims[1], dims)
    _check_channel_vector(bias, "bias", dims[1], dims)
    y.share_meta(x)
    count = -1 if -1 in dims[:2] else dims[0] * dims[1]
    for stat in (saved_mean, saved_variance):
        stat.set_dims((count,))
        stat.set_dtype(x.dtype)
        stat.set_layout(x.layout)
