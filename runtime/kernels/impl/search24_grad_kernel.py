"""Gradient kernels of the search24 ops of issue 24 (kthvalue, mode, nanmedian), for the dtypes
PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/kthvalue_grad_kernel.cc,
mode_grad_kernel.cc, nanmedian_grad_kernel.cc).

kthvalue_grad and mode_grad put each out_grad at the element its index names along the axis,
zeros elsewhere. nanmedian_grad is PaddlePaddle 3.3.1's (its kernel reads out as well as
medians): with mode 'min' the element a median was read from gets out_grad (nothing for index
-1); with 'avg' the elements equal to the median (every NaN for a NaN median) share out_grad
equally, and a median between two different middle elements gives each half. Integer quotients
truncate toward zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.search24_kernel import SEARCH_DTYPES, median_rows
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _indices_keep_their_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def _put_along(
    xp: Any, x: Array, indices: Array, out_grad: Array, axis: int, keepdim: bool
) -> Array:
    if x.ndim == 0:
        # PaddlePaddle 3.3.1 gives a 0-D x the gradient 1, whatever out_grad is
        return xp.ones((), dtype=out_grad.dtype)
    axis %= x.ndim
    if not keepdim:
        indices = xp.expand_dims(indices, axis)
        out_grad = xp.expand_dims(out_grad, axis)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    positions = xp.arange(x.shape[axis], dtype=xp.int64).reshape(shape)
    zero = xp.zeros((), dtype=out_grad.dtype)
    return xp.where(positions == indices.astype(xp.int64), out_grad, zero)


@register_kernel("kthvalue_grad", dtypes=SEARCH_DTYPES, configure=_indices_keep_their_dtype)
def kthvalue_grad_kernel(
    ctx: KernelContext,
    x: Array,
    indices: Array,
    out_grad: Array,
    k: int,
    axis: int,
    keepdim: bool,
) -> Array:
    return _put_along(ctx.xp, x, indices, out_grad, axis, keepdim)


@register_kernel("mode_grad", dtypes=SEARCH_DTYPES, configure=_indices_keep_their_dtype)
def mode_grad_kernel(
    ctx: KernelContext, x: Array, indices: Array, out_grad: Array, axis: int, keepdim: bool
) -> Array:
    return _put_along(ctx.xp, x, indices, out_grad, axis, keepdim)


@register_kernel(
    "nanmedian_grad",
    dtypes=SEARCH_DTYPES,
    configure=lambda k: k.input_at(2).set_dtype(DataType.ALL_DTYPE),
)
def nanmedian_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    medians: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    mode: str,
) -> Array:
    xp = ctx.xp
    rows, perm = median_rows(xp, x, axis)
    count, stride = rows.shape
    grad = xp.zeros((count, stride), dtype=out_grad.dtype)
    upstream = out_grad.reshape(count)
    if mode == "avg":
        # the elements equal to the median (NaN for a NaN median) share out_grad; a median
        # between two different middle elements gives each half
        median = out.reshape(count, 1)
        with np.errstate(invalid="ignore"):
            equal = (rows == median) | ((rows != rows) & (median != median))
        sharing = xp.sum(equal, axis=-1)
        pairs = medians.reshape(count, 2).astype(xp.int64)
        between = sharing == 0
        half = _divide(upstream, 2)
        for column in (0, 1):
            _put_rows(xp, grad, xp.where(between, pairs[:, column], -1), half)
        shares = _divide(upstream, xp.maximum(sharing, 1).astype(upstream.dtype))
        grad = xp.where(equal, shares[:, None], grad)
    else:
        _put_rows(xp, grad, medians.reshape(count).astype(xp.int64), upstream)
    if not perm:
        return grad.reshape(x.shape)
    moved = grad.reshape(tuple(x.shape[a] for a in perm))
    inverse = [0] * len(perm)
    for position, source in enumerate(perm):
        inverse[source] = position
    return xp.transpose(moved, inverse)


def _divide(values: Array, by: Any) -> Array:
    """values / by in the dtype's arithmetic (an integer quotient truncated toward zero)."""
    if values.dtype.kind == "f":
        return values / values.dtype.type(by) if isinstance(by, int) else values / by
    quotient = values // by
    return quotient + ((quotient < 0) & (quotient * by != values)).astype(values.dtype)


def _put_rows(xp: Any, grad: Array, columns: Array, values: Array) -> None:
    """grad[row, columns[row]] = values[row] for the rows whose column is not -1."""
    rows = xp.nonzero(columns >= 0)[0]
    grad[rows, columns[rows]] = values[rows]
