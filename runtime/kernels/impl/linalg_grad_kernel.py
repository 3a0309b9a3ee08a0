"""Grad kernels of the linear-algebra ops (bmm_grad, mv_grad, dot_grad, kron_grad, cross_grad,
trace_grad, ...), as PaddlePaddle 3.3.1's backward kernels compute them: complex operands get
conjugated partners (dX = dOut * conj(Y) for dot, dX = conj(Y) × dOut for cross), and only the
gradients the caller wants are computed."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.linalg import cross_axis, diagonal_axes
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex
from phiops.runtime.kernels.impl.linalg_kernel import (
    DIAGONAL_DTYPES,
    DOT_CROSS_DTYPES,
    FLOATS_AND_COMPLEX,
    KRON_TRACE_DTYPES,
    REAL_FLOATS,
    cross_product,
    write_diagonal,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _shape_only_x(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("bmm_grad", dtypes=REAL_FLOATS)
def bmm_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """dX = dOut @ Y^T, dY = X^T @ dOut, batch by batch."""
    xp = ctx.xp
    x_grad = blas.matmul(xp, out_grad, xp.swapaxes(y, -1, -2)) if ctx.wants(0) else None
    y_grad = blas.matmul(xp, xp.swapaxes(x, -1, -2), out_grad) if ctx.wants(1) else None
    return x_grad, y_grad


@register_kernel("mv_grad", dtypes=REAL_FLOATS)
def mv_grad_kernel(
    ctx: KernelContext, x: Array, vec: Array, out_grad: Array
) -> tuple[Array, Array]:
    """dX = outer(dOut, vec), dVec = X^T @ dOut."""
    xp = ctx.xp
    x_grad = out_grad[:, None] * vec[None, :] if ctx.wants(0) else None
    vec_grad = blas.matmul(xp, out_grad, x) if ctx.wants(1) else None
    return x_grad, vec_grad


@register_kernel("dot_grad", dtypes=DOT_CROSS_DTYPES)
def dot_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """dX = dOut * conj(Y), dY = dOut * conj(X), dOut broadcast along the summed axis."""
    xp = ctx.xp
    grad = out_grad[..., None]
    x_grad = (grad * conj_if_complex(xp, y)).astype(x.dtype, copy=False) if ctx.wants(0) else None
    y_grad = (grad * conj_if_complex(xp, x)).astype(y.dtype, copy=False) if ctx.wants(1) else None
    return x_grad, y_grad


@register_kernel("kron_grad", dtypes=KRON_TRACE_DTYPES)
def kron_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """With out[i*b + j] = x[i] * y[j] per axis: dX[i] = sum_j dOut[i*b + j] conj(y[j]) and
    dY[j] = sum_i dOut[i*b + j] conj(x[i]), out_grad viewed as interleaved (a0, b0, a1, b1, ...)."""
    xp = ctx.xp
    rank = out_grad.ndim
    x_dims = (1,) * (rank - x.ndim) + x.shape
    y_dims = (1,) * (rank - y.ndim) + y.shape
    grid = out_grad.reshape(tuple(e for a, b in zip(x_dims, y_dims) for e in (a, b)))
    x_axes = tuple(range(0, 2 * rank, 2))
    y_axes = tuple(range(1, 2 * rank, 2))
    x_grad = y_grad = None
    if ctx.wants(0):
        spread_y = conj_if_complex(xp, y).reshape(tuple(e for b in y_dims for e in (1, b)))
        x_grad = (grid * spread_y).sum(axis=y_axes, dtype=_sum_dtype(xp, x.dtype))
        x_grad = x_grad.reshape(x.shape).astype(x.dtype, copy=False)
    if ctx.wants(1):
        spread_x = conj_if_complex(xp, x).reshape(tuple(e for a in x_dims for e in (a, 1)))
        y_grad = (grid * spread_x).sum(axis=x_axes, dtype=_sum_dtype(xp, y.dtype))
        y_grad = y_grad.reshape(y.shape).astype(y.dtype, copy=False)
    return x_grad, y_grad


def _sum_dtype(xp, dtype):
    return xp.float32 if dtype == xp.float16 else dtype


@register_kernel("cross_grad", dtypes=DOT_CROSS_DTYPES)
def cross_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, axis: int
) -> tuple[Array, Array]:
    """dX = conj(Y) × dOut, dY = dOut × conj(X)."""
    xp = ctx.xp
    index = cross_axis(x.shape, axis)
    x_grad = cross_product(xp, conj_if_complex(xp, y), out_grad, index) if ctx.wants(0) else None
    y_grad = cross_product(xp, out_grad, conj_if_complex(xp, x), index) if ctx.wants(1) else None
    return x_grad, y_grad


@register_kernel("trace_grad", dtypes=KRON_TRACE_DTYPES, configure=_shape_only_x)
def trace_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, offset: int, axis1: int, axis2: int
) -> Array:
    """out_grad on diagonal ``offset`` of each matrix (``x`` is read for its shape alone), 0
    elsewhere."""
    xp = ctx.xp
    first, second = diagonal_axes(len(x.shape), axis1, axis2)
    x_grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    write_diagonal(xp, x_grad, out_grad[..., None], offset, first, second)
    return x_grad


@register_kernel("diagonal_grad", dtypes=DIAGONAL_DTYPES, configure=_shape_only_x)
def diagonal_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, offset: int, axis1: int, axis2: int
) -> Array:
    """out_grad (its last axis along the diagonal) on diagonal ``offset`` of each matrix (``x``
    is read for its shape alone), 0 elsewhere."""
    xp = ctx.xp
    first, second = diagonal_axes(len(x.shape), axis1, axis2)
    x_grad = xp.zeros(x.shape, dtype=out_grad.dtype)
    write_diagonal(xp, x_grad, out_grad, offset, first, second)
    return x_grad


@register_kernel("inverse_grad", dtypes=FLOATS_AND_COMPLEX)
def inverse_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    """dX = -out^H @ dOut @ out^H (the conjugate transpose for complex matrices)."""
    xp = ctx.xp
    out_h = xp.swapaxes(conj_if_complex(xp, out), -1, -2)
    return -blas.matmul(xp, blas.matmul(xp, out_h, out_grad), out_h)


@register_kernel("cholesky_grad", dtypes=REAL_FLOATS)
def cholesky_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array, upper: bool) -> Array:
    """With L the lower factor (out, or out^T when ``upper``) and dL its gradient:
    S = L^-T Phi(L^T dL) L^-1, where Phi keeps the lower triangle and halves the diagonal, and
    dX = (S + S^T) / 2, symmetric, as PaddlePaddle's CholeskyGradKernel computes it."""
    xp = ctx.xp
    if out.size == 0:
        return xp.zeros(out.shape, dtype=out.dtype)
    lower = xp.swapaxes(out, -1, -2) if upper else out
    lower_grad = xp.swapaxes(out_grad, -1, -2) if upper else out_grad
    product = blas.matmul(xp, xp.swapaxes(lower, -1, -2), lower_grad)
    n = product.shape[-1]
    phi = xp.tril(product) - 0.5 * product * xp.eye(n, dtype=product.dtype)
    lower_inv = xp.linalg.inv(lower)
    s = blas.matmul(xp, blas.matmul(xp, xp.swapaxes(lower_inv, -1, -2), phi), lower_inv)
    return (0.5 * (s + xp.swapaxes(s, -1, -2))).astype(out.dtype, copy=False)
