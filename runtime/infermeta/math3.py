"""InferMeta functions of the math3 ops (atan2, lerp, ...) that no shared function fits."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.dims import dims_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["atan2_infer_meta", "lerp_infer_meta"]

_RUNTIME = MetaConfig()


def atan2_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's Atan2InferMeta: ``out`` has ``x``'s dims; float64 when either input is int32 or
    int64, else ``x``'s dtype. The op does not broadcast (paddle.atan2 broadcasts before
    calling it): PHI checks only the ranks and the first extents and then reads ``y`` by
    ``x``'s flat index, so here ``y`` must have ``x``'s dims."""
    if len(x.dims) != len(y.dims):
        raise InvalidArgumentError(
            f"argument 'y' must have the rank of argument 'x' ({len(x.dims)}), got rank "
            f"{len(y.dims)} (dims {list(y.dims)}); broadcast them first (paddle.atan2 does)"
        )
    if not dims_match(tuple(x.dims), tuple(y.dims), config):
        raise InvalidArgumentError(
            f"argument 'y' must have the dims of argument 'x' ({list(x.dims)}), got "
            f"{list(y.dims)}; broadcast them first (paddle.atan2 does)"
        )
    out.share_meta(x)
    if {x.dtype, y.dtype} & {DataType.INT32, DataType.INT64}:
        out.set_dtype(DataType.FLOAT64)


def lerp_infer_meta(
    x: MetaTensor, y: MetaTensor, weight: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's LerpInferMeta: ``out`` has the broadcast of ``x``, ``y`` and ``weight``'s dims and
    ``x``'s dtype."""
    dims = broadcast_dims(tuple(x.dims), tuple(y.dims), "x", "y")
    dims = broadcast_dims(dims, tuple(weight.dims), "x and y (broadcast)", "weight")
    out.set_dims(dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
