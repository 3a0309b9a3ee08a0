"""Kernels of the linalg2 ops: solvers (solve, triangular_solve, cholesky_solve), determinants
(det, slogdet), matrix_power, multi_dot, the norms (p_norm, frobenius_norm, dist) and addmm.

Written against ``ctx.xp`` (numpy on CPU, CuPy on GPU) with the ``linalg`` functions both have;
the dtypes registered are PaddlePaddle 3.3.1's CPU registrations. Where PaddlePaddle's kernel
refuses a matrix (a zero LU pivot in solve and in matrix_power's inverse) phiops raises an
InvalidArgumentError naming the argument; where it computes through (triangular_solve's
back-substitution by a zero diagonal gives inf/nan), phiops does too. The edge values written in
the docstrings were checked against PaddlePaddle 3.3.1.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL_FLOATS = (D.FLOAT32, D.FLOAT64)
FLOATS_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)

__all__ = [
    "REAL_FLOATS",
    "FLOATS_AND_COMPLEX",
    "batch_broadcast",
    "solve_triangular",
    "cholesky_solve_arrays",
    "chain_order",
    "chain_product",
    "matrix_power_arrays",
    "norm_of",
    "reduce_axes",
    "renorm_scales",
]


def _singular(name: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"argument '{name}' holds a singular matrix (a zero pivot in its LU factorization)"
    )


def batch_broadcast(xp: ModuleType, a: Array, b: Array) -> tuple[Array, Array]:
    """``a`` [..., M, M] and ``b`` [..., M, K] with their batch dims broadcast together."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return xp.broadcast_to(a, batch + a.shape[-2:]), xp.broadcast_to(b, batch + b.shape[-2:])


def _substitute(xp: ModuleType, a: Array, b: Array, lower: bool) -> Array:
    """Forward (``lower``) or back substitution, row by row: a zero diagonal gives inf/nan as
    LAPACK's trtrs/trsm does (PaddlePaddle's triangular_solve), where an LU solve would refuse."""
    n = a.shape[-1]
    out = xp.zeros(b.shape, dtype=np.result_type(a.dtype, b.dtype))
    rows = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in rows:
            done = slice(0, i) if lower else slice(i + 1, n)
            rest = (
                b[..., i, :]
                - blas.matmul(xp, a[..., i : i + 1, done], out[..., done, :])[..., 0, :]
            )
            out[..., i, :] = rest / a[..., i, i][..., None]
    return out


def solve_triangular(
    xp: ModuleType, x: Array, y: Array, upper: bool, transpose: bool, unitriangular: bool
) -> Array:
    """op(T) out = y with T the ``upper`` or lower triangle of ``x`` (its other side not read),
    with ones on its diagonal when ``unitriangular``, op the plain transpose when ``transpose``;
    batch dims broadcast."""
    x, y = batch_broadcast(xp, x, y)
    n = x.shape[-1]
    a = xp.triu(x) if upper else xp.tril(x)
    if unitriangular:
        eye = xp.eye(n, dtype=bool)
        a = xp.where(eye, xp.asarray(1, dtype=a.dtype), a)
    lower = not upper
    if transpose:
        a, lower = xp.swapaxes(a, -1, -2), upper
    if y.size == 0 or n == 0:
        return xp.zeros(y.shape, dtype=y.dtype)
    try:
        return xp.linalg.solve(a, y).astype(y.dtype, copy=False)
    except xp.linalg.LinAlgError:
        return _substitute(xp, a, y, lower).astype(y.dtype, copy=False)


def cholesky_solve_arrays(xp: ModuleType, x: Array, y: Array, upper: bool) -> Array:
    """A^-1 x with A = L L^H (``y`` = L, lower) or A = U^H U (``y`` = U, ``upper``)."""
    if upper:
        z = solve_triangular(xp, xp.conj(y) if y.dtype.kind == "c" else y, x, True, True, False)
        return solve_triangular(xp, y, z, True, False, False)
    z = solve_triangular(xp, y, x, False, False, False)
    y_h = xp.conj(y) if y.dtype.kind == "c" else y
    return solve_triangular(xp, y_h, z, False, True, False)


@register_kernel("solve", dtypes=REAL_FLOATS)
def solve_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """x out = y for each matrix of ``x``: ``y`` [..., M, K], or [M] for one right-hand side;
    batch dims broadcast. A singular matrix is an InvalidArgumentError, as PaddlePaddle 3.3.1
    refuses a zero LU pivot."""
    xp = ctx.xp
    vector = y.ndim == 1
    rhs = y[:, None] if vector else y
    a, b = batch_broadcast(xp, x, rhs)
    if b.size == 0 or a.shape[-1] == 0:
        out = xp.zeros(b.shape, dtype=x.dtype)
    else:
        try:
            out = xp.linalg.solve(a, b)
        except xp.linalg.LinAlgError:
            raise _singular("x") from None
    return (out[..., 0] if vector else out).astype(x.dtype, copy=False)


@register_kernel("triangular_solve", dtypes=FLOATS_AND_COMPLEX)
def triangular_solve_kernel(
    ctx: KernelContext, x: Array, y: Array, upper: bool, transpose: bool, unitriangular: bool
) -> Array:
    """op(T) out = y, T the triangle of ``x`` that ``upper`` names (the other side not read);
    a zero on T's diagonal gives inf/nan, as PaddlePaddle 3.3.1's back-substitution does."""
    return solve_triangular(ctx.xp, x, y, upper, transpose, unitriangular)


@register_kernel("cholesky_solve", dtypes=REAL_FLOATS)
def cholesky_solve_kernel(ctx: KernelContext, x: Array, y: Array, upper: bool) -> Array:
    """A^-1 x with A = L L^T (``y`` = L) or U^T U (``y`` = U when ``upper``); only ``y``'s
    triangle is read; batch dims broadcast."""
    return cholesky_solve_arrays(ctx.xp, x, y, upper)


@register_kernel("determinant", dtypes=FLOATS_AND_COMPLEX)
def determinant_kernel(ctx: KernelContext, x: Array) -> Array:
    """The determinant of each matrix of ``x`` [..., N, N]: dims [...] (1 for N = 0)."""
    xp = ctx.xp
    if x.size == 0:
        return xp.ones(x.shape[:-2], dtype=x.dtype)
    return xp.asarray(xp.linalg.det(x), dtype=x.dtype)


@register_kernel("slogdet", dtypes=FLOATS_AND_COMPLEX)
def slogdet_kernel(ctx: KernelContext, x: Array) -> Array:
    """[sign, log|det|] of each matrix, stacked first: dims [2, ...]; a singular matrix gives
    [0, -inf]; for complex x the sign is det / |det| and the logarithm is real (in x's dtype)."""
    xp = ctx.xp
    if x.size == 0:
        batch = x.shape[:-2]
        return xp.stack([xp.ones(batch, dtype=x.dtype), xp.zeros(batch, dtype=x.dtype)])
    sign, logdet = xp.linalg.slogdet(x)
    return xp.stack([xp.asarray(sign, dtype=x.dtype), xp.asarray(logdet, dtype=x.dtype)])


def matrix_power_arrays(xp: ModuleType, x: Array, n: int) -> Array:
    """x^n by repeated squaring; x^-n = (x^-1)^n; x^0 the identity."""
    if n < 0:
        try:
            x = xp.linalg.inv(x) if x.size else x
        except xp.linalg.LinAlgError:
            raise _singular("x") from None
        n = -n
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else blas.matmul(xp, result, base)
        n >>= 1
        if n:
            base = blas.matmul(xp, base, base)
    if result is None:
        return xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), x.shape).copy()
    return xp.ascontiguousarray(result)


@register_kernel("matrix_power", dtypes=FLOATS_AND_COMPLEX)
def matrix_power_kernel(ctx: KernelContext, x: Array, n: int) -> Array:
    """x^n for each matrix: the identity for n = 0, powers of the inverse for n < 0 (a singular
    matrix is then an InvalidArgumentError, as in PaddlePaddle 3.3.1)."""
    return matrix_power_arrays(ctx.xp, x, n).astype(x.dtype, copy=False)


def chain_order(dims: list[tuple[int, int]]) -> list[list[int]]:
    """The split points of the cheapest parenthesisation of a chain of [rows, cols] matrices
    (the classic dynamic programme, as PaddlePaddle's multi_dot and numpy's choose it)."""
    n = len(dims)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i][0] * dims[k][1] * dims[j][1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(xp: ModuleType, mats: list[Array], split: list[list[int]], i: int, j: int) -> Array:
    if i == j:
        return mats[i]
    k = split[i][j]
    return blas.matmul(xp, _chain(xp, mats, split, i, k), _chain(xp, mats, split, k + 1, j))


def chain_product(xp: ModuleType, mats: list[Array]) -> Array:
    """The product of 2-D ``mats`` in the cheapest order."""
    if len(mats) == 1:
        return mats[0]
    split = chain_order([m.shape for m in mats])
    return _chain(xp, mats, split, 0, len(mats) - 1)


@register_kernel("multi_dot", dtypes=REAL_FLOATS)
def multi_dot_kernel(ctx: KernelContext, x: list[Array]) -> Array:
    """The chained product x[0] @ x[1] @ ..., in the cheapest order; a 1-D first (last) operand
    is a row (column) vector whose dim the result drops."""
    xp = ctx.xp
    mats = list(x)
    if mats[0].ndim == 1:
        mats[0] = mats[0][None, :]
    if mats[-1].ndim == 1:
        mats[-1] = mats[-1][:, None]
    out = chain_product(xp, mats)
    dims = (out.shape[0],) * (x[0].ndim == 2) + (out.shape[1],) * (x[-1].ndim == 2)
    return out.reshape(dims).astype(x[0].dtype, copy=False)


def norm_of(
    xp: ModuleType,
    values: Array,
    p: float,
    axis: tuple[int, ...] | None,
    keepdims: bool,
    inverse_p: float | None = None,
) -> Array:
    """The p-norm of ``values`` over ``axis``: the count of non-zeros for p = 0, the largest
    (smallest) |value| for p = inf (-inf), (sum |value|^p)^(1/p) otherwise (``inverse_p`` for
    1/p where the caller's kernel rounds it differently); 0 for an empty reduction."""
    real = values.real.dtype if values.dtype.kind == "c" else values.dtype
    if p == 0:
        return xp.sum(values != 0, axis=axis, keepdims=keepdims).astype(real)
    if values.size == 0 or (axis is not None and any(values.shape[a] == 0 for a in axis)):
        shape = np.sum(np.empty(values.shape, dtype=np.int8), axis=axis, keepdims=keepdims).shape
        return xp.zeros(shape, dtype=real)
    if p == 2 and values.dtype.kind != "c":  # as numpy's norm: squares without abs, then sqrt
        if values.ndim == 1 and not keepdims:  # all elements: one BLAS dot
            return xp.sqrt(xp.dot(values, values))
        return xp.sqrt(xp.sum(values * values, axis=axis, keepdims=keepdims))
    magnitude = xp.abs(values)
    if p == 1:
        return xp.sum(magnitude, axis=axis, keepdims=keepdims)
    if p == np.inf:
        return xp.max(magnitude, axis=axis, keepdims=keepdims)
    if p == -np.inf:
        return xp.min(magnitude, axis=axis, keepdims=keepdims)
    with np.errstate(divide="ignore", over="ignore"):
        total = xp.sum(magnitude**p, axis=axis, keepdims=keepdims)
        return total ** magnitude.dtype.type(1.0 / p if inverse_p is None else inverse_p)


@register_kernel("p_norm", dtypes=REAL_FLOATS)
def p_norm_kernel(
    ctx: KernelContext,
    x: Array,
    porder: float,
    axis: int,
    epsilon: float,
    keepdim: bool,
    asvector: bool,
) -> Array:
    """The ``porder``-norm of ``x`` along ``axis`` (over every element with ``asvector``);
    ``epsilon`` is the gradient's only. A 0-D x gives 0 unless ``asvector``, as PaddlePaddle
    3.3.1's kernel gives (it reduces over an extent of 0 there)."""
    xp = ctx.xp
    # PaddlePaddle's PNormKernel computes 1/porder in float
    inverse_p = float(np.float32(1.0) / np.float32(porder)) if porder else None
    if asvector:
        out = norm_of(xp, x.reshape(-1), porder, (0,), False, inverse_p)
        return out.reshape((1,) * x.ndim if keepdim else ()).astype(x.dtype, copy=False)
    if x.ndim == 0:
        return xp.zeros((), dtype=x.dtype)
    out = norm_of(xp, x, porder, (axis % x.ndim,), keepdim, inverse_p)
    return out.astype(x.dtype, copy=False)


def reduce_axes(ndim: int, axis: tuple[int, ...], reduce_all: bool) -> tuple[int, ...]:
    """The axes a reduction over ``axis`` covers: all of them for ``reduce_all``, an empty
    ``axis`` or one naming every axis; negative ones counted from the end."""
    if reduce_all or not axis or len(axis) >= ndim:
        return tuple(range(ndim))
    return tuple(sorted({a % ndim for a in axis}))


@register_kernel("frobenius_norm", dtypes=FLOATS_AND_COMPLEX)
def frobenius_norm_kernel(
    ctx: KernelContext, x: Array, axis: tuple[int, ...], keep_dim: bool, reduce_all: bool
) -> Array:
    """sqrt(sum(x * x)) over ``axis`` (every axis for ``reduce_all`` or an empty ``axis``). For
    complex x the squares are not conjugated (x * x, not |x|^2), as PaddlePaddle 3.3.1 computes
    it, so the result is complex."""
    xp = ctx.xp
    axes = reduce_axes(x.ndim, tuple(axis), reduce_all)
    total = xp.sum(x * x, axis=axes, keepdims=keep_dim, dtype=x.dtype)
    return xp.sqrt(total).astype(x.dtype, copy=False)


@register_kernel("dist", dtypes=REAL_FLOATS)
def dist_kernel(ctx: KernelContext, x: Array, y: Array, p: float) -> Array:
    """The ``p``-norm of x - y (broadcast) over every element, 0-D: the count of non-zeros for
    p = 0, max (min) |x - y| for p = inf (-inf); 0 for empty operands. The root's exponent 1/p
    is rounded to float32 first, as PaddlePaddle 3.3.1 computes it."""
    xp = ctx.xp
    diff = x - y
    # PaddlePaddle's DistKernel computes 1/p in float
    inverse_p = float(np.float32(1.0) / np.float32(p)) if p else None
    return xp.asarray(norm_of(xp, diff.reshape(-1), p, (0,), False, inverse_p), dtype=x.dtype)


@register_kernel("addmm", dtypes=REAL_FLOATS)
def addmm_kernel(
    ctx: KernelContext, input: Array, x: Array, y: Array, beta: float, alpha: float
) -> Array:
    """beta * input + alpha * (x @ y), ``input`` broadcast to [M, N]."""
    xp = ctx.xp
    dtype = x.dtype.type
    product = blas.matmul(xp, x, y)
    out = dtype(beta) * xp.broadcast_to(input, product.shape) + dtype(alpha) * product
    return out.astype(x.dtype, copy=False)


def _eps(dtype: np.dtype) -> float:
    return float(np.finfo(np.dtype(dtype).type(0).real.dtype).eps)


@register_kernel("qr", dtypes=FLOATS_AND_COMPLEX)
def qr_kernel(ctx: KernelContext, x: Array, mode: str) -> tuple[Array, Array]:
    """Householder QR of each matrix, LAPACK's signs (as numpy's and PaddlePaddle's): q with
    orthonormal columns, r upper triangular; "complete" gives a square q, "r" an empty q."""
    xp = ctx.xp
    *batch, m, n = x.shape
    k = min(m, n)
    batch = tuple(batch)
    if x.size == 0:
        q_cols, r_rows = (m, m) if mode == "complete" else (k, k)
        q = xp.broadcast_to(xp.eye(m, q_cols, dtype=x.dtype), batch + (m, q_cols)).copy()
        r = xp.zeros(batch + (r_rows, n), dtype=x.dtype)
    else:
        q, r = xp.linalg.qr(x, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = xp.zeros((0,), dtype=x.dtype)
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)


@register_kernel("svd", dtypes=FLOATS_AND_COMPLEX)
def svd_kernel(ctx: KernelContext, x: Array, full_matrices: bool) -> tuple[Array, Array, Array]:
    """x = u diag(s) vh for each matrix, s descending and real, LAPACK's (gesdd) signs as numpy's
    and PaddlePaddle's."""
    xp = ctx.xp
    *batch, m, n = x.shape
    k = min(m, n)
    batch = tuple(batch)
    if x.size == 0:
        u_cols, vh_rows = (m, n) if full_matrices else (k, k)
        u = xp.broadcast_to(xp.eye(m, u_cols, dtype=x.dtype), batch + (m, u_cols)).copy()
        vh = xp.broadcast_to(xp.eye(vh_rows, n, dtype=x.dtype), batch + (vh_rows, n)).copy()
        return u, xp.zeros(batch + (k,), dtype=x.real.dtype), vh
    u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
    return u.astype(x.dtype, copy=False), s.astype(x.real.dtype, copy=False), vh.astype(x.dtype)


def _eigh(xp: ModuleType, x: Array, uplo: str) -> tuple[Array, Array]:
    if x.size == 0:
        return xp.zeros(x.shape[:-1], dtype=x.real.dtype), xp.zeros(x.shape, dtype=x.dtype)
    w, v = xp.linalg.eigh(x, UPLO=uplo)
    return w.astype(x.real.dtype, copy=False), v.astype(x.dtype, copy=False)


@register_kernel("eigh", dtypes=FLOATS_AND_COMPLEX)
def eigh_kernel(ctx: KernelContext, x: Array, UPLO: str) -> tuple[Array, Array]:
    """Eigenvalues (ascending, real) and eigenvectors (columns, LAPACK's signs) of each
    Hermitian matrix, read from the triangle ``UPLO`` names."""
    return _eigh(ctx.xp, x, UPLO)


@register_kernel("eigvalsh", dtypes=FLOATS_AND_COMPLEX)
def eigvalsh_kernel(ctx: KernelContext, x: Array, uplo: str, is_test: bool) -> tuple[Array, Array]:
    """eigh's eigenvalues, with the eigenvectors the gradient needs (computed with ``is_test``
    too, where PaddlePaddle leaves them unset)."""
    return _eigh(ctx.xp, x, uplo)


def _singular_values(xp: ModuleType, x: Array, hermitian: bool) -> Array:
    if x.size == 0:
        return xp.zeros(x.shape[:-2] + (min(x.shape[-2:]),), dtype=x.real.dtype)
    if hermitian:
        return xp.abs(xp.linalg.eigvalsh(x))
    return xp.linalg.svd(x, compute_uv=False)


def _rank(xp: ModuleType, values: Array, tol: Array) -> Array:
    return xp.sum(values > tol[..., None], axis=-1).astype(np.int64)


def _default_tol(xp: ModuleType, x: Array, values: Array) -> Array:
    largest = values.max(axis=-1) if values.shape[-1] else xp.zeros(values.shape[:-1])
    return largest * values.dtype.type(_eps(x.dtype) * max(x.shape[-2:]))


@register_kernel("matrix_rank", dtypes=FLOATS_AND_COMPLEX)
def matrix_rank_kernel(
    ctx: KernelContext, x: Array, tol: float, use_default_tol: bool, hermitian: bool
) -> Array:
    """The number of singular values (|eigenvalues| when ``hermitian``) above the tolerance:
    eps * max(M, N) * the largest one with ``use_default_tol``, else ``tol``."""
    xp = ctx.xp
    values = _singular_values(xp, x, hermitian)
    if use_default_tol:
        threshold = _default_tol(xp, x, values)
    else:
        threshold = xp.full(values.shape[:-1], tol, dtype=values.dtype)
    return _rank(xp, values, threshold)


@register_kernel("matrix_rank_tol", dtypes=FLOATS_AND_COMPLEX)
def matrix_rank_tol_kernel(
    ctx: KernelContext, x: Array, atol_tensor: Array, use_default_tol: bool, hermitian: bool
) -> Array:
    """matrix_rank with a tolerance per matrix (``atol_tensor`` broadcast with the batch dims);
    with ``use_default_tol`` the larger of it and the default tolerance."""
    xp = ctx.xp
    values = _singular_values(xp, x, hermitian)
    atol = xp.real(atol_tensor).astype(values.dtype)
    batch = np.broadcast_shapes(values.shape[:-1], atol.shape)
    threshold = xp.broadcast_to(atol, batch)
    values = xp.broadcast_to(values, batch + values.shape[-1:])
    if use_default_tol:
        threshold = xp.maximum(threshold, _default_tol(xp, x, values))
    return _rank(xp, values, threshold)


def renorm_scales(xp: ModuleType, x: Array, p: float, axis: int, max_norm: float):
    """The p-norm of each slice of ``x`` along ``axis`` (kept as extent-1 dims elsewhere) and the
    factor renorm scales it by: max_norm / norm where the norm exceeds max_norm, else 1."""
    axis %= x.ndim
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = xp.sum(xp.abs(x) ** x.dtype.type(p), axis=others, keepdims=True) ** x.dtype.type(1 / p)
    dtype = x.dtype.type
    with np.errstate(divide="ignore"):
        scale = xp.where(norm > dtype(max_norm), dtype(max_norm) / norm, dtype(1))
    return norm, scale


@register_kernel("renorm", dtypes=REAL_FLOATS)
def renorm_kernel(ctx: KernelContext, x: Array, p: float, axis: int, max_norm: float) -> Array:
    """Each slice of ``x`` along ``axis`` whose p-norm exceeds ``max_norm`` scaled by
    max_norm / norm (PaddlePaddle 3.3.1's kernel adds no epsilon); the others unchanged."""
    if x.size == 0:
        return ctx.xp.array(x, copy=True)
    _, scale = renorm_scales(ctx.xp, x, p, axis, max_norm)
    return (x * scale).astype(x.dtype, copy=False)


@register_kernel("squared_l2_norm", dtypes=REAL_FLOATS)
def squared_l2_norm_kernel(ctx: KernelContext, x: Array) -> Array:
    """sum(x * x), dims [1] (0 for an empty x)."""
    xp = ctx.xp
    return xp.sum(x * x, dtype=x.dtype).reshape(1)


@register_kernel("l1_norm", dtypes=(D.FLOAT32,))
def l1_norm_kernel(ctx: KernelContext, x: Array) -> Array:
    """sum(|x|), 0-D (0 for an empty x)."""
    xp = ctx.xp
    return xp.asarray(xp.sum(xp.abs(x), dtype=x.dtype))


@register_kernel("eigvals", dtypes=FLOATS_AND_COMPLEX)
def eigvals_kernel(ctx: KernelContext, x: Array) -> Array:
    """The eigenvalues of each square matrix, complex, in numpy's (LAPACK geev) order, which
    may differ from PaddlePaddle's for float32 and complex input. Needs ``xp.linalg.eigvals``: numpy has it; a CuPy without it raises
    UnimplementedError."""
    xp = ctx.xp
    dtype = np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128
    if x.size == 0:
        return xp.zeros(x.shape[:-1], dtype=dtype)
    eigvals = getattr(xp.linalg, "eigvals", None)
    if eigvals is None:
        raise UnimplementedError(f"eigvals: {xp.__name__}.linalg has no eigvals on this device")
    return xp.asarray(eigvals(x), dtype=dtype)
