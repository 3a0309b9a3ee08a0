"""Random kernels of issue 8: uniform, gaussian, bernoulli, randint, randperm.

Every kernel draws from ``runtime.random.draw_generator``: the process-wide generator of its
place (``phi.seed(n)`` makes it reproducible) or, for a nonzero ``seed`` attribute, a generator
of that seed alone. Numbers are drawn on the host and moved to the place (``xp.asarray``).
Dtypes are PaddlePaddle's CPU registrations without complex (uniform, gaussian) and without
bernoulli's integer inputs (PHI draws them into a float32 output).
"""

from __future__ import annotations

import numpy as np

from runtime.common import DataType
from runtime.kernels.kernel import Array, KernelContext
from runtime.kernels.registration import register_kernel
from runtime.random import draw_generator

D = DataType

FLOATS = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)


def _draw_dtype(dtype: DataType) -> type:
    """numpy's generators draw float32 and float64; float16 is drawn as float32 and cast."""
    return np.float64 if dtype is D.FLOAT64 else np.float32


@register_kernel("uniform", dtypes=FLOATS)
def uniform_kernel(
    ctx: KernelContext, shape: tuple[int, ...], dtype: DataType, min: float, max: float, seed: int
) -> Array:
    """Uniform in [min, max)."""
    rng = draw_generator(ctx.place, seed)
    draw = _draw_dtype(dtype)
    values = rng.random(shape, dtype=draw) * draw(max - min) + draw(min)
    return ctx.xp.asarray(values.astype(dtype.numpy_dtype, copy=False))


@register_kernel("gaussian", dtypes=FLOATS)
def gaussian_kernel(
    ctx: KernelContext, shape: tuple[int, ...], mean: float, std: float, seed: int, dtype: DataType
) -> Array:
    """Normal with ``mean`` and standard deviation ``std``."""
    rng = draw_generator(ctx.place, seed)
    draw = _draw_dtype(dtype)
    values = rng.standard_normal(shape, dtype=draw) * draw(std) + draw(mean)
    return ctx.xp.asarray(values.astype(dtype.numpy_dtype, copy=False))


@register_kernel("bernoulli", dtypes=(D.FLOAT32, D.FLOAT64))
def bernoulli_kernel(ctx: KernelContext, x: Array) -> Array:
    """1 with probability x, else 0 (PHI's BernoulliKernel: uniform < x), from the process
    generator."""
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
