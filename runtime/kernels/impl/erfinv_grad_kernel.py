"""The gradient of erfinv: d/dx erfinv(x) = sqrt(pi) / 2 * exp(erfinv(x)**2) (PHI's
ErfinvGradKernel, from the forward output)."""

from __future__ import annotations

import math

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

_HALF_SQRT_PI = math.sqrt(math.pi) / 2


@register_kernel("erfinv_grad", dtypes=(D.FLOAT32, D.FLOAT64))
@ieee_results
def erfinv_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """x_grad = out_grad * sqrt(pi) / 2 * exp(out**2)."""
    return out_grad * _HALF_SQRT_PI * ctx.xp.exp(out * out)
