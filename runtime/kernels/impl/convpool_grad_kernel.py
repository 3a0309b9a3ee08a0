"""max_pool3d_with_index_grad: each output's gradient goes to the input position its ``mask``
names (a flat index in the input volume); positions shared by several windows sum their
gradients, as the 2-D op's grad kernel does for any rank."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.max_pool_with_index_grad_kernel import (
    max_pool2d_with_index_grad_kernel,
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
