"""Kernels of the math3 binary ops: atan2, copysign, nextafter, heaviside and lerp.

The dtype lists are PaddlePaddle 3.3.1's CPU registrations (paddle/phi/kernels/cpu/
atan2_kernel.cc, copysign_kernel.cc, nextafter_kernel.cc, elementwise_kernel.cc for heaviside,
lerp_kernel.cc); bfloat16 arrays come from ml_dtypes. The formulas are PHI's functors:
Atan2Functor gives integer inputs a float64 result computed in float32; CopySignFunctor is std::copysign (for
integers: |x| negated where y < 0); ElementwiseHeavisideFunctor is ``x == 0 ? y : x > 0``, so
a NaN x gives 0 (numpy's heaviside gives NaN there); LerpKernel is x + weight * (y - x).
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

ATAN2_DTYPES = (D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
COPYSIGN_DTYPES = (
    D.BOOL,
    D.UINT8,
    D.INT8,
    D.INT16,
    D.INT32,
    D.INT64,
    D.FLOAT16,
    D.BFLOAT16,
    D.FLOAT32,
    D.FLOAT64,
)
HEAVISIDE_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
REAL = (D.FLOAT32, D.FLOAT64)


@register_kernel("atan2", dtypes=ATAN2_DTYPES)
@ieee_results
def atan2_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """atan2(x, y); int32/int64 inputs return float64 holding the float32 result, as
    PaddlePaddle 3.3.1's CPU kernel gives (atan2(1, 2) is 0.46364760398864746)."""
    xp = ctx.xp
    if x.dtype.kind in "iu":
        return xp.arctan2(x.astype(xp.float32), y.astype(xp.float32)).astype(xp.float64)
    return xp.arctan2(x, y)


@register_kernel("copysign", dtypes=COPYSIGN_DTYPES)
@ieee_results
def copysign_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """|x| with y's sign bit; bool and uint8 values have no sign and come back as they are
    (broadcast)."""
    xp = ctx.xp
    if x.dtype.kind in "bu":
        return xp.broadcast_to(x, xp.broadcast_shapes(x.shape, y.shape)).copy()
    if x.dtype.kind == "i":
        magnitude = xp.abs(x)
        return xp.where(y < 0, -magnitude, magnitude).astype(x.dtype)
    return xp.copysign(x, y)


@register_kernel("nextafter", dtypes=REAL)
@ieee_results
def nextafter_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    return ctx.xp.nextafter(x, y)


@register_kernel("heaviside", dtypes=HEAVISIDE_DTYPES)
@ieee_results
def heaviside_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """y where x == 0, else 1 where x > 0 and 0 elsewhere (NaN x included)."""
    xp = ctx.xp
    return xp.where(x == 0, y, (x > 0).astype(x.dtype)).astype(x.dtype)


@register_kernel("lerp", dtypes=REAL)
@ieee_results
def lerp_kernel(ctx: KernelContext, x: Array, y: Array, weight: Array) -> Array:
    """x + weight * (y - x), broadcast over the three inputs."""
    out = x + weight * (y - x)
    return out.astype(x.dtype, copy=False)
