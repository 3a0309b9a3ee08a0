"""Kernels of the math3 ops: atan2, copysign, nextafter, heaviside, lerp, and the complex-number
ops angle, real, imag, conj, complex, as_complex and as_real.

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
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
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
    PaddlePaddle 3.3.1's CPU kernel gives (atan2(1, 2) is 0.46364760398864746). That float32
    result is the float64 atan2 of the float32 inputs rounded to float32 (the C library's
    atan2f, PaddlePaddle's, is correctly rounded here), not numpy's float32 arctan2, whose
    SIMD loops on AVX-512 machines are a unit in the last place off in places."""
    xp = ctx.xp
    if x.dtype.kind in "iu":
        as_float32 = (x.astype(xp.float32).astype(xp.float64), y.astype(xp.float32).astype(xp.float64))
        return xp.arctan2(*as_float32).astype(xp.float32).astype(xp.float64)
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


# -- complex numbers: angle, real, imag, conj, complex, as_complex, as_real (paddle/phi/kernels/
# cpu/angle_kernel.cc, complex_kernel.cc, as_complex_kernel.cc, as_real_kernel.cc)

COMPLEX = (D.COMPLEX64, D.COMPLEX128)
ANGLE_DTYPES = REAL + COMPLEX
CONJ_DTYPES = (D.INT32, D.INT64) + REAL + COMPLEX

_COMPLEX_OF = {D.FLOAT32: D.COMPLEX64, D.FLOAT64: D.COMPLEX128}
_REAL_OF = {complex_: real for real, complex_ in _COMPLEX_OF.items()}


def real_output(kernel: Kernel) -> None:
    """The output is the real dtype of a complex kernel's (PHI: SetDataType(ToReal(dtype)))."""
    kernel.output_at(0).set_dtype(_REAL_OF.get(kernel.key.dtype, kernel.key.dtype))


def complex_output(kernel: Kernel) -> None:
    """The output is the complex dtype of a real kernel's (PHI: SetDataType(ToComplex(dtype)))."""
    kernel.output_at(0).set_dtype(_COMPLEX_OF[kernel.key.dtype])


@register_kernel("angle", dtypes=ANGLE_DTYPES, configure=real_output)
@ieee_results
def angle_kernel(ctx: KernelContext, x: Array) -> Array:
    """atan2(imag, real) of complex x; for real x PHI's AngleFunctor: pi where x < 0, else 0
    (-0.0 included, unlike numpy's angle), NaN for NaN."""
    xp = ctx.xp
    if x.dtype.kind == "c":
        return xp.arctan2(x.imag, x.real)
    pi = xp.asarray(xp.pi, dtype=x.dtype)
    out = xp.where(x < 0, pi, xp.zeros((), x.dtype))
    return xp.where(xp.isnan(x), x, out)


@register_kernel("real", dtypes=COMPLEX, configure=real_output)
def real_kernel(ctx: KernelContext, x: Array) -> Array:
    return x.real.copy()


@register_kernel("imag", dtypes=COMPLEX, configure=real_output)
def imag_kernel(ctx: KernelContext, x: Array) -> Array:
    return x.imag.copy()


@register_kernel("conj", dtypes=CONJ_DTYPES)
def conj_kernel(ctx: KernelContext, x: Array) -> Array:
    """conj(x); a copy of a real or integer x."""
    xp = ctx.xp
    return xp.conj(x) if x.dtype.kind == "c" else x.copy()


@register_kernel("complex", dtypes=REAL, configure=complex_output)
def complex_kernel(ctx: KernelContext, real: Array, imag: Array) -> Array:
    """real + imag * 1j, broadcast, in the complex dtype of the parts'."""
    xp = ctx.xp
    shape = xp.broadcast_shapes(real.shape, imag.shape)
    out = xp.empty(shape, xp.complex64 if real.dtype == xp.float32 else xp.complex128)
    out.real = real
    out.imag = imag
    return out


@register_kernel("as_complex", dtypes=REAL, configure=complex_output)
def as_complex_kernel(ctx: KernelContext, x: Array) -> Array:
    """The pairs of x's last axis as complex numbers (real part first)."""
    xp = ctx.xp
    out = xp.empty(x.shape[:-1], xp.complex64 if x.dtype == xp.float32 else xp.complex128)
    out.real = x[..., 0]
    out.imag = x[..., 1]
    return out


@register_kernel("as_real", dtypes=COMPLEX, configure=real_output)
def as_real_kernel(ctx: KernelContext, x: Array) -> Array:
    """Each complex number of x as a pair (real part, imaginary part) on a new last axis."""
    return ctx.xp.stack([x.real, x.imag], axis=-1)
