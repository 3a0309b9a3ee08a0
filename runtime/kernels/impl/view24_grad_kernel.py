"""Gradient kernels of the view24 ops. The strided views' put out_grad back where the forward view
read its elements, zeros elsewhere; einsum_grad contracts out_grad with the other operands.

Where a view reads an element more than once (as_strided with overlapping strides, tensor_unfold
with step < size) phiops sums the gradients, which is the derivative; PaddlePaddle 3.3.1's
as_strided_grad and tensor_unfold_grad copy out_grad through the view instead, so the last
write wins there, and its tensor_unfold_grad leaves the elements no window reads uninitialised
when out_grad has at least as many elements as the input. Both agree wherever the windows do not
overlap and cover the input.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.infermeta.view24 import EinsumPlan, plan_einsum
from phiops.runtime.kernels.impl.view24_kernel import (
    EINSUM_DTYPES,
    VIEW_DTYPES,
    broadcast_operands,
    element_strides,
    strided_view,
)
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



def _conj(xp: Any, array: Array) -> Array:
    return xp.conj(array) if array.dtype.kind == "c" else array


def _einsum_operand_grad(
    xp: Any, plan: EinsumPlan, operands: list[Array], out_grad: Array, i: int, shape: tuple
) -> Array:
    """The gradient of operand ``i``: out_grad contracted with the other operands onto the
    labels they share with it, stretched over the labels only it has (summed in the forward),
    summed back over its broadcast extent-1 dims and put on its diagonal where a label repeats
    in its term."""
    term = plan.terms[i]
    labels = "".join(dict.fromkeys(term))
    others = [plan.terms[j] for j in range(len(operands)) if j != i]
    reached = set(plan.output).union(*others)
    kept = "".join(label for label in labels if label in reached)
    grad = xp.einsum(
        ",".join([plan.output, *others]) + "->" + kept,
        out_grad,
        # complex: the conjugates of the other operands, PaddlePaddle's convention
        *[_conj(xp, operands[j]) for j in range(len(operands)) if j != i],
        optimize=len(operands) > 1,
    )
    grad = grad.reshape(tuple(plan.sizes[c] if c in kept else 1 for c in labels))
    # its own size per label (1 where the operand was broadcast)
    own = {label: extent for label, extent in zip(term, shape)}
    grad = xp.broadcast_to(grad, tuple(plan.sizes[c] for c in labels))
    stretched = tuple(a for a, c in enumerate(labels) if own[c] == 1 and plan.sizes[c] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    if len(labels) == len(term):
        return xp.ascontiguousarray(grad.reshape(tuple(own[c] for c in labels)).transpose(
            tuple(labels.index(c) for c in term)
        )).reshape(shape)
    # a repeated label: write onto the diagonal of a zero operand, through a strided view
    full = xp.zeros(shape, dtype=out_grad.dtype)
    steps = element_strides(shape)
    diagonal_strides = tuple(
        sum(steps[a] for a, c in enumerate(term) if c == label) for label in labels
    )
    view = strided_view(xp, full, tuple(own[c] for c in labels), diagonal_strides, 0)
    view[...] = grad
    return full


@register_kernel("einsum_grad", dtypes=EINSUM_DTYPES)
def einsum_grad_kernel(
    ctx: KernelContext,
    x_shape: list[Array],
    inner_cache: list[Array],
    out_grad: Array,
    equation: str,
) -> list[Array]:
    xp = ctx.xp
    plan = plan_einsum(equation, [tuple(a.shape) for a in x_shape])
    operands = broadcast_operands(xp, plan, x_shape)
    return [
        _einsum_operand_grad(xp, plan, operands, out_grad, i, tuple(x_shape[i].shape)).astype(
            out_grad.dtype, copy=False
        )
        for i in range(len(x_shape))
    ]
