"""InferMeta functions of ops with one tensor input."""

from __future__ import annotations

from runtime.common import DataType
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError
from runtime.infermeta.dims import UNKNOWN, numel

_RUNTIME = MetaConfig()


def unchanged_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` has ``x``'s dims, dtype and layout."""
    out.share_meta(x)


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
    """``x`` with its elements rearranged into ``shape`` (see ``reshape_out_dims``)."""
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
    """``x`` broadcast to ``shape`` (see ``expand_out_dims``)."""
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
