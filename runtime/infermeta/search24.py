"""InferMeta functions of the search24 ops (issue 24): search, statistics and index ops
(kthvalue, mode, nanmedian, searchsorted, bincount, histogram, ...), following PaddlePaddle
3.3.1's functions of the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import (
    UNKNOWN,
    dims_match,
    extents_match,
    is_known,
    merge_extents,
    set_output as _set,
)
from phiops.runtime.infermeta.unary import check_axis, reduce_out_dims
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "kthvalue_infer_meta",
    "mode_infer_meta",
    "nanmedian_infer_meta",
    "nanmedian_grad_infer_meta",
    "searchsorted_infer_meta",
    "bincount_infer_meta",
    "histogram_infer_meta",
    "index_sample_infer_meta",
    "repeat_interleave_infer_meta",
    "repeat_interleave_with_tensor_index_infer_meta",
    "unbind_infer_meta",
    "un_stack_infer_meta",
    "un_stack_grad_infer_meta",
    "reverse_infer_meta",
]

_RUNTIME = MetaConfig()

INDEX_DTYPES = (DataType.INT32, DataType.INT64)


def _without_axis(dims: tuple[int, ...], axis: int, keepdim: bool) -> tuple[int, ...]:
    if not dims:
        return ()
    if keepdim:
        return dims[:axis] + (1,) + dims[axis + 1 :]
    return dims[:axis] + dims[axis + 1 :]


def kthvalue_infer_meta(
    x: MetaTensor,
    k: int,
    axis: int,
    keepdim: bool,
    out: MetaTensor,
    indices: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's KthvalueInferMeta: ``x`` without ``axis`` (kept as 1 with ``keepdim``), int64
    indices; ``k`` in [1, the size of axis] (1 for a 0-D x)."""
    dims = tuple(x.dims)
    index = check_axis(axis, len(dims), "axis")
    extent = dims[index] if dims else 1
    if k < 1 or (is_known(extent) and k > extent):
        raise InvalidArgumentError(
            f"argument 'k' must be in [1, {extent}] (the size of axis {axis} of argument 'x', "
            f"dims {list(dims)}), got {k}"
        )
    out_dims = _without_axis(dims, index, keepdim)
    _set(out, out_dims, x.dtype, x)
    _set(indices, out_dims, DataType.INT64, x)


def mode_infer_meta(
    x: MetaTensor,
    axis: int,
    keepdim: bool,
    out: MetaTensor,
    indices: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's ModeInferMeta: ``x`` without ``axis`` (kept as 1 with ``keepdim``), int64
    indices."""
    dims = tuple(x.dims)
    index = check_axis(axis, len(dims), "axis")
    if dims and dims[index] == 0:
        raise InvalidArgumentError(
            f"argument 'x' must not be empty along axis {axis} (dims {list(dims)})"
        )
    out_dims = _without_axis(dims, index, keepdim)
    _set(out, out_dims, x.dtype, x)
    _set(indices, out_dims, DataType.INT64, x)


NANMEDIAN_MODES = ("avg", "min")


def nanmedian_infer_meta(
    x: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    mode: str,
    out: MetaTensor,
    medians: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's NanmedianInferMeta: ``x`` reduced over ``axis`` (every axis when empty), the
    reduced axes kept as 1 with ``keepdim``; ``medians`` (int64) has out's dims and, for mode
    'avg', a last axis of 2 (the positions of the two middle elements)."""
    if mode not in NANMEDIAN_MODES:
        raise InvalidArgumentError(f"argument 'mode' must be 'avg' or 'min', got {mode!r}")
    out_dims = reduce_out_dims(tuple(x.dims), tuple(axis), keepdim, not axis)
    _set(out, out_dims, x.dtype, x)
    _set(medians, out_dims + ((2,) if mode == "avg" else ()), DataType.INT64, x)


def nanmedian_grad_infer_meta(
    x: MetaTensor,
    out: MetaTensor,
    medians: MetaTensor,
    out_grad: MetaTensor,
    axis: tuple[int, ...],
    keepdim: bool,
    mode: str,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's NanmedianGradInferMeta (3.3.1's, which also takes ``out``): ``x_grad`` is like
    ``x``."""
    _set(x_grad, tuple(x.dims), x.dtype, x)


def searchsorted_infer_meta(
    sorted_sequence: MetaTensor,
    values: MetaTensor,
    out_int32: bool,
    right: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's SearchsortedInferMeta: ``out`` has ``values``' dims, int32 with ``out_int32`` else
    int64. A 1-D ``sorted_sequence`` serves every value; otherwise its dims but the last must
    be ``values``' dims but the last."""
    seq = tuple(sorted_sequence.dims)
    vals = tuple(values.dims)
    if not seq:
        raise InvalidArgumentError(
            "argument 'sorted_sequence' must have at least 1 dimension, got 0-D"
        )
    if len(seq) != 1:
        if len(seq) != len(vals) or not dims_match(seq[:-1], vals[:-1], config):
            raise InvalidArgumentError(
                "argument 'values' must have the dims of argument 'sorted_sequence' but the last "
                f"one when sorted_sequence is not 1-D: sorted_sequence dims {list(seq)}, values "
                f"dims {list(vals)}"
            )
    _set(out, vals, DataType.INT32 if out_int32 else DataType.INT64, values)


def bincount_infer_meta(
    x: MetaTensor,
    weights: MetaTensor | None,
    minlength: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BincountInferMeta: ``x`` is a 1-D int32/int64 tensor, ``weights`` (when given) has
    its dims; ``out`` is 1-D, its size max(max(x) + 1, minlength) from the data; int64 counts
    without weights, float32 sums for float32 weights, float64 sums for any other."""
    if len(x.dims) != 1:
        raise InvalidArgumentError(f"argument 'x' must be 1-D, got dims {list(x.dims)}")
    if x.dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(f"argument 'x' must be int32 or int64, got {x.dtype.name}")
    if isinstance(minlength, int) and minlength < 0:
        raise InvalidArgumentError(f"argument 'minlength' must be >= 0, got {minlength}")
    if weights is None:
        dtype = DataType.INT64
    else:
        if not dims_match(tuple(weights.dims), tuple(x.dims), config):
            raise InvalidArgumentError(
                f"argument 'weights' must have the dims of argument 'x' ({list(x.dims)}), got "
                f"{list(weights.dims)}"
            )
        dtype = DataType.FLOAT32 if weights.dtype == DataType.FLOAT32 else DataType.FLOAT64
    _set(out, (UNKNOWN,), dtype, x)


def histogram_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    weight: MetaTensor | None,
    bins: int,
    min: float,  # noqa: A002 - the YAML argument's name
    max: float,  # noqa: A002 - the YAML argument's name
    density: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's HistogramInferMeta: ``bins`` >= 1, ``max`` >= ``min``, ``weight`` (when given) of
    ``input``'s dims; ``out`` is 1-D of ``bins``, int64 counts, float32 with ``weight`` or
    ``density``."""
    if bins < 1:
        raise InvalidArgumentError(f"argument 'bins' must be >= 1, got {bins}")
    if max < min:
        raise InvalidArgumentError(f"argument 'max' ({max}) must be >= argument 'min' ({min})")
    if weight is not None and not dims_match(tuple(weight.dims), tuple(input.dims), config):
        raise InvalidArgumentError(
            f"argument 'weight' must have the dims of argument 'input' ({list(input.dims)}), got "
            f"{list(weight.dims)}"
        )
    weighted = weight is not None or density
    _set(out, (bins,), DataType.FLOAT32 if weighted else DataType.INT64, input)


# -- index_sample, repeat_interleave, unstack ---------------------------------------------------


def index_sample_infer_meta(
    x: MetaTensor, index: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's IndexSampleInferMeta: ``x`` and ``index`` (int32 or int64) are 2-D with the same
    first extent; ``out`` has index's dims and x's dtype."""
    if len(x.dims) != 2:
        raise InvalidArgumentError(f"argument 'x' must be 2-D, got dims {list(x.dims)}")
    if len(index.dims) != 2:
        raise InvalidArgumentError(f"argument 'index' must be 2-D, got dims {list(index.dims)}")
    if index.dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument 'index' must be int32 or int64, got {index.dtype.name}"
        )
    if not extents_match(x.dims[0], index.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'index' must have the first extent of argument 'x' ({x.dims[0]}), got "
            f"dims {list(index.dims)}"
        )
    _set(out, (merge_extents(x.dims[0], index.dims[0]), index.dims[1]), x.dtype, x)


def repeat_interleave_infer_meta(
    x: MetaTensor,
    repeats: int,
    axis: int,
    output_size: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's RepeatInterleaveInferMeta: ``repeats`` > 0; ``out`` is ``x`` with its extent along
    ``axis`` multiplied by repeats, or ``output_size`` when that is at least 0 (at most the
    repeated extent)."""
    dims = list(x.dims)
    index = check_axis(axis, len(dims), "axis")
    if repeats <= 0:
        raise InvalidArgumentError(f"argument 'repeats' must be > 0, got {repeats}")
    if not dims:
        dims = [1]
    repeated = dims[index] * repeats if is_known(dims[index]) else UNKNOWN
    if output_size >= 0:
        if is_known(repeated) and output_size > repeated:
            raise InvalidArgumentError(
                f"argument 'output_size' ({output_size}) must be at most the repeated extent "
                f"{repeated} (repeats {repeats} times {dims[index]})"
            )
        repeated = output_size
    dims[index] = repeated
    _set(out, tuple(dims), x.dtype, x)


def repeat_interleave_with_tensor_index_infer_meta(
    x: MetaTensor,
    repeats: MetaTensor,
    axis: int,
    output_size: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's RepeatInterleaveWithTensorIndexInferMeta: ``repeats`` is a 1-D int32/int64 tensor
    with one count per slice of ``x`` along ``axis``; ``out``'s extent there is their sum
    (from the data; ``output_size`` when at least 0)."""
    dims = list(x.dims)
    index = check_axis(axis, len(dims), "axis")
    if repeats.dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument 'repeats' must be int32 or int64, got {repeats.dtype.name}"
        )
    if len(repeats.dims) != 1:
        raise InvalidArgumentError(f"argument 'repeats' must be 1-D, got dims {list(repeats.dims)}")
    if not dims:
        dims = [1]
    if not extents_match(repeats.dims[0], dims[index], config):
        raise InvalidArgumentError(
            f"argument 'repeats' must hold one count per slice of argument 'x' along axis "
            f"{axis} ({dims[index]}), got {repeats.dims[0]}"
        )
    dims[index] = output_size if output_size >= 0 else UNKNOWN
    _set(out, tuple(dims), x.dtype, x)


def un_stack_infer_meta(
    x: MetaTensor, axis: int, num: int, out: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """PHI's UnStackInferMeta: ``num`` is x's extent along ``axis``; each output has x's dims
    without that axis."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got 0-D")
    index = check_axis(axis, len(dims), "axis")
    if is_known(dims[index]) and num != dims[index]:
        raise InvalidArgumentError(
            f"argument 'num' must be the extent {dims[index]} of argument 'x' (dims "
            f"{list(dims)}) along axis {axis}, got {num}"
        )
    for piece in out:
        _set(piece, dims[:index] + dims[index + 1 :], x.dtype, x)


def unbind_infer_meta(
    x: MetaTensor, axis: int, out: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """PHI's UnbindInferMeta: one output per slice of ``x`` along ``axis``, each with x's dims
    without that axis. The number of outputs is x's extent along axis, so it must be known
    (a graph built with that extent -1 cannot make the list)."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'input' must have at least 1 dimension, got 0-D")
    index = check_axis(axis, len(dims), "axis")
    if not is_known(dims[index]):
        raise InvalidArgumentError(
            f"argument 'input' (dims {list(dims)}) must have a known extent along axis {axis}: "
            "unbind makes one output per slice"
        )
    if len(out) != dims[index]:
        raise InvalidArgumentError(
            f"unbind makes {dims[index]} outputs (the extent of argument 'input' along axis "
            f"{axis}), got {len(out)}"
        )
    for piece in out:
        _set(piece, dims[:index] + dims[index + 1 :], x.dtype, x)


def un_stack_grad_infer_meta(
    out_grad: list[MetaTensor], axis: int, x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's UnStackGradInferMeta: ``out_grad``'s tensors (of equal dims) stacked along a new
    ``axis``."""
    if not out_grad:
        raise InvalidArgumentError("argument 'out_grad' must hold at least one tensor")
    first = tuple(out_grad[0].dims)
    for piece in out_grad[1:]:
        if not dims_match(tuple(piece.dims), first, config):
            raise InvalidArgumentError(
                f"argument 'out_grad' must hold tensors of equal dims, got {list(first)} and "
                f"{list(piece.dims)}"
            )
    rank = len(first) + 1
    index = check_axis(axis, rank, "axis")
    _set(x_grad, first[:index] + (len(out_grad),) + first[index:], out_grad[0].dtype, out_grad[0])


def reverse_infer_meta(
    x: MetaTensor, axis: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's ReverseInferMeta: ``axis`` is not empty and names axes of ``x`` (at least 1-D);
    ``out`` is like ``x``."""
    rank = len(x.dims)
    if not axis:
        raise InvalidArgumentError("argument 'axis' must not be empty")
    for entry in axis:
        if not -rank <= entry < rank:
            raise InvalidArgumentError(
                f"argument 'axis' must hold axes in [{-rank}, {rank}) of argument 'x' (dims "
                f"{list(x.dims)}), got {list(axis)}"
            )
    _set(out, tuple(x.dims), x.dtype, x)
