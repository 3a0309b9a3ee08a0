"""Random kernels: uniform, gaussian, bernoulli, randint, randperm.

Every kernel draws from ``phiops.runtime.random.draw_generator``: the process-wide generator of its
place (``phi.seed(n)`` makes it reproducible) or, for a nonzero ``seed`` attribute, a generator
of that seed alone. Numbers are drawn on the host and moved to the place (``xp.asarray``).
Dtypes are PaddlePaddle's CPU registrations, without bernoulli's integer inputs (PHI draws them
into a float32 output). A complex uniform or gaussian draws its real and imaginary parts
independently, as PaddlePaddle 3.3.1's do: each uniform in [min, max); each normal with the mean
and std / sqrt(2), so the complex value's standard deviation is std.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import OutOfRangeError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.random import draw_generator

D = DataType

FLOATS = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)
FLOATS_AND_COMPLEX = FLOATS + (D.COMPLEX64, D.COMPLEX128)


def _draw_dtype(dtype: DataType) -> type:
    """numpy's generators draw float32 and float64; float16 is drawn as float32 and cast, a
    complex dtype as its real parts' dtype."""
    return np.float64 if dtype in (D.FLOAT64, D.COMPLEX128) else np.float32


def _complex_parts(shape: tuple[int, ...], dtype: DataType) -> tuple[int, ...]:
    """The shape to draw: a trailing 2 (real, imaginary) for a complex dtype."""
    return (*shape, 2) if dtype.is_complex else tuple(shape)


def _as_dtype(values: np.ndarray, dtype: DataType) -> np.ndarray:
    if dtype.is_complex:
        values = values[..., 0] + 1j * values[..., 1]
    return values.astype(dtype.numpy_dtype, copy=False)


@register_kernel("uniform", dtypes=FLOATS_AND_COMPLEX)
def uniform_kernel(
    ctx: KernelContext, shape: tuple[int, ...], dtype: DataType, min: float, max: float, seed: int
) -> Array:
    """Uniform in [min, max) (each part of a complex value)."""
    rng = draw_generator(ctx.place, seed)
    draw = _draw_dtype(dtype)
    values = rng.random(_complex_parts(shape, dtype), dtype=draw) * draw(max - min) + draw(min)
    return ctx.xp.asarray(_as_dtype(values, dtype))


@register_kernel("gaussian", dtypes=FLOATS_AND_COMPLEX)
def gaussian_kernel(
    ctx: KernelContext, shape: tuple[int, ...], mean: float, std: float, seed: int, dtype: DataType
) -> Array:
    """Normal with ``mean`` and standard deviation ``std`` (each part of a complex value with
    ``mean`` and ``std / sqrt(2)``)."""
    rng = draw_generator(ctx.place, seed)
    draw = _draw_dtype(dtype)
    scale = std / np.sqrt(2.0) if dtype.is_complex else std
    values = rng.standard_normal(_complex_parts(shape, dtype), dtype=draw) * draw(scale)
    return ctx.xp.asarray(_as_dtype(values + draw(mean), dtype))


@register_kernel("bernoulli", dtypes=(D.FLOAT32, D.FLOAT64))
def bernoulli_kernel(ctx: KernelContext, x: Array) -> Array:
    """1 with probability x, else 0 (PHI's BernoulliKernel: uniform < x), from the process
    generator. As PHI's CPU kernel, a probability outside [0, 1] (NaN included) is an
    `OutOfRangeError` naming the first one."""
    xp = ctx.xp
    outside = ~((x <= 1) & (x >= 0))
    if bool(outside.any()):
        index = int(xp.argmax(outside.reshape(-1)))
        raise OutOfRangeError(
            f"bernoulli(): argument 'x' must hold probabilities in [0, 1], got "
            f"{float(x.reshape(-1)[index])} at flat index {index}"
        )
    rng = draw_generator(ctx.place, 0)
    uniform = ctx.xp.asarray(rng.random(x.shape, dtype=np.float64).astype(x.dtype))
    return (uniform < x).astype(x.dtype)


@register_kernel("randint", dtypes=(D.INT32, D.INT64))
def randint_kernel(
    ctx: KernelContext, low: int, high: int, shape: tuple[int, ...], dtype: DataType
) -> Array:
    """Integers uniform in [low, high)."""
    rng = draw_generator(ctx.place, 0)
    return ctx.xp.asarray(rng.integers(low, high, size=shape, dtype=dtype.numpy_dtype))


@register_kernel("randperm", dtypes=(D.INT32, D.INT64, D.FLOAT32, D.FLOAT64))
def randperm_kernel(ctx: KernelContext, n: int, dtype: DataType) -> Array:
    """A random permutation of 0..n-1."""
    rng = draw_generator(ctx.place, 0)
    return ctx.xp.asarray(rng.permutation(n).astype(dtype.numpy_dtype))
