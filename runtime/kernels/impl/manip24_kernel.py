"""Kernels of the manip24 ops of issue 24: unique_consecutive, index_add, expand_as,
multiplex, broadcast_tensors, tril_indices, triu_indices, fill_diagonal,
fill_diagonal_tensor, numel, bitwise_left_shift and bitwise_right_shift, for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/
<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- unique_consecutive: a run of equal elements of x flattened (or of equal slices along
  ``axis[0]``) becomes one; NaN differs from everything, itself included, so each NaN stays.
  A 0-D x gives a 1-element result. ``index`` maps each element (slice) to its run, ``counts``
  holds each run's length; an output not asked for is None (3.3.1 returns an empty tensor).
- index_add: ``out = x`` with ``add_value``'s slices added at ``index`` along ``axis``, every
  repetition of an index counted; a negative index counts from the end, an index outside
  [-n, n) is an InvalidArgumentError, as 3.3.1's kernel refuses it.
- expand_as: x broadcast to y's dims (to ``target_shape`` without y).
- multiplex: row i of the result is row i of ``inputs[index[i, 0]]``; an index outside
  [0, len(inputs)) is an InvalidArgumentError (3.3.1: PreconditionNotMet).
- broadcast_tensors: every input broadcast to the inputs' common shape.
- tril_indices / triu_indices: the [2, count] row and column indices, row by row, of the
  elements of a rows x cols matrix on or below (above) diagonal ``offset``.
- fill_diagonal: PHI's walk over x's elements in memory order, reproduced: from 0 in steps of
  CalStride(dims) (1 + d[-1] + d[-1] * d[-2] + ...), up to dims[1]**2 elements (all of them with
  ``wrap``), writing ``value`` (a float32, cast to x's dtype, truncated for integers) at position
  + ``offset`` where that stays in the same row of dims[1] elements. For a 2-D x this is the
  diagonal ``offset``, restarting after each square block with ``wrap``; for more dimensions
  only the first element of the walk lands on the diagonal unless every extent is equal, as in
  3.3.1.
- fill_diagonal_tensor: the diagonal ``offset`` of the (dim1, dim2) matrices of x replaced by
  the last axis of y. A negative dim counts from the end (3.3.1 misreads one); y must have x's
  dtype (3.3.1 reinterprets another's bytes).
- numel: the element count as a 0-D int64 tensor; x's data is not read.
- bitwise_left_shift / bitwise_right_shift: PHI's functors. A shift count below 0 or of at
  least the dtype's bit width gives 0 (an arithmetic right shift of a negative value: -1);
  otherwise a left shift wraps around, an arithmetic right shift keeps the sign and a logical
  one (``is_arithmetic`` false) shifts the unsigned bit pattern. uint8 shifts the same way
  either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

BROADCAST_TENSORS_DTYPES = (D.BOOL, D.COMPLEX128, D.COMPLEX64, D.FLOAT16, D.FLOAT32, D.FLOAT64)
BROADCAST_TENSORS_DTYPES += (D.INT32, D.INT64)
INDICES_DTYPES = (D.INT32, D.INT64)
FILL_DIAGONAL_DTYPES = (D.BOOL, D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
FILL_DIAGONAL_TENSOR_DTYPES = (D.BOOL, D.COMPLEX128, D.COMPLEX64, D.FLOAT16, D.FLOAT32)
FILL_DIAGONAL_TENSOR_DTYPES += (D.FLOAT64, D.INT16, D.INT32, D.INT64, D.INT8, D.UINT8)
NUMEL_DTYPES = FILL_DIAGONAL_TENSOR_DTYPES + (D.BFLOAT16, D.UINT16, D.UINT32, D.UINT64)
SHIFT_DTYPES = (D.INT16, D.INT32, D.INT64, D.INT8, D.UINT8)

UNIQUE_CONSECUTIVE_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
INDEX_ADD_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
EXPAND_AS_DTYPES = (D.BOOL, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
MULTIPLEX_DTYPES = (D.COMPLEX128, D.COMPLEX64, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def any_dtype(kernel: Kernel, *inputs: int) -> None:
    """Inputs ``inputs`` of ``kernel`` keep their own dtype (index tensors)."""
    for index in inputs:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def checked_index(xp: Any, index: Array, extent: int, op: str) -> Array:
    """``index`` (int32/int64) with negative entries counted from the end; an entry outside
    [-extent, extent) is an InvalidArgumentError naming ``op``."""
    index = index.astype(xp.int64).reshape(-1)
    if index.size and (bool((index < -extent).any()) or bool((index >= extent).any())):
        bad = index[(index < -extent) | (index >= extent)][0]
        raise InvalidArgumentError(
            f"{op}: argument 'index' must hold values in [{-extent}, {extent}), got {int(bad)}"
        )
    return xp.where(index < 0, index + extent, index)


@register_kernel(
    "unique_consecutive",
    dtypes=UNIQUE_CONSECUTIVE_DTYPES,
    configure=lambda k: [k.output_at(i).set_dtype(DataType.UNDEFINED) for i in (1, 2)],
)
def unique_consecutive_kernel(
    ctx: KernelContext,
    x: Array,
    return_inverse: bool,
    return_counts: bool,
    axis: tuple[int, ...],
    dtype: DataType,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    index_dtype = dtype.numpy_dtype
    if axis:
        moved = xp.moveaxis(x, axis[0], 0)
        rows = moved.reshape(moved.shape[0], -1)
        changed = xp.concatenate(
            [xp.zeros(min(rows.shape[0], 1), dtype=bool), (rows[1:] != rows[:-1]).any(axis=1)]
        )
        starts = changed.copy()
        starts[:1] = True
        out = xp.moveaxis(moved[starts], 0, axis[0])
        count = rows.shape[0]
    else:
        # PHI compares each element with the last value kept, the first element with itself:
        # a NaN there gives an extra leading entry of count 0.
        flat = x.reshape(-1)
        changed = xp.concatenate([flat[:1] != flat[:1], flat[1:] != flat[:-1]])
        out = xp.concatenate([flat[:1], flat[changed]])
        count = flat.shape[0]
    inverse = xp.cumsum(changed).astype(index_dtype) if return_inverse else None
    counts = None
    if return_counts:
        if count == 0:
            counts = xp.zeros(0, dtype=index_dtype)
        else:
            bounds = [xp.zeros(1, dtype=xp.int64), xp.nonzero(changed)[0], xp.asarray([count])]
            counts = xp.diff(xp.concatenate(bounds)).astype(index_dtype)
    return out, inverse, counts


@register_kernel("index_add", dtypes=INDEX_ADD_DTYPES, configure=lambda k: any_dtype(k, 1))
def index_add_kernel(
    ctx: KernelContext, x: Array, index: Array, add_value: Array, axis: int
) -> Array:
    xp = ctx.xp
    out = x.copy()
    axis = axis + x.ndim if axis < 0 else axis
    where = checked_index(xp, index, x.shape[axis], "index_add")
    moved = xp.moveaxis(out, axis, 0)
    scatter_at("add", moved, where, xp.moveaxis(add_value, axis, 0))
    return out


@register_kernel("expand_as", dtypes=EXPAND_AS_DTYPES)
def expand_as_kernel(
    ctx: KernelContext, x: Array, y: Array | None, target_shape: tuple[int, ...]
) -> Array:
    shape = tuple(y.shape) if y is not None else tuple(target_shape)
    return ctx.xp.broadcast_to(x, shape).copy()


@register_kernel("multiplex", dtypes=MULTIPLEX_DTYPES, configure=lambda k: any_dtype(k, 1))
def multiplex_kernel(ctx: KernelContext, inputs: list[Array], index: Array) -> Array:
    xp = ctx.xp
    rows = index.reshape(-1).astype(xp.int64)
    if rows.size and (bool((rows < 0).any()) or bool((rows >= len(inputs)).any())):
        bad = rows[(rows < 0) | (rows >= len(inputs))][0]
        raise InvalidArgumentError(
            f"multiplex: argument 'index' must hold values in [0, {len(inputs)}), got {int(bad)}"
        )
    stacked = xp.stack(inputs)
    return stacked[rows, xp.arange(rows.size)].copy()


@register_kernel("broadcast_tensors", dtypes=BROADCAST_TENSORS_DTYPES)
def broadcast_tensors_kernel(ctx: KernelContext, input: list[Array]) -> list[Array]:
    xp = ctx.xp
    shape = xp.broadcast_shapes(*(x.shape for x in input))
    return [xp.broadcast_to(x, shape).copy() for x in input]


@register_kernel("tril_indices", dtypes=INDICES_DTYPES)
def tril_indices_kernel(
    ctx: KernelContext, rows: int, cols: int, offset: int, dtype: DataType
) -> Array:
    xp = ctx.xp
    below = xp.tri(max(rows, 0), max(cols, 0), offset, dtype=bool)
    return xp.stack(xp.nonzero(below)).astype(dtype.numpy_dtype).reshape(2, -1)


@register_kernel("triu_indices", dtypes=INDICES_DTYPES)
def triu_indices_kernel(
    ctx: KernelContext, row: int, col: int, offset: int, dtype: DataType
) -> Array:
    xp = ctx.xp
    above = ~xp.tri(max(row, 0), max(col, 0), offset - 1, dtype=bool)
    return xp.stack(xp.nonzero(above)).astype(dtype.numpy_dtype).reshape(2, -1)


def diagonal_walk(xp: Any, dims: tuple[int, ...], offset: int, wrap: bool) -> Array:
    """The flat positions PHI's fill_diagonal kernels write (see the module docstring)."""
    size = 1
    stride = 0
    for extent in reversed(dims):
        stride += size
        size *= extent
    width = dims[1]
    if not wrap:
        size = min(size, width * width)
    if size <= 0 or width == 0:
        return xp.zeros(0, dtype=xp.int64)
    walk = xp.arange(0, size, stride, dtype=xp.int64)
    column = walk % width + offset
    return walk[(column >= 0) & (column < width)] + offset


@register_kernel("fill_diagonal", dtypes=FILL_DIAGONAL_DTYPES)
def fill_diagonal_kernel(
    ctx: KernelContext, x: Array, value: float, offset: int, wrap: bool
) -> Array:
    xp = ctx.xp
    out = x.copy()
    flat = out.reshape(-1)
    with np.errstate(invalid="ignore", over="ignore"):
        # the attribute is a C++ float: a float64 x gets float32(value)
        filler = np.asarray(value, dtype=np.float32).astype(x.dtype)
        flat[diagonal_walk(xp, x.shape, offset, wrap)] = filler
    return out


def diagonal_positions(xp: Any, rows: int, cols: int, offset: int) -> tuple[Array, Array]:
    """Row and column indices of diagonal ``offset`` of a rows x cols matrix."""
    if offset >= 0:
        length = max(0, min(rows, cols - offset))
        steps = xp.arange(length)
        return steps, steps + offset
    length = max(0, min(rows + offset, cols))
    steps = xp.arange(length)
    return steps - offset, steps


def diagonal_view(x: Array, dim1: int, dim2: int) -> Array:
    """``x`` with axes dim1 and dim2 (negative from the end) moved last: a view to write into."""
    rank = x.ndim
    first, second = dim1 % rank, dim2 % rank
    rest = [i for i in range(rank) if i not in (first, second)]
    return x.transpose(rest + [first, second])


@register_kernel("fill_diagonal_tensor", dtypes=FILL_DIAGONAL_TENSOR_DTYPES)
def fill_diagonal_tensor_kernel(
    ctx: KernelContext, x: Array, y: Array, offset: int, dim1: int, dim2: int
) -> Array:
    out = x.copy()
    view = diagonal_view(out, dim1, dim2)
    rows, cols = diagonal_positions(ctx.xp, view.shape[-2], view.shape[-1], offset)
    view[..., rows, cols] = y
    return out


@register_kernel(
    "numel", dtypes=NUMEL_DTYPES, configure=lambda k: k.output_at(0).set_dtype(DataType.INT64)
)
def numel_kernel(ctx: KernelContext, x: Array) -> Array:
    return ctx.xp.asarray(x.size, dtype=ctx.xp.int64)


def _shift_parts(xp: Any, x: Array, y: Array) -> tuple[Array, Array, Array]:
    """x and y broadcast, whether each count is out of range, and the counts made safe."""
    x, y = xp.broadcast_arrays(x, y)
    bits = x.dtype.itemsize * 8
    outside = (y < 0) | (y >= bits)
    return x, outside, xp.where(outside, 0, y).astype(x.dtype)


@register_kernel("bitwise_left_shift", dtypes=SHIFT_DTYPES)
def bitwise_left_shift_kernel(ctx: KernelContext, x: Array, y: Array, is_arithmetic: bool) -> Array:
    xp = ctx.xp
    x, outside, count = _shift_parts(xp, x, y)
    return xp.where(outside, xp.zeros((), dtype=x.dtype), xp.left_shift(x, count))


@register_kernel("bitwise_right_shift", dtypes=SHIFT_DTYPES)
def bitwise_right_shift_kernel(
    ctx: KernelContext, x: Array, y: Array, is_arithmetic: bool
) -> Array:
    xp = ctx.xp
    x, outside, count = _shift_parts(xp, x, y)
    zero = xp.zeros((), dtype=x.dtype)
    if is_arithmetic or x.dtype.kind == "u":
        shifted = xp.right_shift(x, count)
        filler = xp.where(x < 0, xp.asarray(-1).astype(x.dtype), zero) if x.dtype.kind == "i" else zero
        return xp.where(outside, filler, shifted)
    unsigned = xp.dtype(f"uint{x.dtype.itemsize * 8}")
    shifted = xp.right_shift(x.astype(unsigned), count.astype(unsigned)).astype(x.dtype)
    return xp.where(outside, zero, shifted)
