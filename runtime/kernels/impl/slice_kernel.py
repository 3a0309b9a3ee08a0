"""Slicing kernels: slice, strided_slice, and set_value / set_value_with_tensor, which write
values into a (strided) slice of a copy of ``x`` (the API's in-place form copies the result back
into ``x``).

Bounds come from the same helpers as the InferMeta functions (``slice_ranges``,
``strided_slice_ranges``), so kernels and InferMeta cannot disagree. Results are new arrays,
never views of ``x``: a later in-place write to ``x`` must not change them.
"""

from __future__ import annotations

import math

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.unary import slice_ranges, strided_slice_ranges
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle 3.3.1's CPU registrations for slice, strided_slice, set_value,
# set_value_with_tensor and their grads (bfloat16 and float8 aside).
SLICE_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64, D.FLOAT16, D.FLOAT32)
SLICE_DTYPES += (D.BFLOAT16, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def slice_index(
    rank: int, axes: tuple[int, ...], starts: tuple[int, ...], ends: tuple[int, ...], dims: Any
) -> tuple[slice, ...]:
    """The basic index of ``slice``'s [start, end) ranges."""
    index = [slice(None)] * rank
    for axis, (start, end) in zip(axes, slice_ranges(tuple(dims), axes, starts, ends)):
        index[axis] = slice(start, end)
    return tuple(index)


def strided_index(
    dims: tuple[int, ...],
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    steps: tuple[int, ...],
) -> tuple[slice, ...]:
    """The basic index of a strided slice (strided_slice, set_value)."""
    index = [slice(None)] * len(dims)
    for axis, s in zip(axes, strided_slice_ranges(dims, axes, starts, ends, steps)):
        index[axis] = s
    return tuple(index)


@register_kernel("slice", dtypes=SLICE_DTYPES)
def slice_kernel(
    ctx: KernelContext,
    input: Array,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    infer_flags: tuple[int, ...],
    decrease_axis: tuple[int, ...],
) -> Array:
    out = input[slice_index(input.ndim, axes, starts, ends, input.shape)]
    shape = tuple(n for i, n in enumerate(out.shape) if i not in decrease_axis)
    return out.reshape(shape).copy()


@register_kernel("strided_slice", dtypes=SLICE_DTYPES)
def strided_slice_kernel(
    ctx: KernelContext,
    x: Array,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    strides: tuple[int, ...],
) -> Array:
    return x[strided_index(tuple(x.shape), axes, starts, ends, strides)].copy()


def value_dims(
    region: tuple[int, ...], decrease_axes: tuple[int, ...], none_axes: tuple[int, ...]
) -> tuple[int, ...]:
    """The dims a value is broadcast to: the region without ``decrease_axes``, with a 1 at each
    of ``none_axes`` (positions counted over the region's axes, as PHI's SetValueImpl does)."""
    dims: list[int] = []
    pending = sorted(none_axes)
    cursor = 0
    for i, extent in enumerate(region):
        while cursor < len(pending) and pending[cursor] <= i:
            dims.append(1)
            cursor += 1
        if i not in decrease_axes:
            dims.append(extent)
    dims.extend(1 for _ in pending[cursor:])
    return tuple(dims)


def _set_region(
    xp: Any,
    x: Array,
    value: Array,
    index: tuple[slice, ...],
    decrease_axes: tuple[int, ...],
    none_axes: tuple[int, ...],
    op: str,
) -> Array:
    out = x.copy()
    region = out[index].shape
    if 0 in region:  # an empty slice (ends before starts): nothing to set, as PaddlePaddle 3.3.1
        return out
    target = value_dims(tuple(region), decrease_axes, none_axes)
    # A value with more dims than the slice broadcasts when the extra leading dims are 1, as
    # PHI's elementwise broadcast gives it: x[0] = 5.0 on a 1-D x sets a 0-D slice from values
    # of shape [1], and x[0] = [[7.0]] works too in PaddlePaddle 3.3.1.
    extra = value.ndim - len(target)
    if extra > 0 and all(extent == 1 for extent in value.shape[:extra]):
        value = value.reshape(value.shape[extra:])
    try:
        spread = xp.broadcast_to(value, target)
    except ValueError:
        raise InvalidArgumentError(
            f"{op}: a value with shape {list(value.shape)} cannot be broadcast to the shape "
            f"{list(target)} of the slice it is assigned to"
        ) from None
    out[index] = spread.reshape(region)
    return out


@register_kernel("set_value", dtypes=SLICE_DTYPES)
def set_value_kernel(
    ctx: KernelContext,
    x: Array,
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    steps: tuple[int, ...],
    axes: tuple[int, ...],
    decrease_axes: tuple[int, ...],
    none_axes: tuple[int, ...],
    shape: tuple[int, ...],
    values: tuple[Any, ...],
) -> Array:
    xp = ctx.xp
    if math.prod(shape) != len(values):
        raise InvalidArgumentError(
            f"argument 'shape' {list(shape)} holds {math.prod(shape)} elements, but argument "
            f"'values' has {len(values)}"
        )
    value = xp.asarray(values, dtype=x.dtype).reshape(shape)
    index = strided_index(tuple(x.shape), axes, starts, ends, steps)
    return _set_region(xp, x, value, index, decrease_axes, none_axes, "set_value")


@register_kernel("set_value_with_tensor", dtypes=SLICE_DTYPES)
def set_value_with_tensor_kernel(
    ctx: KernelContext,
    x: Array,
    values: Array,
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    steps: tuple[int, ...],
    axes: tuple[int, ...],
    decrease_axes: tuple[int, ...],
    none_axes: tuple[int, ...],
) -> Array:
    xp = ctx.xp
    index = strided_index(tuple(x.shape), axes, starts, ends, steps)
    return _set_region(xp, x, values, index, decrease_axes, none_axes, "set_value_with_tensor")
