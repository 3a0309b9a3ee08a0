"""Kernels of the linear-algebra ops: bmm, mv, dot, kron, cross, trace, ...

Written against ``ctx.xp`` (numpy on CPU, CuPy on GPU); the dtypes registered are PaddlePaddle
3.3.1's CPU registrations (paddle/phi/kernels/cpu/<op>_kernel.cc). Products go through
``blas.matmul`` so that the BLAS thread policy (FLAGS_blas_threads) applies. Integer results stay
in the input's dtype (numpy's ``trace`` and ``sum`` would widen int32 to int64); float16 sums
are accumulated in float32, as PaddlePaddle's CPU kernels accumulate in MPType.
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.linalg import cross_axis, diag_embed_dims, diagonal_axes
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

REAL_FLOATS = (D.FLOAT32, D.FLOAT64)
DOT_CROSS_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64, D.COMPLEX64, D.COMPLEX128)
KRON_TRACE_DTYPES = DOT_CROSS_DTYPES + (D.FLOAT16,)
# PaddlePaddle's diagonal registrations less float8_e4m3fn and float8_e5m2, which numpy lacks
DIAGONAL_DTYPES = (
    D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32,
    D.FLOAT64, D.COMPLEX64, D.COMPLEX128,
)  # fmt: skip
DIAG_EMBED_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
FLOATS_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _accumulator(xp: ModuleType, dtype) -> object:
    """The dtype a sum of ``dtype`` values runs in: float32 for float16, else itself."""
    return xp.float32 if dtype == xp.float16 else dtype


@register_kernel("bmm", dtypes=REAL_FLOATS)
def bmm_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """[B, M, K] @ [B, K, N] -> [B, M, N]; K = 0 gives zeros."""
    return blas.matmul(ctx.xp, x, y)


@register_kernel("mv", dtypes=REAL_FLOATS)
def mv_kernel(ctx: KernelContext, x: Array, vec: Array) -> Array:
    """[M, N] @ [N] -> [M]."""
    return blas.matmul(ctx.xp, x, vec)


@register_kernel("dot", dtypes=DOT_CROSS_DTYPES)
def dot_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """sum(x * y) along the last axis, without conjugation: 0-D for vectors, [B] for [B, N]."""
    xp = ctx.xp
    if x.ndim == 1:
        return xp.asarray(xp.dot(x, y), dtype=x.dtype)
    return (x * y).sum(axis=-1, dtype=x.dtype)


@register_kernel("kron", dtypes=KRON_TRACE_DTYPES)
def kron_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """The Kronecker product; the operand of lower rank gets leading 1s first."""
    xp = ctx.xp
    rank = max(x.ndim, y.ndim)
    x = x.reshape((1,) * (rank - x.ndim) + x.shape)
    y = y.reshape((1,) * (rank - y.ndim) + y.shape)
    # out[i0*b0 + j0, i1*b1 + j1, ...] = x[i0, i1, ...] * y[j0, j1, ...]
    spread_x = x.reshape(tuple(e for a in x.shape for e in (a, 1)))
    spread_y = y.reshape(tuple(e for b in y.shape for e in (1, b)))
    product = spread_x * spread_y
    return product.reshape(tuple(a * b for a, b in zip(x.shape, y.shape))).astype(x.dtype, copy=False)


def cross_product(xp: ModuleType, x: Array, y: Array, axis: int) -> Array:
    """x × y along ``axis`` (extent 3), in x's dtype, without conjugation: each component
    written in place into the result (views, no stacked temporaries)."""
    out = xp.empty(x.shape, dtype=x.dtype)  # x and y have equal dims (CrossInferMeta)
    xs, ys, outs = (xp.moveaxis(a, axis, 0) for a in (x, y, out))
    for k, (i, j) in enumerate(((1, 2), (2, 0), (0, 1))):
        # slices keep the axis, so a 1-D operand gives views too, not scalars
        target = outs[k : k + 1]
        xp.multiply(xs[i : i + 1], ys[j : j + 1], out=target)
        target -= xs[j : j + 1] * ys[i : i + 1]
    return out


@register_kernel("cross", dtypes=DOT_CROSS_DTYPES)
def cross_kernel(ctx: KernelContext, x: Array, y: Array, axis: int) -> Array:
    """The cross product of the 3-vectors along ``axis`` (9: the first axis of extent 3)."""
    return cross_product(ctx.xp, x, y, cross_axis(x.shape, axis))


@register_kernel("trace", dtypes=KRON_TRACE_DTYPES)
def trace_kernel(ctx: KernelContext, x: Array, offset: int, axis1: int, axis2: int) -> Array:
    """The sum of diagonal ``offset`` of the matrices spanned by ``axis1`` and ``axis2`` (0 for
    a diagonal beyond the matrix); the other axes remain, in order."""
    xp = ctx.xp
    total = xp.trace(x, offset, axis1, axis2, dtype=_accumulator(xp, x.dtype))
    return xp.asarray(total).astype(x.dtype, copy=False)


@register_kernel("diagonal", dtypes=DIAGONAL_DTYPES)
def diagonal_kernel(ctx: KernelContext, x: Array, offset: int, axis1: int, axis2: int) -> Array:
    """Diagonal ``offset`` of the (axis1, axis2) matrices, as a new array whose last axis runs
    along the diagonal (empty beyond the matrices)."""
    first, second = diagonal_axes(x.ndim, axis1, axis2)
    return ctx.xp.ascontiguousarray(ctx.xp.diagonal(x, offset, first, second))


def write_diagonal(
    xp: ModuleType, target: Array, values: Array, offset: int, first: int, second: int
) -> None:
    """Write ``values`` (``target``'s other axes in order, then the diagonal's) onto diagonal
    ``offset`` of ``target``'s (first, second) matrices, in place."""
    view = xp.moveaxis(target, (first, second), (-2, -1))
    rows, cols = view.shape[-2], view.shape[-1]
    length = min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols)
    if length <= 0:
        return
    start_row, start_col = (0, offset) if offset >= 0 else (-offset, 0)
    row_index = xp.arange(start_row, start_row + length)
    col_index = xp.arange(start_col, start_col + length)
    view[..., row_index, col_index] = values


@register_kernel("diag_embed", dtypes=DIAG_EMBED_DTYPES)
def diag_embed_kernel(ctx: KernelContext, input: Array, offset: int, dim1: int, dim2: int) -> Array:
    """Zeros of the result's shape with ``input``'s last axis on diagonal ``offset`` of the
    (dim1, dim2) matrices: out[..., i, i + offset] = input[..., i] (i - offset, i below)."""
    xp = ctx.xp
    first, second = diag_embed_dims(input.ndim, dim1, dim2)
    size = input.shape[-1] + abs(offset)
    out = xp.zeros(input.shape[:-1] + (size, size), dtype=input.dtype)
    write_diagonal(xp, out, input, offset, out.ndim - 2, out.ndim - 1)
    return xp.ascontiguousarray(xp.moveaxis(out, (-2, -1), (first, second)))


@register_kernel("inverse", dtypes=FLOATS_AND_COMPLEX)
def inverse_kernel(ctx: KernelContext, x: Array) -> Array:
    """The inverse of each matrix of ``x`` (LU with partial pivoting, numpy's/CuPy's ``inv``).

    PaddlePaddle 3.3.1 refuses a matrix whose LU has a zero or NaN pivot; on CPU so does
    phiops (an exactly singular matrix, or one holding NaN). CuPy reports neither: a singular
    matrix on GPU gives inf/NaN entries, as PaddlePaddle's GPU kernel does not check either."""
    xp = ctx.xp
    if x.size == 0:
        return xp.empty(x.shape, dtype=x.dtype)
    if xp.isnan(x).any():
        raise InvalidArgumentError("argument 'x' holds NaN, its LU factorization has a NaN pivot")
    try:
        return xp.linalg.inv(x).astype(x.dtype, copy=False)
    except xp.linalg.LinAlgError:
        raise InvalidArgumentError(
            "argument 'x' holds a singular matrix (a zero pivot in its LU factorization)"
        ) from None


@register_kernel("cholesky", dtypes=REAL_FLOATS)
def cholesky_kernel(ctx: KernelContext, x: Array, upper: bool) -> Array:
    """The Cholesky factor of each symmetric positive-definite matrix of ``x``, read from its
    lower triangle (as PaddlePaddle's Eigen LLT and LAPACK read it): L with x = L L^T, or
    U = L^T with x = U^T U when ``upper``. A matrix that is not positive definite is an
    InvalidArgumentError on CPU, as in PaddlePaddle 3.3.1."""
    xp = ctx.xp
    if x.size == 0:
        return xp.empty(x.shape, dtype=x.dtype)
    try:
        factor = xp.linalg.cholesky(x)
    except xp.linalg.LinAlgError:
        raise InvalidArgumentError(
            "argument 'x' holds a matrix that is not positive definite (its Cholesky "
            "factorization failed)"
        ) from None
    if upper:
        factor = xp.swapaxes(factor, -1, -2)
    return xp.ascontiguousarray(factor).astype(x.dtype, copy=False)
