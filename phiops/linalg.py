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
phiops lacks: ``svdvals``, ``pca_lowrank``, ``svd_lowrank``, ``lu_solve``, ``ormqr`` and
``fp8_fp8_half_gemm_fused``; the
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

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
