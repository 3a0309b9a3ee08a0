"""InferMeta functions of the nan24 ops of issue 24 (numerics checks, reduce_as and buffer ops),
following PaddlePaddle 3.3.1's functions of the same names in paddle/phi/infermeta/. Where 3.3.1
finds a bad input only in its kernel (reduce_as's dims), phiops refuses it here, naming the
argument."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["check_numerics_infer_meta", "reduce_as_infer_meta"]

_RUNTIME = MetaConfig()


def check_numerics_infer_meta(
    tensor: MetaTensor,
    op_type: str,
    var_name: str,
    check_nan_inf_level: int,
    stack_height_limit: int,
    output_dir: str,
    stats: MetaTensor,
    values: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """stats an int64 [3] (NaN, Inf and zero counts), values a float32 [3] (max, min, mean)."""
    set_output(stats, (3,), DataType.INT64, tensor)
    set_output(values, (3,), DataType.FLOAT32, tensor)


def reduce_as_infer_meta(
    x: MetaTensor, target: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """out has target's dims and x's dtype (int64 for bool and int32, as PHI's sum); target's
    dims, aligned to x's last ones, each equal x's extent or are 1."""
    x_dims, target_dims = tuple(x.dims), tuple(target.dims)
    if len(target_dims) > len(x_dims):
        raise InvalidArgumentError(
            f"argument 'target' must have at most as many dims as x ({len(x_dims)}), got dims "
            f"{list(target_dims)} for x's {list(x_dims)}"
        )
    lead = len(x_dims) - len(target_dims)
    for axis, extent in enumerate(target_dims):
        if extent == 1 or extents_match(x_dims[lead + axis], extent, config):
            continue
        raise InvalidArgumentError(
            f"argument 'target' has extent {extent} at axis {axis} where x has "
            f"{x_dims[lead + axis]} (axis {lead + axis}): each of target's dims must equal x's "
            f"trailing one or be 1, got target {list(target_dims)}, x {list(x_dims)}"
        )
    dtype = DataType.INT64 if x.dtype in (DataType.BOOL, DataType.INT32) else x.dtype
    set_output(out, target_dims, dtype, x)
