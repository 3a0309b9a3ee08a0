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
phiops lacks: ``pca_lowrank``, ``svd_lowrank``, ``ormqr`` and ``fp8_fp8_half_gemm_fused``;
``svdvals`` and ``lu_solve`` compose svd, lu_unpack and triangular_solve; the
gradient of ``svd`` for complex input raises
UnimplementedError. ``matrix_rank``'s ``atol``/``rtol`` run the matrix_rank_atol_rtol op.
"""

from __future__ import annotations

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

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
