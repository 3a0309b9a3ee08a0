"""Kernels of the basic24 ops of issue 24 (creation, utility, framework and small manipulation
ops), for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- fill: every element set to ``value`` converted to x's dtype as ``Scalar::to<T>()`` does (a C++
  cast: toward zero for integers, nonzero is True for bool); a converted value that is NaN is an
  error (PHI: "fill value should not be NaN"). NaN, inf or a value outside an integer dtype's
  range, undefined in C++, is an error here too.
- increment: ``x + static_cast<T>(value)`` on a one-element x, value held as a float32 (so a
  float64 x gets 2 - 1.7f = 0.29999995...); an integer dtype truncates it toward zero first
  (3.3.1: 3 + 1.7 gives 4 in int32).
- crop: ``x[offsets[0] : offsets[0] + shape[0], ...]`` (a -1 extent takes the rest of the
  dimension; 0 gives an empty one, as 3.3.1's zero-size path does).
- shard_index: ``v % shard_size`` where ``v // shard_size == shard_id``, else ``ignore_value``,
  with ``shard_size = ceil(index_num / nshards)``; an index outside [0, index_num) is an error.
- shuffle_channel: [N, C, H, W] viewed as [N, group, C / group, H, W], the two group axes
  swapped.
- temporal_shift: of the C channels of each [N, seg_num, ...] step, the first
  ``c1 = int(C * shift_ratio)`` take the previous step's values and the next up to
  ``c2 = int(C * 2 * shift_ratio)`` the next step's (products in float32, as PHI's int * float),
  zeros where the step would leave the sequence; the rest stay.
- partial_concat / partial_sum: columns [start, start + length) of each 2-D input (-1: to the
  end of the row), side by side or added; partial_concat counts a negative start_index from
  the end, partial_sum refuses one (3.3.1 reads outside the rows).
- full_ reuses ``full`` and assign_out_ reuses ``assign`` (runtime/kernels/impl/full_kernel.py,
  cast_kernel.py), as PHI's specs do.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.infermeta.basic24 import crop_extents, partial_range
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType

# PaddlePaddle 3.3.1 registers fill on CPU for every dtype numpy holds, uint16, uint32 and uint64
# included (and the float8 types, which numpy lacks).
FILL_DTYPES = ALL_TYPES + (D.UINT16, D.UINT32, D.UINT64)
INCREMENT_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
CROP_DTYPES = INCREMENT_DTYPES
SHARD_INDEX_DTYPES = (D.INT32, D.INT64)
SHIFT_DTYPES = (D.FLOAT32, D.FLOAT64)
PARTIAL_CONCAT_DTYPES = INCREMENT_DTYPES + (D.COMPLEX64, D.COMPLEX128)
PARTIAL_SUM_DTYPES = INCREMENT_DTYPES


def cast_like_cpp(value: bool | int | float, dtype: np.dtype, op: str, arg: str) -> object:
    """``value`` converted to ``dtype`` as a C++ ``static_cast`` does where that is defined;
    NaN, inf or a value outside an integer dtype's range is an InvalidArgumentError."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}': {value!r} cannot be converted to {dtype}"
            )
        whole = int(value)
        info = np.iinfo(dtype)
        if not info.min <= whole <= info.max:
            raise InvalidArgumentError(
                f"{op}(): argument '{arg}': {value!r} is out of range for {dtype}: it must lie "
                f"in [{info.min}, {info.max}]"
            )
        return whole
    return value


@register_kernel("fill", dtypes=FILL_DTYPES)
def fill_kernel(ctx: KernelContext, x: Array, value: bool | int | float) -> Array:
    if isinstance(value, float) and math.isnan(value):
        raise InvalidArgumentError("fill(): argument 'value': the fill value must not be NaN")
    fill_value = cast_like_cpp(value, x.dtype, "fill", "value")
    out = ctx.xp.empty(x.shape, dtype=x.dtype)
    with np.errstate(over="ignore"):
        out.fill(fill_value)
    return out


@register_kernel("increment", dtypes=INCREMENT_DTYPES)
def increment_kernel(ctx: KernelContext, x: Array, value: float) -> Array:
    # value is a float attribute: a float32, as PHI holds it, converted to x's dtype
    step = x.dtype.type(cast_like_cpp(float(np.float32(value)), x.dtype, "increment", "value"))
    with np.errstate(over="ignore"):
        return x + step


def crop_slices(
    x_shape: tuple[int, ...], shape: tuple[int, ...], offsets: tuple[int, ...]
) -> tuple[slice, ...]:
    extents = crop_extents(tuple(x_shape), tuple(shape), tuple(offsets))
    return tuple(slice(o, o + e) for o, e in zip(offsets, extents))


@register_kernel("crop", dtypes=CROP_DTYPES)
def crop_kernel(
    ctx: KernelContext, x: Array, shape: tuple[int, ...], offsets: tuple[int, ...]
) -> Array:
    return x[crop_slices(x.shape, shape, offsets)].copy()


@register_kernel("shard_index", dtypes=SHARD_INDEX_DTYPES)
def shard_index_kernel(
    ctx: KernelContext,
    input: Array,
    index_num: int,
    nshards: int,
    shard_id: int,
    ignore_value: int,
) -> Array:
    xp = ctx.xp
    if input.size and bool(xp.any((input < 0) | (input >= index_num))):
        raise InvalidArgumentError(
            f"shard_index(): argument 'input': every index must lie in [0, index_num) = "
            f"[0, {index_num}), got values from {int(input.min())} to {int(input.max())}"
        )
    shard_size = (index_num + nshards - 1) // nshards
    mine = input // shard_size == shard_id
    return xp.where(mine, input % shard_size, input.dtype.type(ignore_value))


@register_kernel("shuffle_channel", dtypes=SHIFT_DTYPES)
def shuffle_channel_kernel(ctx: KernelContext, x: Array, group: int) -> Array:
    n, c, h, w = x.shape
    grouped = x.reshape(n, group, c // group, h, w)
    return ctx.xp.ascontiguousarray(grouped.transpose(0, 2, 1, 3, 4)).reshape(x.shape)


def shift_bounds(channels: int, shift_ratio: float) -> tuple[int, int]:
    """(c1, c2) as PHI computes them: int * float products in float32, truncated."""
    ratio = np.float32(shift_ratio)
    return int(np.float32(channels) * ratio), int(np.float32(channels * 2) * ratio)


def time_major(x: Array, seg_num: int, data_format: str) -> Array:
    """x as [N, seg_num, C, rest] (NCHW) or [N, seg_num, rest, C] (NHWC), a view."""
    return x.reshape((x.shape[0] // seg_num, seg_num) + x.shape[1:])


@register_kernel("temporal_shift", dtypes=SHIFT_DTYPES)
def temporal_shift_kernel(
    ctx: KernelContext, x: Array, seg_num: int, shift_ratio: float, data_format: str
) -> Array:
    channel_axis = 2 if data_format == "NCHW" else 4
    c1, c2 = shift_bounds(x.shape[1 if data_format == "NCHW" else 3], shift_ratio)
    src = time_major(x, seg_num, data_format)
    out = ctx.xp.zeros_like(src)

    def part(start: int, stop: int | None, steps: slice) -> tuple[slice, ...]:
        index = [slice(None)] * 5
        index[1], index[channel_axis] = steps, slice(start, stop)
        return tuple(index)

    out[part(0, c1, slice(1, None))] = src[part(0, c1, slice(None, -1))]
    out[part(c1, c2, slice(None, -1))] = src[part(c1, c2, slice(1, None))]
    out[part(c2, None, slice(None))] = src[part(c2, None, slice(None))]
    return out.reshape(x.shape)


def partial_columns(x: Array, start_index: int, length: int, negative_start: bool) -> slice:
    start, count = partial_range(x.shape[1], start_index, length, negative_start)
    return slice(start, start + count)


@register_kernel("partial_concat", dtypes=PARTIAL_CONCAT_DTYPES)
def partial_concat_kernel(
    ctx: KernelContext, x: list[Array], start_index: int, length: int
) -> Array:
    columns = partial_columns(x[0], start_index, length, negative_start=True)
    return ctx.xp.concatenate([item[:, columns] for item in x], axis=1)


@register_kernel("partial_sum", dtypes=PARTIAL_SUM_DTYPES)
def partial_sum_kernel(ctx: KernelContext, x: list[Array], start_index: int, length: int) -> Array:
    columns = partial_columns(x[0], start_index, length, negative_start=False)
    out = x[0][:, columns].copy()
    for item in x[1:]:
        out += item[:, columns]
    return out
