"""interp_antialias_grad, as PHI's CPU kernel (paddle/phi/kernels/cpu/interpolate_grad_kernel.cc,
InterpAntialiasGradKernel): the forward's two passes transposed, height first. The output
gradient goes through the transposed [out_h, in_h] weight matrix, is rounded to its dtype
(PHI accumulates into a buffer of T), then through the transposed [out_w, in_w] one; the
weights are interp24_kernel's, in float32 (float64 for float64). An unchanged size returns the
output gradient itself."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.interp24_kernel import AntialiasPlan, compute_type
from phiops.runtime.kernels.impl.interp_kernel import as_nchw, from_nchw
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU registration of interp_antialias_grad (no uint8).
INTERP_ANTIALIAS_GRAD_DTYPES = (
    DataType.FLOAT16,
    DataType.BFLOAT16,
    DataType.FLOAT32,
    DataType.FLOAT64,
)


@register_kernel("interp_antialias_grad", dtypes=INTERP_ANTIALIAS_GRAD_DTYPES)
def interp_antialias_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_size: Array | None,
    size_tensor: list[Array] | None,
    scale_tensor: Array | None,
    output_grad: Array,
    data_format: str,
    out_d: int,
    out_h: int,
    out_w: int,
    scale: tuple[float, ...],
    interp_method: str,
    align_corners: bool,
    align_mode: int,
) -> Array:
    xp = ctx.xp
    dtype = output_grad.dtype
    plan = AntialiasPlan(
        x.shape, out_size, size_tensor, scale_tensor, data_format, out_d, out_h, out_w, scale,
        interp_method, align_corners, dtype == np.float64,
    )  # fmt: skip
    if plan.unchanged:
        return xp.array(output_grad, copy=True)
    if x.size == 0:
        return xp.zeros(x.shape, dtype)
    wt = compute_type(dtype)
    rows, cols = plan.matrices(xp, wt)
    dout = as_nchw(xp, output_grad, plan.channel_last).astype(wt)
    temp = xp.matmul(rows.T, dout).astype(dtype)
    grad = xp.matmul(temp.astype(wt), cols).astype(dtype)
    return from_nchw(xp, grad, plan.channel_last)
