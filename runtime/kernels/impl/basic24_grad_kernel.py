"""Gradient kernels of the basic24 ops of issue 24, for the dtypes PaddlePaddle 3.3.1 registers
on CPU (paddle/phi/kernels/cpu/<op>_grad_kernel.cc).

- fill_grad: zeros of out_grad's shape and dtype (the filled result does not depend on x).
- crop_grad: zeros of x's shape with out_grad written at offsets.
- shuffle_channel_grad: the inverse shuffle ([N, C / group, group, H, W], axes 1 and 2 swapped).
- partial_concat_grad / partial_sum_grad: zeros of each input's shape with its block of
  out_grad (partial_sum: all of out_grad) in the columns the forward took.
- temporal_shift_grad: the inverse shift: each out_grad value goes back to the step and
  channel it was taken from; the values shifted out of the sequence get no gradient.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.impl.basic24_kernel import (
    CROP_DTYPES,
    PARTIAL_CONCAT_DTYPES,
    PARTIAL_SUM_DTYPES,
    SHIFT_DTYPES,
    crop_slices,
    partial_columns,
    shift_bounds,
    time_major,
)
from phiops.runtime.kernels.registration import register_kernel

D = DataType

FILL_GRAD_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)


@register_kernel("fill_grad", dtypes=FILL_GRAD_DTYPES)
def fill_grad_kernel(ctx: KernelContext, out_grad: Array, value: bool | int | float) -> Array:
    return ctx.xp.zeros_like(out_grad)


@register_kernel("crop_grad", dtypes=CROP_DTYPES)
def crop_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, offsets: tuple[int, ...]
) -> Array:
    x_grad = ctx.xp.zeros(x.shape, dtype=out_grad.dtype)
    x_grad[crop_slices(x.shape, out_grad.shape, offsets)] = out_grad
    return x_grad


@register_kernel("shuffle_channel_grad", dtypes=SHIFT_DTYPES)
def shuffle_channel_grad_kernel(ctx: KernelContext, out_grad: Array, group: int) -> Array:
    n, c, h, w = out_grad.shape
    grouped = out_grad.reshape(n, c // group, group, h, w)
    return ctx.xp.ascontiguousarray(grouped.transpose(0, 2, 1, 3, 4)).reshape(out_grad.shape)


@register_kernel("temporal_shift_grad", dtypes=SHIFT_DTYPES)
def temporal_shift_grad_kernel(
    ctx: KernelContext, out_grad: Array, seg_num: int, shift_ratio: float, data_format: str
) -> Array:
    channel_axis = 2 if data_format == "NCHW" else 4
    c1, c2 = shift_bounds(out_grad.shape[1 if data_format == "NCHW" else 3], shift_ratio)
    grad = time_major(out_grad, seg_num, data_format)
    x_grad = ctx.xp.zeros_like(grad)

    def part(start: int, stop: int | None, steps: slice) -> tuple[slice, ...]:
        index = [slice(None)] * 5
        index[1], index[channel_axis] = steps, slice(start, stop)
        return tuple(index)

    x_grad[part(0, c1, slice(None, -1))] = grad[part(0, c1, slice(1, None))]
    x_grad[part(c1, c2, slice(1, None))] = grad[part(c1, c2, slice(None, -1))]
    x_grad[part(c2, None, slice(None))] = grad[part(c2, None, slice(None))]
    return x_grad.reshape(out_grad.shape)


@register_kernel("partial_concat_grad", dtypes=PARTIAL_CONCAT_DTYPES)
def partial_concat_grad_kernel(
    ctx: KernelContext, x: list[Array], out_grad: Array, start_index: int, length: int
) -> list[Array]:
    columns = partial_columns(x[0], start_index, length, negative_start=True)
    width = columns.stop - columns.start
    grads = []
    for i, item in enumerate(x):
        grad = ctx.xp.zeros(item.shape, dtype=out_grad.dtype)
        grad[:, columns] = out_grad[:, i * width : (i + 1) * width]
        grads.append(grad)
    return grads


@register_kernel("partial_sum_grad", dtypes=PARTIAL_SUM_DTYPES)
def partial_sum_grad_kernel(
    ctx: KernelContext, x: list[Array], out_grad: Array, start_index: int, length: int
) -> list[Array]:
    columns = partial_columns(x[0], start_index, length, negative_start=False)
    grads = []
    for item in x:
        grad = ctx.xp.zeros(item.shape, dtype=out_grad.dtype)
        grad[:, columns] = out_grad
        grads.append(grad)
    return grads
