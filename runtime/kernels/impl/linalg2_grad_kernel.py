"""Grad kernels of the linalg2 ops, with PaddlePaddle 3.3.1's backward formulas (its
``*_grad_kernel_impl.h``): gradients of broadcast batch dims summed back, triangular gradients
masked as PaddlePaddle masks them, and only the gradients the caller wants computed."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
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
    renorm_scales,
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


def _qr_tall_grad(xp: ModuleType, q_grad: Array, r_grad: Array, q: Array, r: Array) -> Array:
    """PaddlePaddle's m >= n case (Roberts & Roberts 2020): M = r dR^H - dQ^H q made
    Hermitian from its lower triangle, dX = (dQ + q M) r^-H."""
    m_tmp = blas.matmul(xp, r, _h(xp, r_grad)) - blas.matmul(xp, _h(xp, q_grad), q)
    lower = xp.tril(m_tmp, -1)
    if m_tmp.dtype.kind == "c":
        diagonal = xp.real(xp.diagonal(m_tmp, 0, -2, -1)).astype(m_tmp.dtype)
        m = lower + _h(xp, lower) + diagonal[..., None] * xp.eye(m_tmp.shape[-1], dtype=bool)
    else:
        m = xp.tril(m_tmp) + _t(xp, lower)
    rhs = q_grad + blas.matmul(xp, q, m)
    solved = solve_triangular(xp, conj_if_complex(xp, r), _t(xp, rhs), True, False, False)
    return _t(xp, solved)


@register_kernel("qr_grad", dtypes=FLOATS_AND_COMPLEX)
def qr_grad_kernel(
    ctx: KernelContext,
    x: Array,
    q: Array,
    r: Array,
    q_grad: Array,
    r_grad: Array,
    mode: str,
) -> Array:
    """PaddlePaddle's QrGradKernel: the m >= n formula, and for m < n the split x = [X|Y],
    r = [U|V]: dX from the formula with dQ + Y dV^H, dY = q dV. Not defined for mode "r", nor
    for "complete" with m > n (InvalidArgumentError, as in PaddlePaddle)."""
    xp = ctx.xp
    m, n = x.shape[-2:]
    if mode == "r":
        raise InvalidArgumentError("the derivative of qr is not implemented when mode='r'")
    if m > n and mode == "complete":
        raise InvalidArgumentError(
            f"the derivative of qr is not implemented when mode='complete' and {m} > {n}"
        )
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if m >= n:
        return _qr_tall_grad(xp, q_grad, r_grad, q, r).astype(x.dtype, copy=False)
    y, u = x[..., m:], r[..., :m]
    v_grad, u_grad = r_grad[..., m:], r_grad[..., :m]
    q_prime = q_grad + blas.matmul(xp, y, _h(xp, v_grad))
    x_part = _qr_tall_grad(xp, q_prime, u_grad, q, u)
    y_part = blas.matmul(xp, q, v_grad)
    return xp.concatenate([x_part, y_part], axis=-1).astype(x.dtype, copy=False)


@register_kernel("svd_grad", dtypes=FLOATS_AND_COMPLEX)
def svd_grad_kernel(
    ctx: KernelContext,
    x: Array,
    u: Array,
    vh: Array,
    s: Array,
    u_grad: Array | None,
    vh_grad: Array | None,
    s_grad: Array | None,
    full_matrices: bool,
) -> Array:
    """PaddlePaddle's SvdGradKernel for real input: with
    F_ij = 1 / (s_j^2 - s_i^2) off the diagonal, dX = (dS u) vh + u_term vh + u v_term, the
    projections onto the complements added for m > k (u) and n > k (vh); the full matrices are
    sliced to k columns (rows) first."""
    xp = ctx.xp
    m, n = x.shape[-2:]
    k = s.shape[-1]
    if x.dtype.kind == "c":
        raise UnimplementedError(
            "the gradient of svd for complex input is not implemented: PaddlePaddle 3.3.1's "
            "complex formula is not reproduced"
        )
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if full_matrices:
        u, vh = u[..., :k], vh[..., :k, :]
        u_grad = None if u_grad is None else u_grad[..., :k]
        vh_grad = None if vh_grad is None else vh_grad[..., :k, :]
    s = s.astype(x.dtype)
    with np.errstate(divide="ignore"):
        s_inverse = 1 / s
        square = s * s
        f = square[..., None, :] - square[..., :, None]
        f = 1 / (f + xp.where(xp.eye(k, dtype=bool), xp.asarray(np.inf, dtype=x.dtype), 0))
    grad = xp.zeros(x.shape, dtype=x.dtype)
    if s_grad is not None:
        grad = grad + blas.matmul(xp, s_grad.astype(x.dtype)[..., None, :] * u, vh)
    if u_grad is not None:
        skew = blas.matmul(xp, _t(xp, u), u_grad) - blas.matmul(xp, _t(xp, u_grad), u)
        term = blas.matmul(xp, u, skew * f * s[..., None, :])
        if m > k:
            project = xp.eye(m, dtype=x.dtype) - blas.matmul(xp, u, _t(xp, u))
            term = term + blas.matmul(xp, project, u_grad) * s_inverse[..., None, :]
        grad = grad + blas.matmul(xp, term, vh)
    if vh_grad is not None:
        skew = blas.matmul(xp, vh, _t(xp, vh_grad)) - blas.matmul(xp, vh_grad, _t(xp, vh))
        term = blas.matmul(xp, skew * f, vh) * s[..., :, None]
        if n > k:
            project = xp.eye(n, dtype=x.dtype) - blas.matmul(xp, _t(xp, vh), vh)
            term = term + blas.matmul(xp, vh_grad, project) * s_inverse[..., :, None]
        grad = grad + blas.matmul(xp, u, term)
    return grad.astype(x.dtype, copy=False)


@register_kernel("eigh_grad", dtypes=FLOATS_AND_COMPLEX)
def eigh_grad_kernel(
    ctx: KernelContext, out_w: Array, out_v: Array, out_w_grad: Array, out_v_grad: Array
) -> Array:
    """PaddlePaddle's EighGradKernel: G = V (diag(dw) + (V^H dV) / E) V^H with
    E_ij = w_j - w_i (infinite on the diagonal), symmetrised: dX = (G + G^H) / 2."""
    xp = ctx.xp
    v = out_v
    if v.size == 0:
        return xp.zeros(v.shape, dtype=v.dtype)
    n = v.shape[-1]
    w = out_w.astype(v.dtype)
    eye = xp.eye(n, dtype=bool)
    gaps = w[..., None, :] - w[..., :, None]
    gaps = xp.where(eye, xp.asarray(np.inf, dtype=v.dtype), gaps)
    v_h = _h(xp, v)
    inner = blas.matmul(xp, v_h, out_v_grad) / gaps
    inner = inner + out_w_grad.astype(v.dtype)[..., :, None] * eye
    grad = blas.matmul(xp, blas.matmul(xp, v, inner), v_h)
    return ((grad + _h(xp, grad)) / 2).astype(v.dtype, copy=False)


@register_kernel("eigvalsh_grad", dtypes=FLOATS_AND_COMPLEX)
def eigvalsh_grad_kernel(
    ctx: KernelContext, eigenvectors: Array, eigenvalues_grad: Array, uplo: str, is_test: bool
) -> Array:
    """dX = V diag(dw) V^H."""
    xp = ctx.xp
    v = eigenvectors
    if v.size == 0:
        return xp.zeros(v.shape, dtype=v.dtype)
    scaled = v * eigenvalues_grad.astype(v.dtype)[..., None, :]
    return blas.matmul(xp, scaled, _h(xp, v)).astype(v.dtype, copy=False)


@register_kernel("renorm_grad", dtypes=REAL_FLOATS)
def renorm_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, p: float, axis: int, max_norm: float
) -> Array:
    """Through out = x c / N for the slices whose norm N exceeds c = max_norm:
    dX = c dOut / N - c sum(dOut x) |x|^(p-1) sign(x) N^(1-p) / N^2; dOut elsewhere."""
    xp = ctx.xp
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    dtype = x.dtype.type
    norm, _ = renorm_scales(xp, x, p, axis, max_norm)
    axis %= x.ndim
    others = tuple(i for i in range(x.ndim) if i != axis)
    over = norm > dtype(max_norm)
    denominator = norm
    dot = xp.sum(out_grad * x, axis=others, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm_grad = xp.abs(x) ** dtype(p - 1) * xp.sign(x) * norm ** dtype(1 - p)
        scaled = dtype(max_norm) * (out_grad / denominator - dot * norm_grad / denominator**2)
    return xp.where(over, scaled, out_grad).astype(x.dtype, copy=False)


@register_kernel("squared_l2_norm_grad", dtypes=REAL_FLOATS)
def squared_l2_norm_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """dX = 2 x dOut."""
    return (x.dtype.type(2) * x * out_grad.reshape(())).astype(x.dtype, copy=False)


@register_kernel("l1_norm_grad", dtypes=(DataType.FLOAT32,))
def l1_norm_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """dX = sign(x) dOut."""
    return (ctx.xp.sign(x) * out_grad).astype(x.dtype, copy=False)
