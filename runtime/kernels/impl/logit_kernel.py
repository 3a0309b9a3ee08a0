"""logit: ln(x / (1 - x)), as PHI's LogitFunctor (paddle/phi/kernels/funcs/activation_functor.h).

With ``eps`` > 0, x is first clipped to [eps, 1 - eps]; with ``eps`` == 0 it is not, and x
outside [0, 1] gives NaN. numpy has no logit (SciPy's is not a dependency), so the kernel is
written from the formula with ``ctx.xp`` and serves numpy and CuPy alike.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers logit on CPU for float32 and float64 only.
@register_kernel("logit", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def logit_kernel(ctx: KernelContext, x: Array, eps: float) -> Array:
    xp = ctx.xp
    with np.errstate(divide="ignore", invalid="ignore"):
        if eps:
            clipped = xp.clip(x, x.dtype.type(eps), x.dtype.type(1.0 - eps))
            return xp.log(clipped / (1 - clipped))
        out = xp.log(x / (1 - x))
        return xp.where((x < 0) | (x > 1), xp.asarray(xp.nan, dtype=x.dtype), out)
