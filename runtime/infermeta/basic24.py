"""InferMeta functions of the basic24 ops (issue 24): creation, utility, framework and small
manipulation ops (increment, crop, shard_index, ...), following PaddlePaddle 3.3.1's functions of
the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, is_known, numel
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "increment_infer_meta",
    "crop_infer_meta",
    "crop_grad_infer_meta",
    "shard_index_infer_meta",
    "shuffle_channel_infer_meta",
    "temporal_shift_infer_meta",
    "crop_extents",
    "partial_concat_infer_meta",
    "partial_sum_infer_meta",
    "partial_concat_grad_infer_meta",
    "partial_sum_grad_infer_meta",
    "partial_range",
]

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


def crop_extents(
    x_dims: tuple[int, ...], shape: tuple[int, ...], offsets: tuple[int, ...]
) -> tuple[int, ...]:
    """The extents crop cuts: ``shape``'s, with -1 the rest of the dimension after its offset
    (UNKNOWN where that dimension is unknown). Checks PHI's crop kernel makes: an extent is
    positive, 0 or -1, an offset non-negative, and offset plus extent within the dimension."""
    extents = []
    for axis, (size, extent, offset) in enumerate(zip(x_dims, shape, offsets)):
        if offset < 0:
            raise InvalidArgumentError(
                f"argument 'offsets' must be >= 0, got {offset} at axis {axis}"
            )
        if extent < -1:
            raise InvalidArgumentError(
                f"argument 'shape' may hold -1 (the rest of the dimension) but no other negative "
                f"extent, got {extent} at axis {axis}"
            )
        if extent == -1:
            extent = size - offset if is_known(size) else UNKNOWN
        if is_known(size) and is_known(extent) and offset + extent > size:
            raise InvalidArgumentError(
                f"offsets[{axis}] + shape[{axis}] ({offset} + {extent}) must be at most "
                f"dimension {axis} of x ({size})"
            )
        extents.append(extent)
    return tuple(extents)


def crop_infer_meta(
    x: MetaTensor,
    shape: tuple[int, ...],
    offsets: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's CropInferMeta with its kernel's checks: ``x`` has 1 to 6 dimensions, ``shape`` and
    ``offsets`` one entry each per dimension; ``out`` has the cut extents and ``x``'s dtype."""
    rank = len(x.dims)
    if not 1 <= rank <= 6:
        raise InvalidArgumentError(f"argument 'x' must have 1 to 6 dimensions, got {rank}")
    for name, values in (("shape", shape), ("offsets", offsets)):
        if len(values) != rank:
            raise InvalidArgumentError(
                f"argument '{name}' must hold one entry per dimension of x ({rank}), "
                f"got {list(values)}"
            )
    out.set_dims(crop_extents(x.dims, shape, offsets))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def crop_grad_infer_meta(
    x: MetaTensor,
    out_grad: MetaTensor,
    offsets: tuple[int, ...],
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's CropGradInferMeta: ``x_grad`` has ``x``'s meta; ``out_grad``
    has ``x``'s rank and fits in it at ``offsets``."""
    if len(out_grad.dims) != len(x.dims) or len(offsets) != len(x.dims):
        raise InvalidArgumentError(
            f"argument 'out_grad' and 'offsets' must have x's rank {len(x.dims)}, got dims "
            f"{list(out_grad.dims)} and offsets {list(offsets)}"
        )
    crop_extents(x.dims, out_grad.dims, offsets)
    x_grad.set_dims(x.dims)
    x_grad.set_dtype(x.dtype)
    x_grad.set_layout(x.layout)


def shard_index_infer_meta(
    input: MetaTensor,
    index_num: int,
    nshards: int,
    shard_id: int,
    ignore_value: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's ShardIndexInferMeta with its kernel's attribute checks: ``input`` has rank >= 2 and
    a last extent of 1; ``index_num`` and ``nshards`` are positive, ``shard_id`` in
    [0, nshards); ``out`` has ``input``'s meta."""
    if len(input.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'input' must have at least 2 dimensions, got {len(input.dims)}"
        )
    if not extents_match(input.dims[-1], 1, config):
        raise InvalidArgumentError(
            f"argument 'input' must have a last extent of 1, got dims {list(input.dims)}"
        )
    for name, value in (("index_num", index_num), ("nshards", nshards)):
        if value <= 0:
            raise InvalidArgumentError(f"argument '{name}' must be positive, got {value}")
    if not 0 <= shard_id < nshards:
        raise InvalidArgumentError(
            f"argument 'shard_id' must be in [0, nshards) = [0, {nshards}), got {shard_id}"
        )
    out.share_meta(input)


def shuffle_channel_infer_meta(
    x: MetaTensor, group: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's ShuffleChannelInferMeta: ``x`` is 4-D [N, C, H, W]; ``group`` positive and dividing C
    (3.3.1 does not check, and divides by zero for 0); ``out`` has ``x``'s meta."""
    if len(x.dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' must be 4-D [N, C, H, W], got {len(x.dims)} dimensions"
        )
    channels = x.dims[1]
    if group <= 0 or (is_known(channels) and channels % group):
        raise InvalidArgumentError(
            f"argument 'group' must be positive and divide the {channels} channels, got {group}"
        )
    out.share_meta(x)


def temporal_shift_infer_meta(
    x: MetaTensor,
    seg_num: int,
    shift_ratio: float,
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's TemporalShiftInferMeta: ``x`` is 4-D with a first extent ``seg_num`` divides,
    ``seg_num`` positive, ``shift_ratio`` in (0, 0.5), ``data_format`` NCHW or NHWC (3.3.1
    takes any other string as NCHW); ``out`` has ``x``'s meta."""
    if len(x.dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' must be 4-D [N * seg_num, C, H, W], got {len(x.dims)} dimensions"
        )
    if seg_num <= 0:
        raise InvalidArgumentError(f"argument 'seg_num' must be positive, got {seg_num}")
    if is_known(x.dims[0]) and x.dims[0] % seg_num:
        raise InvalidArgumentError(
            f"argument 'seg_num' ({seg_num}) must divide x's first extent ({x.dims[0]})"
        )
    if not 0 < shift_ratio < 0.5:
        raise InvalidArgumentError(f"argument 'shift_ratio' must be in (0, 0.5), got {shift_ratio}")
    if data_format not in ("NCHW", "NHWC"):
        raise InvalidArgumentError(
            f"argument 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}"
        )
    out.share_meta(x)


def partial_range(
    columns: int, start_index: int, length: int, negative_start: bool
) -> tuple[int, int]:
    """(first column, column count) of partial_concat/partial_sum on rows of ``columns``; with
    ``columns`` unknown, (start_index, length or UNKNOWN)."""
    if not is_known(columns):
        return start_index, length if length >= 0 else UNKNOWN
    low = -columns if negative_start else 0
    if not low <= start_index < max(columns, 1) or (columns == 0 and start_index != 0):
        raise InvalidArgumentError(
            f"argument 'start_index' must be in [{low}, {columns}), got {start_index}"
        )
    start = start_index + columns if start_index < 0 else start_index
    if length < -1:
        raise InvalidArgumentError(f"argument 'length' must be -1 or at least 0, got {length}")
    count = columns - start if length == -1 else length
    if start + count > columns:
        raise InvalidArgumentError(
            f"start_index + length ({start} + {count}) must be at most the row length {columns}"
        )
    return start, count


def _partial_inputs(x: list[MetaTensor], config: MetaConfig) -> tuple[int, int]:
    """(rows, columns) of the 2-D inputs, which must share dims and dtype."""
    if not x:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor")
    first = x[0]
    for i, item in enumerate(x):
        if len(item.dims) != 2:
            raise InvalidArgumentError(
                f"argument 'x' must hold 2-D tensors, got dims {list(item.dims)} at {i}"
            )
        if item.dtype != first.dtype or not all(
            extents_match(a, b, config) for a, b in zip(item.dims, first.dims)
        ):
            raise InvalidArgumentError(
                f"argument 'x' must hold tensors of one shape and dtype, got {list(first.dims)} "
                f"{first.dtype.name.lower()} at 0 and {list(item.dims)} {item.dtype.name.lower()} "
                f"at {i}"
            )
    return first.dims[0], first.dims[1]


def partial_concat_infer_meta(
    x: list[MetaTensor],
    start_index: int,
    length: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's PartialConcatInferMeta: ``out`` is [rows, len(x) * length] of ``x``'s dtype."""
    rows, columns = _partial_inputs(x, config)
    _, count = partial_range(columns, start_index, length, negative_start=True)
    out.set_dims((rows, count * len(x) if is_known(count) else UNKNOWN))
    out.set_dtype(x[0].dtype)


def partial_sum_infer_meta(
    x: list[MetaTensor],
    start_index: int,
    length: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's PartialSumInferMeta: ``out`` is [rows, length] of ``x``'s dtype."""
    rows, columns = _partial_inputs(x, config)
    _, count = partial_range(columns, start_index, length, negative_start=False)
    out.set_dims((rows, count))
    out.set_dtype(x[0].dtype)


def partial_concat_grad_infer_meta(
    x: list[MetaTensor], x_grad: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """Each ``x_grad[i]`` has ``x[i]``'s meta."""
    for source, target in zip(x, x_grad):
        target.share_meta(source)


def partial_sum_grad_infer_meta(
    x: list[MetaTensor], x_grad: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """Each ``x_grad[i]`` has ``x[i]``'s meta."""
    partial_concat_grad_infer_meta(x, x_grad, config)
