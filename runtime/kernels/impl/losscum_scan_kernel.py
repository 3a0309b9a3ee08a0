"""Kernels of the cumulative losscum ops of issue 24: logcumsumexp, cummax and cummin.

The dtype lists are PaddlePaddle 3.3.1's CPU registrations (paddle/phi/kernels/cpu/
logcumsumexp_kernel.cc, cum_maxmin_kernel.cc). PHI's semantics, checked against 3.3.1:

- logcumsumexp folds each element into the running result ``acc`` (starting from the lowest
  finite value of the dtype, so a running result of -inf alone, and the first result of an
  exclusive scan, is that value) as PHI's functor does: with ``mi = x < acc ? x : acc`` and
  ``ma = acc < x ? x : acc`` (std::min/std::max), ``ma + log1p(exp(mi - ma))``. That is numpy's
  logaddexp but for NaN and +inf: a NaN element leaves ``mi = ma = acc`` and adds log(2) (NaN
  is not propagated), and +inf met by +inf gives NaN. Inputs without NaN or +inf take numpy's
  ``logaddexp.accumulate`` (CuPy: a doubling scan); the others a loop along the axis with
  PHI's functor.
- cummax/cummin: a tie takes the later index; a NaN becomes the running extreme from where it
  appears (each later NaN taking its own index), as PHI's ``isnan(x) || x >= out`` update does.

``running`` is numpy's ``ufunc.accumulate`` on CPU; backends without it (CuPy) take a
Hillis-Steele scan of log2(n) vectorised steps, exact for these associative, commutative ops.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

LOGCUMSUMEXP_DTYPES = (D.FLOAT32, D.FLOAT64)
CUM_MAXMIN_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def running(xp: Any, name: str, x: Array, axis: int) -> Array:
    """The running ``name`` (a commutative, associative ufunc: maximum, minimum, logaddexp)
    of ``x`` along ``axis``."""
    ufunc = getattr(xp, name)
    if xp is np:
        return ufunc.accumulate(x, axis=axis)
    y = xp.moveaxis(x, axis, -1).copy()
    step, extent = 1, y.shape[-1]
    while step < extent:
        shifted = y.copy()
        shifted[..., step:] = ufunc(y[..., step:], y[..., :-step])
        y = shifted
        step *= 2
    return xp.moveaxis(y, -1, axis)


def _lowest(x: Array) -> Any:
    return np.finfo(x.dtype).min


def logcumsumexp_along(xp: Any, x: Array, axis: int, exclusive: bool, reverse: bool) -> Array:
    """PHI's scan on ``x`` along ``axis`` (an axis of x, x at least 1-D)."""
    if reverse:
        x = xp.flip(x, axis)
    lowest = x.dtype.type(_lowest(x))
    if x.shape[axis] and exclusive:
        first = xp.full_like(xp.take(x, xp.arange(1), axis=axis), lowest)
        rest = xp.take(x, xp.arange(x.shape[axis] - 1), axis=axis)
        x = xp.concatenate([first, rest], axis=axis)
    with np.errstate(invalid="ignore", over="ignore"):
        if bool(xp.any(xp.isnan(x) | (x == xp.inf))):
            out = _phi_scan(xp, x, axis, lowest)
        else:
            out = xp.maximum(running(xp, "logaddexp", x, axis), lowest)
    return xp.flip(out, axis) if reverse else out


def _phi_scan(xp: Any, x: Array, axis: int, lowest: Any) -> Array:
    """PHI's fold, one step along ``axis`` at a time (inputs with NaN or +inf only)."""
    y = xp.moveaxis(x, axis, 0)
    out = xp.empty_like(y)
    acc = xp.full_like(y[0], lowest) if y.shape[0] else None
    for i in range(y.shape[0]):
        value = y[i]
        mi = xp.where(value < acc, value, acc)
        ma = xp.where(acc < value, value, acc)
        acc = ma + xp.log1p(xp.exp(mi - ma))
        out[i] = acc
    return xp.moveaxis(out, 0, axis)


@register_kernel("logcumsumexp", dtypes=LOGCUMSUMEXP_DTYPES)
def logcumsumexp_kernel(
    ctx: KernelContext, x: Array, axis: int, flatten: bool, exclusive: bool, reverse: bool
) -> Array:
    xp = ctx.xp
    if flatten or x.ndim == 0:
        shape = (x.size,) if flatten else x.shape
        return logcumsumexp_along(xp, x.reshape(-1), 0, exclusive, reverse).reshape(shape)
    return logcumsumexp_along(xp, x, axis % x.ndim, exclusive, reverse)


def _indices_by_attribute(kernel: Kernel) -> None:
    # As PHI's registration: indices take the ``dtype`` attribute's dtype.
    kernel.output_at(1).set_dtype(DataType.UNDEFINED)


def _cum_extreme(
    ctx: KernelContext, name: str, x: Array, axis: int, dtype: DataType
) -> tuple[Array, Array]:
    xp = ctx.xp
    index_dtype = np.int32 if dtype == DataType.INT32 else np.int64
    if x.ndim == 0:
        return x.copy(), xp.zeros((), dtype=index_dtype)
    axis %= x.ndim
    out = running(xp, name, x, axis)
    # a position is where the running extreme was last reached: a new extreme, a tie, a NaN
    hit = (x == out) | (x != x)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    positions = xp.arange(x.shape[axis], dtype=index_dtype).reshape(shape)
    indices = running(xp, "maximum", xp.where(hit, positions, index_dtype(0)), axis)
    return out, indices.astype(index_dtype, copy=False)


@register_kernel("cummax", dtypes=CUM_MAXMIN_DTYPES, configure=_indices_by_attribute)
def cummax_kernel(ctx: KernelContext, x: Array, axis: int, dtype: DataType) -> tuple[Array, Array]:
    return _cum_extreme(ctx, "maximum", x, axis, dtype)


@register_kernel("cummin", dtypes=CUM_MAXMIN_DTYPES, configure=_indices_by_attribute)
def cummin_kernel(ctx: KernelContext, x: Array, axis: int, dtype: DataType) -> tuple[Array, Array]:
    return _cum_extreme(ctx, "minimum", x, axis, dtype)
