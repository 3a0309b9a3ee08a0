"""InferMeta functions of the convpool family (max unpooling), as PHI's UnpoolInferMeta and
Unpool3dInferMeta (paddle/phi/infermeta/binary.cc)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


def _unpool_dims(
    x: MetaTensor,
    indices: MetaTensor,
    rank: int,
    output_size: tuple[int, ...],
    config: MetaConfig,
) -> tuple[int, ...]:
    dims, index_dims = tuple(x.dims), tuple(indices.dims)
    if len(dims) != rank + 2:
        raise InvalidArgumentError(
            f"argument 'x' must be a {rank + 2}-D tensor, got dims {list(dims)}"
        )
    if not dims_match(dims, index_dims, config):
        raise InvalidArgumentError(
            f"argument 'indices' must have x's dims {list(dims)}, got {list(index_dims)}"
        )
    if indices.dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"argument 'indices' must be an int32 or int64 tensor, got {indices.dtype.name.lower()}"
        )
    if len(output_size) != rank:
        raise InvalidArgumentError(
            f"argument 'output_size' must hold {rank} values, got {list(output_size)}"
        )
    if any(size < 0 for size in output_size) and config.is_runtime:
        raise InvalidArgumentError(
            f"argument 'output_size' must hold sizes >= 0, got {list(output_size)}"
        )
    spatial = tuple(
        -1 if not config.is_runtime and extent <= 0 else int(size)
        for extent, size in zip(dims[2:], output_size)
    )
    return dims[:2] + spatial


def unpool_infer_meta(
    x: MetaTensor,
    indices: MetaTensor,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's UnpoolInferMeta: a 4-D x and indices of its dims; out [N, C, *output_size]."""
    out.set_dims(_unpool_dims(x, indices, 2, tuple(output_size), config))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def unpool3d_infer_meta(
    x: MetaTensor,
    indices: MetaTensor,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's Unpool3dInferMeta: a 5-D x and indices of its dims; out [N, C, *output_size]."""
    out.set_dims(_unpool_dims(x, indices, 3, tuple(output_size), config))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
