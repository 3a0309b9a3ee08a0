"""Kernels of the search24 ops of issue 24: kthvalue, mode, nanmedian, searchsorted, bincount,
histogram, index_sample, repeat_interleave, repeat_interleave_with_tensor_index, unstack, amax,
amin and reverse, for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/
<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- kthvalue, mode and nanmedian order a row with NaN after every number. PHI selects with
  std::nth_element / std::partial_sort / std::sort on (value, index) pairs compared by value
  only, so the index of a value that ties with others depends on those algorithms. kthvalue
  reproduces std::nth_element (nth_element.py beside this file) for the rows where the k-th
  value ties (k * 64 >= the row's size; a longer row takes std::partial_sort in PHI and the
  stable order here). mode and nanmedian take the stable order: for mode's rows of up to 16 elements
  std::sort is an insertion sort and agrees; otherwise a tie's index may differ. The values
  always agree.
- mode: the most frequent value, the smallest of those equally frequent, with the index of the
  last of its copies in that order; every NaN counts once (NaN != NaN).
- nanmedian: NaNs are left out of each row (the reduced axes, moved to the end in ascending
  order, flattened). An odd count gives the middle element, an even count the mean of the two
  middle ones (mode 'avg', in the dtype's arithmetic: an integer mean truncates toward zero) or
  the lower (mode 'min'). ``medians`` holds the positions in the row of the element(s) used, -1
  for a row of NaNs only (whose result is NaN); when every element of x is NaN, 3.3.1 gives the
  positions 0 and 1 (0 for 'min') instead.
- searchsorted: PHI's binary search (lower bound, or upper bound with ``right``): a NaN value
  goes past the end. A sorted_sequence of more than one dimension is searched row by row.
- bincount: counts (int64), or sums of ``weights`` (float32 for float32 weights, float64 for any
  other); a negative x is an InvalidArgumentError. An empty x gives zeros of minlength (int64
  in 3.3.1 even with weights, which phiops gives in the sums' dtype, as InferMeta says).
- histogram: equal bins over [min, max] (the data's range when both are 0, widened by 1 each
  way when it is one value); bin = (int)((x - min) * bins / (max - min)) in the input dtype's
  arithmetic (integer input takes min and max truncated to integers), the last bin closed.
  With weight or density the result is float32: weighted sums, density divided by
  sum * (max - min) / bins. (For an empty input 3.3.1 returns float32 zeros whatever the
  arguments; phiops keeps the dtype InferMeta gives.)
- index_sample and the repeat counts refuse values out of range, as 3.3.1's kernels do;
  repeat_interleave's output_size below the repeated extent keeps the leading slices.
- amax/amin propagate NaN; an empty reduction is an InvalidArgumentError (3.3.1 returns
  uninitialised memory). reverse flips an axis named twice once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.nth_element import nth_element
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

# PaddlePaddle 3.3.1's CPU registrations of kthvalue, mode, nanmedian, searchsorted, bincount
# and histogram (and of their grads)
SEARCH_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def _int64_second_output(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.INT64)


def _along_last(xp: Any, x: Array, axis: int) -> Array:
    return xp.moveaxis(x, axis, -1)


def _back(xp: Any, picked: Array, axis: int, keepdim: bool) -> Array:
    """A result picked along the last axis (extent 1) put back at ``axis``."""
    moved = xp.moveaxis(picked, -1, axis)
    return moved if keepdim else xp.squeeze(moved, axis=axis)


@register_kernel("kthvalue", dtypes=SEARCH_DTYPES, configure=_int64_second_output)
def kthvalue_kernel(
    ctx: KernelContext, x: Array, k: int, axis: int, keepdim: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=xp.int64)
    axis %= x.ndim
    rows = _along_last(xp, x, axis)
    order = xp.argsort(rows, axis=-1, kind="stable")[..., k - 1 : k].astype(xp.int64)
    values = xp.take_along_axis(rows, order, axis=-1)
    if k * 64 >= rows.shape[-1]:
        order = _nth_element_ties(xp, rows, values, order, k)
    return _back(xp, values, axis, keepdim), _back(xp, order, axis, keepdim)


def _nan_last_less(left: tuple[Any, int], right: tuple[Any, int]) -> bool:
    """PHI's kthvalue comparison: numbers before NaN, ascending; the index is not compared."""
    return (left[0] == left[0] and right[0] != right[0]) or left[0] < right[0]


def _nth_element_ties(xp: Any, rows: Array, values: Array, order: Array, k: int) -> Array:
    """The indices of the rows whose k-th value ties with another element (NaN with NaN) as
    PHI's std::nth_element leaves them (libstdc++'s algorithm, step for step); the others as
    the stable order gave them."""
    with np.errstate(invalid="ignore"):
        same = (rows == values) | ((rows != rows) & (values != values))
    tied = xp.sum(same, axis=-1) > 1
    if not bool(xp.any(tied)):
        return order
    width = rows.shape[-1]
    flat_rows = rows.reshape(-1, width)
    flat_order = order.reshape(-1).copy()
    for row in xp.nonzero(tied.reshape(-1))[0].tolist():
        pairs = list(zip(flat_rows[row].tolist(), range(width)))
        nth_element(pairs, k - 1, _nan_last_less)
        flat_order[row] = pairs[k - 1][1]
    return flat_order.reshape(order.shape)


@register_kernel("mode", dtypes=SEARCH_DTYPES, configure=_int64_second_output)
def mode_kernel(ctx: KernelContext, x: Array, axis: int, keepdim: bool) -> tuple[Array, Array]:
    xp = ctx.xp
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=xp.int64)
    axis %= x.ndim
    rows = _along_last(xp, x, axis)
    order = xp.argsort(rows, axis=-1, kind="stable")
    ordered = xp.take_along_axis(rows, order, axis=-1)
    extent = rows.shape[-1]
    positions = xp.arange(extent, dtype=xp.int64)
    # a run of equal values starts where a value differs from the one before (NaN != NaN)
    starts_run = xp.ones(ordered.shape, dtype=bool)
    starts_run[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    ends_run = xp.ones(ordered.shape, dtype=bool)
    ends_run[..., :-1] = starts_run[..., 1:]
    run_start = _running_max(xp, xp.where(starts_run, positions, 0))
    length = xp.where(ends_run, positions - run_start + 1, 0)
    # the first longest run: the smallest value among the most frequent, at its last copy
    best = xp.argmax(length, axis=-1)[..., None]
    values = xp.take_along_axis(ordered, best, axis=-1)
    indices = xp.take_along_axis(order, best, axis=-1).astype(xp.int64)
    return _back(xp, values, axis, keepdim), _back(xp, indices, axis, keepdim)


def _running_max(xp: Any, x: Array) -> Array:
    """The running maximum along the last axis (numpy's accumulate; a doubling scan else)."""
    if xp is np:
        return np.maximum.accumulate(x, axis=-1)
    y = x.copy()
    step, extent = 1, y.shape[-1]
    while step < extent:
        shifted = y.copy()
        shifted[..., step:] = xp.maximum(y[..., step:], y[..., :-step])
        y = shifted
        step *= 2
    return y


def median_rows(xp: Any, x: Array, axis: tuple[int, ...]) -> tuple[Array, tuple[int, ...]]:
    """``x`` as PHI's nanmedian sees it: the kept axes first, the reduced ones (ascending)
    flattened into the last; every axis reduced when ``axis`` is empty or x is at most 1-D.
    Also the permutation used (empty when x was only flattened)."""
    if not axis or x.ndim <= 1:
        return x.reshape(1, -1), ()
    reduced = sorted({a % x.ndim for a in axis})
    kept = [a for a in range(x.ndim) if a not in reduced]
    perm = tuple(kept + reduced)
    moved = xp.transpose(x, perm)
    return moved.reshape(-1, int(np.prod([x.shape[a] for a in reduced]))), perm


def _truncated_mean(xp: Any, left: Array, right: Array) -> Array:
    total = left + right
    if total.dtype.kind == "f":
        return total / total.dtype.type(2)
    half = total // 2
    return half + ((total < 0) & (total % 2 != 0)).astype(total.dtype)


@register_kernel("nanmedian", dtypes=SEARCH_DTYPES, configure=_int64_second_output)
def nanmedian_kernel(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool, mode: str
) -> tuple[Array, Array]:
    xp = ctx.xp
    rows, _ = median_rows(xp, x, axis)
    count, stride = rows.shape
    if stride == 0:
        raise InvalidArgumentError(
            f"argument 'x' must not be empty along the reduced axes, got dims {list(x.shape)}"
        )
    order = xp.argsort(rows, axis=-1, kind="stable")  # NaN last
    ordered = xp.take_along_axis(rows, order, axis=-1)
    if rows.dtype.kind == "f":
        valid = stride - xp.sum(xp.isnan(rows), axis=-1)
    else:
        valid = xp.full((count,), stride, dtype=xp.int64)
    middle = valid // 2
    odd = valid % 2 == 1
    right = xp.minimum(middle, stride - 1)[:, None]
    left = xp.where(odd | (middle == 0), middle, middle - 1)
    left = xp.minimum(left, stride - 1)[:, None]
    left_value = xp.take_along_axis(ordered, left, axis=-1)[:, 0]
    right_value = xp.take_along_axis(ordered, right, axis=-1)[:, 0]
    left_index = xp.take_along_axis(order, left, axis=-1)[:, 0].astype(xp.int64)
    right_index = xp.take_along_axis(order, right, axis=-1)[:, 0].astype(xp.int64)
    if mode == "avg":
        with np.errstate(invalid="ignore", over="ignore"):
            out = xp.where(odd, left_value, _truncated_mean(xp, left_value, right_value))
        medians = xp.stack([left_index, right_index], axis=-1)
    else:
        out = left_value
        medians = left_index
    empty_row = valid == 0
    if bool(xp.all(empty_row)):
        # every element NaN: PaddlePaddle 3.3.1 gives NaN and the positions 0 (and 1)
        out = xp.full((count,), xp.nan, dtype=rows.dtype)
        medians = xp.zeros((count, 2) if mode == "avg" else (count,), dtype=xp.int64)
        if mode == "avg":
            medians[:, 1] = 1
    elif bool(xp.any(empty_row)):
        out = xp.where(empty_row, xp.asarray(xp.nan, dtype=rows.dtype), out)
        fill = empty_row[:, None] if mode == "avg" else empty_row
        medians = xp.where(fill, xp.int64(-1), medians)
    out_shape = _median_out_shape(x.shape, axis, keepdim)
    medians_shape = out_shape + ((2,) if mode == "avg" else ())
    return out.astype(rows.dtype, copy=False).reshape(out_shape), medians.reshape(medians_shape)


def _median_out_shape(
    shape: tuple[int, ...], axis: tuple[int, ...], keepdim: bool
) -> tuple[int, ...]:
    reduced = {a % len(shape) for a in axis} if axis and shape else set(range(len(shape)))
    return tuple(
        1 if i in reduced else extent
        for i, extent in enumerate(shape)
        if keepdim or i not in reduced
    )


def _any_dtype(kernel: Kernel, *inputs: int) -> None:
    for index in inputs:
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


@register_kernel(
    "searchsorted",
    dtypes=SEARCH_DTYPES,
    configure=lambda k: (_any_dtype(k, 1), k.output_at(0).set_dtype(DataType.UNDEFINED)),
)
def searchsorted_kernel(
    ctx: KernelContext, sorted_sequence: Array, values: Array, out_int32: bool, right: bool
) -> Array:
    xp = ctx.xp
    side = "right" if right else "left"
    dtype = xp.int32 if out_int32 else xp.int64
    common = np.promote_types(sorted_sequence.dtype, values.dtype)
    sequence = sorted_sequence.astype(common, copy=False)
    wanted = values.astype(common, copy=False)
    if sequence.ndim == 1:
        return (
            xp.searchsorted(sequence, wanted.reshape(-1), side=side)
            .astype(dtype)
            .reshape(values.shape)
        )
    rows = sequence.reshape(-1, sequence.shape[-1])
    queries = wanted.reshape(rows.shape[0], -1)
    out = xp.empty(queries.shape, dtype=dtype)
    for row in range(rows.shape[0]):
        out[row] = xp.searchsorted(rows[row], queries[row], side=side)
    return out.reshape(values.shape)


@register_kernel(
    "bincount",
    dtypes=SEARCH_DTYPES,
    configure=lambda k: (_any_dtype(k, 0, 1), k.output_at(0).set_dtype(DataType.UNDEFINED)),
)
def bincount_kernel(ctx: KernelContext, x: Array, weights: Array | None, minlength: int) -> Array:
    xp = ctx.xp
    minlength = int(minlength)
    if minlength < 0:
        raise InvalidArgumentError(f"argument 'minlength' must be >= 0, got {minlength}")
    if x.size == 0:
        # PaddlePaddle 3.3.1 gives int64 zeros here, with weights too; phiops keeps the dtype
        # its InferMeta (and 3.3.1's) says: the sums' float dtype
        empty_dtype = xp.int64 if weights is None else _sum_dtype(xp, weights)
        return xp.zeros((minlength,), dtype=empty_dtype)
    if bool(xp.any(x < 0)):
        raise InvalidArgumentError(
            f"argument 'x' must hold non-negative integers, got {int(xp.min(x))}"
        )
    if weights is None:
        return xp.bincount(x, minlength=minlength).astype(xp.int64)
    sums = xp.bincount(x, weights=weights.astype(xp.float64), minlength=minlength)
    return sums.astype(_sum_dtype(xp, weights))


def _sum_dtype(xp: Any, weights: Array) -> Any:
    return xp.float32 if weights.dtype == np.float32 else xp.float64


@register_kernel(
    "histogram",
    dtypes=SEARCH_DTYPES,
    configure=lambda k: (_any_dtype(k, 1), k.output_at(0).set_dtype(DataType.UNDEFINED)),
)
def histogram_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002 - the YAML argument's name
    weight: Array | None,
    bins: int,
    min: float,  # noqa: A002 - the YAML argument's name
    max: float,  # noqa: A002 - the YAML argument's name
    density: bool,
) -> Array:
    xp = ctx.xp
    weighted = weight is not None or density
    out_dtype = xp.float32 if weighted else xp.int64
    values = input.reshape(-1)
    if values.size == 0:
        return xp.zeros((bins,), dtype=out_dtype)
    kind = values.dtype.type
    low, high = kind(min), kind(max)
    if low == high:
        with np.errstate(invalid="ignore"):
            low, high = kind(xp.nanmin(values).item()), kind(xp.nanmax(values).item())
    if low == high:
        low, high = kind(low - 1), kind(high + 1)
    if not (np.isfinite(float(low)) and np.isfinite(float(high))):
        raise InvalidArgumentError(f"the range of argument 'input' is not finite: [{low}, {high}]")
    inside = (values >= low) & (values <= high)
    picked = values[inside]
    with np.errstate(invalid="ignore", over="ignore"):
        position = (
            (picked - low) * kind(bins) / (high - low)
            if values.dtype.kind == "f"
            else ((picked - low) * bins // (high - low))
        )
    index = xp.minimum(position.astype(xp.int64), bins - 1)
    if not weighted:
        return xp.bincount(index, minlength=bins).astype(xp.int64)
    chosen = None if weight is None else weight.reshape(-1)[inside].astype(xp.float64)
    sums = xp.bincount(index, weights=chosen, minlength=bins).astype(xp.float32)
    if density:
        gap = np.float32(bins) / np.float32(high - low) / np.float32(xp.sum(sums).item())
        sums = sums * gap
    return sums


# -- index_sample, repeat_interleave, unstack ---------------------------------------------------

# PaddlePaddle 3.3.1's CPU registrations (and of the grads)
INDEX_SAMPLE_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64, D.COMPLEX64, D.COMPLEX128)
REPEAT_DTYPES = (D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
UNSTACK_DTYPES = INDEX_SAMPLE_DTYPES


def checked_index(xp: Any, index: Array, extent: int, name: str, op: str) -> Array:
    """``index`` as int64, every value in [0, extent) (an InvalidArgumentError naming the
    argument otherwise)."""
    index = index.astype(xp.int64)
    if index.size and bool(xp.any((index < 0) | (index >= extent))):
        bad = int(index[(index < 0) | (index >= extent)].reshape(-1)[0])
        raise InvalidArgumentError(
            f"argument '{name}' of {op} must hold values in [0, {extent}), got {bad}"
        )
    return index


@register_kernel(
    "index_sample",
    dtypes=INDEX_SAMPLE_DTYPES,
    configure=lambda k: k.input_at(1).set_dtype(DataType.ALL_DTYPE),
)
def index_sample_kernel(ctx: KernelContext, x: Array, index: Array) -> Array:
    xp = ctx.xp
    index = checked_index(xp, index, x.shape[1], "index", "index_sample")
    return xp.take_along_axis(x, index, axis=1)


def _repeated(xp: Any, x: Array, repeats: Any, axis: int, output_size: int) -> Array:
    if x.ndim == 0:
        x = x.reshape(1)
    axis %= x.ndim
    out = xp.repeat(x, repeats, axis=axis)
    if 0 <= output_size < out.shape[axis]:
        out = xp.take(out, xp.arange(output_size), axis=axis)
    return out


@register_kernel("repeat_interleave", dtypes=REPEAT_DTYPES)
def repeat_interleave_kernel(
    ctx: KernelContext, x: Array, repeats: int, axis: int, output_size: int
) -> Array:
    return _repeated(ctx.xp, x, repeats, axis, output_size)


def repeat_counts(xp: Any, repeats: Array) -> list[int]:
    """The repeat counts as Python ints, each at least 0 (InvalidArgumentError otherwise)."""
    counts = [int(value) for value in repeats.reshape(-1).tolist()]
    negative = [value for value in counts if value < 0]
    if negative:
        raise InvalidArgumentError(f"argument 'repeats' must hold counts >= 0, got {negative[0]}")
    return counts


@register_kernel(
    "repeat_interleave_with_tensor_index",
    dtypes=REPEAT_DTYPES,
    configure=lambda k: k.input_at(1).set_dtype(DataType.ALL_DTYPE),
)
def repeat_interleave_with_tensor_index_kernel(
    ctx: KernelContext, x: Array, repeats: Array, axis: int, output_size: int
) -> Array:
    counts = repeat_counts(ctx.xp, repeats)
    if output_size >= 0 and output_size != sum(counts):
        raise InvalidArgumentError(
            f"argument 'output_size' ({output_size}) must be the sum of argument 'repeats' "
            f"({sum(counts)})"
        )
    return _repeated(ctx.xp, x, ctx.xp.asarray(counts, dtype=ctx.xp.int64), axis, -1)


@register_kernel("unstack", dtypes=UNSTACK_DTYPES)
def unstack_kernel(ctx: KernelContext, x: Array, axis: int, num: int) -> list[Array]:
    moved = ctx.xp.moveaxis(x, axis, 0)
    return [moved[i].copy() for i in range(moved.shape[0])]


@register_kernel("unbind", dtypes=ALL_TYPES)
def unbind_kernel(ctx: KernelContext, input: Array, axis: int) -> list[Array]:
    moved = ctx.xp.moveaxis(input, axis, 0)
    return [moved[i].copy() for i in range(moved.shape[0])]


# -- amax, amin, reverse ------------------------------------------------------------------------

# PaddlePaddle 3.3.1's CPU registrations (amax/amin and their grads; reverse)
AMAX_DTYPES = SEARCH_DTYPES
REVERSE_DTYPES = (D.BOOL, D.UINT8, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def reduced_axes(shape: tuple[int, ...], axis: tuple[int, ...]) -> tuple[int, ...]:
    """The axes ``axis`` reduces (every axis when empty), normalised and sorted."""
    rank = len(shape)
    if not axis or not rank:
        return tuple(range(rank))
    return tuple(sorted({a % rank for a in axis}))


def _extreme(xp: Any, name: str, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    axes = reduced_axes(x.shape, axis)
    if any(x.shape[a] == 0 for a in axes):
        raise InvalidArgumentError(
            f"argument 'x' must not be empty along the reduced axes {list(axes)}, got dims "
            f"{list(x.shape)}"
        )
    return getattr(xp, name)(x, axis=axes, keepdims=keepdim)


@register_kernel("amax", dtypes=AMAX_DTYPES)
def amax_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    return _extreme(ctx.xp, "max", x, axis, keepdim)


@register_kernel("amin", dtypes=AMAX_DTYPES)
def amin_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...], keepdim: bool) -> Array:
    return _extreme(ctx.xp, "min", x, axis, keepdim)


@register_kernel("reverse", dtypes=REVERSE_DTYPES)
def reverse_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...]) -> Array:
    return ctx.xp.flip(x, axis=tuple(sorted({a % x.ndim for a in axis}))).copy()
