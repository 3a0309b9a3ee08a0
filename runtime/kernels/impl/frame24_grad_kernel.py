"""Grad kernel of the frame24 framework ops (issue 24): trans_layout_grad, the gradient of
trans_layout (a transpose): out_grad transposed back by the inverse of ``perm``, as PHI's
TransLayoutGradKernel (which never reads ``x``)."""

from __future__ import annotations

from phiops.runtime.common import DataType as D
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registration of trans_layout_grad (float16, uint8, int8 and int16
# are not among them).
TRANS_LAYOUT_GRAD_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.BFLOAT16) + (
    D.COMPLEX64,
    D.COMPLEX128,
)


@register_kernel("trans_layout_grad", dtypes=TRANS_LAYOUT_GRAD_DTYPES)
def trans_layout_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, perm: tuple[int, ...]
) -> Array:
    rank = out_grad.ndim
    inverse = [0] * rank
    for position, entry in enumerate(perm):
        inverse[entry + rank if entry < 0 else entry] = position
    return out_grad.transpose(inverse)
