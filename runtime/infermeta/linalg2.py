"""InferMeta functions of the linalg2 ops (solve, triangular_solve, cholesky_solve, det,
slogdet, matrix_power, multi_dot, p_norm, dist, addmm, ...).

The shape rules are PaddlePaddle 3.3.1's (paddle/phi/infermeta/binary.cc, unary.cc and
multiary.cc, the functions of the same CamelCase names). ``det`` and ``slogdet`` name
UnchangedInferMeta in PaddlePaddle's specs, their kernels resizing the output; phiops gives the
output its dims here (DetInferMeta, SlogdetInferMeta). Operands of two dtypes are refused up front
(PaddlePaddle's kernels read both as one type), naming the argument. Unknown (-1) extents
propagate while a graph is built; checks compare only known ones.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, merge_extents
from phiops.runtime.infermeta.linalg import square_matrices
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "solve_infer_meta",
    "triangular_solve_infer_meta",
    "cholesky_solve_infer_meta",
    "det_infer_meta",
    "slogdet_infer_meta",
    "matrix_power_infer_meta",
    "multi_dot_infer_meta",
    "multi_dot_grad_infer_meta",
    "p_norm_infer_meta",
    "dist_infer_meta",
    "addmm_infer_meta",
    "qr_infer_meta",
    "svd_infer_meta",
    "eigh_infer_meta",
    "eigvalsh_infer_meta",
    "eigvalsh_grad_infer_meta",
    "matrix_rank_infer_meta",
    "matrix_rank_tol_infer_meta",
    "squared_l2_norm_infer_meta",
    "l1_norm_infer_meta",
    "eigvals_infer_meta",
]

_RUNTIME = MetaConfig()


def _dims(dims: tuple[int, ...] | list[int]) -> str:
    return str(list(dims))


def _same_dtype(x: MetaTensor, y: MetaTensor, x_name: str = "x", y_name: str = "y") -> None:
    if x.dtype != y.dtype:
        raise InvalidArgumentError(
            f"argument '{y_name}' must have the dtype of argument '{x_name}' "
            f"({x.dtype.name.lower()}), got {y.dtype.name.lower()}"
        )


def _at_least_2d(x: MetaTensor, name: str) -> None:
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument '{name}' must have at least 2 dimensions, got dims {_dims(x.dims)}"
        )


def _set(out: MetaTensor, dims: tuple[int, ...], like: MetaTensor) -> None:
    out.set_dims(tuple(dims))
    out.set_dtype(like.dtype)
    out.set_layout(like.layout)


def _rows_match(x: MetaTensor, y_rows: int, y: MetaTensor, what: str, config: MetaConfig) -> None:
    if not extents_match(x.dims[-1], y_rows, config):
        raise InvalidArgumentError(
            f"argument 'y' must have {what} equal to the order of argument 'x''s matrices "
            f"({x.dims[-1]}), got dims {_dims(y.dims)} for x dims {_dims(x.dims)}"
        )


def solve_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's SolveInferMeta: ``x`` [..., M, M]; ``y`` [..., M, K], or [M] (one right-hand
    side, the result then [..., M]); the batch dims broadcast."""
    square_matrices(x, "x", config)
    _same_dtype(x, y)
    if len(y.dims) == 0:
        raise InvalidArgumentError("argument 'y' must have at least 1 dimension, got dims []")
    if len(y.dims) == 1:
        _rows_match(x, y.dims[0], y, "its extent", config)
        _set(out, tuple(x.dims[:-1]), x)
        return
    _rows_match(x, y.dims[-2], y, "its second-to-last extent", config)
    batch = broadcast_dims(tuple(x.dims[:-2]), tuple(y.dims[:-2]), "x", "y")
    _set(out, batch + (merge_extents(x.dims[-1], y.dims[-2]), y.dims[-1]), x)


def _matrix_solve(x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig) -> None:
    """``x`` [..., M, M] and ``y`` [..., M, K], batch dims broadcast: ``out`` [..., M, K]."""
    square_matrices(x, "x", config)
    _at_least_2d(y, "y")
    _same_dtype(x, y)
    _rows_match(x, y.dims[-2], y, "its second-to-last extent", config)
    batch = broadcast_dims(tuple(x.dims[:-2]), tuple(y.dims[:-2]), "x", "y")
    _set(out, batch + tuple(y.dims[-2:]), y)


def triangular_solve_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    upper: bool,
    transpose: bool,
    unitriangular: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's TriangularSolveInferMeta: ``x`` [..., M, M] triangular, ``y`` [..., M, K]; the
    batch dims broadcast; ``out`` [..., M, K]."""
    _matrix_solve(x, y, out, config)


def cholesky_solve_infer_meta(
    x: MetaTensor, y: MetaTensor, upper: bool, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's CholeskySolveInferMeta: ``y`` [..., M, M] a Cholesky factor, ``x`` [..., M, K] the
    right-hand sides; the batch dims broadcast; ``out`` [..., M, K]."""
    square_matrices(y, "y", config)
    _at_least_2d(x, "x")
    _same_dtype(y, x, "y", "x")
    if not extents_match(y.dims[-1], x.dims[-2], config):
        raise InvalidArgumentError(
            f"argument 'x' must have its second-to-last extent equal to the order of argument "
            f"'y''s matrices ({y.dims[-1]}), got dims {_dims(x.dims)} for y dims {_dims(y.dims)}"
        )
    batch = broadcast_dims(tuple(y.dims[:-2]), tuple(x.dims[:-2]), "y", "x")
    _set(out, batch + tuple(x.dims[-2:]), x)


def det_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``x`` [..., N, N]; ``out`` holds one determinant per matrix: the batch dims ``...``."""
    square_matrices(x, "x", config)
    _set(out, tuple(x.dims[:-2]), x)


def slogdet_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``x`` [..., N, N]; ``out`` [2, ...]: the signs, then the logarithms of the absolute
    determinants."""
    square_matrices(x, "x", config)
    _set(out, (2,) + tuple(x.dims[:-2]), x)


def matrix_power_infer_meta(
    x: MetaTensor, n: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's MatrixPowerInferMeta: ``x`` [..., N, N]; ``out`` has its dims and dtype."""
    square_matrices(x, "x", config)
    _set(out, tuple(x.dims), x)


def multi_dot_infer_meta(
    x: list[MetaTensor], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's MultiDotInferMeta: at least 2 matrices, chained: the first may be a vector [K]
    (a row), the last a vector [K] (a column), the others 2-D; inner extents must agree.
    ``out`` [M, N], less the vector ends' dims."""
    if len(x) < 2:
        raise InvalidArgumentError(f"argument 'x' must hold at least 2 tensors, got {len(x)}")
    first, last = x[0], x[-1]
    for index, tensor in enumerate(x):
        _same_dtype(first, tensor, "x[0]", f"x[{index}]")
        end = index in (0, len(x) - 1)
        if len(tensor.dims) != 2 and not (end and len(tensor.dims) == 1):
            wanted = "1 or 2 dimensions" if end else "2 dimensions"
            raise InvalidArgumentError(
                f"argument 'x[{index}]' must have {wanted}, got dims {_dims(tensor.dims)}"
            )
    shapes = [tuple(t.dims) for t in x]
    if len(shapes[0]) == 1:
        shapes[0] = (1, shapes[0][0])
    if len(shapes[-1]) == 1:
        shapes[-1] = (shapes[-1][0], 1)
    for index in range(1, len(shapes)):
        if not extents_match(shapes[index - 1][1], shapes[index][0], config):
            raise InvalidArgumentError(
                f"argument 'x[{index}]' with dims {_dims(x[index].dims)} cannot be multiplied "
                f"by argument 'x[{index - 1}]' with dims {_dims(x[index - 1].dims)}: the inner "
                "extents differ"
            )
    dims: tuple[int, ...] = ()
    if len(first.dims) == 2:
        dims += (first.dims[0],)
    if len(last.dims) == 2:
        dims += (last.dims[1],)
    _set(out, dims, first)


def multi_dot_grad_infer_meta(
    x: list[MetaTensor],
    out_grad: MetaTensor,
    x_grad: list[MetaTensor | None],
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MultiDotGradInferMeta: each ``x_grad[i]`` like ``x[i]``."""
    for tensor, grad in zip(x, x_grad):
        if grad is not None:
            grad.share_meta(tensor)


def p_norm_infer_meta(
    x: MetaTensor,
    porder: float,
    axis: int,
    epsilon: float,
    keepdim: bool,
    asvector: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's PNormInferMeta: the norm along ``axis`` (in [-rank, rank)), that axis removed (or
    1 with ``keepdim``); with ``asvector`` over every element, ``out`` [] (or all ones with
    ``keepdim``) whatever ``axis`` is."""
    rank = len(x.dims)
    if not asvector and rank and not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-rank}, {rank}) for x dims {_dims(x.dims)}, got {axis}"
        )
    if asvector or rank == 0:
        dims = (1,) * rank if keepdim else ()
    else:
        axis %= rank
        dims = tuple(
            1 if i == axis else extent for i, extent in enumerate(x.dims) if keepdim or i != axis
        )
    _set(out, dims, x)


def dist_infer_meta(
    x: MetaTensor, y: MetaTensor, p: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's DistInferMeta: ``x`` and ``y`` broadcast together; ``out`` [], the p-norm of
    x - y."""
    _same_dtype(x, y)
    broadcast_dims(tuple(x.dims), tuple(y.dims), "x", "y")
    _set(out, (), x)


def addmm_infer_meta(
    input: MetaTensor,
    x: MetaTensor,
    y: MetaTensor,
    beta: float,
    alpha: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's AddmmInferMeta: ``x`` [M, K], ``y`` [K, N], ``input`` 1-D or 2-D broadcasting to
    [M, N]; ``out`` [M, N]."""
    for tensor, name in ((x, "x"), (y, "y")):
        if len(tensor.dims) != 2:
            raise InvalidArgumentError(
                f"argument '{name}' must have 2 dimensions, got dims {_dims(tensor.dims)}"
            )
    if len(input.dims) not in (1, 2):
        raise InvalidArgumentError(
            f"argument 'input' must have 1 or 2 dimensions, got dims {_dims(input.dims)}"
        )
    _same_dtype(x, y)
    _same_dtype(x, input, "x", "input")
    if not extents_match(x.dims[1], y.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'y' must have as many rows as argument 'x' has columns ({x.dims[1]}), "
            f"got dims {_dims(y.dims)} for x dims {_dims(x.dims)}"
        )
    dims = (x.dims[0], y.dims[1])
    broadcast = broadcast_dims(dims, tuple(input.dims), "x @ y", "input")
    if broadcast != dims and UNKNOWN not in dims:
        raise InvalidArgumentError(
            f"argument 'input' with dims {_dims(input.dims)} must broadcast to the product's "
            f"dims {_dims(dims)}"
        )
    _set(out, dims, x)


def _real_dtype(dtype: DataType) -> DataType:
    return {DataType.COMPLEX64: DataType.FLOAT32, DataType.COMPLEX128: DataType.FLOAT64}.get(
        dtype, dtype
    )


def _set_real(out: MetaTensor, dims: tuple[int, ...], like: MetaTensor) -> None:
    out.set_dims(tuple(dims))
    out.set_dtype(_real_dtype(like.dtype))
    out.set_layout(like.layout)


def _smaller(a: int, b: int) -> int:
    return UNKNOWN if UNKNOWN in (a, b) else min(a, b)


QR_MODES = ("reduced", "complete", "r")


def qr_infer_meta(
    x: MetaTensor, mode: str, q: MetaTensor, r: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's QrInferMeta: ``x`` [..., M, N], K = min(M, N); ``mode`` "reduced" gives q
    [..., M, K] and r [..., K, N], "complete" q [..., M, M] and r [..., M, N], "r" an empty q
    [0] and r [..., K, N]."""
    _at_least_2d(x, "x")
    if mode not in QR_MODES:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of {', '.join(map(repr, QR_MODES))}, got {mode!r}"
        )
    *batch, m, n = x.dims
    k = _smaller(m, n)
    batch = tuple(batch)
    if mode == "complete":
        _set(q, batch + (m, m), x)
        _set(r, batch + (m, n), x)
    else:
        _set(q, batch + (m, k) if mode == "reduced" else (0,), x)
        _set(r, batch + (k, n), x)


def svd_infer_meta(
    x: MetaTensor,
    full_matrices: bool,
    u: MetaTensor,
    s: MetaTensor,
    vh: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's SvdInferMeta: ``x`` [..., M, N], K = min(M, N): u [..., M, K] (M with
    ``full_matrices``), s [..., K] real, vh [..., K, N] (N with ``full_matrices``)."""
    _at_least_2d(x, "x")
    *batch, m, n = x.dims
    k = _smaller(m, n)
    batch = tuple(batch)
    _set(u, batch + (m, m if full_matrices else k), x)
    _set_real(s, batch + (k,), x)
    _set(vh, batch + (n if full_matrices else k, n), x)


def _uplo(value: str, name: str) -> None:
    if value not in ("L", "U"):
        raise InvalidArgumentError(f"argument '{name}' must be 'L' or 'U', got {value!r}")


def eigh_infer_meta(
    x: MetaTensor, UPLO: str, out_w: MetaTensor, out_v: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's EighInferMeta: ``x`` [..., N, N]; out_w [..., N] real, out_v like x."""
    square_matrices(x, "x", config)
    _uplo(UPLO, "UPLO")
    _set_real(out_w, tuple(x.dims[:-1]), x)
    _set(out_v, tuple(x.dims), x)


def eigvalsh_infer_meta(
    x: MetaTensor,
    uplo: str,
    is_test: bool,
    eigenvalues: MetaTensor,
    eigenvectors: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's EigvalshInferMeta: ``x`` [..., N, N]; eigenvalues [..., N] real, eigenvectors
    like x (the gradient's input)."""
    square_matrices(x, "x", config)
    _uplo(uplo, "uplo")
    _set_real(eigenvalues, tuple(x.dims[:-1]), x)
    _set(eigenvectors, tuple(x.dims), x)


def eigvalsh_grad_infer_meta(
    eigenvectors: MetaTensor,
    eigenvalues_grad: MetaTensor,
    uplo: str,
    is_test: bool,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's EigvalshGradInferMeta: x_grad like the eigenvectors."""
    if x_grad is not None:
        x_grad.share_meta(eigenvectors)


def _rank_dims(x: MetaTensor) -> tuple[int, ...]:
    _at_least_2d(x, "x")
    return tuple(x.dims[:-2])


def _set_int64(out: MetaTensor, dims: tuple[int, ...], like: MetaTensor) -> None:
    out.set_dims(tuple(dims))
    out.set_dtype(DataType.INT64)
    out.set_layout(like.layout)


def matrix_rank_infer_meta(
    x: MetaTensor,
    use_default_tol: bool,
    hermitian: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MatrixRankInferMeta: ``x`` [..., M, N] (square when ``hermitian``); out [...]
    int64."""
    dims = _rank_dims(x)
    if hermitian:
        square_matrices(x, "x", config)
    _set_int64(out, dims, x)


def matrix_rank_tol_infer_meta(
    x: MetaTensor,
    atol_tensor: MetaTensor,
    use_default_tol: bool,
    hermitian: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MatrixRankTolInferMeta: ``x`` [..., M, N]; the tolerances broadcast with the batch
    dims [...]; out int64 of the broadcast dims."""
    dims = _rank_dims(x)
    if hermitian:
        square_matrices(x, "x", config)
    if _real_dtype(x.dtype) != atol_tensor.dtype and x.dtype != atol_tensor.dtype:
        raise InvalidArgumentError(
            f"argument 'atol_tensor' must have the (real) dtype of argument 'x' "
            f"({_real_dtype(x.dtype).name.lower()}), got {atol_tensor.dtype.name.lower()}"
        )
    _set_int64(out, broadcast_dims(dims, tuple(atol_tensor.dims), "x", "atol_tensor"), x)


def squared_l2_norm_infer_meta(
    x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's SquaredL2NormInferMeta: out [1], the sum of x's squares."""
    _set(out, (1,), x)


def l1_norm_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's L1NormInferMeta: out [], the sum of |x|."""
    _set(out, (), x)


def eigvals_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's EigvalsInferMeta: ``x`` [..., N, N]; out [..., N], complex64 for float32 and
    complex64 input, complex128 for float64 and complex128."""
    square_matrices(x, "x", config)
    out.set_dims(tuple(x.dims[:-1]))
    single = x.dtype in (DataType.FLOAT32, DataType.COMPLEX64)
    out.set_dtype(DataType.COMPLEX64 if single else DataType.COMPLEX128)
    out.set_layout(x.layout)
