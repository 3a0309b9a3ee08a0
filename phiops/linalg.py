"""``phiops.linalg`` (``paddle.linalg``): PaddlePaddle 3.3.1's linear-algebra functions with its
signatures and results: solvers (``solve``, ``triangular_solve``, ``cholesky_solve``, ``inv``),
factorizations (``cholesky``, ``qr``, ``svd``, ``eigh``, ``eigvalsh``, ``eigvals``), ``det``, ``slogdet``,
``matrix_power``, ``multi_dot``, ``matrix_rank``, ``pinv``, ``cond``, the norms (``norm``,
``vector_norm``, ``matrix_norm``), ``cross``, ``matmul`` and ``diagonal``. They are the
functions of ``import phiops`` (phiops/_paddle_api.py and the generated ops; the ops' kernels
are runtime/kernels/impl/linalg*_kernel.py).

With ``lu``, ``lu_unpack``, ``eig`` and ``lstsq`` (the linalg24 ops,
runtime/kernels/impl/linalg24_kernel.py) and ``cov``, ``corrcoef``, ``householder_product``
and ``matrix_exp`` (composites, as PaddlePaddle's are). With ``cholesky_inverse`` (PaddlePaddle's
composition) and the top level's ``vecdot`` and ``matrix_transpose``. PaddlePaddle has more that
phiops lacks: ``ormqr`` and ``fp8_fp8_half_gemm_fused``; ``svdvals`` and ``lu_solve``
compose svd, lu_unpack and triangular_solve, ``svd_lowrank`` and ``pca_lowrank`` the randomized
range finder (its sketch drawn as PaddlePaddle's); the
gradient of ``svd`` for complex input raises
UnimplementedError. ``matrix_rank``'s ``atol``/``rtol`` run the matrix_rank_atol_rtol op.
"""

from __future__ import annotations

from typing import Any

import phiops as _phiops
from phiops._api import (
    cholesky,
    cholesky_solve,
    cross,
    det,
    diagonal,
    eigh,
    eigvals,
    eigvalsh,
    matmul,
    matrix_power,
    multi_dot,
    norm,
    slogdet,
    triangular_solve,
)
from phiops._api import inverse as inv
from phiops._paddle_api import (
    cond,
    matrix_norm,
    matrix_rank,
    pinv,
    qr,
    solve,
    svd,
    vector_norm,
)

__all__ = [
    "cholesky",
    "norm",
    "matrix_norm",
    "vector_norm",
    "cond",
    "cross",
    "inv",
    "multi_dot",
    "matrix_rank",
    "matmul",
    "svd",
    "qr",
    "matrix_power",
    "det",
    "slogdet",
    "eigh",
    "eigvalsh",
    "eigvals",
    "pinv",
    "solve",
    "cholesky_solve",
    "triangular_solve",
    "diagonal",
]

# linalg24: lu, lu_unpack, eig, lstsq
from phiops._api import eig, lu_unpack  # noqa: E402
from phiops._paddle_api import (  # noqa: E402
    corrcoef,
    cov,
    householder_product,
    lstsq,
    lu,
    matrix_exp,
)

__all__ += [
    "lu",
    "lu_unpack",
    "eig",
    "lstsq",
    "cov",
    "corrcoef",
    "householder_product",
    "matrix_exp",
]

# the top level's vecdot and matrix_transpose, which 3.3.1 also has here
from phiops._api import matrix_transpose, vecdot  # noqa: E402


def cholesky_inverse(
    x: _phiops.Tensor, upper: bool = False, name: str | None = None
) -> _phiops.Tensor:
    """The inverse of the matrix whose Cholesky factor is ``x`` (lower, or upper when
    ``upper``): ``inv(x @ x.T)`` (``inv(x.T @ x)``), PaddlePaddle 3.3.1's composition."""
    if x.ndim != 2:
        raise ValueError("The input tensor must be 2-dimensional")
    if x.shape[0] != x.shape[1]:
        raise ValueError("The input tensor must be square matrix")
    product = matmul(x, x, transpose_x=True) if upper else matmul(x, x, transpose_y=True)
    return inv(product)


__all__ += ["vecdot", "matrix_transpose", "cholesky_inverse"]


def svdvals(x: _phiops.Tensor, name: str | None = None) -> _phiops.Tensor:
    """The singular values of ``x`` (``[..., M, N]``), largest first, ``[..., min(M, N)]``:
    ``svd``'s second result (PaddlePaddle 3.3.1 runs its own ``svdvals`` op, whose gradient,
    ``U diag(ds) Vh``, is what svd's gives for a gradient on the singular values alone)."""
    from phiops.runtime.errors import InvalidArgumentError

    if not isinstance(x, _phiops.Tensor):
        raise InvalidArgumentError(f"svdvals(): x must be a Tensor, got {type(x).__name__}")
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"svdvals(): x must have at least 2 dimensions, got shape {list(x.shape)}"
        )
    return svd(x, full_matrices=False)[1]


def lu_solve(
    b: _phiops.Tensor,
    lu: _phiops.Tensor,
    pivots: _phiops.Tensor,
    trans: str = "N",
    name: str | None = None,
) -> _phiops.Tensor:
    """The solution X of ``A X = b`` (``trans`` 'N') or ``A^T X = b`` ('T' or 'C') from A's
    LU factorization as ``paddle.linalg.lu`` returns it (``lu`` and 1-based ``pivots``), batch
    dimensions broadcast: ``P, L, U = lu_unpack(lu, pivots)`` and two triangular solves (L
    with a unit diagonal). PaddlePaddle 3.3.1 runs its own ``lu_solve`` op; the results agree
    to rounding, and the gradient flows to ``b`` and ``lu`` (not the pivots)."""
    from phiops.runtime.errors import InvalidArgumentError

    for argument, value, rank in (("b", b, 2), ("lu", lu, 2), ("pivots", pivots, 1)):
        if not isinstance(value, _phiops.Tensor) or value.ndim < rank:
            raise InvalidArgumentError(
                f"lu_solve(): '{argument}' must be a Tensor of at least {rank} dimensions, got "
                f"{getattr(value, 'shape', type(value).__name__)}"
            )
    if trans not in ("N", "T", "C"):
        raise InvalidArgumentError(f"lu_solve(): trans must be 'N', 'T' or 'C', got {trans!r}")
    if lu.shape[-1] != lu.shape[-2]:
        raise InvalidArgumentError(f"lu_solve(): lu must be square, got shape {list(lu.shape)}")
    if b.shape[-2] != lu.shape[-2] or pivots.shape[-1] != lu.shape[-1]:
        raise InvalidArgumentError(
            f"lu_solve(): b's rows ({b.shape[-2]}) and pivots' length ({pivots.shape[-1]}) must "
            f"equal lu's order ({lu.shape[-1]})"
        )
    batch = list(_phiops.broadcast_shape(list(b.shape[:-2]), list(lu.shape[:-2])))
    batch = list(_phiops.broadcast_shape(batch, list(pivots.shape[:-1])))
    b = b if list(b.shape[:-2]) == batch else b.broadcast_to(batch + list(b.shape[-2:]))
    lu = lu if list(lu.shape[:-2]) == batch else lu.broadcast_to(batch + list(lu.shape[-2:]))
    if list(pivots.shape[:-1]) != batch:
        pivots = pivots.broadcast_to(batch + list(pivots.shape[-1:]))
    permutation, lower, upper = lu_unpack(lu, pivots)
    permutation = permutation.detach()  # a function of the pivots alone: no gradient
    if trans == "N":
        y = triangular_solve(lower, matmul(permutation, b, transpose_x=True), upper=False,
                             unitriangular=True)
        return triangular_solve(upper, y, upper=True)
    y = triangular_solve(upper, b, upper=True, transpose=True)
    y = triangular_solve(lower, y, upper=False, transpose=True, unitriangular=True)
    return matmul(permutation, y)


__all__ += ["svdvals", "lu_solve"]


def _conj(x: _phiops.Tensor) -> _phiops.Tensor:
    return x.conj() if x.is_complex() else x


def _range_basis(
    a: _phiops.Tensor, q: int, niter: int, shift: _phiops.Tensor | None
) -> _phiops.Tensor:
    """An orthonormal basis (``[..., m, q]``) approximating the range of ``a - shift``: a
    Gaussian sketch ``randn([n, q])`` (drawn as PaddlePaddle draws it, so the same seed gives
    the same basis), then ``niter`` power iterations, each step re-orthonormalised by QR
    (Halko, Martinsson and Tropp's randomized range finder)."""

    def times(x: _phiops.Tensor, adjoint: bool) -> _phiops.Tensor:
        left = _conj(matrix_transpose(a)) if adjoint else a
        out = matmul(left, x)
        if shift is not None:
            out = out - matmul(_conj(matrix_transpose(shift)) if adjoint else shift, x)
        return out

    sketch = _phiops.randn((a.shape[-1], q), dtype=a.dtype)
    basis = qr(times(sketch, False))[0]
    for _ in range(niter):
        basis = qr(times(basis, True))[0]
        basis = qr(times(basis, False))[0]
    return basis


def _lowrank_arguments(api: str, x: Any, q: int | None, niter: int) -> int:
    from phiops.runtime.errors import InvalidArgumentError

    if not isinstance(x, _phiops.Tensor) or x.ndim < 2:
        raise InvalidArgumentError(f"{api}(): x must be a Tensor of at least 2 dimensions")
    m, n = x.shape[-2:]
    if q is None:
        return min(6, m, n)
    if min(m, n) != 0 and not 0 <= q <= min(m, n):
        raise InvalidArgumentError(
            f"{api}(): q ({q}) must be a non-negative int not greater than min(m, n) = "
            f"{min(m, n)}"
        )
    if not niter >= 0:
        raise InvalidArgumentError(f"{api}(): niter ({niter}) must be a non-negative int")
    return q


def svd_lowrank(
    x: _phiops.Tensor,
    q: int | None = None,
    niter: int = 2,
    M: _phiops.Tensor | None = None,
    name: str | None = None,
) -> tuple[_phiops.Tensor, _phiops.Tensor, _phiops.Tensor]:
    """A rank-``q`` SVD ``(U, S, V)`` of ``x - M`` (``x``: ``[..., m, n]``; ``q`` defaults to
    min(6, m, n)) by the randomized range finder with ``niter`` power iterations, as
    PaddlePaddle 3.3.1's: its Gaussian sketch comes from the global generator, so after the
    same ``paddle.seed`` the result is PaddlePaddle's to rounding. ``x ~= U diag(S) V^H``."""
    q = _lowrank_arguments("svd_lowrank", x, q, niter)
    m, n = x.shape[-2:]
    shift = None if M is None else M.broadcast_to(x.shape)

    def project(left: _phiops.Tensor, shifted: _phiops.Tensor | None, basis: _phiops.Tensor):
        out = matmul(left, _conj(basis))
        return out if shifted is None else out - matmul(shifted, _conj(basis))

    if m < n or n > q:
        # a basis of x^T's range, then the SVD of the small (x - M) conj(Q)
        basis = _range_basis(matrix_transpose(x), q, niter, None if shift is None else matrix_transpose(shift))
        u, s, vh = svd(project(x, shift, basis), full_matrices=False)
        return u, s, matmul(basis, _conj(matrix_transpose(vh)))
    basis = _range_basis(x, q, niter, shift)
    small = project(matrix_transpose(x), None if shift is None else matrix_transpose(shift), basis)
    u, s, vh = svd(matrix_transpose(small), full_matrices=False)
    return matmul(basis, u), s, _conj(matrix_transpose(vh))


def pca_lowrank(
    x: _phiops.Tensor,
    q: int | None = None,
    center: bool = True,
    niter: int = 2,
    name: str | None = None,
) -> tuple[_phiops.Tensor, _phiops.Tensor, _phiops.Tensor]:
    """Principal components of ``x`` (``[..., m, n]``, rows the samples): ``svd_lowrank`` of
    ``x`` minus its column means (``center``), rank ``q`` (default min(6, m, n))."""
    q = _lowrank_arguments("pca_lowrank", x, q, niter)
    if not center:
        return svd_lowrank(x, q, niter=niter)
    return svd_lowrank(x - x.mean(axis=-2, keepdim=True), q, niter=niter)


__all__ += ["svd_lowrank", "pca_lowrank"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
