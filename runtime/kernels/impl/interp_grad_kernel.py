"""nearest_interp_grad and bilinear_interp_grad: the output gradient through the transposed
per-dim weight matrices of the forward (``interp_kernel.InterpPlan``), one ``einsum``."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.interp_kernel import InterpPlan, as_nchw, from_nchw
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registrations (paddle/phi/kernels/cpu/interpolate_grad_kernel.cc).
INTERP_GRAD_DTYPES = (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def _interp_grad_kernel(
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
    if interp_method not in ("nearest", "bilinear"):  # as the forward: the other methods' kernel
        from phiops.runtime.kernels.impl.normup_grad_kernel import _resample_grad_kernel

        return _resample_grad_kernel(
            ctx, x, out_size, size_tensor, scale_tensor, output_grad, data_format,
            out_d, out_h, out_w, scale, interp_method, align_corners, align_mode,
        )  # fmt: skip
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
    compute = output_grad.dtype if output_grad.dtype.itemsize >= 4 else "float32"
    matrices = plan.matrices(xp, compute)
    dout = as_nchw(xp, output_grad, plan.channel_last).astype(compute, copy=False)
    # one [out, in] matrix per spatial dim: "ncop,oh,pw->nchw" (or with a depth dim)
    outs, ins = "opq"[: len(matrices)], "hwd"[: len(matrices)]
    spec = f"nc{outs}," + ",".join(o + i for o, i in zip(outs, ins)) + f"->nc{ins}"
    grad = xp.einsum(spec, dout, *matrices).astype(output_grad.dtype)
    return from_nchw(xp, grad, plan.channel_last)


nearest_interp_grad_kernel = register_kernel("nearest_interp_grad", dtypes=INTERP_GRAD_DTYPES)(
    _interp_grad_kernel
)
bilinear_interp_grad_kernel = register_kernel("bilinear_interp_grad", dtypes=INTERP_GRAD_DTYPES)(
    _interp_grad_kernel
)
