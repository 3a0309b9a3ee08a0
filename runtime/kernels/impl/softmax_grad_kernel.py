"""Grad kernels of softmax and log_softmax along one axis.

From the forward output ``out`` (PHI's SoftmaxGradKernel / LogSoftmaxGradKernel):
- softmax_grad: ``x_grad = out * (out_grad - sum(out_grad * out, axis))``;
- log_softmax_grad: ``x_grad = out_grad - exp(out) * sum(out_grad, axis)``.
A 0-D input has a constant output (1 or 0), so its gradient is 0, as PHI's kernels give; an empty
input gives an empty gradient.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/softmax_grad_kernel.cc,
# log_softmax_grad_kernel.cc).
SOFTMAX_GRAD_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


@register_kernel("softmax_grad", dtypes=SOFTMAX_GRAD_DTYPES)
@ieee_results
def softmax_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array, axis: int) -> Array:
    xp = ctx.xp
    if out.ndim == 0:
        return xp.zeros_like(out)
    if out.size == 0:
        return xp.empty_like(out)
    return out * (out_grad - xp.sum(out_grad * out, axis=axis, keepdims=True))


@register_kernel("log_softmax_grad", dtypes=SOFTMAX_GRAD_DTYPES)
@ieee_results
def log_softmax_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array, axis: int) -> Array:
    xp = ctx.xp
    if out.ndim == 0:
        return xp.zeros_like(out)
    if out.size == 0:
        return xp.empty_like(out)
    return out_grad - xp.exp(out) * xp.sum(out_grad, axis=axis, keepdims=True)
