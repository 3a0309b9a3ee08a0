"""Grad kernels of the shape ops (shape_creation_kernel.py)."""

from __future__ import annotations

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.shape_creation_kernel import (
    ADD_N_DTYPES,
    CUMPROD_DTYPES,
    CUMSUM_DTYPES,
    DIAG_DTYPES,
    FLIP_DTYPES,
    MESHGRID_DTYPES,
    PAD3D_DTYPES,
    PAD_DTYPES,
    TILE_DTYPES,
    TRI_DTYPES,
    cumulate,
    pad3d_widths,
    pad3d_kernel,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle 3.3.1's CPU grad registrations are narrower than their forward ones: tile_grad
# has no float16, roll_grad no bool, pad3d_grad no integer types.
TILE_GRAD_DTYPES = tuple(d for d in TILE_DTYPES if d is not DataType.FLOAT16)
ROLL_GRAD_DTYPES = tuple(d for d in FLIP_DTYPES if d is not DataType.BOOL)
PAD3D_GRAD_DTYPES = tuple(d for d in PAD3D_DTYPES if not d.is_integer)


@register_kernel("add_n_grad", dtypes=ADD_N_DTYPES)
def add_n_grad_kernel(ctx: KernelContext, inputs: list[Array], out_grad: Array) -> list[Array]:
    """out_grad for every input."""
    return [out_grad.copy() for _ in inputs]


@register_kernel("tile_grad", dtypes=TILE_GRAD_DTYPES)
def tile_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, repeat_times: tuple[int, ...]
) -> Array:
    """out_grad summed over the repeats (x is read for its shape only)."""
    rank = out_grad.ndim
    dims = (1,) * (rank - x.ndim) + tuple(x.shape)
    repeats = (1,) * (rank - len(repeat_times)) + tuple(repeat_times)
    split = []
    for r, d in zip(repeats, dims):
        split += [r, d]
    summed = out_grad.reshape(split).sum(axis=tuple(range(0, 2 * rank, 2)))
    return summed.reshape(x.shape).astype(out_grad.dtype, copy=False)


@register_kernel("roll_grad", dtypes=ROLL_GRAD_DTYPES)
def roll_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, shifts: tuple[int, ...], axis: tuple[int, ...]
) -> Array:
    """out_grad rolled back."""
    xp = ctx.xp
    back = tuple(-s for s in shifts)
    if not axis:
        return xp.roll(out_grad.reshape(-1), back[0]).reshape(out_grad.shape)
    return xp.roll(out_grad, back, axis=axis)


@register_kernel("pad_grad", dtypes=PAD_DTYPES)
def pad_grad_kernel(
    ctx: KernelContext, out_grad: Array, paddings: tuple[int, ...], pad_value: float
) -> Array:
    """The unpadded part of out_grad."""
    index = tuple(
        slice(paddings[2 * i], out_grad.shape[i] - paddings[2 * i + 1])
        for i in range(out_grad.ndim)
    )
    return out_grad[index].copy()


@register_kernel("pad3d_grad", dtypes=PAD3D_GRAD_DTYPES)
def pad3d_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    paddings: tuple[int, ...],
    mode: str,
    pad_value: float,
    data_format: str,
) -> Array:
    """Each out_grad element added to the x element it was copied from: the padding of an
    index grid (for constant mode, the unpadded block) says which."""
    xp = ctx.xp
    widths = pad3d_widths(x.ndim, paddings, data_format)
    if mode == "constant":
        index = tuple(slice(b, out_grad.shape[i] - a) for i, (b, a) in enumerate(widths))
        return out_grad[index].copy()
    source = xp.arange(x.size, dtype=xp.int64).reshape(x.shape)
    padded = pad3d_kernel(ctx, source, paddings, mode, 0.0, data_format)
    grad = xp.zeros(x.size, dtype=out_grad.dtype)
    scatter_at("add", grad, padded.reshape(-1), out_grad.reshape(-1))
    return grad.reshape(x.shape)


@register_kernel("tril_grad", dtypes=TRI_DTYPES)
def tril_grad_kernel(ctx: KernelContext, out_grad: Array, diagonal: int) -> Array:
    return ctx.xp.tril(out_grad, diagonal)


@register_kernel("triu_grad", dtypes=TRI_DTYPES)
def triu_grad_kernel(ctx: KernelContext, out_grad: Array, diagonal: int) -> Array:
    return ctx.xp.triu(out_grad, diagonal)


@register_kernel("cumsum_grad", dtypes=CUMSUM_DTYPES)
def cumsum_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    axis: int,
    flatten: bool,
    exclusive: bool,
    reverse: bool,
) -> Array:
    """The cumsum of out_grad in the other direction."""
    grad = out_grad.reshape(-1) if flatten else out_grad
    if grad.ndim == 0:
        return ctx.xp.zeros_like(out_grad) if exclusive else out_grad.copy()
    summed = cumulate(ctx.xp, grad, 0 if flatten else axis, exclusive, not reverse, False)
    return summed.reshape(x.shape)


@register_kernel("cumprod_grad", dtypes=CUMPROD_DTYPES)
def cumprod_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    dim: int,
    exclusive: bool,
    reverse: bool,
) -> Array:
    """dx_i = P_i * S_i, with P_i the product of the x before i (exclusive cumprod) and S_i the
    sum over the outputs j that include x_i of g_j times the x strictly between i and j: a
    recurrence from the end that needs no division, so zeros in x are exact. Complex
    gradients use conjugates, as PHI's does."""
    xp = ctx.xp
    if x.ndim == 0:
        return xp.zeros_like(out_grad) if exclusive else out_grad.copy()
    axis = dim % x.ndim
    xs, gs = xp.moveaxis(x, axis, 0), xp.moveaxis(out_grad, axis, 0)
    if reverse:
        xs, gs = xs[::-1], gs[::-1]
    if x.dtype.kind == "c":
        xs = xp.conj(xs)
    n = xs.shape[0]
    before = cumulate(xp, xs, 0, True, False, True)
    suffix = xp.zeros_like(gs)
    running = xp.zeros_like(gs[0])
    for i in range(n - 1, -1, -1):
        if exclusive:
            running = (gs[i + 1] + xs[i + 1] * running) if i + 1 < n else xp.zeros_like(gs[0])
        else:
            running = gs[i] + (xs[i + 1] * running if i + 1 < n else 0)
        suffix[i] = running
    grad = before * suffix
    if reverse:
        grad = grad[::-1]
    return xp.moveaxis(grad, 0, axis).astype(out_grad.dtype, copy=False)


@register_kernel("meshgrid_grad", dtypes=MESHGRID_DTYPES)
def meshgrid_grad_kernel(
    ctx: KernelContext, inputs: list[Array], outputs_grad: list[Array]
) -> list[Array]:
    """outputs_grad[i] summed over every axis but i."""
    grads = []
    for i, (item, grad) in enumerate(zip(inputs, outputs_grad)):
        others = tuple(a for a in range(grad.ndim) if a != i)
        grads.append(grad.sum(axis=others).reshape(item.shape).astype(grad.dtype, copy=False))
    return grads


@register_kernel("diag_grad", dtypes=DIAG_DTYPES)
def diag_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, offset: int) -> Array:
    """For a 2-D x, zeros with out_grad on diagonal ``offset``; for a 0-D/1-D x, that diagonal
    of out_grad. ``out_grad`` must have diag's output shape."""
    xp = ctx.xp
    if x.ndim == 2:
        rows, cols = x.shape
        length = max(min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols), 0)
        expected: tuple[int, ...] = (length,)
    else:
        side = (x.shape[0] if x.ndim else 1) + abs(offset)
        expected = (side, side)
    if tuple(out_grad.shape) != expected:
        raise InvalidArgumentError(
            f"argument 'out_grad' must have dims {list(expected)} (diag's output for x of dims "
            f"{list(x.shape)} and offset {offset}), got {list(out_grad.shape)}"
        )
    if x.ndim == 2:
        grad = xp.zeros(x.shape, dtype=out_grad.dtype)
        rows = xp.arange(out_grad.shape[0]) + max(-offset, 0)
        grad[rows, rows + offset] = out_grad
        return grad
    return xp.diagonal(out_grad, offset).copy().reshape(x.shape)
