"""Kernels of the linalg24 ops: lu (LU factorization with partial pivoting), lu_unpack, eig and
lstsq.

Written against ``ctx.xp`` (numpy on CPU, CuPy on GPU); the dtypes registered are PaddlePaddle
3.3.1's CPU registrations. ``lu`` is LAPACK getrf's algorithm written out (numpy has no LU):
column by column, the row whose entry has the largest |re| + |im| (LAPACK's i?amax, the first
on a tie) is swapped up, the column below the pivot divided by it and the trailing block updated;
a zero pivot leaves its column as it is and records its 1-based index in ``infos`` (the first
one), as getrf does. Pivots are 1-based (LAPACK's ipiv) and int32, as PaddlePaddle gives them.
``eig`` and ``lstsq`` use the LAPACK drivers numpy's ``linalg`` calls (geev; gelsd), per matrix.
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
    "int32_outputs",
    "int64_output",
    "any_dtype_inputs",
    "lu_factor",
    "unpack_lu",
    "permutation_matrix",
    "complex_dtype",
]


def complex_dtype(dtype: np.dtype) -> type:
    """The complex dtype eig gives for ``dtype``: complex64 for float32/complex64, else
    complex128."""
    return np.complex64 if dtype in (np.float32, np.complex64) else np.complex128


def lu_factor(xp: ModuleType, x: Array) -> tuple[Array, Array, Array]:
    """getrf on each matrix of ``x`` [..., M, N]: the packed factors (L's strict lower part with
    its unit diagonal implied, U on and above the diagonal), the int32 1-based pivots
    [..., min(M, N)] and the int32 infos [...] (0, or the first zero pivot's 1-based index)."""
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    k = min(m, n)
    count = int(np.prod(batch, dtype=np.int64))
    lu = xp.array(x.reshape((count, m, n)), copy=True)
    pivots = xp.zeros((count, k), dtype=np.int32)
    infos = xp.zeros((count,), dtype=np.int32)
    rows = xp.arange(count)
    complex_input = lu.dtype.kind == "c"
    for j in range(k):
        column = lu[:, j:, j]
        size = xp.abs(column.real) + xp.abs(column.imag) if complex_input else xp.abs(column)
        pivot_row = xp.argmax(size, axis=1) + j
        pivots[:, j] = (pivot_row + 1).astype(np.int32)
        upper = lu[rows, j, :].copy()
        lu[rows, j, :] = lu[rows, pivot_row, :]
        lu[rows, pivot_row, :] = upper
        pivot = lu[:, j, j]
        zero = pivot == 0
        infos = xp.where((infos == 0) & zero, np.int32(j + 1), infos).astype(np.int32)
        divisor = xp.where(zero, xp.ones((), dtype=lu.dtype), pivot)
        lu[:, j + 1 :, j] = lu[:, j + 1 :, j] / divisor[:, None]
        lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j, None] * lu[:, j, None, j + 1 :]
    return (
        lu.reshape(x.shape),
        pivots.reshape(batch + (k,)),
        infos.reshape(batch),
    )


def int32_outputs(*indices: int):
    """A registration body setting the given outputs to int32 (the pivots and infos)."""

    def configure(kernel) -> None:
        for index in indices:
            kernel.output_at(index).set_dtype(DataType.INT32)

    return configure


def int64_output(kernel) -> None:
    """A registration body setting the (rank) output to int64."""
    kernel.output_at(0).set_dtype(DataType.INT64)


def any_dtype_inputs(*indices: int):
    """A registration body leaving the given (int32 pivot) inputs in their own dtype."""

    def configure(kernel) -> None:
        for index in indices:
            kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)

    return configure


@register_kernel("lu", dtypes=FLOATS_AND_COMPLEX, configure=int32_outputs(1, 2))
def lu_kernel(ctx: KernelContext, x: Array, pivot: bool) -> tuple[Array, Array, Array]:
    """The LU factorization with partial pivoting of each matrix: x = P L U. ``pivot`` False
    is refused, as PaddlePaddle 3.3.1's CPU kernel refuses it."""
    if not pivot:
        raise UnimplementedError(
            "lu: argument 'pivot' False (LU without pivoting) is not implemented on the CPU, "
            "as in PaddlePaddle 3.3.1"
        )
    return lu_factor(ctx.xp, x)


def unpack_lu(xp: ModuleType, packed: Array) -> tuple[Array, Array]:
    """L [..., M, K] (unit diagonal) and U [..., K, N] from lu's packed factors."""
    m, n = packed.shape[-2:]
    k = min(m, n)
    lower = xp.tril(packed[..., :, :k], -1) + xp.eye(m, k, dtype=packed.dtype)
    return lower, xp.triu(packed[..., :k, :])


def permutation_matrix(
    xp: ModuleType, pivots: Array, m: int, dtype: np.dtype, argument: str = "y"
) -> Array:
    """P [..., M, M] with x = P L U from getrf's 1-based ``pivots`` [..., K]: row i was swapped
    with row pivots[i] - 1, in order; P is the transpose of the row permutation applied."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    count = int(np.prod(batch, dtype=np.int64))
    flat = pivots.reshape((count, k)).astype(np.int64) - 1
    if count and k and bool(((flat < 0) | (flat >= m)).any()):
        raise InvalidArgumentError(
            f"argument '{argument}' (the pivots) must hold 1-based row indices in [1, {m}], "
            f"got values from {int(flat.min()) + 1} to {int(flat.max()) + 1}"
        )
    perm = xp.broadcast_to(xp.arange(m), (count, m)).copy()
    rows = xp.arange(count)
    for i in range(k):
        target = flat[:, i]
        current = perm[:, i].copy()
        perm[:, i] = perm[rows, target]
        perm[rows, target] = current
    eye = xp.eye(m, dtype=dtype)
    # Q = eye[perm] applies the swaps (Q x = L U); P = Q^T
    return xp.swapaxes(eye[perm], -1, -2).reshape(batch + (m, m))


@register_kernel("lu_unpack", dtypes=FLOATS_AND_COMPLEX, configure=any_dtype_inputs(1))
def lu_unpack_kernel(
    ctx: KernelContext, x: Array, y: Array, unpack_ludata: bool, unpack_pivots: bool
) -> tuple[Array, Array, Array]:
    """P, L and U from lu's packed factors ``x`` and pivots ``y``; [0] for what the flags
    leave out."""
    xp = ctx.xp
    empty = xp.zeros((0,), dtype=x.dtype)
    lower, upper = unpack_lu(xp, x) if unpack_ludata else (empty, empty)
    pmat = permutation_matrix(xp, y, x.shape[-2], x.dtype) if unpack_pivots else empty
    return pmat, lower, upper


def _eig_function(xp: ModuleType, op: str):
    eig = getattr(xp.linalg, "eig", None)
    if eig is None:
        raise UnimplementedError(
            f"{op}: this array library ({xp.__name__}) has no linalg.eig; eig runs on the CPU"
        )
    return eig


@register_kernel("eig", dtypes=FLOATS_AND_COMPLEX)
def eig_kernel(ctx: KernelContext, x: Array) -> tuple[Array, Array]:
    """The eigenvalues [..., N] and right eigenvectors [..., N, N] (columns of unit norm, as
    LAPACK geev gives them) of each square matrix, complex."""
    xp = ctx.xp
    dtype = complex_dtype(x.dtype)
    if x.size == 0:
        return xp.zeros(x.shape[:-1], dtype=dtype), xp.zeros(x.shape, dtype=dtype)
    values, vectors = _eig_function(xp, "eig")(x)
    return values.astype(dtype, copy=False), vectors.astype(dtype, copy=False)


def _lstsq_one(xp: ModuleType, a: Array, b: Array, rcond: float) -> tuple[Array, int, Array]:
    solution, _, rank, values = xp.linalg.lstsq(a, b, rcond=rcond)
    return solution, int(rank), values


@register_kernel(
    "lstsq",
    dtypes=REAL_FLOATS,
    configure=lambda kernel: kernel.output_at(2).set_dtype(DataType.INT32),
)
def lstsq_kernel(
    ctx: KernelContext, x: Array, y: Array, rcond: float, driver: str
) -> tuple[Array, Array, Array, Array]:
    """The minimum-norm least-squares solution of x s = y for each matrix (singular values
    at most rcond * the largest count as zero, LAPACK gelsd's rule), with the
    squared residuals (M > N and a driver other than gelsy), the rank and the singular
    values."""
    xp = ctx.xp
    batch, (m, n), k = x.shape[:-2], x.shape[-2:], y.shape[-1]
    count = int(np.prod(batch, dtype=np.int64))
    solution = xp.zeros((count, n, k), dtype=x.dtype)
    rank = xp.zeros((count,), dtype=np.int32)
    values = xp.zeros((count, min(m, n)), dtype=x.dtype)
    if x.size and y.size:
        a, b = x.reshape((count, m, n)), y.reshape((count, m, k))
        for i in range(count):
            s, r, v = _lstsq_one(xp, a[i], b[i], float(rcond))
            solution[i], rank[i], values[i] = s, r, v
    solution = solution.reshape(batch + (n, k))
    if driver != "gelsy" and m > n:
        residual = blas.matmul(xp, x, solution) - y
        residuals = xp.sum(residual * residual, axis=-2)
    else:
        residuals = xp.zeros((0,), dtype=x.dtype)
    return solution, residuals, rank.reshape(batch), values.reshape(batch + (min(m, n),))


def _singular_values(xp: ModuleType, x: Array, hermitian: bool) -> Array:
    if x.size == 0:
        return xp.zeros(x.shape[:-2] + (min(x.shape[-2:]),), dtype=x.real.dtype)
    if hermitian:
        return xp.abs(xp.linalg.eigvalsh(x))
    return xp.linalg.svd(x, compute_uv=False)


def _rank_tolerances(kernel) -> None:
    # the tolerances keep x's real dtype; the rank is int64
    any_dtype_inputs(1, 2)(kernel)
    int64_output(kernel)


@register_kernel("matrix_rank_atol_rtol", dtypes=FLOATS_AND_COMPLEX, configure=_rank_tolerances)
def matrix_rank_atol_rtol_kernel(
    ctx: KernelContext, x: Array, atol: Array, rtol: Array | None, hermitian: bool
) -> Array:
    """The number of singular values (|eigenvalues| when ``hermitian``) of each matrix above
    max(atol, rtol * the largest one), the tolerances broadcast with the batch dims; ``rtol``
    None is eps(x's dtype) * max(M, N), whatever ``atol`` is (PaddlePaddle 3.3.1's rule)."""
    xp = ctx.xp
    values = _singular_values(xp, x, hermitian)
    real = values.dtype
    if rtol is None:
        rtol = xp.asarray(np.finfo(real).eps * max(x.shape[-2:]), dtype=real)
    largest = values.max(axis=-1) if values.shape[-1] else xp.zeros(values.shape[:-1], real)
    atol, rtol = xp.real(atol).astype(real, copy=False), xp.real(rtol).astype(real, copy=False)
    threshold = xp.maximum(atol, rtol * largest)
    batch = threshold.shape
    values = xp.broadcast_to(values, batch + values.shape[-1:])
    return xp.sum(values > threshold[..., None], axis=-1).astype(np.int64)


def baddbmm_input(input: Array) -> Array:
    """baddbmm's ``input`` as the 3-D array it broadcasts from: [B, N] reads as [B, 1, N]."""
    return input[:, None, :] if input.ndim == 2 else input


@register_kernel("baddbmm", dtypes=REAL_FLOATS)
def baddbmm_kernel(
    ctx: KernelContext, input: Array, x: Array, y: Array, beta: float, alpha: float
) -> Array:
    """beta * input + alpha * (x @ y) for each batch, ``input`` broadcast to [B, M, N]; beta 0
    leaves ``input`` unread (its NaNs do not propagate), as PaddlePaddle's kernel does."""
    xp = ctx.xp
    dtype = x.dtype.type
    product = dtype(alpha) * blas.matmul(xp, x, y)
    if beta == 0:
        return product.astype(x.dtype, copy=False)
    shaped = xp.broadcast_to(baddbmm_input(input), product.shape)
    return (dtype(beta) * shaped + product).astype(x.dtype, copy=False)
