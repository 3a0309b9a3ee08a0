"""softmax and log_softmax along one axis, numerically stable.

Both subtract the maximum along ``axis`` before exponentiating, so large inputs do not
overflow. A 0-D input gives 1 (softmax) and 0 (log_softmax), as PHI's kernels do; an empty
input gives an empty output.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/softmax_kernel.cc, log_softmax_kernel.cc).
SOFTMAX_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


@register_kernel("softmax", dtypes=SOFTMAX_DTYPES)
@ieee_results
def softmax_kernel(ctx: KernelContext, x: Array, axis: int) -> Array:
    xp = ctx.xp
    if x.ndim == 0:
        return xp.ones_like(x)
    if x.size == 0:
        return xp.empty_like(x)
    native = native_function(x, "softmax_rows") if axis in (-1, x.ndim - 1) else None
    if native is not None:  # each row in one compiled pass (the same values to rounding)
        out = np.empty(x.shape, x.dtype)
        length = x.shape[-1]
        native(
            x if x.flags.c_contiguous else np.ascontiguousarray(x), out, x.size // length, length
        )
        return out
    # one new array, then exp and the division in place (the same values as out-of-place)
    out = x - xp.max(x, axis=axis, keepdims=True)
    xp.exp(out, out=out)
    out /= xp.sum(out, axis=axis, keepdims=True)
    return out


@register_kernel("log_softmax", dtypes=SOFTMAX_DTYPES)
@ieee_results
def log_softmax_kernel(ctx: KernelContext, x: Array, axis: int) -> Array:
    xp = ctx.xp
    if x.ndim == 0:
        return xp.zeros_like(x)
    if x.size == 0:
        return xp.empty_like(x)
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
