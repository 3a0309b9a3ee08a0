"""InferMeta functions of ops with no tensor input."""

from __future__ import annotations

from runtime.common import DataType
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError

_RUNTIME = MetaConfig()


def create_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dims ``shape`` (every size >= 0) and dtype ``dtype``."""
    if any(extent < 0 for extent in shape):
        raise InvalidArgumentError(f"argument 'shape' must hold sizes >= 0, got {list(shape)}")
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("argument 'dtype' must be a defined data type, got UNDEFINED")
    out.set_dims(shape)
    out.set_dtype(dtype)


# Issue 8: random and creation ops -------------------------------------------------------------


def uniform_random_infer_meta(
    shape: tuple[int, ...], dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has dims ``shape`` and dtype ``dtype``."""
    create_infer_meta(shape, dtype, out, config)


def gaussian_infer_meta(
    shape: tuple[int, ...],
    mean: float,
    std: float,
    seed: int,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has dims ``shape`` and dtype ``dtype``."""
    create_infer_meta(shape, dtype, out, config)


def randint_infer_meta(
    low: int,
    high: int,
    shape: tuple[int, ...],
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Integers in [low, high): ``low`` must be below ``high``; dims ``shape``."""
    if low >= high:
        raise InvalidArgumentError(
            f"argument 'low' must be less than argument 'high', got low = {low}, high = {high}"
        )
    create_infer_meta(shape, dtype, out, config)


def randperm_infer_meta(
    n: int, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """A permutation of 0..n-1: dims [n], ``n`` >= 0."""
    if n < 0:
        raise InvalidArgumentError(f"argument 'n' must be >= 0, got {n}")
    create_infer_meta((n,), dtype, out, config)
