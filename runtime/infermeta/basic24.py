"""InferMeta functions of the basic24 ops (issue 24): creation, utility, framework and small
manipulation ops (increment, crop, shard_index, ...), following PaddlePaddle 3.3.1's functions of
the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, numel
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["increment_infer_meta"]

_RUNTIME = MetaConfig()


def increment_infer_meta(
    x: MetaTensor, value: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's IncrementInferMeta: ``x`` holds exactly one element; ``out`` has ``x``'s meta."""
    count = numel(x.dims)
    if not extents_match(count, 1, config):
        raise InvalidArgumentError(
            f"argument 'x' must hold exactly one element, got dims {list(x.dims)} "
            f"({count} elements)"
        )
    out.share_meta(x)
