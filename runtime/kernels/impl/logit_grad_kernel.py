"""logit_grad: out_grad / (x (1 - x)), as PHI's LogitGradFunctor: 0 where ``eps`` > 0 clipped
x (x < eps or x > 1 - eps), NaN outside [0, 1] when ``eps`` == 0."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers logit_grad on CPU for float32 and float64 only.
@register_kernel("logit_grad", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def logit_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, eps: float) -> Array:
    xp = ctx.xp
    with np.errstate(divide="ignore", invalid="ignore"):
        grad = out_grad / (x * (1 - x))
    outside = (x < eps) | (x > 1 - eps)
    fill = xp.asarray(0 if eps else xp.nan, dtype=x.dtype)
    return xp.where(outside, fill, grad)
