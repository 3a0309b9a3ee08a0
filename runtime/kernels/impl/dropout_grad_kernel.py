"""dropout_grad (PHI's DropoutGradRawKernel): the upstream gradient through the saved mask."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import FLOATING, register_kernel


def _uint8_mask(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.UINT8)


@register_kernel("dropout_grad", dtypes=FLOATING + (DataType.BFLOAT16,), configure=_uint8_mask)
def dropout_grad_kernel(
    ctx: KernelContext, mask: Array, out_grad: Array, p: float, is_test: bool, mode: str
) -> Array:
    """out_grad * mask, divided by 1 - p for ``upscale_in_train`` (0 when p is 1); at
    inference out_grad, times 1 - p for ``downscale_in_infer``."""
    xp = ctx.xp
    dtype = out_grad.dtype
    upscale = mode == "upscale_in_train"
    if is_test:
        return out_grad.copy() if upscale else out_grad * dtype.type(1 - p)
    if upscale:
        if p == 1.0:
            return xp.zeros_like(out_grad)
        return (out_grad * mask / dtype.type(1 - p)).astype(dtype, copy=False)
    return (out_grad * mask).astype(dtype, copy=False)
