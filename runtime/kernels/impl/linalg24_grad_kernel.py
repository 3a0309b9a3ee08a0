"""Gradient kernels of the linalg24 ops (lu, lu_unpack, eig), PaddlePaddle 3.3.1's formulas:

- lu_grad (paddle/phi/kernels/impl/lu_grad_kernel_impl.h): with K = min(M, N), L1 and U1 the
  leading K x K blocks and phi = tril(L1^H dLU, -1) + triu(dLU U1^H) on the K x K block of the
  packed gradient, a square or wide x gets P L1^-H [phi' U1^-H, dU2] (phi' = phi -
  tril(dU2 U2^H, -1)), a tall x gets P [L1^-H phi'; dL2] U1^-H (phi' = phi - triu(L2^H dL2)).
- lu_unpack_grad: tril(dL, -1) + triu(dU), each placed in x's shape; P takes no gradient.
- baddbmm_grad: beta dOut reduced to input's dims, alpha dOut y^T, alpha x^T dOut.
- eig_grad (paddle/phi/kernels/cpu/eig.h): V^-H (diag(dw) + (V^H dV - V^H V
  diag(re(diag(V^H dV)))) / E) V^H with E[i, j] = conj(w_j) - conj(w_i) off the diagonal;
  complex, as PaddlePaddle's kernel gives it.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.impl.linalg2_kernel import solve_triangular
from phiops.runtime.kernels.impl.linalg24_kernel import (
    FLOATS_AND_COMPLEX,
    REAL_FLOATS,
    any_dtype_inputs,
    baddbmm_input,
    permutation_matrix,
    unpack_lu,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__: list[str] = []


def _h(xp: ModuleType, a: Array) -> Array:
    swapped = xp.swapaxes(a, -1, -2)
    return xp.conj(swapped) if a.dtype.kind == "c" else swapped


@register_kernel("lu_grad", dtypes=FLOATS_AND_COMPLEX, configure=any_dtype_inputs(2))
def lu_grad_kernel(
    ctx: KernelContext, x: Array, out: Array, pivots: Array, out_grad: Array, pivot: bool
) -> Array:
    """The gradient of x = P L U's packed factors with respect to x."""
    xp = ctx.xp
    m, n = x.shape[-2:]
    k = min(m, n)
    if x.size == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    lower, upper = unpack_lu(xp, out)
    l1, u1 = lower[..., :k, :k], upper[..., :k, :k]
    grad = out_grad.astype(x.dtype, copy=False)
    g1 = grad[..., :k, :k]
    phi = xp.tril(blas.matmul(xp, _h(xp, l1), g1), -1) + xp.triu(blas.matmul(xp, g1, _h(xp, u1)))
    pmat = permutation_matrix(xp, pivots, m, x.dtype, "pivots")
    psi = xp.zeros(x.shape, dtype=x.dtype)
    if m <= n:
        u2, g2 = upper[..., :, k:], grad[..., :k, k:]
        phi = phi - xp.tril(blas.matmul(xp, g2, _h(xp, u2)), -1)
        psi[..., :, k:] = g2
        # phi U1^-H = (U1^-1 phi^H)^H
        psi[..., :, :k] = _h(xp, solve_triangular(xp, u1, _h(xp, phi), True, False, False))
        # L1^-H psi: L1^H is unit upper triangular
        psi = solve_triangular(xp, _h(xp, l1), psi, True, False, True)
        return blas.matmul(xp, pmat, psi).astype(x.dtype, copy=False)
    l2, g2 = lower[..., k:, :], grad[..., k:, :k]
    phi = phi - xp.triu(blas.matmul(xp, _h(xp, l2), g2))
    psi[..., k:, :] = g2
    psi[..., :k, :] = solve_triangular(xp, _h(xp, l1), phi, True, False, True)
    # (P psi) U1^-H = (U1^-1 (P psi)^H)^H
    product = blas.matmul(xp, pmat, psi)
    return _h(xp, solve_triangular(xp, u1, _h(xp, product), True, False, False)).astype(
        x.dtype, copy=False
    )


@register_kernel("lu_unpack_grad", dtypes=FLOATS_AND_COMPLEX, configure=any_dtype_inputs(1))
def lu_unpack_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    l: Array,  # noqa: E741 (PaddlePaddle's name)
    u: Array,
    pmat: Array,
    l_grad: Array,
    u_grad: Array,
    unpack_ludata: bool,
    unpack_pivots: bool,
) -> Array:
    """tril(l_grad, -1) and triu(u_grad) in x's shape; zeros without ``unpack_ludata``."""
    xp = ctx.xp
    x_grad = xp.zeros(x.shape, dtype=x.dtype)
    if not unpack_ludata or x.size == 0:
        return x_grad
    m, n = x.shape[-2:]
    k = min(m, n)
    lower = xp.tril(l_grad.astype(x.dtype, copy=False), -1)
    upper = xp.triu(u_grad.astype(x.dtype, copy=False))
    if m <= n:
        x_grad[..., :, :k] = lower
        return x_grad + upper
    x_grad[..., :k, :] = upper
    return x_grad + lower


# PaddlePaddle registers eig_grad for float32/float64 too; its inputs being complex, the
# complex kernels are the ones a call selects.
@register_kernel("eig_grad", dtypes=FLOATS_AND_COMPLEX)
def eig_grad_kernel(
    ctx: KernelContext, out_w: Array, out_v: Array, out_w_grad: Array, out_v_grad: Array
) -> Array:
    """The (complex) gradient of eig's eigenvalues ``out_w`` and eigenvectors ``out_v`` with
    respect to the matrix."""
    xp = ctx.xp
    dtype = out_v.dtype
    if out_v.size == 0:
        return xp.zeros(out_v.shape, dtype=dtype)
    vh = _h(xp, out_v)
    conj_w = xp.conj(out_w)
    gaps = conj_w[..., None, :] - conj_w[..., :, None]
    vh_gv = blas.matmul(xp, vh, out_v_grad.astype(dtype, copy=False))
    diagonal = xp.real(xp.diagonal(vh_gv, axis1=-2, axis2=-1)).astype(dtype)
    result = vh_gv - blas.matmul(xp, vh, out_v * diagonal[..., None, :])
    n = out_v.shape[-1]
    eye = xp.eye(n, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = result / xp.where(eye, xp.ones((), dtype=dtype), gaps)
    result = xp.where(eye, out_w_grad.astype(dtype, copy=False)[..., None, :], result)
    return xp.linalg.solve(vh, blas.matmul(xp, result, vh)).astype(dtype, copy=False)


@register_kernel("baddbmm_grad", dtypes=REAL_FLOATS)
def baddbmm_grad_kernel(
    ctx: KernelContext,
    input: Array,
    x: Array,
    y: Array,
    out_grad: Array,
    alpha: float,
    beta: float,
) -> tuple[Array, Array, Array]:
    """dInput = beta dOut summed to input's dims; dX = alpha dOut y^T; dY = alpha x^T dOut,
    per batch."""
    xp = ctx.xp
    dtype = x.dtype.type
    input_grad = x_grad = y_grad = None
    if ctx.wants(0):
        shaped = baddbmm_input(input).shape
        input_grad = reduce_to_shape(xp, dtype(beta) * out_grad, shaped).reshape(input.shape)
        input_grad = input_grad.astype(input.dtype, copy=False)
    if ctx.wants(1):
        x_grad = dtype(alpha) * blas.matmul(xp, out_grad, xp.swapaxes(y, -1, -2))
        x_grad = x_grad.astype(x.dtype, copy=False)
    if ctx.wants(2):
        y_grad = dtype(alpha) * blas.matmul(xp, xp.swapaxes(x, -1, -2), out_grad)
        y_grad = y_grad.astype(y.dtype, copy=False)
    return input_grad, x_grad, y_grad
