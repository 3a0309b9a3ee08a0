"""The convpool family's grads. max_pool3d_with_index_grad: each output's gradient goes to the input position its ``mask``
names (a flat index in the input volume); positions shared by several windows sum their
gradients, as the 2-D op's grad kernel does for any rank. unpool_grad/unpool3d_grad: x's
gradient is the output gradient at the position each index names (PHI's UnpoolGradKernel)."""

from __future__ import annotations

import math
from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.max_pool_with_index_grad_kernel import (
    max_pool2d_with_index_grad_kernel,
)
from phiops.runtime.kernels.impl.convpool_kernel import (
    UNPOOL_DTYPES,
    _any_index_dtype,
    flat_unpool_indices,
)
from phiops.runtime.kernels.impl.max_pool_with_index_kernel import MAX_POOL_WITH_INDEX_DTYPES
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _keep_mask_int32(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.INT32)


@register_kernel(
    "max_pool3d_with_index_grad", dtypes=MAX_POOL_WITH_INDEX_DTYPES, configure=_keep_mask_int32
)
def max_pool3d_with_index_grad_kernel(
    ctx: KernelContext,
    x: Array,
    mask: Array,
    out_grad: Array,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    ceil_mode: bool,
) -> Array:
    return max_pool2d_with_index_grad_kernel(
        ctx, x, mask, out_grad, kernel_size, strides, paddings, global_pooling, adaptive, ceil_mode
    )


@register_kernel("unpool_grad", dtypes=UNPOOL_DTYPES, configure=_any_index_dtype)
def unpool_grad_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    out: Array,
    out_grad: Array,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
) -> Array:
    return unpool_gather(ctx.xp, x, indices, out_grad, "unpool_grad")


@register_kernel("unpool3d_grad", dtypes=UNPOOL_DTYPES, configure=_any_index_dtype)
def unpool3d_grad_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    out: Array,
    out_grad: Array,
    ksize: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_size: tuple[int, ...],
    data_format: str,
) -> Array:
    return unpool_gather(ctx.xp, x, indices, out_grad, "unpool3d_grad")


def unpool_gather(xp: Any, x: Array, indices: Array, out_grad: Array, op: str) -> Array:
    """x's gradient: the output gradient at the position each index names."""
    n, c = x.shape[:2]
    plane = math.prod(out_grad.shape[2:])
    flat = flat_unpool_indices(xp, indices, plane, op)
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    grads = out_grad.reshape(n * c, plane)
    return xp.take_along_axis(grads, flat, axis=1).reshape(x.shape).astype(x.dtype, copy=False)
