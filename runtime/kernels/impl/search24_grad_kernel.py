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

import math

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.search24_kernel import (
    AMAX_DTYPES,
    INDEX_SAMPLE_DTYPES,
    REPEAT_DTYPES,
    SEARCH_DTYPES,
    UNSTACK_DTYPES,
    checked_index,
    median_rows,
    reduced_axes,
    repeat_counts,
)
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


# -- index_sample, repeat_interleave, unstack ---------------------------------------------------


@register_kernel(
    "index_sample_grad",
    dtypes=INDEX_SAMPLE_DTYPES,
    configure=lambda k: k.input_at(1).set_dtype(DataType.ALL_DTYPE),
)
def index_sample_grad_kernel(ctx: KernelContext, x: Array, index: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    rows, width = x.shape
    index = checked_index(xp, index, width, "index", "index_sample_grad")
    flat = (xp.arange(rows, dtype=xp.int64)[:, None] * width + index).reshape(-1)
    grad = xp.zeros(rows * width, dtype=out_grad.dtype)
    scatter_at("add", grad, flat, out_grad.reshape(-1))
    return grad.reshape(x.shape)


def _segment_sums(xp: Any, x: Array, out_grad: Array, owners: Array, axis: int) -> Array:
    """The sums of out_grad's slices along ``axis`` by the slice of x each came from
    (``owners``), accumulated in float32 at least (bfloat16 sums would lose the low bits)."""
    shape = x.shape if x.ndim else (1,)
    axis %= len(shape)
    moved = xp.moveaxis(out_grad, axis, 0)
    rest = moved.shape[1:]
    # the width spelled out: -1 is ambiguous when out_grad is empty (repeats all zero)
    wide = moved.reshape(moved.shape[0], math.prod(rest))
    # bfloat16 (numpy kind 'V') is summed in float32
    accumulate = out_grad.dtype if out_grad.dtype.kind in "fciu" else xp.float32
    sums = xp.zeros((shape[axis], wide.shape[1]), dtype=accumulate)
    if wide.shape[0]:
        scatter_at("add", sums, owners, wide.astype(sums.dtype))
    grad = xp.moveaxis(sums.reshape((shape[axis],) + rest), 0, axis)
    return grad.astype(out_grad.dtype).reshape(x.shape)


@register_kernel("repeat_interleave_grad", dtypes=REPEAT_DTYPES)
def repeat_interleave_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, repeats: int, axis: int, output_size: int
) -> Array:
    xp = ctx.xp
    extent = x.shape[axis % x.ndim] if x.ndim else 1
    owners = xp.repeat(xp.arange(extent, dtype=xp.int64), repeats)
    length = out_grad.shape[axis % out_grad.ndim] if out_grad.ndim else 1
    return _segment_sums(xp, x, out_grad, owners[:length], axis)


@register_kernel(
    "repeat_interleave_with_tensor_index_grad",
    dtypes=REPEAT_DTYPES,
    configure=lambda k: k.input_at(1).set_dtype(DataType.ALL_DTYPE),
)
def repeat_interleave_with_tensor_index_grad_kernel(
    ctx: KernelContext,
    x: Array,
    repeats: Array,
    out_grad: Array,
    axis: int,
    output_size: int,
) -> Array:
    xp = ctx.xp
    counts = repeat_counts(xp, repeats)
    extent = out_grad.shape[axis % out_grad.ndim] if out_grad.ndim else 1
    if extent != sum(counts):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have the sum of argument 'repeats' ({sum(counts)}) as its "
            f"extent along axis {axis}, got dims {list(out_grad.shape)}"
        )
    owners = xp.repeat(xp.arange(len(counts), dtype=xp.int64), xp.asarray(counts, dtype=xp.int64))
    return _segment_sums(xp, x, out_grad, owners, axis)


@register_kernel("unstack_grad", dtypes=UNSTACK_DTYPES)
def unstack_grad_kernel(ctx: KernelContext, out_grad: list[Array], axis: int) -> Array:
    return ctx.xp.stack(out_grad, axis=axis)


def _extreme_grad(
    xp: Any, x: Array, out: Array, out_grad: Array, axis: tuple[int, ...], keepdim: bool
) -> Array:
    """out_grad shared evenly among the elements equal to the extreme (NaN where it is NaN)."""
    axes = reduced_axes(x.shape, axis)
    if not keepdim:
        out = xp.expand_dims(out, axes) if axes else out
        out_grad = xp.expand_dims(out_grad, axes) if axes else out_grad
    equal = x == out
    count = xp.sum(equal, axis=axes, keepdims=True).astype(out_grad.dtype)
    if out_grad.dtype.kind != "f":
        share = _divide(out_grad, xp.maximum(count, 1))
        return xp.where(equal, share, xp.zeros((), dtype=out_grad.dtype))
    # PaddlePaddle's out_grad * (x == out) / count: a NaN extreme (no element equal to it)
    # gives NaN to every element it was reduced from
    with np.errstate(invalid="ignore", divide="ignore"):
        return out_grad * equal.astype(out_grad.dtype) / count


@register_kernel("amax_grad", dtypes=AMAX_DTYPES)
def amax_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    return _extreme_grad(ctx.xp, x, out, out_grad, () if reduce_all else axis, keepdim)


@register_kernel("amin_grad", dtypes=AMAX_DTYPES)
def amin_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    return _extreme_grad(ctx.xp, x, out, out_grad, () if reduce_all else axis, keepdim)
