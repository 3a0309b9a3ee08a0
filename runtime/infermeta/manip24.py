"""InferMeta functions of the manip24 ops (issue 24): creation, manipulation and index ops
(unique_consecutive, index_add, expand_as, multiplex, ...), following PaddlePaddle 3.3.1's
functions of the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import (
    UNKNOWN,
    dims_match,
    extents_match,
    is_known,
    numel,
    set_output as _set,
)
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.unary import check_axis
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "unique_consecutive_infer_meta",
    "index_add_infer_meta",
    "index_add_grad_infer_meta",
    "expand_as_infer_meta",
    "multiplex_infer_meta",
    "multiplex_grad_infer_meta",
    "broadcast_tensors_infer_meta",
    "tril_indices_infer_meta",
    "triu_indices_infer_meta",
    "tril_count",
    "fill_diagonal_infer_meta",
    "fill_diagonal_grad_infer_meta",
    "fill_diagonal_tensor_infer_meta",
    "fill_diagonal_tensor_grad_infer_meta",
    "diagonal_length",
    "numel_infer_meta",
    "bitwise_shift_infer_meta",
]

_RUNTIME = MetaConfig()

INDEX_DTYPES = (DataType.INT32, DataType.INT64)


def _check_index_dtype(index: MetaTensor, name: str) -> None:
    if index.dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument '{name}' must be int32 or int64, got {index.dtype.name.lower()}"
        )


def unique_consecutive_infer_meta(
    x: MetaTensor,
    return_inverse: bool,
    return_counts: bool,
    axis: tuple[int, ...],
    dtype: DataType,
    out: MetaTensor,
    index: MetaTensor,
    counts: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's UniqueConsecutiveInferMeta: runs of equal elements (of x flattened, or of equal
    slices along ``axis[0]``; later axes are ignored, as 3.3.1 does) collapse to one; their count comes from the data (-1). ``index``
    (one entry per element, or per slice) and ``counts`` are in ``dtype``, when asked for."""
    if dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument 'dtype' must be int32 or int64, got {dtype.name.lower()}"
        )
    dims = tuple(x.dims)
    if axis:
        if not dims:
            raise InvalidArgumentError("argument 'axis' must be empty for a 0-D 'x'")
        a = check_axis(axis[0], len(dims), "axis")
        _set(out, dims[:a] + (UNKNOWN,) + dims[a + 1 :], x.dtype, x)
        index_dims: tuple[int, ...] = (dims[a],)
    else:
        _set(out, (UNKNOWN,), x.dtype, x)
        index_dims = (numel(dims),)
    if return_inverse:
        _set(index, index_dims, dtype, x)
    if return_counts:
        _set(counts, (UNKNOWN,), dtype, x)


def _check_index_add_dims(
    x_dims: tuple[int, ...],
    index: MetaTensor,
    value_dims: tuple[int, ...],
    axis: int,
    value_name: str,
    config: MetaConfig,
) -> None:
    _check_index_dtype(index, "index")
    if not x_dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got 0-D")
    if len(index.dims) != 1:
        raise InvalidArgumentError(f"argument 'index' must be 1-D, got dims {list(index.dims)}")
    if len(value_dims) != len(x_dims):
        raise InvalidArgumentError(
            f"argument '{value_name}' must have the rank {len(x_dims)} of 'x', got dims "
            f"{list(value_dims)}"
        )
    real = check_axis(axis, len(x_dims), "axis")
    for i, (want, got) in enumerate(zip(x_dims, value_dims)):
        if i != real and not extents_match(want, got, config):
            raise InvalidArgumentError(
                f"argument '{value_name}' (dims {list(value_dims)}) must have the extent {want} "
                f"of 'x' (dims {list(x_dims)}) in dimension {i}, got {got}"
            )
    if x_dims and not extents_match(value_dims[real], index.dims[0], config):
        raise InvalidArgumentError(
            f"argument '{value_name}' (dims {list(value_dims)}) must have the length "
            f"{index.dims[0]} of 'index' along axis {axis}, got {value_dims[real]}"
        )


def index_add_infer_meta(
    x: MetaTensor,
    index: MetaTensor,
    add_value: MetaTensor,
    axis: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's IndexAddInferMeta: ``index`` is a 1-D int32/int64 tensor; ``add_value`` has x's
    dims except along ``axis``, where it has index's length; ``out`` is x's meta."""
    if add_value.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'add_value' must have the dtype {x.dtype.name.lower()} of 'x', got "
            f"{add_value.dtype.name.lower()}"
        )
    _check_index_add_dims(tuple(x.dims), index, tuple(add_value.dims), axis, "add_value", config)
    _set(out, tuple(x.dims), x.dtype, x)


def index_add_grad_infer_meta(
    index: MetaTensor,
    add_value: MetaTensor,
    out_grad: MetaTensor,
    axis: int,
    x_grad: MetaTensor,
    add_value_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's IndexAddGradInferMeta: ``x_grad`` has out_grad's meta, ``add_value_grad``
    add_value's dims in out_grad's dtype."""
    _check_index_add_dims(
        tuple(out_grad.dims), index, tuple(add_value.dims), axis, "add_value", config
    )
    _set(x_grad, tuple(out_grad.dims), out_grad.dtype, out_grad)
    _set(add_value_grad, tuple(add_value.dims), out_grad.dtype, out_grad)


def expand_as_infer_meta(
    x: MetaTensor,
    y: MetaTensor | None,
    target_shape: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's ExpandAsInferMeta: ``out`` has y's dims (``target_shape`` without y), of at least
    x's rank; each extent of x (right-aligned) is 1 or the target's."""
    x_dims = tuple(x.dims)
    if y is not None:
        target = tuple(y.dims)
        name = "y"
    else:
        target = tuple(target_shape)
        name = "target_shape"
        if not target:
            raise InvalidArgumentError("argument 'target_shape' must not be empty without 'y'")
        for extent in target:
            if extent < 0 and (config.is_runtime or extent != UNKNOWN):
                raise InvalidArgumentError(
                    f"argument 'target_shape' must hold extents >= 0, got {list(target)}"
                )
    if len(target) < len(x_dims):
        raise InvalidArgumentError(
            f"argument '{name}' must have at least the rank {len(x_dims)} of 'x' (dims "
            f"{list(x_dims)}), got {list(target)}"
        )
    if len(target) > 8:
        raise InvalidArgumentError(
            f"argument '{name}' must have a rank of at most 8, got {len(target)}"
        )
    lead = len(target) - len(x_dims)
    for i, extent in enumerate(x_dims):
        want = target[lead + i]
        if extent != 1 and not extents_match(extent, want, config):
            raise InvalidArgumentError(
                f"argument 'x' (dims {list(x_dims)}) cannot be expanded to {list(target)}: "
                f"dimension {i} is {extent}, neither 1 nor {want}"
            )
    _set(out, target, x.dtype, x)


def multiplex_infer_meta(
    inputs: list[MetaTensor],
    index: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MultiplexInferMeta: at least two candidates of equal dims and dtype, at least 2-D;
    ``index`` is [rows, 1] int32/int64 with at most as many rows as the candidates; ``out``
    has the candidates' dims with ``rows`` rows."""
    if len(inputs) < 2:
        raise InvalidArgumentError(
            f"argument 'inputs' must hold at least two candidate tensors, got {len(inputs)}"
        )
    _check_index_dtype(index, "index")
    ids = tuple(index.dims)
    if len(ids) != 2 or not extents_match(ids[1], 1, config):
        raise InvalidArgumentError(f"argument 'index' must have dims [rows, 1], got {list(ids)}")
    first = tuple(inputs[0].dims)
    if len(first) < 2:
        raise InvalidArgumentError(
            f"argument 'inputs' must hold tensors of at least 2 dimensions, got dims {list(first)}"
        )
    for i, tensor in enumerate(inputs[1:], start=1):
        if not dims_match(tuple(tensor.dims), first, config):
            raise InvalidArgumentError(
                f"argument 'inputs' must hold tensors of equal dims: inputs[{i}] has "
                f"{list(tensor.dims)}, inputs[0] {list(first)}"
            )
        if tensor.dtype != inputs[0].dtype:
            raise InvalidArgumentError(
                f"argument 'inputs' must hold tensors of one dtype: inputs[{i}] is "
                f"{tensor.dtype.name.lower()}, inputs[0] {inputs[0].dtype.name.lower()}"
            )
    if is_known(ids[0]) and is_known(first[0]) and ids[0] > first[0]:
        raise InvalidArgumentError(
            f"argument 'index' must have at most the {first[0]} rows of the inputs, got {ids[0]}"
        )
    _set(out, (ids[0],) + first[1:], inputs[0].dtype, inputs[0])


def multiplex_grad_infer_meta(
    index: MetaTensor,
    out_grad: MetaTensor,
    inputs_grad: list[MetaTensor],
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MultiplexGradInferMeta: every ``inputs_grad`` has out_grad's meta."""
    if not out_grad.dims:
        raise InvalidArgumentError("argument 'out_grad' must have at least 1 dimension")
    for grad in inputs_grad:
        if grad is not None:
            _set(grad, tuple(out_grad.dims), out_grad.dtype, out_grad)


def broadcast_tensors_infer_meta(
    input: list[MetaTensor], out: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """PHI's BroadcastTensorsInferMeta: every output has the broadcast of all the inputs' dims
    (right-aligned; an extent 1 stretches) and the inputs' one dtype."""
    if not input:
        raise InvalidArgumentError("argument 'input' must hold at least one tensor")
    dims = tuple(input[0].dims)
    for i, tensor in enumerate(input[1:], start=1):
        if tensor.dtype != input[0].dtype:
            raise InvalidArgumentError(
                f"argument 'input' must hold tensors of one dtype: input[{i}] is "
                f"{tensor.dtype.name.lower()}, input[0] {input[0].dtype.name.lower()}"
            )
        dims = broadcast_dims(dims, tuple(tensor.dims), "input[0..]", f"input[{i}]")
    for target in out:
        _set(target, dims, input[0].dtype, input[0])


def tril_count(rows: int, cols: int, offset: int) -> int:
    """How many (i, j) with 0 <= i < rows, 0 <= j < cols lie on or below diagonal ``offset``
    (j <= i + offset): row i holds clip(i + offset + 1, 0, cols) of them."""
    rows, cols = max(rows, 0), max(cols, 0)
    if cols == 0:
        return 0
    first = min(max(-offset, 0), rows)  # rows before it hold none
    full = min(max(cols - offset - 1, first), rows)  # rows from it on hold all cols
    partial = (full - first) * ((first + offset + 1) + (full + offset)) // 2
    return partial + cols * (rows - full)


def _indices_dtype(dtype: DataType) -> None:
    if dtype not in INDEX_DTYPES:
        raise InvalidArgumentError(
            f"argument 'dtype' must be int32 or int64, got {dtype.name.lower()}"
        )


def tril_indices_infer_meta(
    rows: int,
    cols: int,
    offset: int,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's TrilIndicesInferMeta: [2, count], the row and column indices of the elements of a
    rows x cols matrix on or below diagonal ``offset``; a negative size counts as 0."""
    _indices_dtype(dtype)
    out.set_dims((2, tril_count(rows, cols, offset)))
    out.set_dtype(dtype)


def triu_indices_infer_meta(
    row: int, col: int, offset: int, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's TriuIndicesInferMeta: [2, count], the row and column indices of the elements of a
    row x col matrix on or above diagonal ``offset``; a negative size counts as 0."""
    _indices_dtype(dtype)
    total = max(row, 0) * max(col, 0)
    out.set_dims((2, total - tril_count(row, col, offset - 1)))
    out.set_dtype(dtype)


def fill_diagonal_infer_meta(
    x: MetaTensor,
    value: float,
    offset: int,
    wrap: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FillDiagonalInferMeta: ``out`` is x's meta; x must be at least 2-D (PHI reads its
    second extent)."""
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions, got dims {list(x.dims)}"
        )
    _set(out, tuple(x.dims), x.dtype, x)


def fill_diagonal_grad_infer_meta(
    out_grad: MetaTensor,
    value: float,
    offset: int,
    wrap: bool,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FillDiagonalGradInferMeta: ``x_grad`` is out_grad's meta."""
    fill_diagonal_infer_meta(out_grad, value, offset, wrap, x_grad, config)


def diagonal_length(rows: int, cols: int, offset: int) -> int:
    """The length of diagonal ``offset`` of a rows x cols matrix (UNKNOWN if either is)."""
    if not (is_known(rows) and is_known(cols)):
        return UNKNOWN
    if offset >= 0:
        return max(0, min(rows, cols - offset))
    return max(0, min(rows + offset, cols))


def _diagonal_axes(rank: int, dim1: int, dim2: int) -> tuple[int, int]:
    if rank < 2:
        raise InvalidArgumentError(f"argument 'x' must have at least 2 dimensions, got {rank}")
    first = check_axis(dim1, rank, "dim1")
    second = check_axis(dim2, rank, "dim2")
    if first == second:
        raise InvalidArgumentError(
            f"arguments 'dim1' and 'dim2' must name two different axes, got {dim1} and {dim2}"
        )
    return first, second


def fill_diagonal_tensor_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    offset: int,
    dim1: int,
    dim2: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FillDiagonalTensorInferMeta: ``out`` is x's meta; ``y`` (of x's dtype) has x's
    dims without ``dim1`` and ``dim2``, then the length of diagonal ``offset`` of those two."""
    dims = tuple(x.dims)
    first, second = _diagonal_axes(len(dims), dim1, dim2)
    if y.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype {x.dtype.name.lower()} of 'x', got "
            f"{y.dtype.name.lower()}"
        )
    rest = tuple(extent for i, extent in enumerate(dims) if i not in (first, second))
    want = rest + (diagonal_length(dims[first], dims[second], offset),)
    if not dims_match(tuple(y.dims), want, config):
        raise InvalidArgumentError(
            f"argument 'y' must have dims {list(want)} (x's dims {list(dims)} without dim1 "
            f"{dim1} and dim2 {dim2}, then the length of diagonal {offset}), got {list(y.dims)}"
        )
    _set(out, dims, x.dtype, x)


def fill_diagonal_tensor_grad_infer_meta(
    out_grad: MetaTensor,
    offset: int,
    dim1: int,
    dim2: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FillDiagonalTensorGradInferMeta: ``x_grad`` is out_grad's meta."""
    _diagonal_axes(len(out_grad.dims), dim1, dim2)
    _set(x_grad, tuple(out_grad.dims), out_grad.dtype, out_grad)


def numel_infer_meta(x: MetaTensor, size: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's NumelInferMeta: ``size`` is a 0-D int64 tensor."""
    size.set_dims(())
    size.set_dtype(DataType.INT64)
    size.set_layout(x.layout)


def bitwise_shift_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    is_arithmetic: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BitwiseShiftInferMeta: the broadcast of x's and y's dims, in x's dtype, which y
    must share (3.3.1's kernel refuses another)."""
    if y.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype {x.dtype.name.lower()} of 'x', got "
            f"{y.dtype.name.lower()}"
        )
    _set(out, broadcast_dims(tuple(x.dims), tuple(y.dims), "x", "y"), x.dtype, x)
