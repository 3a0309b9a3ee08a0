"""InferMeta functions of ops with three tensor inputs."""

from __future__ import annotations

from runtime.common import DataType, promote_types
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError
from runtime.infermeta.binary import broadcast_dims

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
