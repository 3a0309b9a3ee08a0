"""The package's own InferMeta functions: each fills its outputs' dims and dtype from its inputs'
metas (MetaTensors) and attributes, for eager calls and static building alike (where an extent
may be -1, unknown). ``register_infer_meta`` makes a function findable by the name the specs
spell (``ScaledAddInferMeta`` -> ``scaled_add_infer_meta``)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta import register_infer_meta
from phiops.runtime.infermeta.dims import dims_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


@register_infer_meta
def scaled_add_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` like ``x``; ``y`` must have ``x``'s dims and dtype."""
    if not dims_match(x.dims, y.dims, config):
        raise InvalidArgumentError(
            f"argument 'y' must have the dims of 'x' {list(x.dims)}, got {list(y.dims)}"
        )
    if x.dtype != y.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype of 'x' ({x.dtype.name.lower()}), got "
            f"{y.dtype.name.lower()}"
        )
    out.share_meta(x)


@register_infer_meta
def count_nonzero_infer_meta(
    x: MetaTensor, axis: int, keepdim: bool, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out``: int64, ``x``'s dims without ``axis`` (extent 1 there with ``keepdim``)."""
    rank = len(x.dims)
    if not -max(rank, 1) <= axis < max(rank, 1):
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-max(rank, 1)}, {max(rank, 1)}), got {axis}"
        )
    dims = list(x.dims)
    if rank:
        position = axis % rank
        if keepdim:
            dims[position] = 1
        else:
            del dims[position]
    out.set_dims(tuple(dims))
    out.set_dtype(DataType.INT64)
    out.set_layout(x.layout)
