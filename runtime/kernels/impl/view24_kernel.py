"""Kernels of the view24 ops: the strided views (as_strided, view_shape, view_dtype, tensor_unfold,
index_select_strided) and einsum.

PaddlePaddle 3.3.1 registers them on its STRIDED backend, for every dtype: each returns a tensor
that shares the input's allocation, with new dims, strides (in elements) and offset (in bytes).
phiops's tensors hold numpy/CuPy arrays, so these kernels return array views of the input's
buffer (``xp.lib.stride_tricks.as_strided``, strides converted to bytes): writing through the
result is seen in the input, and the other way round. Where they differ from PaddlePaddle:

- a non-contiguous input (a transposed or sliced view) is first copied to C order, and the
  result is a view of that copy, laid out in the input's logical order; PaddlePaddle indexes its
  allocation as it lies, and view_shape raises "The Tensor can not be viewed" where the strides do
  not allow the new dims, where phiops copies;
- as_strided's offset counts from the input's first element, PaddlePaddle's from the start of its
  allocation (the same for a tensor that is not itself an offset view).

einsum runs the array module's einsum on the equation spelled out by ``plan_einsum`` (ellipsis as
letters, extent-1 dims broadcast); its ``inner_cache`` and ``xshape`` outputs are the operands
themselves (PaddlePaddle keeps its transposed operands in ``inner_cache``), which einsum_grad
reads. It takes any number of operands; PaddlePaddle's op takes one or two, and paddle.einsum
contracts more pairwise.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.view24 import EinsumPlan, plan_einsum, view_shape_dims
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle 3.3.1 registers the strided kernels for every dtype (its float8 ones aside,
# which phiops has not).
VIEW_DTYPES = ALL_TYPES


def c_order(xp: Any, x: Array) -> Array:
    """``x`` itself when C-contiguous (the views then share its buffer), else a C-order copy."""
    return x if x.flags.c_contiguous else xp.ascontiguousarray(x)


def strided_view(
    xp: Any, x: Array, dims: tuple[int, ...], stride: tuple[int, ...], start: int
) -> Array:
    """The view of C-contiguous ``x``'s elements with ``dims`` and element ``stride``s, its first
    element ``start`` elements into ``x`` (the caller has checked the bounds)."""
    flat = x.reshape(-1)
    item = flat.itemsize
    return xp.lib.stride_tricks.as_strided(
        flat[start:], shape=tuple(dims), strides=tuple(s * item for s in stride)
    )


def element_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The C-order strides, in elements, of ``shape``."""
    strides = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


@register_kernel("as_strided", dtypes=VIEW_DTYPES)
def as_strided_kernel(
    ctx: KernelContext, input: Array, dims: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> Array:
    base = c_order(ctx.xp, input)
    return strided_view(ctx.xp, base, dims, stride, offset // base.itemsize)


@register_kernel("view_shape", dtypes=VIEW_DTYPES)
def view_shape_kernel(ctx: KernelContext, input: Array, dims: tuple[int, ...]) -> Array:
    # a view where the array module can make one (always for a C-contiguous input), else a copy
    return input.reshape(view_shape_dims(tuple(input.shape), dims))


@register_kernel("view_dtype", dtypes=VIEW_DTYPES)
def view_dtype_kernel(ctx: KernelContext, input: Array, dtype: DataType) -> Array:
    target = dtype.numpy_dtype
    if input.ndim == 0:  # the sizes are equal (InferMeta checked): a 0-D view of the same bytes
        return input.view(target)
    return c_order(ctx.xp, input).view(target)


@register_kernel("tensor_unfold", dtypes=VIEW_DTYPES)
def tensor_unfold_kernel(
    ctx: KernelContext, input: Array, axis: int, size: int, step: int
) -> Array:
    base = c_order(ctx.xp, input)
    if base.ndim == 0:
        return strided_view(ctx.xp, base, (size,), (1,), 0)
    axis %= base.ndim
    strides = element_strides(base.shape)
    dims = list(base.shape)
    dims[axis] = (dims[axis] - size) // step + 1
    windows = list(strides)
    windows[axis] = strides[axis] * step
    return strided_view(ctx.xp, base, (*dims, size), (*windows, strides[axis]), 0)


@register_kernel("index_select_strided", dtypes=VIEW_DTYPES)
def index_select_strided_kernel(ctx: KernelContext, x: Array, index: int, axis: int) -> Array:
    # basic indexing: a view of x's buffer
    return x[(slice(None),) * (axis % x.ndim) + (index,)]


def broadcast_operands(xp: Any, plan: EinsumPlan, x: list[Array]) -> list[Array]:
    """Each operand with its extent-1 dims stretched to the label's extent (a view), which
    PaddlePaddle's einsum broadcasts and the array module's does not."""
    out = []
    for term, operand in zip(plan.terms, x):
        target = tuple(plan.sizes[label] for label in term)
        out.append(operand if operand.shape == target else xp.broadcast_to(operand, target))
    return out


# PaddlePaddle 3.3.1 registers einsum on CPU for float32, float64, complex64 and complex128.
EINSUM_DTYPES = (DataType.FLOAT32, DataType.FLOAT64, DataType.COMPLEX64, DataType.COMPLEX128)


@register_kernel("einsum", dtypes=EINSUM_DTYPES)
def einsum_kernel(
    ctx: KernelContext, x: list[Array], equation: str
) -> tuple[Array, list[Array], list[Array]]:
    xp = ctx.xp
    plan = plan_einsum(equation, [tuple(a.shape) for a in x])
    operands = broadcast_operands(xp, plan, x)
    # optimize: contractions by BLAS (tensordot) in the cheapest pairwise order
    out = xp.einsum(plan.equation, *operands, optimize=len(operands) > 1)
    return xp.asarray(out, dtype=x[0].dtype), list(x), list(x)
