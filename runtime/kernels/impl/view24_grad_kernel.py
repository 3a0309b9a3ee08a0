"""Gradient kernels of the view24 strided views: each puts out_grad back where the forward view
read its elements, zeros elsewhere.

Where a view reads an element more than once (as_strided with overlapping strides, tensor_unfold
with step < size) phiops sums the gradients, which is the derivative; PaddlePaddle 3.3.1's
as_strided_grad and tensor_unfold_grad copy out_grad through the view instead, so the last
write wins there, and its tensor_unfold_grad leaves the elements no window reads uninitialised
when out_grad has at least as many elements as the input. Both agree wherever the windows do not
overlap and cover the input.
"""

from __future__ import annotations

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.view24_kernel import VIEW_DTYPES, strided_view
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("as_strided_grad", dtypes=VIEW_DTYPES)
def as_strided_grad_kernel(
    ctx: KernelContext,
    input: Array,
    out_grad: Array,
    dims: tuple[int, ...],
    stride: tuple[int, ...],
    offset: int,
) -> Array:
    xp = ctx.xp
    size = 1
    for extent in input.shape:
        size *= extent
    grad = xp.zeros(size, dtype=out_grad.dtype)
    if out_grad.size:
        positions = strided_view(
            xp, xp.arange(size, dtype=xp.int64), dims, stride, offset // out_grad.itemsize
        )
        scatter_at("add", grad, positions.reshape(-1), out_grad.reshape(-1))
    return grad.reshape(input.shape)


@register_kernel("view_shape_grad", dtypes=VIEW_DTYPES)
def view_shape_grad_kernel(
    ctx: KernelContext, input: Array, out_grad: Array, dims: tuple[int, ...]
) -> Array:
    return out_grad.reshape(input.shape)


# input keeps its own dtype (the kernel is chosen by out_grad's): it gives the grad's dtype
@register_kernel(
    "view_dtype_grad",
    dtypes=VIEW_DTYPES,
    configure=lambda k: k.input_at(0).set_dtype(DataType.ALL_DTYPE),
)
def view_dtype_grad_kernel(
    ctx: KernelContext, input: Array, out_grad: Array, dtype: DataType
) -> Array:
    # out_grad seen as input's dtype, PaddlePaddle 3.3.1's view_dtype_grad
    grad = out_grad if out_grad.flags.c_contiguous else ctx.xp.ascontiguousarray(out_grad)
    return grad.view(input.dtype).reshape(input.shape)


@register_kernel("tensor_unfold_grad", dtypes=VIEW_DTYPES)
def tensor_unfold_grad_kernel(
    ctx: KernelContext, input: Array, out_grad: Array, axis: int, size: int, step: int
) -> Array:
    xp = ctx.xp
    grad = xp.zeros(input.shape, dtype=out_grad.dtype)
    if input.ndim == 0:
        if size:
            grad[()] = out_grad[0]
        return grad
    axis %= input.ndim
    count = out_grad.shape[axis]
    if count == 0 or size == 0:
        return grad
    # one strided slice per position in the window: at most `size` vectorised additions
    moved = xp.moveaxis(grad, axis, -1)
    windows = xp.moveaxis(out_grad, axis, -2)
    for j in range(size):
        moved[..., j : j + step * (count - 1) + 1 : step] += windows[..., :, j]
    return grad


@register_kernel("index_select_strided_grad", dtypes=VIEW_DTYPES)
def index_select_strided_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, index: int, axis: int
) -> Array:
    grad = ctx.xp.zeros(x.shape, dtype=out_grad.dtype)
    grad[(slice(None),) * (axis % x.ndim) + (index,)] = out_grad
    return grad

