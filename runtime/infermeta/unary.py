"""InferMeta functions of ops with one tensor input."""

from __future__ import annotations

from phiops.runtime.common import DataType, is_from_value
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.spatial import (
    check_data_format,
    check_positive,
    pool_out_size,
    resolve_paddings,
)


from phiops.runtime.infermeta.dims import UNKNOWN, integer_scalar, is_known, numel

_RUNTIME = MetaConfig()


def unchanged_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` has ``x``'s dims, dtype and layout."""
    out.share_meta(x)


def get_tensor_from_selected_rows_infer_meta(
    x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` is x's value: while a program is built, x's complete dims (PaddlePaddle's
    UnchangedInferMeta, as 3.3.1 types the result); when it runs, its first extent is the
    data's, one per row of x (PHI's kernel sets the dims), and the rest are x's."""
    out.share_meta(x)
    if config.is_runtime and x.dims:
        out.set_dims((UNKNOWN, *tuple(x.dims)[1:]))


def unchanged_infer_meta_check_axis(
    x: MetaTensor, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Like ``unchanged_infer_meta``, after checking that ``axis`` is in [-rank, rank)."""
    check_axis(axis, len(x.dims), "axis")
    out.share_meta(x)


def real_and_imag_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` has ``x``'s dims; a complex dtype becomes its real counterpart."""
    out.share_meta(x)
    if x.dtype is DataType.COMPLEX64:
        out.set_dtype(DataType.FLOAT32)
    elif x.dtype is DataType.COMPLEX128:
        out.set_dtype(DataType.FLOAT64)


def cast_infer_meta(
    x: MetaTensor, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``x``'s dims and the requested ``dtype``."""
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError(
            "cast: argument 'dtype' must be a defined data type, got UNDEFINED"
        )
    out.share_meta(x)
    out.set_dtype(dtype)


def logical_not_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` has ``x``'s dims and dtype bool."""
    out.share_meta(x)
    out.set_dtype(DataType.BOOL)


def check_axis(axis: int, rank: int, name: str) -> int:
    """``axis`` normalised to [0, rank) (a 0-D tensor accepts -1 and 0); InvalidArgumentError
    naming ``name`` otherwise."""
    bound = max(rank, 1)
    if not -bound <= axis < bound:
        raise InvalidArgumentError(
            f"argument '{name}' must be in [{-bound}, {bound}) for a tensor of rank {rank}, got {axis}"
        )
    return axis + bound if axis < 0 else axis


# Reductions, argmin/argmax, shape manipulation, split, softmax, creation ----------------------
# Shape rules follow PaddlePaddle's paddle/phi/infermeta/unary.cc functions of the same name.
# The ``*_out_dims`` helpers are pure and also serve the kernels that must recompute a shape.


def _dims_text(dims: tuple[int, ...] | list[int]) -> str:
    return str(list(dims))


def _numel(dims: tuple[int, ...] | list[int]) -> int:
    """The element count; UNKNOWN (-1) when an extent is unknown (see runtime/infermeta/dims.py)."""
    return numel(dims)


def reduce_out_dims(
    dims: tuple[int, ...], axis: tuple[int, ...], keepdim: bool, reduce_all: bool
) -> tuple[int, ...]:
    """Dims after reducing ``axis`` of ``dims`` (all axes when ``axis`` is empty or
    ``reduce_all``); InvalidArgumentError for an axis out of range or named twice."""
    rank = len(dims)
    reduced: set[int] = set()
    for entry in axis:
        index = check_axis(entry, rank, "axis")
        if index in reduced:
            raise InvalidArgumentError(
                f"argument 'axis' must not name a dimension twice, got {list(axis)} "
                f"(dimension {index} repeats) for a tensor of rank {rank}"
            )
        reduced.add(index)
    if reduce_all or not axis:
        reduced = set(range(rank))
    return tuple(
        1 if i in reduced else extent
        for i, extent in enumerate(dims)
        if keepdim or i not in reduced
    )


def reduce_int_array_axis_infer_meta_base(
    x: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Reduce ``axis`` of ``x`` (every axis when ``axis`` is empty or ``reduce_all``), keeping
    reduced dimensions as 1 when ``keepdim``; ``out`` has ``x``'s dtype."""
    out.set_dims(reduce_out_dims(x.dims, axis, keepdim, reduce_all))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def reduce_int_array_axis_infer_meta(
    x: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``reduce_int_array_axis_infer_meta_base`` where an empty ``axis`` reduces every axis."""
    reduce_int_array_axis_infer_meta_base(x, axis, keepdim, not axis, out, config)


def sum_infer_meta(
    x: MetaTensor,
    axis: tuple[int, ...],
    dtype: DataType,
    keepdim: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """A reduction whose dtype is ``dtype`` when given, else int64 for bool and int32 inputs
    and ``x``'s dtype otherwise (PaddlePaddle's SumRawInferMeta)."""
    reduce_int_array_axis_infer_meta(x, axis, keepdim, out, config)
    if dtype is not DataType.UNDEFINED:
        out.set_dtype(dtype)
    elif x.dtype in (DataType.BOOL, DataType.INT32):
        out.set_dtype(DataType.INT64)


_INT32_MAX = 2**31 - 1


def arg_min_max_infer_meta(
    x: MetaTensor,
    axis: int,
    keepdims: bool,
    flatten: bool,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Index of the extreme value along ``axis`` (of the flattened ``x`` when ``flatten``), as
    int32 or int64 (int64 when ``dtype`` is UNDEFINED, as PaddlePaddle's kernel does)."""
    if dtype not in (DataType.UNDEFINED, DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"argument 'dtype' must be int32 or int64, got {dtype.name.lower()}"
        )
    dims = x.dims
    rank = len(dims)
    index = check_axis(axis, rank, "axis")
    if dtype is DataType.INT32:
        count = _numel(dims) if flatten else (dims[index] if rank else 1)
        if count > _INT32_MAX:  # an unknown count (-1) is checked at run time
            raise InvalidArgumentError(
                f"argument 'dtype' int32 cannot index the {count} elements along the reduced axis; "
                "use int64"
            )
    if flatten:
        out_dims: tuple[int, ...] = (1,) * rank if keepdims else ()
    elif rank == 0:
        # PaddlePaddle's ArgMinMaxInferMeta gives [1] for a 0-D input with keepdims.
        out_dims = (1,) if keepdims else ()
    else:
        out_dims = dims[:index] + ((1,) if keepdims else ()) + dims[index + 1 :]
    out.set_dims(out_dims)
    out.set_dtype(DataType.INT32 if dtype is DataType.INT32 else DataType.INT64)
    out.set_layout(x.layout)


def reshape_out_dims(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` resolved against input ``dims``: a 0 copies the input dimension at the same
    position (stays 0 for a zero-size input), one -1 takes what is left; InvalidArgumentError
    when the element counts cannot match. With unknown (-1) input dims (a graph being built) the
    count is not checked and the -1 entry stays unknown, as in PHI's ValidateShape."""
    size = _numel(dims)
    resolved: list[int] = []
    unknown = -1
    for position, extent in enumerate(shape):
        if extent == -1:
            if unknown != -1:
                raise InvalidArgumentError(
                    f"argument 'shape' may contain at most one -1, got {_dims_text(shape)}"
                )
            unknown = position
        elif extent == 0:
            if position < len(dims):
                extent = dims[position] if size else 0
            elif size:
                raise InvalidArgumentError(
                    f"argument 'shape' {_dims_text(shape)} has a 0 at position {position}, which copies "
                    f"the dimension of argument 'x' at that position, but 'x' has dims {_dims_text(dims)}"
                )
        elif extent < 0:
            raise InvalidArgumentError(
                f"argument 'shape' must hold sizes >= 0 and at most one -1, got {_dims_text(shape)}"
            )
        resolved.append(extent)
    if size == UNKNOWN:
        return tuple(resolved)
    if unknown == -1:
        if _numel(resolved) != size:
            raise InvalidArgumentError(
                f"argument 'shape' {_dims_text(shape)} holds {_numel(resolved)} elements, but argument "
                f"'x' with dims {_dims_text(dims)} holds {size}"
            )
        return tuple(resolved)
    known = _numel(resolved[:unknown] + resolved[unknown + 1 :])
    if known == 0 or size % known:
        reason = (
            "the -1 is ambiguous next to a 0"
            if known == 0
            else f"{size} is not divisible by {known}"
        )
        raise InvalidArgumentError(
            f"argument 'shape' {_dims_text(shape)} cannot hold argument 'x' with dims "
            f"{_dims_text(dims)}: {reason}"
        )
    resolved[unknown] = size // known
    return tuple(resolved)


def reshape_infer_meta(
    x: MetaTensor, shape: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` with its elements rearranged into ``shape`` (see ``reshape_out_dims``). A
    ``shape`` from a Value being built gives its entries as they are, -1 unknown (PHI's
    compile-time ``shape.FromTensor()`` case: its -1 does not mean "infer")."""
    if is_from_value(shape):
        out.set_dims(tuple(shape))
        out.set_dtype(x.dtype)
        out.set_layout(x.layout)
        return
    out.set_dims(reshape_out_dims(shape, x.dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def transpose_infer_meta(
    x: MetaTensor, perm: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x``'s dimensions reordered by ``perm``, a permutation of its axes (negative entries
    count from the end)."""
    dims = x.dims
    rank = len(dims)
    if len(perm) != rank:
        raise InvalidArgumentError(
            f"argument 'perm' must have one entry per dimension of argument 'x' with dims "
            f"{_dims_text(dims)}, got {_dims_text(perm)}"
        )
    order = [check_axis(entry, rank, "perm") for entry in perm]
    if len(set(order)) != rank:
        raise InvalidArgumentError(
            f"argument 'perm' must be a permutation of the axes of a tensor of rank {rank}, got "
            f"{_dims_text(perm)}"
        )
    out.set_dims(tuple(dims[i] for i in order))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def squeeze_out_dims(
    axis: tuple[int, ...], dims: tuple[int, ...], is_runtime: bool = True
) -> tuple[int, ...]:
    """``dims`` without the size-1 dimensions named by ``axis`` (every size-1 dimension when
    ``axis`` is empty); a named dimension whose size is not 1 stays, as in PaddlePaddle. While a
    graph is built (``is_runtime`` false) a named unknown (-1) dimension is taken to be 1 and
    removed, as PHI's GetOutputSqueezeShape does; an unnamed one stays."""
    rank = len(dims)
    if not axis:
        return tuple(extent for extent in dims if extent != 1)
    named = {check_axis(entry, rank, "axis") for entry in axis}
    squeezable = (1,) if is_runtime else (1, UNKNOWN)
    return tuple(
        extent for i, extent in enumerate(dims) if not (i in named and extent in squeezable)
    )


def squeeze_infer_meta(
    x: MetaTensor, axis: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` without the size-1 dimensions ``axis`` names (see ``squeeze_out_dims``)."""
    out.set_dims(squeeze_out_dims(axis, x.dims, config.is_runtime))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def unsqueeze_out_dims(axis: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims`` with a 1 inserted for each entry of ``axis``, in order; each entry is a
    position in the output built so far, in [-(rank + 1), rank + 1) for the current rank."""
    inserted = [False] * len(dims)
    for entry in axis:
        rank = len(inserted)
        if not -(rank + 1) <= entry <= rank:
            raise InvalidArgumentError(
                f"argument 'axis' must be in [{-(rank + 1)}, {rank + 1}) to insert a dimension into "
                f"a tensor of rank {rank}, got {entry} (axis {_dims_text(axis)})"
            )
        inserted.insert(entry + rank + 1 if entry < 0 else entry, True)
    source = iter(dims)
    return tuple(1 if new else next(source) for new in inserted)


def unsqueeze_infer_meta(
    x: MetaTensor, axis: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` with size-1 dimensions inserted at ``axis`` (see ``unsqueeze_out_dims``)."""
    out.set_dims(unsqueeze_out_dims(axis, x.dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def flatten_out_dims(start_axis: int, stop_axis: int, dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims`` with the dimensions from ``start_axis`` to ``stop_axis`` (inclusive) merged into
    one; a 0-D input gives [1]."""
    rank = len(dims)
    start = check_axis(start_axis, rank, "start_axis")
    stop = check_axis(stop_axis, rank, "stop_axis")
    if rank == 0:
        return (1,)
    if stop < start:
        raise InvalidArgumentError(
            f"argument 'stop_axis' ({stop_axis}) must not come before argument 'start_axis' "
            f"({start_axis}) for a tensor of rank {rank}"
        )
    return dims[:start] + (_numel(dims[start : stop + 1]),) + dims[stop + 1 :]


def flatten_infer_meta(
    x: MetaTensor, start_axis: int, stop_axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` with dimensions ``start_axis``..``stop_axis`` merged (see ``flatten_out_dims``)."""
    out.set_dims(flatten_out_dims(start_axis, stop_axis, x.dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def expand_out_dims(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims`` broadcast to ``shape``: new leading dimensions may be added, -1 keeps the input
    dimension, and only size-1 dimensions change size; an empty ``shape`` keeps ``dims``. An
    unknown (-1) input dimension (a graph being built) may expand to any size."""
    if not shape:
        return dims
    lead = len(shape) - len(dims)
    if lead < 0:
        raise InvalidArgumentError(
            f"argument 'shape' {_dims_text(shape)} must have at least as many entries as argument "
            f"'x' with dims {_dims_text(dims)} has dimensions"
        )
    resolved = []
    for position, extent in enumerate(shape):
        source = dims[position - lead] if position >= lead else None
        if extent == -1 and source is not None:
            extent = source
        elif extent < 0:
            where = "a new leading dimension" if source is None else "a dimension"
            raise InvalidArgumentError(
                f"argument 'shape' {_dims_text(shape)} has {extent} at position {position}, "
                f"{where}; sizes must be >= 0{'' if source is None else ' or -1'}"
            )
        elif source is not None and source not in (1, UNKNOWN) and source != extent:
            raise InvalidArgumentError(
                f"argument 'shape' {_dims_text(shape)} cannot expand argument 'x' with dims "
                f"{_dims_text(dims)}: dimension {position - lead} of 'x' has size {source}, which "
                f"is not 1 and differs from {extent}"
            )
        resolved.append(extent)
    return tuple(resolved)


def expand_infer_meta(
    x: MetaTensor, shape: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` broadcast to ``shape`` (see ``expand_out_dims``); an entry of a ``shape`` from a
    Value being built that the data decides (-1) gives an unknown extent."""
    if is_from_value(shape):
        lead = len(shape) - len(x.dims)
        # the known entries checked as given; an unknown one stands in as "keep" or 0
        stand_in = tuple(
            (0 if position < lead else -1) if extent == -1 else extent
            for position, extent in enumerate(shape)
        )
        dims = expand_out_dims(stand_in, x.dims)
        out.set_dims(tuple(UNKNOWN if e == -1 else d for e, d in zip(shape, dims)))
    else:
        out.set_dims(expand_out_dims(shape, x.dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def split_sections(sections: tuple[int, ...], axis: int, dims: tuple[int, ...]) -> tuple[int, ...]:
    """``sections`` with its -1 resolved against the size of ``dims`` along ``axis`` (already
    normalised); InvalidArgumentError when they cannot split that size. A zero-size axis gives
    every section 0, as PaddlePaddle's SplitInferMeta does. An unknown (-1) size along ``axis``
    (a graph being built) leaves the sections as given, their -1 unknown."""
    extent = dims[axis]
    if extent == 0:
        return (0,) * len(sections)
    unknown = [i for i, section in enumerate(sections) if section == -1]
    if len(unknown) > 1 or any(section < -1 for section in sections):
        raise InvalidArgumentError(
            f"argument 'sections' must hold sizes >= 0 and at most one -1, got {_dims_text(sections)}"
        )
    if extent == UNKNOWN:
        return tuple(sections)
    known = sum(section for section in sections if section != -1)
    if unknown:
        if known >= extent:
            raise InvalidArgumentError(
                f"argument 'sections' {_dims_text(sections)} leaves nothing for its -1: the other "
                f"sections sum to {known}, but argument 'x' with dims {_dims_text(dims)} has size "
                f"{extent} along axis {axis}"
            )
        return tuple(extent - known if section == -1 else section for section in sections)
    if known != extent:
        raise InvalidArgumentError(
            f"argument 'sections' {_dims_text(sections)} sums to {known}, but argument 'x' with dims "
            f"{_dims_text(dims)} has size {extent} along axis {axis}"
        )
    return sections


def split_axis(axis: int, dims: tuple[int, ...]) -> int:
    """``axis`` normalised for splitting a tensor with ``dims``; a 0-D tensor cannot be split."""
    if not dims:
        raise InvalidArgumentError(
            "argument 'x' must have at least 1 dimension to be split, got a 0-D tensor"
        )
    return check_axis(axis, len(dims), "axis")


def split_infer_meta(
    x: MetaTensor,
    sections: tuple[int, ...],
    axis: int,
    out: list[MetaTensor],
    config: MetaConfig = _RUNTIME,
) -> None:
    """One output per entry of ``sections``, each ``x`` cut to that size along ``axis``; at
    most one section is -1 and takes what the others leave."""
    dims = x.dims
    index = split_axis(axis, dims)
    for piece, section in zip(out, split_sections(sections, index, dims)):
        piece.set_dims(dims[:index] + (section,) + dims[index + 1 :])
        piece.set_dtype(x.dtype)
        piece.set_layout(x.layout)


def softmax_infer_meta(
    x: MetaTensor, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``x``'s meta; ``axis`` must be in [-rank, rank) (-1 or 0 for a 0-D ``x``)."""
    check_axis(axis, len(x.dims), "axis")
    out.share_meta(x)


def create_like_infer_meta(
    x: MetaTensor, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``x``'s dims and layout, and ``dtype`` (``x``'s dtype when UNDEFINED)."""
    out.set_dims(x.dims)
    out.set_dtype(x.dtype if dtype is DataType.UNDEFINED else dtype)
    out.set_layout(x.layout)


# Pooling --------------------------------------------------------------------------------------


def pool_geometry(
    spatial: tuple[int, ...],
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """(kernel sizes, (before, after) paddings) a pooling really uses, as PHI's pool kernels:
    global pooling takes the whole spatial extent with no padding; adaptive pooling pads
    nothing (``kernel_size`` is then the output size)."""
    n = len(spatial)
    if len(kernel_size) != n:
        raise InvalidArgumentError(
            f"argument 'kernel_size' must hold {n} values for {n} spatial dims, "
            f"got {list(kernel_size)}"
        )
    if len(strides) != n:
        raise InvalidArgumentError(
            f"argument 'strides' must hold {n} values for {n} spatial dims, got {list(strides)}"
        )
    check_positive(strides, "strides")
    if global_pooling:
        return tuple(spatial), ((0, 0),) * n
    check_positive(kernel_size, "kernel_size")
    pads, _ = resolve_paddings(paddings, padding_algorithm, spatial, kernel_size, strides)
    if adaptive:
        return tuple(kernel_size), ((0, 0),) * n
    return tuple(kernel_size), pads


def pool_out_dims(
    dims: tuple[int, ...],
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
) -> tuple[int, ...]:
    """Output dims of pool2d/pool3d (PHI's PoolInferMeta)."""
    if len(dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D or 5-D tensor, got dims {_dims_text(dims)}"
        )
    if pooling_type not in ("max", "avg"):
        raise InvalidArgumentError(
            f"argument 'pooling_type' must be 'max' or 'avg', got {pooling_type!r}"
        )
    channel_last = check_data_format(data_format, len(dims))
    spatial = dims[1:-1] if channel_last else dims[2:]
    kernel, pads = pool_geometry(
        spatial, kernel_size, strides, paddings, global_pooling, adaptive, padding_algorithm
    )
    if global_pooling and not adaptive:
        spatial_out = (1,) * len(spatial)
    elif adaptive:  # the output size; with global pooling the kernel, so the input's extent
        spatial_out = kernel
    else:
        spatial_out = tuple(
            pool_out_size(size, k, p, s, ceil_mode, axis)
            for axis, (size, k, p, s) in enumerate(zip(spatial, kernel, pads, strides))
        )
    if channel_last:
        return (dims[0],) + spatial_out + (dims[-1],)
    return (dims[0], dims[1]) + spatial_out


def pool2_d_infer_meta(
    x: MetaTensor,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's Pool2DInferMeta: a 4-D input, the output size of each spatial dim from the
    kernel, strides, paddings and ``ceil_mode``; global pooling gives 1, adaptive pooling
    ``kernel_size``."""
    if len(x.dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' of pool2d must be a 4-D tensor, got dims {_dims_text(x.dims)}"
        )
    pool_infer_meta(
        x,
        kernel_size,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        pooling_type,
        global_pooling,
        adaptive,
        padding_algorithm,
        out,
        config,
    )


# Slicing, set_value, one_hot, topk, argsort, nonzero, unique ----------------------------------
# Shape rules follow paddle/phi/infermeta/unary.cc (SliceRawInferMeta, StridedSliceInferMeta,
# SetValueInferMeta, OneHotInferMeta, TopKInferMeta, ArgsortInferMeta, NonZeroInferMeta,
# UniqueInferMeta). The pure ``*_ranges`` helpers also serve the kernels. Dims that depend on the
# data (nonzero, unique) are -1: the kernel's result gives them.


def _slice_axis(axis: int, rank: int, op_arg: str) -> int:
    if not 0 <= axis < rank:
        raise InvalidArgumentError(
            f"argument '{op_arg}' holds axis {axis}, which is out of range for a tensor of rank "
            f"{rank}: expected [0, {rank})"
        )
    return axis


def _same_length(name: str, values: tuple[int, ...], axes: tuple[int, ...]) -> None:
    if len(values) != len(axes):
        raise InvalidArgumentError(
            f"argument '{name}' must have one entry per axis ({len(axes)}), got {len(values)}"
        )


def slice_ranges(
    dims: tuple[int, ...],
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
) -> list[tuple[int, int]]:
    """(start, end) per entry of ``axes``, as PHI's CheckAndUpdateSliceAttrs clamps them: a
    negative bound counts from the end; both are clamped to [0, dim]; end < start is empty."""
    _same_length("starts", starts, axes)
    _same_length("ends", ends, axes)
    ranges = []
    for axis, start, end in zip(axes, starts, ends):
        dim = dims[_slice_axis(axis, len(dims), "axes")]
        start = min(max(start + dim if start < 0 else start, 0), dim)
        end = min(max(end + dim if end < 0 else end, 0), dim)
        ranges.append((start, max(end, start)))
    return ranges


def _decreased(dims: list[int], decrease_axis: tuple[int, ...], name: str) -> tuple[int, ...]:
    """``dims`` without ``decrease_axis``, each of size 1 (or unknown, checked at run time)."""
    for axis in decrease_axis:
        _slice_axis(axis, len(dims), name)
        if dims[axis] not in (1, UNKNOWN):
            raise InvalidArgumentError(
                f"argument '{name}' removes axis {axis}, whose size after slicing is "
                f"{dims[axis]}, not 1"
            )
    return tuple(d for i, d in enumerate(dims) if i not in decrease_axis)


def slice_raw_infer_meta(
    input: MetaTensor,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    infer_flags: tuple[int, ...],
    decrease_axis: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``input`` cut to [start, end) on each of ``axes``; ``decrease_axis`` then drops axes of
    size 1 (all of them gives a 0-D tensor). A cut of an unknown extent is unknown, and so is
    every cut when ``starts`` or ``ends`` comes from a Value being built (PHI's compile-time
    ``FromTensor()`` case)."""
    dims = list(input.dims)
    from_value = is_from_value(starts) or is_from_value(ends)
    for axis, (start, end) in zip(axes, slice_ranges(input.dims, axes, starts, ends)):
        dims[axis] = UNKNOWN if from_value or dims[axis] == UNKNOWN else end - start
    out.set_dims(_decreased(dims, decrease_axis, "decrease_axis"))
    out.set_dtype(input.dtype)
    out.set_layout(input.layout)


def strided_slice_ranges(
    dims: tuple[int, ...],
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    strides: tuple[int, ...],
) -> list[slice]:
    """A Python ``slice`` per entry of ``axes``: PHI's StridedSlice bounds are Python's (a
    negative bound counts from the end, out-of-range bounds are clamped), as PaddlePaddle 3.3.1
    computes them."""
    _same_length("starts", starts, axes)
    _same_length("ends", ends, axes)
    _same_length("strides", strides, axes)
    slices = []
    for axis, start, end, stride in zip(axes, starts, ends, strides):
        _slice_axis(axis, len(dims), "axes")
        if stride == 0:
            raise InvalidArgumentError(f"argument 'strides' must not hold 0 (axis {axis})")
        slices.append(slice(start, end, stride))
    return slices


def strided_slice_infer_meta(
    x: MetaTensor,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    strides: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x`` sliced with a stride (negative: backwards) on each of ``axes``; a slice of an
    unknown extent is unknown."""
    dims = list(x.dims)
    for axis, s in zip(axes, strided_slice_ranges(x.dims, axes, starts, ends, strides)):
        if dims[axis] != UNKNOWN:
            dims[axis] = len(range(*s.indices(dims[axis])))
    out.set_dims(tuple(dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


# Activations, shape and creation, random, logic and bits --------------------------------------


def logsumexp_infer_meta(
    x: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """log(sum(exp(x))) over ``axis`` (every axis when it is empty or ``reduce_all``); ``x``
    may have at most 4 dimensions, as in PaddlePaddle's LogsumexpInferMeta."""
    rank = len(x.dims)
    if rank > 4:
        raise InvalidArgumentError(
            f"argument 'x' must have at most 4 dimensions for logsumexp, got {rank} "
            f"(dims {_dims_text(x.dims)})"
        )
    reduce_int_array_axis_infer_meta_base(x, axis, keepdim, reduce_all or not axis, out, config)


def set_value_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` like ``x`` (rank at most 9, as PHI's SetValueInferMeta says)."""
    if len(x.dims) > 9:
        raise InvalidArgumentError(
            f"argument 'x' must have rank at most 9 to set values into it, got {len(x.dims)}"
        )
    out.share_meta(x)


def one_hot_infer_meta(
    x: MetaTensor, num_classes: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x``'s dims plus a trailing ``num_classes``, float32."""
    if num_classes <= 0 and config.is_runtime:
        raise InvalidArgumentError(f"argument 'num_classes' must be positive, got {num_classes}")
    out.set_dims(tuple(x.dims) + (num_classes,))
    out.set_dtype(DataType.FLOAT32)
    out.set_layout(x.layout)


def top_k_infer_meta(
    x: MetaTensor,
    k: int,
    axis: int,
    largest: bool,
    sorted: bool,
    out: MetaTensor,
    indices: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``k`` values (and their int64 indices) along ``axis``."""
    dims = x.dims
    index = check_axis(axis, len(dims), "axis")
    extent = dims[index] if dims else 1
    if k < 0 or (is_known(extent) and k > extent):
        raise InvalidArgumentError(
            f"argument 'k' must be in [0, {extent}] (the size of axis {axis}), got {k}"
        )
    out_dims = dims[:index] + (k,) + dims[index + 1 :] if dims else ()
    for meta, dtype in ((out, x.dtype), (indices, DataType.INT64)):
        meta.set_dims(out_dims)
        meta.set_dtype(dtype)
        meta.set_layout(x.layout)


def argsort_infer_meta(
    x: MetaTensor,
    axis: int,
    descending: bool,
    stable: bool,
    output: MetaTensor,
    indices: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Sorted values and their int64 indices, both with ``x``'s dims."""
    check_axis(axis, len(x.dims), "axis")
    output.share_meta(x)
    indices.set_dims(x.dims)
    indices.set_dtype(DataType.INT64)
    indices.set_layout(x.layout)


def non_zero_infer_meta(
    condition: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """int64 coordinates of the nonzero elements: [-1, rank] (the count comes from the data)."""
    out.set_dims((-1, len(condition.dims)))
    out.set_dtype(DataType.INT64)
    out.set_layout(condition.layout)


def unique_infer_meta(
    x: MetaTensor,
    return_index: bool,
    return_inverse: bool,
    return_counts: bool,
    axis: tuple[int, ...],
    dtype: DataType,
    out: MetaTensor,
    indices: MetaTensor,
    inverse: MetaTensor,
    counts: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Unique values (flattened without ``axis``; along one axis with it); first-occurrence
    indices, inverse and counts as asked, in ``dtype``. Sizes come from the data (-1)."""
    if dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"argument 'dtype' must be int32 or int64, got {dtype.name.lower()}"
        )
    dims = x.dims
    if len(axis) > 1:
        raise InvalidArgumentError(f"argument 'axis' must hold at most one axis, got {list(axis)}")
    if axis:
        a = check_axis(axis[0], len(dims), "axis")
        out.set_dims(dims[:a] + (-1,) + dims[a + 1 :])
        inverse_dims: tuple[int, ...] = (dims[a],)
    else:
        out.set_dims((-1,))
        inverse_dims = (_numel(dims),)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
    for wanted, meta, out_dims in (
        (return_index, indices, (-1,)),
        (return_inverse, inverse, inverse_dims),
        (return_counts, counts, (-1,)),
    ):
        if wanted:
            meta.set_dims(out_dims)
            meta.set_dtype(dtype)
            meta.set_layout(x.layout)


def pool_infer_meta(
    x: MetaTensor,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling_type: str,
    global_pooling: bool,
    adaptive: bool,
    padding_algorithm: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's PoolInferMeta (pool3d): ``pool2_d_infer_meta``'s rule for a 4-D or 5-D input."""
    out.set_dims(
        pool_out_dims(
            tuple(x.dims),
            tuple(kernel_size),
            tuple(strides),
            tuple(paddings),
            ceil_mode,
            data_format,
            pooling_type,
            global_pooling,
            adaptive,
            padding_algorithm,
        )
    )
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def max_pool_with_index_infer_meta(
    x: MetaTensor,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    ceil_mode: bool,
    out: MetaTensor,
    mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MaxPoolWithIndexInferMeta: an NCHW (or NCDHW) ``x``; ``out`` and the int32
    ``mask`` (flat index of each maximum in its input plane) have the pooled dims."""
    dims = tuple(x.dims)
    if len(dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D or 5-D tensor, got dims {_dims_text(dims)}"
        )
    spatial_rank = len(dims) - 2
    if len(paddings) != spatial_rank:
        raise InvalidArgumentError(
            f"argument 'paddings' must hold {spatial_rank} values, got {list(paddings)}"
        )
    out_dims = pool_out_dims(
        dims,
        tuple(kernel_size),
        tuple(strides),
        tuple(paddings),
        ceil_mode,
        "NCHW" if spatial_rank == 2 else "NCDHW",
        "max",
        global_pooling,
        adaptive,
        "EXPLICIT",
    )
    out.set_dims(out_dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
    mask.set_dims(out_dims)
    mask.set_dtype(DataType.INT32)
    mask.set_layout(x.layout)


def reduce_infer_meta(
    x: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PaddlePaddle's ReduceInferMeta as ``all`` and ``any`` use it, its only users here: the
    reduced dims (every axis when ``axis`` is empty), dtype bool. (PaddlePaddle's function keeps
    x's dtype and the all/any kernels override it with OutputAt(0).SetDataType(BOOL); here the
    InferMeta decides the output meta, so it says bool itself.)"""
    reduce_int_array_axis_infer_meta_base(x, axis, keepdim, not axis, out, config)
    out.set_dtype(DataType.BOOL)


def isfinite_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` has ``x``'s dims and dtype bool."""
    out.share_meta(x)
    out.set_dtype(DataType.BOOL)


def split_with_num_infer_meta(
    x: MetaTensor, num: int, axis: int, out: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """``num`` equal pieces of ``x`` along ``axis``, whose size ``num`` must divide (each piece
    unknown along ``axis`` when that size is)."""
    dims = x.dims
    index = split_axis(axis, dims)
    if num <= 0:
        raise InvalidArgumentError(f"argument 'num' must be > 0, got {num}")
    if dims[index] == UNKNOWN:
        for piece in out:
            piece.set_dims(dims)
            piece.set_dtype(x.dtype)
            piece.set_layout(x.layout)
        return
    if dims[index] % num:
        raise InvalidArgumentError(
            f"argument 'num' ({num}) must divide the size {dims[index]} of argument 'x' (dims "
            f"{_dims_text(dims)}) along axis {axis}"
        )
    split_infer_meta(x, (dims[index] // num,) * num, axis, out, config)


def tile_infer_meta(
    x: MetaTensor, repeat_times: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x`` repeated ``repeat_times`` times along each axis; the shorter of dims and
    ``repeat_times`` is padded with leading 1s. An entry of ``repeat_times`` from a Value
    being built that the data decides (-1) gives an unknown extent."""
    from_value = is_from_value(repeat_times)
    for value in repeat_times:
        if value < 0 and not (from_value and value == -1):
            raise InvalidArgumentError(
                f"argument 'repeat_times' must hold integers >= 0, got {_dims_text(repeat_times)}"
            )
    rank = max(len(x.dims), len(repeat_times))
    dims = (1,) * (rank - len(x.dims)) + tuple(x.dims)
    repeats = (1,) * (rank - len(repeat_times)) + tuple(repeat_times)
    out.set_dims(
        tuple(UNKNOWN if d == UNKNOWN or r == -1 else d * r for d, r in zip(dims, repeats))
    )
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def flip_infer_meta(
    x: MetaTensor, axis: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` like ``x``; ``axis`` holds distinct axes of ``x``."""
    normalised = [check_axis(entry, len(x.dims), "axis") for entry in axis]
    if len(set(normalised)) != len(normalised):
        raise InvalidArgumentError(
            f"argument 'axis' must not name an axis twice, got {_dims_text(axis)}"
        )
    out.share_meta(x)


def roll_infer_meta(
    x: MetaTensor,
    shifts: tuple[int, ...],
    axis: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``; one shift per entry of ``axis``, or one shift of the flattened
    tensor when ``axis`` is empty."""
    if axis:
        if len(shifts) != len(axis):
            raise InvalidArgumentError(
                f"argument 'shifts' must have one entry per entry of argument 'axis', got shifts "
                f"{_dims_text(shifts)} and axis {_dims_text(axis)}"
            )
        for entry in axis:
            check_axis(entry, len(x.dims), "axis")
    elif len(shifts) != 1:
        raise InvalidArgumentError(
            f"argument 'shifts' must hold one value when argument 'axis' is empty, got "
            f"{_dims_text(shifts)}"
        )
    out.share_meta(x)


def pad_infer_meta(
    x: MetaTensor,
    paddings: tuple[int, ...],
    pad_value: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x`` padded by ``paddings`` = (before, after) per axis, all >= 0."""
    dims = x.dims
    if len(paddings) != 2 * len(dims):
        raise InvalidArgumentError(
            f"argument 'paddings' must hold 2 values per dimension of argument 'x' (dims "
            f"{_dims_text(dims)}: {2 * len(dims)}), got {len(paddings)}"
        )
    for index, value in enumerate(paddings):
        if value < 0:
            raise InvalidArgumentError(
                f"argument 'paddings' must hold values >= 0, got {value} at index {index}"
            )
    out.set_dims(
        tuple(
            UNKNOWN if d == UNKNOWN else d + paddings[2 * i] + paddings[2 * i + 1]
            for i, d in enumerate(dims)
        )
    )
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


PAD3D_MODES = ("constant", "reflect", "replicate", "circular")


def pad3d_spatial_axes(data_format: str) -> tuple[int, int, int]:
    """The (D, H, W) axes of a 5-D tensor in ``data_format``."""
    return (2, 3, 4) if data_format == "NCDHW" else (1, 2, 3)


def pad3d_infer_meta(
    x: MetaTensor,
    paddings: tuple[int, ...],
    mode: str,
    pad_value: float,
    data_format: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """A 5-D ``x`` padded along W, H and D by ``paddings`` = (left, right, top, bottom, front,
    back); reflect needs each pad below the size of its axis, replicate a non-empty axis."""
    dims = x.dims
    if len(dims) != 5:
        raise InvalidArgumentError(
            f"argument 'x' must have 5 dimensions, got dims {_dims_text(dims)}"
        )
    if data_format not in ("NCDHW", "NDHWC"):
        raise InvalidArgumentError(
            f"argument 'data_format' must be 'NCDHW' or 'NDHWC', got {data_format!r}"
        )
    if mode not in PAD3D_MODES:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of {', '.join(map(repr, PAD3D_MODES))}, got {mode!r}"
        )
    if len(paddings) != 6:
        raise InvalidArgumentError(
            f"argument 'paddings' must hold 6 values (left, right, top, bottom, front, back), "
            f"got {_dims_text(paddings)}"
        )
    if any(value < 0 for value in paddings):
        raise InvalidArgumentError(
            f"argument 'paddings' must hold values >= 0, got {_dims_text(paddings)}"
        )
    d_axis, h_axis, w_axis = pad3d_spatial_axes(data_format)
    new_dims = list(dims)
    for axis, (before, after), name in (
        (w_axis, paddings[0:2], "width"),
        (h_axis, paddings[2:4], "height"),
        (d_axis, paddings[4:6], "depth"),
    ):
        size = dims[axis]
        if size == UNKNOWN:
            continue
        if mode == "reflect" and (before >= size or after >= size):
            raise InvalidArgumentError(
                f"argument 'paddings' {_dims_text(paddings)} must be below the {name} {size} "
                "of argument 'x' in mode 'reflect'"
            )
        if mode in ("replicate", "circular") and size == 0 and (before or after):
            raise InvalidArgumentError(
                f"argument 'x' has an empty {name}, which mode {mode!r} cannot pad"
            )
        new_dims[axis] = size + before + after
    out.set_dims(tuple(new_dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def tril_triu_check(x: MetaTensor, out: MetaTensor) -> None:
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions, got dims {_dims_text(x.dims)}"
        )
    out.share_meta(x)


def tril_infer_meta(
    x: MetaTensor, diagonal: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` like ``x``, which has at least 2 dimensions."""
    tril_triu_check(x, out)


def triu_infer_meta(
    x: MetaTensor, diagonal: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` like ``x``, which has at least 2 dimensions."""
    tril_triu_check(x, out)


def cum_scalar_axis_infer_meta(
    x: MetaTensor,
    axis: int,
    flatten: bool,
    exclusive: bool,
    reverse: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x`` (flattened to 1-D with ``flatten``); ``axis`` must be an axis of x
    unless ``flatten``."""
    axis = integer_scalar(axis, "axis")
    if not flatten:
        check_axis(axis, len(x.dims), "axis")
    out.share_meta(x)
    if flatten:
        out.set_dims((_numel(x.dims),))


def diag_infer_meta(
    x: MetaTensor, offset: int, padding_value: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """A 0-D or 1-D ``x`` becomes a square matrix with it on diagonal ``offset``; a 2-D ``x``
    gives its diagonal ``offset`` (empty when the offset is beyond the matrix). An unknown
    extent of ``x`` leaves the output's unknown."""
    dims = x.dims
    if len(dims) <= 1:
        extent = dims[0] if dims else 1
        size = UNKNOWN if extent == UNKNOWN else extent + abs(offset)
        out.set_dims((size, size))
    elif len(dims) == 2:
        rows, cols = dims
        if UNKNOWN in dims:
            out.set_dims((UNKNOWN,))
        else:
            length = min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols)
            out.set_dims((max(length, 0),))
    else:
        raise InvalidArgumentError(
            f"argument 'x' must have 1 or 2 dimensions, got dims {_dims_text(dims)}"
        )
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


# --- collective ops ---------------------------------------------------------------------------
# nranks <= 0 (the ops' default) stands for "the ring's size", known only when the kernel runs:
# the gathered extent is then UNKNOWN and taken from the kernel's result.


def _scaled_extent(extent: int, nranks: int) -> int:
    return extent * nranks if nranks > 0 and is_known(extent) else UNKNOWN


def all_gather_infer_meta(
    x: MetaTensor, nranks: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` stacks every rank's ``x`` along dim 0 (a 0-D ``x`` gives a 1-D ``out``)."""
    dims = tuple(x.dims) or (1,)
    out.set_dims((_scaled_extent(dims[0], nranks),) + dims[1:])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def reduce_scatter_infer_meta(
    x: MetaTensor, nranks: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` is this rank's 1/nranks of ``x`` along dim 0, which nranks must divide."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    first = UNKNOWN
    if nranks > 0 and is_known(dims[0]):
        if dims[0] % nranks:
            raise InvalidArgumentError(
                f"argument 'x' must have a first dimension divisible by nranks={nranks}, got "
                f"shape {list(dims)}"
            )
        first = dims[0] // nranks
    out.set_dims((first,) + dims[1:])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def c_concat_infer_meta(
    x: MetaTensor, nranks: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` joins every rank's ``x`` along its last dimension."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    out.set_dims(dims[:-1] + (_scaled_extent(dims[-1], nranks),))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def c_split_infer_meta(
    x: MetaTensor, nranks: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` is one of ``nranks`` equal parts of ``x`` along its last dimension."""
    dims = tuple(x.dims)
    if nranks < 1:
        raise InvalidArgumentError(f"argument 'nranks' must be at least 1, got {nranks}")
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    last = dims[-1]
    if is_known(last) and last % nranks:
        raise InvalidArgumentError(
            f"argument 'x' must have a last dimension divisible by nranks={nranks}, got shape "
            f"{list(dims)}"
        )
    out.set_dims(dims[:-1] + (last // nranks if is_known(last) else UNKNOWN,))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def shape_infer_meta(input: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """A 1-D int32 tensor with one entry per dimension of ``input`` (PaddlePaddle's
    ShapeInferMeta; a 0-D input gives an empty tensor)."""
    out.set_dims((len(input.dims),))
    out.set_dtype(DataType.INT32)
    out.set_layout(input.layout)


def full_batch_size_like_infer_meta(
    input: MetaTensor,
    shape: tuple[int, ...],
    value: object,
    dtype: DataType,
    input_dim_idx: int,
    output_dim_idx: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``shape`` with its ``output_dim_idx`` entry replaced by ``input``'s ``input_dim_idx``
    extent (the batch size), of ``dtype`` (PaddlePaddle's BatchSizeLikeInferMeta)."""
    if len(shape) == 0:
        raise InvalidArgumentError("argument 'shape' must not be empty")
    if not 0 <= output_dim_idx < len(shape):
        raise InvalidArgumentError(
            f"argument 'output_dim_idx' must be in [0, {len(shape)}) (the rank of 'shape'), "
            f"got {output_dim_idx}"
        )
    if not 0 <= input_dim_idx < len(input.dims):
        raise InvalidArgumentError(
            f"argument 'input_dim_idx' must be in [0, {len(input.dims)}) (the rank of 'input'), "
            f"got {input_dim_idx}"
        )
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("argument 'dtype' must be a defined data type, got UNDEFINED")
    dims = list(shape)
    for index, extent in enumerate(dims):
        if index != output_dim_idx and extent < 0 and (config.is_runtime or extent != UNKNOWN):
            raise InvalidArgumentError(
                f"argument 'shape' must hold non-negative extents besides output_dim_idx, got {shape}"
            )
    dims[output_dim_idx] = input.dims[input_dim_idx]
    out.set_dims(tuple(dims))
    out.set_dtype(dtype)
    out.set_layout(input.layout)


def sequence_mask_scalar_infer_meta(
    x: MetaTensor,
    max_len: object,
    out_dtype: DataType,
    y: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x``'s dims plus a trailing ``max_len`` of ``out_dtype``; a ``max_len`` of 0 or less
    (the largest length in ``x``) gives an extent that comes from the data (-1)."""
    if x.dtype not in (DataType.INT32, DataType.INT64, DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(
            f"argument 'x' must be int32, int64, float32 or float64, got {x.dtype.name.lower()}"
        )
    if out_dtype is DataType.UNDEFINED:
        raise InvalidArgumentError(
            "argument 'out_dtype' must be a defined data type, got UNDEFINED"
        )
    length = UNKNOWN if is_from_value(max_len) else integer_scalar(max_len, "max_len")
    y.set_dims(tuple(x.dims) + ((length if length > 0 else UNKNOWN),))
    y.set_dtype(out_dtype)
    y.set_layout(x.layout)


def shape64_infer_meta(input: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``shape_infer_meta`` with an int64 result (PaddlePaddle's Shape64InferMeta)."""
    out.set_dims((len(input.dims),))
    out.set_dtype(DataType.INT64)
    out.set_layout(input.layout)
