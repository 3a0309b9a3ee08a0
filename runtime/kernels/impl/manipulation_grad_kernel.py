"""Grad kernels of the shape manipulation ops: reshape, transpose, squeeze, unsqueeze, flatten,
expand.

reshape, squeeze, unsqueeze and flatten only move ``out_grad`` back to ``x``'s shape, so their
grads are views of ``out_grad`` (PHI runs them in place: ``inplace : (out_grad -> x_grad)``);
transpose_grad is ``out_grad`` transposed by the inverse permutation, also a view. expand_grad
sums ``out_grad`` over the axes expand created or stretched (PHI's ExpandGradKernel) and returns
a new array. ``x`` is ``no_need_buffer`` for all of them: only its shape and dtype are read, so
it is never cast.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle 3.3.1 registers these grads (pure data movement) for every dtype its CPU build
# has: ALL_TYPES, and transpose_grad for the unsigned 16/32/64-bit ones too (float8 aside)
MANIPULATION_GRAD_DTYPES = ALL_TYPES
UNSIGNED_WIDE = (DataType.UINT16, DataType.UINT32, DataType.UINT64)


def _shape_only_x(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


def _as_x(x: Array, out_grad: Array) -> Array:
    # GradSameWithXInferMeta: x's dims, out_grad's dtype.
    return out_grad.reshape(x.shape)


@register_kernel("reshape_grad", dtypes=MANIPULATION_GRAD_DTYPES, configure=_shape_only_x)
def reshape_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _as_x(x, out_grad)


@register_kernel("squeeze_grad", dtypes=MANIPULATION_GRAD_DTYPES, configure=_shape_only_x)
def squeeze_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, axis: tuple[int, ...]
) -> Array:
    return _as_x(x, out_grad)


@register_kernel("unsqueeze_grad", dtypes=MANIPULATION_GRAD_DTYPES, configure=_shape_only_x)
def unsqueeze_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _as_x(x, out_grad)


@register_kernel("flatten_grad", dtypes=MANIPULATION_GRAD_DTYPES, configure=_shape_only_x)
def flatten_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    return _as_x(x, out_grad)


@register_kernel("transpose_grad", dtypes=MANIPULATION_GRAD_DTYPES + UNSIGNED_WIDE)
def transpose_grad_kernel(ctx: KernelContext, out_grad: Array, perm: tuple[int, ...]) -> Array:
    rank = out_grad.ndim
    inverse = [0] * rank
    for position, entry in enumerate(perm):
        inverse[entry + rank if entry < 0 else entry] = position
    return ctx.xp.transpose(out_grad, inverse)


@register_kernel("expand_grad", dtypes=MANIPULATION_GRAD_DTYPES, configure=_shape_only_x)
def expand_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, shape: tuple[int, ...]
) -> Array:
    lead = out_grad.ndim - x.ndim
    stretched = tuple(
        lead + i
        for i, extent in enumerate(x.shape)
        if extent == 1 and out_grad.shape[lead + i] != 1
    )
    xp = ctx.xp
    # float16 accumulates in float32, as the forward sum does.
    accumulate = xp.float32 if out_grad.dtype == xp.float16 else None
    # A reduction always returns a new array, even over no axis: x_grad never aliases out_grad.
    total = out_grad.sum(axis=tuple(range(lead)) + stretched, dtype=accumulate, keepdims=True)
    return xp.asarray(total).reshape(x.shape).astype(x.dtype, copy=False)
