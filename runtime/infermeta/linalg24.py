"""InferMeta functions of the linalg24 ops: lu, lu_unpack, eig, lstsq and their grads.

The shape rules are PaddlePaddle 3.3.1's (paddle/phi/infermeta/unary.cc, binary.cc and
backward.cc, the functions of the same CamelCase names). Where PaddlePaddle's kernel leaves an
output unset (lu_unpack's ``l``/``u`` without ``unpack_ludata``, ``pmat`` without
``unpack_pivots``; lstsq's ``residuals`` and ``rank`` for drivers that do not compute them)
the output gets dims [0], the dims PaddlePaddle's tensors come back with. Unknown (-1) extents
propagate while a graph is built; checks compare only known ones.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, set_output as _set
from phiops.runtime.infermeta.linalg import square_matrices
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "lu_infer_meta",
    "lu_grad_infer_meta",
    "lu_unpack_infer_meta",
    "lu_unpack_grad_infer_meta",
    "eig_infer_meta",
    "eig_grad_infer_meta",
    "lstsq_infer_meta",
    "matrix_rank_atol_rtol_infer_meta",
    "baddbmm_infer_meta",
    "LSTSQ_DRIVERS",
]

_RUNTIME = MetaConfig()

_COMPLEX_OF = {
    DataType.FLOAT32: DataType.COMPLEX64,
    DataType.FLOAT64: DataType.COMPLEX128,
    DataType.COMPLEX64: DataType.COMPLEX64,
    DataType.COMPLEX128: DataType.COMPLEX128,
}
_REAL_OF = {DataType.COMPLEX64: DataType.FLOAT32, DataType.COMPLEX128: DataType.FLOAT64}

# lstsq's LAPACK drivers (PaddlePaddle 3.3.1's CPU kernel accepts these four)
LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _dims(dims: tuple[int, ...] | list[int]) -> str:
    return str(list(dims))


def _at_least_2d(x: MetaTensor, name: str) -> None:
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument '{name}' must have at least 2 dimensions, got dims {_dims(x.dims)}"
        )


def _min_extent(a: int, b: int) -> int:
    if a == UNKNOWN or b == UNKNOWN:
        return UNKNOWN
    return min(a, b)


def _float_or_complex(x: MetaTensor, name: str) -> None:
    if x.dtype not in _COMPLEX_OF:
        raise InvalidArgumentError(
            f"argument '{name}' must be float32, float64, complex64 or complex128, "
            f"got {x.dtype.name.lower()}"
        )


def lu_infer_meta(
    x: MetaTensor,
    pivot: bool,
    out: MetaTensor,
    pivots: MetaTensor,
    infos: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LUInferMeta: ``x`` [..., M, N]; ``out`` like ``x`` (L below the diagonal, U on and
    above it), ``pivots`` int32 [..., min(M, N)], ``infos`` int32 [...]."""
    _at_least_2d(x, "x")
    _float_or_complex(x, "x")
    batch = tuple(x.dims[:-2])
    _set(out, tuple(x.dims), x.dtype, x)
    _set(pivots, batch + (_min_extent(x.dims[-2], x.dims[-1]),), DataType.INT32, x)
    _set(infos, batch, DataType.INT32, x)


def lu_grad_infer_meta(
    x: MetaTensor,
    out: MetaTensor,
    pivots: MetaTensor,
    out_grad: MetaTensor,
    pivot: bool,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LUGradInferMeta: ``x_grad`` has ``x``'s dims and dtype."""
    _set(x_grad, tuple(x.dims), x.dtype, x)


def lu_unpack_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    unpack_ludata: bool,
    unpack_pivots: bool,
    pmat: MetaTensor,
    l: MetaTensor,  # noqa: E741 (PaddlePaddle's name)
    u: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LUUnpackInferMeta: ``x`` [..., M, N] (lu's packed factors), ``y`` int32 pivots
    [..., min(M, N)]; ``pmat`` [..., M, M], ``l`` [..., M, K], ``u`` [..., K, N] with
    K = min(M, N), each [0] when its flag leaves it out."""
    _at_least_2d(x, "x")
    _float_or_complex(x, "x")
    if len(y.dims) < 1:
        raise InvalidArgumentError("argument 'y' must have at least 1 dimension, got dims []")
    if y.dtype != DataType.INT32:
        raise InvalidArgumentError(
            f"argument 'y' (the pivots) must be int32, got {y.dtype.name.lower()}"
        )
    m, n = x.dims[-2], x.dims[-1]
    k = _min_extent(m, n)
    if not extents_match(y.dims[-1], k, config) or len(y.dims) != len(x.dims) - 1:
        raise InvalidArgumentError(
            f"argument 'y' must have dims [..., min(M, N)] with the batch dims of argument 'x', "
            f"got dims {_dims(y.dims)} for x dims {_dims(x.dims)}"
        )
    batch = tuple(x.dims[:-2])
    if unpack_ludata:
        _set(l, batch + (m, k), x.dtype, x)
        _set(u, batch + (k, n), x.dtype, x)
    else:
        _set(l, (0,), x.dtype, x)
        _set(u, (0,), x.dtype, x)
    _set(pmat, batch + (m, m) if unpack_pivots else (0,), x.dtype, x)


def lu_unpack_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    l: MetaTensor,  # noqa: E741 (PaddlePaddle's name)
    u: MetaTensor,
    pmat: MetaTensor,
    l_grad: MetaTensor,
    u_grad: MetaTensor,
    unpack_ludata: bool,
    unpack_pivots: bool,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LUUnpackGradInferMeta: ``x_grad`` has ``x``'s dims and dtype."""
    _set(x_grad, tuple(x.dims), x.dtype, x)


def eig_infer_meta(
    x: MetaTensor, out_w: MetaTensor, out_v: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's EigInferMeta: ``x`` [..., N, N]; ``out_w`` [..., N] and ``out_v`` [..., N, N],
    complex (float32 gives complex64, float64 complex128)."""
    square_matrices(x, "x", config)
    _float_or_complex(x, "x")
    dtype = _COMPLEX_OF[x.dtype]
    _set(out_w, tuple(x.dims[:-1]), dtype, x)
    _set(out_v, tuple(x.dims), dtype, x)


def eig_grad_infer_meta(
    out_w: MetaTensor,
    out_v: MetaTensor,
    out_w_grad: MetaTensor,
    out_v_grad: MetaTensor,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's EigGradInferMeta: ``x_grad`` has ``out_v``'s dims and (complex) dtype."""
    _set(x_grad, tuple(out_v.dims), out_v.dtype, out_v)


def lstsq_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    rcond: float,
    driver: str,
    solution: MetaTensor,
    residuals: MetaTensor,
    rank: MetaTensor,
    singular_values: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LstsqInferMeta: ``x`` [..., M, N], ``y`` [..., M, K] of one dtype (float32 or
    float64) and batch dims; ``solution`` [..., N, K]; ``residuals`` [..., K] when M > N and the
    driver is not gelsy (PaddlePaddle's kernel computes them only then), else [0]; ``rank`` int32
    [...]; ``singular_values`` [..., min(M, N)] (PaddlePaddle fills ``rank`` only for drivers
    other than gels and ``singular_values`` only for gelsd and gelss; phiops computes both for
    every driver, and paddle.linalg.lstsq empties them as PaddlePaddle's does)."""
    _at_least_2d(x, "x")
    _at_least_2d(y, "y")
    if x.dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(
            f"argument 'x' must be float32 or float64, got {x.dtype.name.lower()}"
        )
    if y.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype of argument 'x' ({x.dtype.name.lower()}), "
            f"got {y.dtype.name.lower()}"
        )
    if driver not in LSTSQ_DRIVERS:
        raise InvalidArgumentError(
            f"argument 'driver' must be one of {', '.join(LSTSQ_DRIVERS)}, got {driver!r}"
        )
    if len(x.dims) != len(y.dims) or not all(
        extents_match(a, b, config) for a, b in zip(x.dims[:-1], y.dims[:-1])
    ):
        raise InvalidArgumentError(
            f"argument 'y' must have dims [..., M, K] with the batch dims and M of argument 'x', "
            f"got dims {_dims(y.dims)} for x dims {_dims(x.dims)}"
        )
    batch = tuple(x.dims[:-2])
    m, n, k = x.dims[-2], x.dims[-1], y.dims[-1]
    _set(solution, batch + (n, k), x.dtype, x)
    if driver != "gelsy" and (m == UNKNOWN or n == UNKNOWN):
        raise InvalidArgumentError(
            f"argument 'x' (dims {_dims(x.dims)}) must have a known last dim and a known "
            f"second-to-last dim while a graph is built: whether M > N decides the rank of "
            f"'residuals' for driver {driver!r}"
        )
    if driver != "gelsy" and m > n:
        _set(residuals, batch + (k,), x.dtype, x)
    else:
        _set(residuals, (0,), x.dtype, x)
    _set(rank, batch, DataType.INT32, x)
    _set(singular_values, batch + (_min_extent(m, n),), x.dtype, x)


def matrix_rank_atol_rtol_infer_meta(
    x: MetaTensor,
    atol: MetaTensor,
    rtol: MetaTensor | None,
    hermitian: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MatrixRankAtolRtolInferMeta: ``x`` [..., M, N] (square when ``hermitian``); the
    tolerances ``atol`` and ``rtol`` (optional), of x's real dtype (or x's own, the real part
    then read, as matrix_rank_tol takes it), broadcast with the batch dims [...]; out int64 of
    the broadcast dims."""
    _at_least_2d(x, "x")
    _float_or_complex(x, "x")
    if hermitian:
        square_matrices(x, "x", config)
    real = _REAL_OF.get(x.dtype, x.dtype)
    dims = tuple(x.dims[:-2])
    for name, tolerance in (("atol", atol), ("rtol", rtol)):
        if tolerance is None:
            continue
        if tolerance.dtype not in (real, x.dtype):
            raise InvalidArgumentError(
                f"argument '{name}' must have the real dtype of argument 'x' "
                f"({real.name.lower()}), got {tolerance.dtype.name.lower()}"
            )
        dims = broadcast_dims(dims, tuple(tolerance.dims), "x", name)
    _set(out, dims, DataType.INT64, x)


def baddbmm_infer_meta(
    input: MetaTensor,
    x: MetaTensor,
    y: MetaTensor,
    beta: float,
    alpha: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BaddbmmInferMeta: ``x`` [B, M, K], ``y`` [B, K, N] of one dtype; ``input`` 3-D
    broadcasting to [B, M, N], or 2-D [B, N] (read as [B, 1, N]); ``out`` [B, M, N]."""
    for tensor, name in ((x, "x"), (y, "y")):
        if len(tensor.dims) != 3:
            raise InvalidArgumentError(
                f"argument '{name}' must have 3 dimensions, got dims {_dims(tensor.dims)}"
            )
    for tensor, name in ((y, "y"), (input, "input")):
        if tensor.dtype != x.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have the dtype of argument 'x' "
                f"({x.dtype.name.lower()}), got {tensor.dtype.name.lower()}"
            )
    if not extents_match(x.dims[0], y.dims[0], config) or not extents_match(
        x.dims[2], y.dims[1], config
    ):
        raise InvalidArgumentError(
            f"argument 'y' must have dims [B, K, N] with argument 'x''s B and K, got dims "
            f"{_dims(y.dims)} for x dims {_dims(x.dims)}"
        )
    dims = (x.dims[0], x.dims[1], y.dims[2])
    if len(input.dims) == 2:
        shaped = (input.dims[0], 1, input.dims[1])
    elif len(input.dims) == 3:
        shaped = tuple(input.dims)
    else:
        raise InvalidArgumentError(
            f"argument 'input' must have 2 or 3 dimensions, got dims {_dims(input.dims)}"
        )
    broadcast = broadcast_dims(dims, shaped, "x @ y", "input")
    if any(a != UNKNOWN and b != UNKNOWN and a != b for a, b in zip(broadcast, dims)):
        raise InvalidArgumentError(
            f"argument 'input' with dims {_dims(input.dims)} must broadcast to x @ y's dims "
            f"{_dims(dims)}"
        )
    _set(out, dims, x.dtype, x)
