"""max_pool2d_with_index_grad: each output's gradient goes to the input position its ``mask``
names; positions shared by several windows sum their gradients (one ``bincount``)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.max_pool_with_index_kernel import MAX_POOL_WITH_INDEX_DTYPES
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _keep_mask_int32(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.INT32)


@register_kernel(
    "max_pool2d_with_index_grad", dtypes=MAX_POOL_WITH_INDEX_DTYPES, configure=_keep_mask_int32
)
def max_pool2d_with_index_grad_kernel(
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
    xp = ctx.xp
    n, c = x.shape[:2]
    plane = x[0, 0].size
    offsets = (xp.arange(n * c, dtype="int64") * plane).reshape((n, c) + (1,) * (mask.ndim - 2))
    flat = (mask.astype("int64") + offsets).ravel()
    summed = xp.bincount(flat, weights=out_grad.ravel(), minlength=x.size)
    return summed.reshape(x.shape).astype(x.dtype, copy=False)
