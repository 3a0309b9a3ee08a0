"""InferMeta functions of the linear-algebra ops (bmm, mv, dot, kron, cross, trace, ...).

The shape rules are PaddlePaddle 3.3.1's (paddle/phi/infermeta/binary.cc and unary.cc, the
functions of the same CamelCase names). Where PaddlePaddle's kernel refuses operands of two
dtypes (its ``DenseTensor::data<T>`` check), these functions refuse them up front, naming the
argument. Unknown (-1) extents propagate while a graph is built; checks compare only known ones.
"""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "bmm_infer_meta",
    "bmm_grad_infer_meta",
    "mv_infer_meta",
    "dot_infer_meta",
    "kron_infer_meta",
    "cross_infer_meta",
    "trace_infer_meta",
    "diagonal_infer_meta",
    "diag_embed_infer_meta",
    "inverse_infer_meta",
    "inverse_grad_infer_meta",
    "cholesky_infer_meta",
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


def _rank(x: MetaTensor, name: str, ranks: tuple[int, ...]) -> None:
    if len(x.dims) not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise InvalidArgumentError(
            f"argument '{name}' must have {wanted} dimension{'s' if ranks != (1,) else ''}, "
            f"got dims {_dims(x.dims)}"
        )


def _set(out: MetaTensor, dims: tuple[int, ...], like: MetaTensor) -> None:
    out.set_dims(tuple(dims))
    out.set_dtype(like.dtype)
    out.set_layout(like.layout)


def bmm_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's BmmInferMeta: ``x`` [B, M, K] times ``y`` [B, K, N] is [B, M, N]; both 3-D, of one
    batch size and one K, of one dtype."""
    _rank(x, "x", (3,))
    _rank(y, "y", (3,))
    _same_dtype(x, y)
    (b, m, k), (b_y, k_y, n) = x.dims, y.dims
    if not extents_match(b, b_y, config):
        raise InvalidArgumentError(
            f"argument 'y' with dims {_dims(y.dims)} must have the batch size of argument 'x' "
            f"with dims {_dims(x.dims)} ({b}), got {b_y}"
        )
    if not extents_match(k, k_y, config):
        raise InvalidArgumentError(
            f"argument 'y' with dims {_dims(y.dims)} must have as many rows as argument 'x' "
            f"with dims {_dims(x.dims)} has columns ({k}), got {k_y}"
        )
    _set(out, (b if b != UNKNOWN else b_y, m, n), x)


def bmm_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    out_grad: MetaTensor,
    x_grad: MetaTensor,
    y_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BmmGradInferMeta: ``x_grad`` like ``x``, ``y_grad`` like ``y``."""
    if x_grad is not None:
        x_grad.share_meta(x)
    if y_grad is not None:
        y_grad.share_meta(y)


def mv_infer_meta(
    x: MetaTensor, vec: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's MvInferMeta: matrix ``x`` [M, N] times vector ``vec`` [N] is [M]."""
    _rank(x, "x", (2,))
    _rank(vec, "vec", (1,))
    _same_dtype(x, vec, "x", "vec")
    if not extents_match(x.dims[1], vec.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'vec' with dims {_dims(vec.dims)} must have as many elements as argument "
            f"'x' with dims {_dims(x.dims)} has columns ({x.dims[1]})"
        )
    _set(out, (x.dims[0],), x)


def dot_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's DotInferMeta: ``x`` and ``y`` of equal dims, 1-D (a 0-D result) or 2-D (one dot
    product per row, [B])."""
    _rank(x, "x", (1, 2))
    if len(y.dims) != len(x.dims) or not all(
        extents_match(a, b, config) for a, b in zip(x.dims, y.dims)
    ):
        raise InvalidArgumentError(
            f"argument 'y' must have the dims of argument 'x' ({_dims(x.dims)}), got "
            f"{_dims(y.dims)}"
        )
    _same_dtype(x, y)
    batch = x.dims[0] if x.dims[0] != UNKNOWN else y.dims[0]
    _set(out, () if len(x.dims) == 1 else (batch,), x)


def kron_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's KronInferMeta: the operand of lower rank gets leading 1s, then each extent of the
    result is the product of the two (unknown when either is)."""
    _same_dtype(x, y)
    rank = max(len(x.dims), len(y.dims))
    x_dims = (1,) * (rank - len(x.dims)) + tuple(x.dims)
    y_dims = (1,) * (rank - len(y.dims)) + tuple(y.dims)
    dims = tuple(UNKNOWN if UNKNOWN in (a, b) else a * b for a, b in zip(x_dims, y_dims))
    _set(out, dims, x)


def cross_axis(dims: tuple[int, ...], axis: int) -> int:
    """The axis ``cross`` works along, in [0, rank): ``axis`` itself, or for PaddlePaddle's
    9 (DDim::kMaxRank, "not given") the first of extent 3; InvalidArgumentError otherwise."""
    rank = len(dims)
    if axis == 9:
        for index, extent in enumerate(dims):
            if extent == 3:
                return index
        if UNKNOWN in dims:
            return dims.index(UNKNOWN)
        raise InvalidArgumentError(
            f"argument 'x' with dims {_dims(dims)} has no dimension of extent 3 for the default "
            "axis (give 'axis')"
        )
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-rank}, {rank}) for tensors of rank {rank}, got {axis}"
        )
    return axis + rank if axis < 0 else axis


def cross_infer_meta(
    x: MetaTensor, y: MetaTensor, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's CrossInferMeta: ``x`` and ``y`` of equal dims and dtype, extent 3 along ``axis``
    (9, the default, picks the first axis of extent 3); ``out`` has their dims."""
    if len(x.dims) != len(y.dims) or not all(
        extents_match(a, b, config) for a, b in zip(x.dims, y.dims)
    ):
        raise InvalidArgumentError(
            f"argument 'y' must have the dims of argument 'x' ({_dims(x.dims)}), got "
            f"{_dims(y.dims)}"
        )
    _same_dtype(x, y)
    if not x.dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    dims = tuple(a if a != UNKNOWN else b for a, b in zip(x.dims, y.dims))
    index = cross_axis(dims, axis)
    if not extents_match(dims[index], 3, config):
        raise InvalidArgumentError(
            f"arguments 'x' and 'y' with dims {_dims(dims)} must have extent 3 along axis "
            f"{axis}, got {dims[index]}"
        )
    _set(out, dims, x)


def diagonal_axes(rank: int, axis1: int, axis2: int) -> tuple[int, int]:
    """``axis1`` and ``axis2`` normalised to [0, rank), distinct; InvalidArgumentError naming
    the one out of range, or both when they are the same axis."""
    normalised = []
    for name, axis in (("axis1", axis1), ("axis2", axis2)):
        if not -rank <= axis < rank:
            raise InvalidArgumentError(
                f"argument '{name}' must be in [{-rank}, {rank}) for a tensor of rank {rank}, "
                f"got {axis}"
            )
        normalised.append(axis + rank if axis < 0 else axis)
    if normalised[0] == normalised[1]:
        raise InvalidArgumentError(
            f"arguments 'axis1' ({axis1}) and 'axis2' ({axis2}) must be different axes"
        )
    return normalised[0], normalised[1]


def diagonal_length(rows: int, cols: int, offset: int) -> int:
    """How many elements diagonal ``offset`` of a rows x cols matrix has (unknown extents give
    unknown)."""
    if UNKNOWN in (rows, cols):
        return UNKNOWN
    length = min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols)
    return max(length, 0)


def trace_infer_meta(
    x: MetaTensor,
    offset: int,
    axis1: int,
    axis2: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's TraceInferMeta: ``x`` of rank >= 2 loses ``axis1`` and ``axis2`` (distinct)."""
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions, got dims {_dims(x.dims)}"
        )
    first, second = diagonal_axes(len(x.dims), axis1, axis2)
    dims = tuple(e for i, e in enumerate(x.dims) if i not in (first, second))
    _set(out, dims, x)


def diagonal_infer_meta(
    x: MetaTensor,
    offset: int,
    axis1: int,
    axis2: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's DiagonalInferMeta: ``x`` of rank >= 2 loses ``axis1`` and ``axis2`` (distinct) and
    gains, last, the length of diagonal ``offset`` of those matrices (0 beyond them)."""
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions, got dims {_dims(x.dims)}"
        )
    first, second = diagonal_axes(len(x.dims), axis1, axis2)
    dims = tuple(e for i, e in enumerate(x.dims) if i not in (first, second))
    _set(out, dims + (diagonal_length(x.dims[first], x.dims[second], offset),), x)


def diag_embed_dims(rank: int, dim1: int, dim2: int) -> tuple[int, int]:
    """``dim1`` and ``dim2`` of diag_embed's output (rank ``rank`` + 1) normalised to
    [0, rank], distinct; InvalidArgumentError naming the one out of range otherwise."""
    normalised = []
    for name, dim in (("dim1", dim1), ("dim2", dim2)):
        if not -(rank + 1) <= dim <= rank:
            raise InvalidArgumentError(
                f"argument '{name}' must be in [{-(rank + 1)}, {rank}] for an input of rank "
                f"{rank}, got {dim}"
            )
        normalised.append(dim + rank + 1 if dim < 0 else dim)
    if normalised[0] == normalised[1]:
        raise InvalidArgumentError(
            f"arguments 'dim1' ({dim1}) and 'dim2' ({dim2}) must be different dimensions"
        )
    return normalised[0], normalised[1]


def diag_embed_infer_meta(
    input: MetaTensor,
    offset: int,
    dim1: int,
    dim2: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's DiagEmbedInferMeta: ``input`` [..., N] becomes rank + 1, its last axis replaced by
    two of extent N + |offset| at ``dim1`` and ``dim2`` of the result."""
    rank = len(input.dims)
    first, second = diag_embed_dims(rank, dim1, dim2)
    if rank == 0:
        raise InvalidArgumentError("argument 'input' must have at least 1 dimension, got a 0-D tensor")
    last = input.dims[-1]
    size = UNKNOWN if last == UNKNOWN else last + abs(offset)
    batch = iter(input.dims[:-1])
    dims = tuple(size if i in (first, second) else next(batch) for i in range(rank + 1))
    _set(out, dims, input)


def square_matrices(x: MetaTensor, name: str, config: MetaConfig) -> None:
    """``x`` a batch of square matrices: rank >= 2, the last two extents equal."""
    if len(x.dims) < 2:
        raise InvalidArgumentError(
            f"argument '{name}' must have at least 2 dimensions, got dims {_dims(x.dims)}"
        )
    if not extents_match(x.dims[-2], x.dims[-1], config):
        raise InvalidArgumentError(
            f"argument '{name}' must hold square matrices (its last two extents equal), got "
            f"dims {_dims(x.dims)}"
        )


def inverse_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's InverseInferMeta: ``x`` [..., N, N]; ``out`` has its dims and dtype."""
    square_matrices(x, "x", config)
    _set(out, tuple(x.dims), x)


def inverse_grad_infer_meta(
    out: MetaTensor, out_grad: MetaTensor, x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's InverseGradInferMeta: ``x_grad`` like ``out``."""
    if x_grad is not None:
        x_grad.share_meta(out)


def cholesky_infer_meta(
    x: MetaTensor, upper: bool, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's CholeskyInferMeta: ``x`` [..., N, N]; ``out`` has its dims and dtype."""
    square_matrices(x, "x", config)
    _set(out, tuple(x.dims), x)
