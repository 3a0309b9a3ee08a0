"""InferMeta functions of ops with no tensor input."""

from __future__ import annotations

from runtime.common import DataType
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError

_RUNTIME = MetaConfig()


def create_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dims ``shape`` (every size >= 0; -1, unknown, while a graph is built) and
    dtype ``dtype``."""
    if any(extent < 0 and (config.is_runtime or extent != -1) for extent in shape):
        raise InvalidArgumentError(f"argument 'shape' must hold sizes >= 0, got {list(shape)}")
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("argument 'dtype' must be a defined data type, got UNDEFINED")
    out.set_dims(shape)
    out.set_dtype(dtype)
