"""Grad kernels of the linalg2 ops, with PaddlePaddle 3.3.1's backward formulas (its
``*_grad_kernel_impl.h``): gradients of broadcast batch dims summed back, triangular gradients
masked as PaddlePaddle masks them, and only the gradients the caller wants computed."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex, reduce_to_shape
from phiops.runtime.kernels.impl.linalg2_kernel import (
    FLOATS_AND_COMPLEX,
    REAL_FLOATS,
    batch_broadcast,
    chain_product,
    cholesky_solve_arrays,
    matrix_power_arrays,
    reduce_axes,
    solve_triangular,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _t(xp: ModuleType, a: Array) -> Array:
    return xp.swapaxes(a, -1, -2)


def _h(xp: ModuleType, a: Array) -> Array:
    return xp.swapaxes(conj_if_complex(xp, a), -1, -2)


@register_kernel("solve_grad", dtypes=REAL_FLOATS)
def solve_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out: Array, out_grad: Array
) -> tuple[Array, Array]:
    """dY = x^-T dOut, dX = -dY out^T, summed over broadcast batch dims (a 1-D y is one
    column)."""
    xp = ctx.xp
    vector = y.ndim == 1
    rhs_grad = out_grad[..., None] if vector else out_grad
    result = out[..., None] if vector else out
    a, b = batch_broadcast(xp, _t(xp, x), rhs_grad)
    y_grad_full = xp.linalg.solve(a, b) if b.size and a.shape[-1] else xp.zeros(b.shape, x.dtype)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, -blas.matmul(xp, y_grad_full, _t(xp, result)), x.shape)
        x_grad = x_grad.astype(x.dtype, copy=False)
    if ctx.wants(1):
        full = y_grad_full[..., 0] if vector else y_grad_full
        y_grad = reduce_to_shape(xp, full, y.shape).astype(y.dtype, copy=False)
    return x_grad, y_grad


@register_kernel("triangular_solve_grad", dtypes=FLOATS_AND_COMPLEX)
def triangular_solve_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    out: Array,
    out_grad: Array,
    upper: bool,
    transpose: bool,
    unitriangular: bool,
) -> tuple[Array, Array]:
    """dY solves op(conj(T))^T dY = dOut; dX = -dY out^H (-out dY^H with ``transpose``), masked
    to ``x``'s triangle (tril/triu with k = 1 when ``unitriangular``, as PaddlePaddle's
    TrilTriuCompute is called), both summed over broadcast batch dims; zeros for an empty out."""
    xp = ctx.xp
    if out.size == 0:
        return (
            xp.zeros(x.shape, x.dtype) if ctx.wants(0) else None,
            xp.zeros(y.shape, y.dtype) if ctx.wants(1) else None,
        )
    y_grad_full = solve_triangular(
        xp, conj_if_complex(xp, x), out_grad, upper, not transpose, unitriangular
    )
    x_grad = y_grad = None
    if ctx.wants(0):
        out_h = conj_if_complex(xp, out)
        if transpose:
            full = -blas.matmul(xp, out_h, _t(xp, y_grad_full))
        else:
            full = -blas.matmul(xp, y_grad_full, _t(xp, out_h))
        k = int(unitriangular)
        full = xp.triu(full, k) if upper else xp.tril(full, k)
        x_grad = reduce_to_shape(xp, full, x.shape).astype(x.dtype, copy=False)
    if ctx.wants(1):
        y_grad = reduce_to_shape(xp, y_grad_full, y.shape).astype(y.dtype, copy=False)
    return x_grad, y_grad


@register_kernel("cholesky_solve_grad", dtypes=REAL_FLOATS)
def cholesky_solve_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out: Array, out_grad: Array, upper: bool
) -> tuple[Array, Array]:
    """dX = A^-1 dOut (cholesky_solve of dOut); with C = dX out^T + (dX out^T)^T:
    dY = -triu(y C) when ``upper``, else -tril(C y); summed over broadcast batch dims. The
    products take the whole of y, as PaddlePaddle 3.3.1's do, though the forward reads only
    its triangle: the true gradient where y is triangular."""
    xp = ctx.xp
    x_grad_full = cholesky_solve_arrays(xp, out_grad, y, upper)
    x_grad = y_grad = None
    if ctx.wants(0):
        x_grad = reduce_to_shape(xp, x_grad_full, x.shape).astype(x.dtype, copy=False)
    if ctx.wants(1):
        common = blas.matmul(xp, x_grad_full, _h(xp, out))
        common = common + _h(xp, common)
        if upper:
            full = xp.triu(-blas.matmul(xp, y, common))
        else:
            full = xp.tril(-blas.matmul(xp, common, y))
        y_grad = reduce_to_shape(xp, full, y.shape).astype(y.dtype, copy=False)
    return x_grad, y_grad


def _inverse(xp: ModuleType, x: Array) -> Array:
    return xp.linalg.inv(x) if x.size else xp.zeros(x.shape, x.dtype)


@register_kernel("determinant_grad", dtypes=FLOATS_AND_COMPLEX)
def determinant_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    """dX = dOut conj(det(x) x^-T); zeros everywhere when any determinant of the batch is 0,
    as PaddlePaddle 3.3.1 computes it."""
    xp = ctx.xp
    if bool(xp.any(out == 0)) or x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    scaled = out[..., None, None] * _t(xp, _inverse(xp, x))
    return (out_grad[..., None, None] * conj_if_complex(xp, scaled)).astype(x.dtype, copy=False)


@register_kernel("slogdet_grad", dtypes=FLOATS_AND_COMPLEX)
def slogdet_grad_kernel(ctx: KernelContext, x: Array, out: Array, out_grad: Array) -> Array:
    """dX = dOut[1] conj(x^-1)^T: only the logarithm's gradient counts (the sign's is dropped,
    as in PaddlePaddle 3.3.1); NaN everywhere when any matrix of the batch is singular."""
    xp = ctx.xp
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if bool(xp.any(out[0] == 0)):
        return xp.full(x.shape, np.nan, dtype=x.dtype)
    return (out_grad[1][..., None, None] * _h(xp, _inverse(xp, x))).astype(x.dtype, copy=False)


def _power_sum_grad(xp: ModuleType, x: Array, out_grad: Array, n: int) -> Array:
    """sum over i < n of (x^i)^T dOut (x^(n-1-i))^T, the gradient of x^n for n > 0."""
    powers = [xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), x.shape)]
    for _ in range(n - 1):
        powers.append(blas.matmul(xp, powers[-1], x))
    total = xp.zeros(x.shape, dtype=x.dtype)
    for i in range(n):
        left = _t(xp, powers[i])
        right = _t(xp, powers[n - 1 - i])
        total = total + blas.matmul(xp, blas.matmul(xp, left, out_grad), right)
    return total


@register_kernel("matrix_power_grad", dtypes=FLOATS_AND_COMPLEX)
def matrix_power_grad_kernel(
    ctx: KernelContext, x: Array, out: Array, out_grad: Array, n: int
) -> Array:
    """dX = sum_i (x^i)^T dOut (x^(n-1-i))^T for n > 0; for n < 0 the same through y = x^-1,
    dX = -y^T dY y^T; zeros for n = 0 (plain transposes for complex, as PaddlePaddle's)."""
    xp = ctx.xp
    if n == 0 or x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if n > 0:
        return _power_sum_grad(xp, x, out_grad, n).astype(x.dtype, copy=False)
    inverse = matrix_power_arrays(xp, x, -1)
    inverse_grad = _power_sum_grad(xp, inverse, out_grad, -n)
    grad = -blas.matmul(xp, blas.matmul(xp, _t(xp, inverse), inverse_grad), _t(xp, inverse))
    return grad.astype(x.dtype, copy=False)


@register_kernel("multi_dot_grad", dtypes=REAL_FLOATS)
def multi_dot_grad_kernel(ctx: KernelContext, x: list[Array], out_grad: Array) -> list[Array]:
    """dX_i = (X_0 ... X_{i-1})^T dOut (X_{i+1} ... X_{n-1})^T, the vector ends as a row and a
    column."""
    xp = ctx.xp
    mats = list(x)
    if mats[0].ndim == 1:
        mats[0] = mats[0][None, :]
    if mats[-1].ndim == 1:
        mats[-1] = mats[-1][:, None]
    grad = out_grad.reshape(mats[0].shape[0], mats[-1].shape[1])
    grads = []
    for i, original in enumerate(x):
        if not ctx.wants(i):
            grads.append(None)
            continue
        g = grad
        if i > 0:
            g = blas.matmul(xp, chain_product(xp, mats[:i]).T, g)
        if i < len(mats) - 1:
            g = blas.matmul(xp, g, chain_product(xp, mats[i + 1 :]).T)
        grads.append(xp.ascontiguousarray(g.reshape(original.shape)).astype(original.dtype))
    return grads


@register_kernel("p_norm_grad", dtypes=REAL_FLOATS)
def p_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    porder: float,
    axis: int,
    epsilon: float,
    keepdim: bool,
    asvector: bool,
) -> Array:
    """PaddlePaddle's PNormGradKernel: zeros for p = 0; dOut sign(x) where |x| equals the norm
    for p = +-inf; dOut sign(x) |x|^(p-1) / (norm^(p-1) + epsilon) otherwise."""
    xp = ctx.xp
    if porder == 0 or x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if asvector or x.ndim == 0:
        kept = (1,) * x.ndim
    else:
        kept = tuple(1 if i == axis % x.ndim else n for i, n in enumerate(x.shape))
    norm = out.reshape(kept)
    grad = out_grad.reshape(kept)
    magnitude, sign = xp.abs(x), xp.sign(x)
    if porder in (np.inf, -np.inf):
        return ((magnitude == norm).astype(x.dtype) * sign * grad).astype(x.dtype, copy=False)
    p = x.dtype.type(porder)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = magnitude ** (p - 1) / (norm ** (p - 1) + x.dtype.type(epsilon))
    return (scale * grad * sign).astype(x.dtype, copy=False)


@register_kernel("frobenius_norm_grad", dtypes=FLOATS_AND_COMPLEX)
def frobenius_norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keep_dim: bool,
    reduce_all: bool,
) -> Array:
    """dX = dOut x / out, out and dOut broadcast back over the reduced axes."""
    xp = ctx.xp
    axes = reduce_axes(x.ndim, tuple(axis), reduce_all)
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    with np.errstate(divide="ignore", invalid="ignore"):
        grad = out_grad.reshape(kept) * x / out.reshape(kept)
    return grad.astype(x.dtype, copy=False)


@register_kernel("dist_grad", dtypes=REAL_FLOATS)
def dist_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out: Array, out_grad: Array, p: float
) -> tuple[Array, Array]:
    """With z = x - y: zeros for p = 0; dOut sign(z) where |z| equals out for p = +-inf;
    dOut sign(z) (|z| / (out + 1e-10))^(p-1) otherwise; dX sums it back to x's dims, dY its
    negation to y's."""
    xp = ctx.xp
    diff = x - y
    dtype = x.dtype.type
    if p == 0:
        grad = xp.zeros(diff.shape, dtype=x.dtype)
    else:
        sign = (diff > 0).astype(x.dtype) - (diff < 0).astype(x.dtype)
        magnitude = xp.abs(diff)
        if p in (np.inf, -np.inf):
            grad = (magnitude == out).astype(x.dtype) * sign * out_grad
        else:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                grad = (magnitude / (out + dtype(1e-10))) ** dtype(p - 1) * sign * out_grad
    x_grad = reduce_to_shape(xp, grad, x.shape).astype(x.dtype) if ctx.wants(0) else None
    y_grad = reduce_to_shape(xp, -grad, y.shape).astype(y.dtype) if ctx.wants(1) else None
    return x_grad, y_grad


@register_kernel("addmm_grad", dtypes=REAL_FLOATS)
def addmm_grad_kernel(
    ctx: KernelContext,
    input: Array,
    x: Array,
    y: Array,
    out_grad: Array,
    alpha: float,
    beta: float,
) -> tuple[Array, Array, Array]:
    """dInput = beta dOut summed to input's dims; dX = alpha dOut y^T; dY = alpha x^T dOut."""
    xp = ctx.xp
    dtype = x.dtype.type
    input_grad = x_grad = y_grad = None
    if ctx.wants(0):
        input_grad = reduce_to_shape(xp, dtype(beta) * out_grad, input.shape).astype(input.dtype)
    if ctx.wants(1):
        x_grad = (dtype(alpha) * blas.matmul(xp, out_grad, y.T)).astype(x.dtype, copy=False)
    if ctx.wants(2):
        y_grad = (dtype(alpha) * blas.matmul(xp, x.T, out_grad)).astype(y.dtype, copy=False)
    return input_grad, x_grad, y_grad
