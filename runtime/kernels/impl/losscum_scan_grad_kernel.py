"""Gradient kernels of logcumsumexp, cummax and cummin (issue 24), for the dtypes PaddlePaddle
3.3.1 registers on CPU (paddle/phi/kernels/cpu/logcumsumexp_grad_kernel.cc,
cum_maxmin_grad_kernel.cc).

logcumsumexp_grad is PHI's formula: x_grad_i = sum over the outputs j that x_i enters of
out_grad_j * exp(x_i - out_j), computed stably by splitting out_grad into its positive and
negative parts and scanning log(part) - out in the other direction with the forward's own scan:
exp(logcumsumexp(log(part) - out) + x). cummax_grad/cummin_grad add each out_grad to the element
its index names (PHI's scatter-add along the axis).
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.losscum_scan_kernel import (
    CUM_MAXMIN_DTYPES,
    LOGCUMSUMEXP_DTYPES,
    logcumsumexp_along,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("logcumsumexp_grad", dtypes=LOGCUMSUMEXP_DTYPES)
def logcumsumexp_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: int,
    flatten: bool,
    exclusive: bool,
    reverse: bool,
) -> Array:
    xp = ctx.xp
    shape = x.shape
    if flatten or x.ndim == 0:
        x, out, out_grad, axis = x.reshape(-1), out.reshape(-1), out_grad.reshape(-1), 0
    else:
        axis %= x.ndim
    zero = out_grad.dtype.type(0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        grad = xp.zeros_like(x)
        for sign in (1, -1):
            part = xp.where(sign * out_grad > 0, sign * out_grad, zero)
            scanned = logcumsumexp_along(xp, xp.log(part) - out, axis, exclusive, not reverse)
            grad = grad + sign * xp.exp(scanned + x)
    return grad.reshape(shape)


def _indices_keep_their_dtype(kernel: Kernel) -> None:
    # indices are int32 or int64 whatever the kernel's dtype
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def _scatter_back(
    ctx: KernelContext, x: Array, indices: Array, out_grad: Array, axis: int
) -> Array:
    xp = ctx.xp
    if x.ndim == 0:
        return out_grad.copy()
    axis %= x.ndim
    g = xp.moveaxis(out_grad, axis, -1)
    moved = g.shape
    extent = moved[-1]
    rows = g.size // extent if extent else 0
    index = xp.moveaxis(indices, axis, -1).reshape(rows, extent).astype(xp.int64)
    flat = (xp.arange(rows, dtype=xp.int64).reshape(-1, 1) * extent + index).reshape(-1)
    grad = xp.zeros(g.size, dtype=out_grad.dtype)
    scatter_at("add", grad, flat, g.reshape(-1))
    return xp.moveaxis(grad.reshape(moved), -1, axis)


@register_kernel("cummax_grad", dtypes=CUM_MAXMIN_DTYPES, configure=_indices_keep_their_dtype)
def cummax_grad_kernel(
    ctx: KernelContext, x: Array, indices: Array, out_grad: Array, axis: int, dtype: DataType
) -> Array:
    return _scatter_back(ctx, x, indices, out_grad, axis)


@register_kernel("cummin_grad", dtypes=CUM_MAXMIN_DTYPES, configure=_indices_keep_their_dtype)
def cummin_grad_kernel(
    ctx: KernelContext, x: Array, indices: Array, out_grad: Array, axis: int, dtype: DataType
) -> Array:
    return _scatter_back(ctx, x, indices, out_grad, axis)
