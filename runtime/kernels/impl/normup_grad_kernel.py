"""``rrelu_grad``: the output gradient times each element's slope (``noise``, 1 where x >= 0),
as PaddlePaddle 3.3.1's CPU kernel (paddle/phi/kernels/cpu/rrelu_grad_kernel.cc); and the
grads of linear_interp, bicubic_interp and trilinear_interp."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.interp_kernel import (
    InterpPlan,
    as_nchw,
    from_nchw,
    nearest_indices,
)
from phiops.runtime.kernels.impl.normup_kernel import resample_matrix
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers rrelu_grad on CPU for float32 and float64.
@register_kernel("rrelu_grad", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def rrelu_grad_kernel(ctx: KernelContext, x: Array, noise: Array, out_grad: Array) -> Array:
    return out_grad * noise


def _resample_grad_kernel(
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
    """linear_interp_grad, bicubic_interp_grad, trilinear_interp_grad: the output gradient
    through the transposed [out, in] weights of each spatial dim of the forward
    (normup_kernel.resample_matrix), one dim after the other, as PHI's CPU kernels
    (paddle/phi/kernels/cpu/interpolate_grad_kernel.cc) add each output's gradient times its
    weights into the input positions it read. Equal sizes pass the gradient through."""
    xp = ctx.xp
    plan = InterpPlan(
        x.shape,
        out_size,
        size_tensor,
        scale_tensor,
        data_format,
        out_d,
        out_h,
        out_w,
        scale,
        interp_method,
        align_corners,
        align_mode,
    )
    if tuple(plan.out) == tuple(plan.spatial):
        return xp.array(output_grad, copy=True)
    compute = output_grad.dtype if output_grad.dtype.itemsize >= 4 else np.float32
    grad = as_nchw(xp, output_grad, plan.channel_last).astype(compute)
    for dim, (size, out, factor) in enumerate(zip(plan.spatial, plan.out, plan.scales)):
        if plan.method == "nearest":
            matrix = np.zeros((out, size))
            matrix[np.arange(out), nearest_indices(size, out, factor, plan.align_corners)] = 1
        else:
            matrix = resample_matrix(
                plan.method, size, out, factor, plan.align_corners, plan.mode, compute
            )
        moved = xp.moveaxis(grad, 2 + dim, -1)
        grad = xp.moveaxis(moved @ xp.asarray(matrix.astype(compute)), -1, 2 + dim)
    return from_nchw(xp, grad.astype(output_grad.dtype), plan.channel_last)


# PaddlePaddle 3.3.1 registers the three on CPU for bfloat16, float16, float32 and float64.
RESAMPLE_GRAD_DTYPES = (DataType.BFLOAT16, DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64)
linear_interp_grad_kernel = register_kernel("linear_interp_grad", dtypes=RESAMPLE_GRAD_DTYPES)(
    _resample_grad_kernel
)
bicubic_interp_grad_kernel = register_kernel("bicubic_interp_grad", dtypes=RESAMPLE_GRAD_DTYPES)(
    _resample_grad_kernel
)
trilinear_interp_grad_kernel = register_kernel(
    "trilinear_interp_grad", dtypes=RESAMPLE_GRAD_DTYPES
)(_resample_grad_kernel)
