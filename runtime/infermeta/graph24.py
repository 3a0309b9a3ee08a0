"""InferMeta functions of the graph24 ops (issue 24): graph message passing and sampling, MoE
routing and tree ops (send_ue_recv, send_uv, ...), following PaddlePaddle 3.3.1's functions of
the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "send_ue_recv_infer_meta",
    "send_uv_infer_meta",
    "graph_reindex_infer_meta",
]

_RUNTIME = MetaConfig()
_INDEX_DTYPES = (DataType.INT32, DataType.INT64)
MESSAGE_OPS = ("ADD", "MUL")
REDUCE_OPS = ("SUM", "MEAN", "MAX", "MIN")


def _dtype_in(t: MetaTensor, name: str, dtypes: tuple[DataType, ...]) -> None:
    if t.dtype not in dtypes:
        wanted = " or ".join(d.name.lower() for d in dtypes)
        raise InvalidArgumentError(
            f"argument '{name}' must be {wanted}, got {t.dtype.name.lower()}"
        )


def _edge_indices(src_index: MetaTensor, dst_index: MetaTensor, config: MetaConfig) -> int:
    """The number of edges: src_index and dst_index are [edges] or [edges, 1] int32/int64
    tensors of one length (PHI's check in SendUERecvInferMeta/SendUVInferMeta)."""
    for name, index in (("src_index", src_index), ("dst_index", dst_index)):
        dims = tuple(index.dims)
        if not (len(dims) == 1 or (len(dims) == 2 and dims[1] in (1, -1))):
            raise InvalidArgumentError(
                f"argument '{name}' must be a 1-D tensor (or 2-D with last extent 1), "
                f"got shape {list(dims)}"
            )
        _dtype_in(index, name, _INDEX_DTYPES)
    if not extents_match(src_index.dims[0], dst_index.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'dst_index' must have one index per edge of src_index "
            f"({src_index.dims[0]}), got shape {list(dst_index.dims)}"
        )
    return src_index.dims[0]


def _message_dims(x: MetaTensor, y: MetaTensor) -> tuple[int, ...]:
    """The broadcast of x's and y's dims after their first (numpy's right alignment)."""
    for name, t in (("x", x), ("y", y)):
        if not t.dims:
            raise InvalidArgumentError(f"argument '{name}' must have at least 1 dimension, got 0-D")
    return broadcast_dims(tuple(x.dims[1:]), tuple(y.dims[1:]), "x", "y")


def _message_op(message_op: str) -> None:
    if message_op not in MESSAGE_OPS:
        raise InvalidArgumentError(
            f"argument 'message_op' must be one of {', '.join(MESSAGE_OPS)}, got {message_op!r}"
        )


def _same_dtype(x: MetaTensor, y: MetaTensor) -> None:
    if x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype of x ({x.dtype.name.lower()}), "
            f"got {y.dtype.name.lower()}"
        )


def send_ue_recv_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    src_index: MetaTensor,
    dst_index: MetaTensor,
    message_op: str,
    reduce_op: str,
    out_size: tuple[int, ...],
    out: MetaTensor,
    dst_count: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` [rows, broadcast of x's and y's trailing dims] of x's dtype, rows out_size[0]
    when positive else x's first extent, and ``dst_count`` [rows] int32 (PHI's
    SendUERecvInferMeta; y holds one row per edge)."""
    edges = _edge_indices(src_index, dst_index, config)
    trailing = _message_dims(x, y)
    _same_dtype(x, y)
    if not extents_match(y.dims[0], edges, config):
        raise InvalidArgumentError(
            f"argument 'y' must have one row per edge of src_index ({edges}), "
            f"got shape {list(y.dims)}"
        )
    _message_op(message_op)
    if reduce_op not in REDUCE_OPS:
        raise InvalidArgumentError(
            f"argument 'reduce_op' must be one of {', '.join(REDUCE_OPS)}, got {reduce_op!r}"
        )
    if len(out_size) > 1:
        raise InvalidArgumentError(f"argument 'out_size' must hold one size, got {list(out_size)}")
    rows = out_size[0] if out_size and out_size[0] > 0 else x.dims[0]
    _set(out, (rows,) + trailing, x.dtype, x)
    _set(dst_count, (rows,), DataType.INT32, x)


def send_uv_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    src_index: MetaTensor,
    dst_index: MetaTensor,
    message_op: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` [edges, broadcast of x's and y's trailing dims] of x's dtype (PHI's
    SendUVInferMeta): one message per edge, from x's source row and y's destination row."""
    edges = _edge_indices(src_index, dst_index, config)
    trailing = _message_dims(x, y)
    _same_dtype(x, y)
    _message_op(message_op)
    _set(out, (edges,) + trailing, x.dtype, x)


def graph_reindex_infer_meta(
    x: MetaTensor,
    neighbors: MetaTensor,
    count: MetaTensor,
    hashtable_value: MetaTensor | None,
    hashtable_index: MetaTensor | None,
    reindex_src: MetaTensor,
    reindex_dst: MetaTensor,
    out_nodes: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``reindex_src`` and ``reindex_dst`` [neighbors' length], ``out_nodes`` [-1] (the number
    of distinct nodes is known only when the kernel runs), all of x's dtype (PHI's
    GraphReindexInferMeta)."""
    for name, t in (("x", x), ("neighbors", neighbors), ("count", count)):
        if len(t.dims) != 1:
            raise InvalidArgumentError(
                f"argument '{name}' must be a 1-D tensor, got shape {list(t.dims)}"
            )
    _dtype_in(x, "x", _INDEX_DTYPES)
    if neighbors.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'neighbors' must have the dtype of x ({x.dtype.name.lower()}), "
            f"got {neighbors.dtype.name.lower()}"
        )
    _dtype_in(count, "count", (DataType.INT32,))
    for name, t in (("hashtable_value", hashtable_value), ("hashtable_index", hashtable_index)):
        if t is not None:
            _dtype_in(t, name, (DataType.INT32,))
    _set(reindex_src, (neighbors.dims[0],), x.dtype, x)
    _set(reindex_dst, (neighbors.dims[0],), x.dtype, x)
    _set(out_nodes, (UNKNOWN,), x.dtype, x)
