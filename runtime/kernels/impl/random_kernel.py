"""Random kernels: uniform, gaussian, bernoulli, randint, randperm.

uniform, gaussian, bernoulli, randint and randperm draw PaddlePaddle 3.3.1's numbers: from
``phiops.runtime.random.engine_for`` (the place's std::mt19937_64, seeded by ``paddle.seed`` as
PaddlePaddle seeds its generator, or an engine of the op's nonzero ``seed`` attribute) through
the libstdc++ distributions PHI's CPU kernels use (runtime/kernels/mt19937.py), so the same seed
gives the same numbers as PaddlePaddle's CPU kernels, bit for bit. As PHI's: uniform's min and max
and gaussian's mean and std are rounded to float32 first; float16 and bfloat16 draw float32 and
round. randperm is libstdc++'s std::shuffle over the same engine, as PHI's CPU kernel. A complex
uniform draws its real parts, then its imaginary parts; a complex gaussian draws real and
imaginary parts one after the other, each with the mean and std float32(std / sqrt(2)) (so the
complex value's standard deviation is std), as PaddlePaddle's. Numbers are drawn on the host and moved to the place (``xp.asarray``).
"""

from __future__ import annotations

import math
import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import OutOfRangeError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import engine_for

D = DataType

FLOATS = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)
FLOATS_AND_COMPLEX = FLOATS + (D.COMPLEX64, D.COMPLEX128)


def _draw_dtype(dtype: DataType) -> type:
    """numpy's generators draw float32 and float64; float16 is drawn as float32 and cast, a
    complex dtype as its real parts' dtype."""
    return np.float64 if dtype in (D.FLOAT64, D.COMPLEX128) else np.float32


@register_kernel("uniform", dtypes=FLOATS_AND_COMPLEX)
def uniform_kernel(
    ctx: KernelContext, shape: tuple[int, ...], dtype: DataType, min: float, max: float, seed: int
) -> Array:
    """Uniform in [min, max) (each part of a complex value)."""
    count = math.prod(shape)
    draw = _draw_dtype(dtype)
    # a complex value: the real parts drawn first, then the imaginary parts, as PHI's
    parts = 2 if dtype.is_complex else 1
    values = mt19937.uniform(
        engine_for(ctx.place, seed), parts * count, np.float32(min), np.float32(max), draw
    )
    if dtype.is_complex:
        values = values[:count] + 1j * values[count:]
    return ctx.xp.asarray(values.reshape(shape).astype(dtype.numpy_dtype, copy=False))


@register_kernel("gaussian", dtypes=FLOATS_AND_COMPLEX)
def gaussian_kernel(
    ctx: KernelContext, shape: tuple[int, ...], mean: float, std: float, seed: int, dtype: DataType
) -> Array:
    """Normal with ``mean`` and standard deviation ``std`` (each part of a complex value with
    ``mean`` and ``std / sqrt(2)``)."""
    values = normal_values(engine_for(ctx.place, seed), math.prod(shape), mean, std, dtype)
    return ctx.xp.asarray(values.reshape(shape))


def normal_values(
    state: np.ndarray, count: int, mean: float, std: float, dtype: DataType
) -> np.ndarray:
    """``count`` values of PHI's CPU NormalDistribution in ``dtype``: one
    std::normal_distribution of the real type (float32 for float16 and bfloat16) with the mean
    and std rounded to float32; for a complex dtype its std is float32(std / sqrt(2)) and the
    real and imaginary parts are consecutive draws."""
    draw = _draw_dtype(dtype)
    if not dtype.is_complex:
        values = mt19937.normal(state, count, np.float32(mean), np.float32(std), draw)
        return values.astype(dtype.numpy_dtype, copy=False)
    scale = np.float32(std / math.sqrt(2.0))
    values = mt19937.normal(state, 2 * count, np.float32(mean), scale, draw)
    return (values[0::2] + 1j * values[1::2]).astype(dtype.numpy_dtype, copy=False)


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
    draw = np.float64 if x.dtype == np.float64 else np.float32
    uniform = mt19937.uniform(engine_for(ctx.place, 0), int(x.size), 0.0, 1.0, draw)
    return (ctx.xp.asarray(uniform.reshape(x.shape)) < x).astype(x.dtype)


@register_kernel("randint", dtypes=(D.INT32, D.INT64))
def randint_kernel(
    ctx: KernelContext, low: int, high: int, shape: tuple[int, ...], dtype: DataType
) -> Array:
    """Integers uniform in [low, high)."""
    values = mt19937.randint(engine_for(ctx.place, 0), math.prod(shape), low, high)
    return ctx.xp.asarray(values.reshape(shape).astype(dtype.numpy_dtype, copy=False))


@register_kernel("randperm", dtypes=(D.INT32, D.INT64, D.FLOAT32, D.FLOAT64))
def randperm_kernel(ctx: KernelContext, n: int, dtype: DataType) -> Array:
    """A random permutation of 0..n-1: PHI's CPU kernel, std::shuffle of 0..n-1 over the
    place's engine (libstdc++'s, runtime/kernels/mt19937.py's ``shuffle``)."""
    values = mt19937.shuffle(engine_for(ctx.place, 0), int(n))
    return ctx.xp.asarray(values.astype(dtype.numpy_dtype))
