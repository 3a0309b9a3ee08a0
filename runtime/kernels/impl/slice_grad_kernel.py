"""Grad kernels of slice, strided_slice, set_value and set_value_with_tensor.

A slice's gradient is ``out_grad`` written into zeros at the sliced region; a set_value's
gradient for ``x`` is ``out_grad`` with the overwritten region zeroed and, for a tensor value,
the region of ``out_grad`` summed back to the value's (broadcast) dims.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.index_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.impl.slice_kernel import (
    SLICE_DTYPES,
    slice_index,
    strided_index,
    value_dims,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _shape_only_first(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("slice_grad", dtypes=SLICE_DTYPES, configure=_shape_only_first)
def slice_grad_kernel(
    ctx: KernelContext,
    input: Array,
    out_grad: Array,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    infer_flags: tuple[int, ...],
    decrease_axis: tuple[int, ...],
) -> Array:
    grad = ctx.xp.zeros(input.shape, dtype=out_grad.dtype)
    index = slice_index(input.ndim, axes, starts, ends, input.shape)
    grad[index] = out_grad.reshape(grad[index].shape)
    return grad


@register_kernel("strided_slice_grad", dtypes=SLICE_DTYPES, configure=_shape_only_first)
def strided_slice_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    axes: tuple[int, ...],
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    strides: tuple[int, ...],
) -> Array:
    grad = ctx.xp.zeros(x.shape, dtype=out_grad.dtype)
    grad[strided_index(tuple(x.shape), axes, starts, ends, strides)] = out_grad
    return grad


@register_kernel("set_value_with_scalar_grad", dtypes=SLICE_DTYPES)
def set_value_with_scalar_grad_kernel(
    ctx: KernelContext,
    out_grad: Array,
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    steps: tuple[int, ...],
    axes: tuple[int, ...],
    decrease_axes: tuple[int, ...],
    none_axes: tuple[int, ...],
) -> Array:
    grad = out_grad.copy()
    grad[strided_index(tuple(out_grad.shape), axes, starts, ends, steps)] = 0
    return grad


@register_kernel("set_value_grad", dtypes=SLICE_DTYPES, configure=_shape_only_first)
def set_value_grad_kernel(
    ctx: KernelContext,
    values: Array,
    out_grad: Array,
    starts: tuple[int, ...],
    ends: tuple[int, ...],
    steps: tuple[int, ...],
    axes: tuple[int, ...],
    decrease_axes: tuple[int, ...],
    none_axes: tuple[int, ...],
) -> tuple[Array, Array]:
    xp = ctx.xp
    index = strided_index(tuple(out_grad.shape), axes, starts, ends, steps)
    region = out_grad[index]
    spread = region.reshape(value_dims(tuple(region.shape), decrease_axes, none_axes))
    extra = values.ndim - spread.ndim
    if extra > 0:  # values with leading 1s beyond the slice's dims (set_value_with_tensor)
        spread = spread.reshape((1,) * extra + tuple(spread.shape))
    values_grad = reduce_to_shape(xp, spread, tuple(values.shape))
    x_grad = out_grad.copy()
    x_grad[index] = 0
    return x_grad, values_grad.copy()
