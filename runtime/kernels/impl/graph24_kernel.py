"""Kernels of the graph24 ops of issue 24 (graph message passing and sampling, MoE routing, tree
ops), for the dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- send_ue_recv: each edge's message is x's row at its source combined (ADD or MUL) with the
  edge's row of y, the trailing dims broadcast as numpy does; the messages are reduced into their
  destinations as send_u_recv reduces them (SUM, MEAN with C++'s truncating integer division,
  MAX, MIN; a row receiving nothing is 0). Indices outside x's rows or the output's rows are
  InvalidArgumentErrors (3.3.1 reads or writes out of bounds and may crash). x and y of
  different ranks broadcast here; 3.3.1's kernel corrupts its heap on them (paddle.geometric
  reshapes both to one rank first, so its results agree).
- send_uv: one message per edge, x's row at its source combined with y's row at its
  destination.
- graph_reindex (op reindex_graph): out_nodes is x followed by the neighbors not in x, in the
  order they first appear; each node's new id is its position there (a node x holds twice
  takes its last position, as 3.3.1's hash map does). reindex_src holds each neighbor's id;
  count[i] (i over len(count), a multiple of len(x), as reindex_heter_graph concatenates one
  count per edge type) gives x[i % len(x)]'s neighbors, so reindex_dst repeats that node's id
  count[i] times. Counts that do not sum to the neighbors' length are InvalidArgumentErrors
  (3.3.1 leaves reindex_dst partly unwritten). The hashtable buffers are the GPU kernel's
  scratch space: the CPU kernel, 3.3.1's too, ignores them.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.seq24_kernel import check_edges, divide_like_c
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
GRAPH_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def edge_ends(xp: Any, src_index: Array, dst_index: Array) -> tuple[Array, Array]:
    """The edges' sources and destinations as 1-D int64 arrays ([edges, 1] indices flattened);
    both of one dtype, as PHI's kernels read them."""
    if src_index.dtype != dst_index.dtype:
        raise InvalidArgumentError(
            f"argument 'dst_index' must have the dtype of src_index ({src_index.dtype}), "
            f"got {dst_index.dtype}"
        )
    return src_index.reshape(-1).astype(xp.int64), dst_index.reshape(-1).astype(xp.int64)


def aligned(rows: Array, rank: int) -> Array:
    """``rows`` [n, ...] with 1s inserted after n so that it has ``rank`` dims: trailing dims
    then broadcast right-aligned, as PHI broadcasts them."""
    return rows.reshape(rows.shape[:1] + (1,) * (rank - rows.ndim) + rows.shape[1:])


def combine(xp: Any, left: Array, right: Array, message_op: str) -> Array:
    """Each edge's message: ``left`` and ``right`` (one row per edge) added or multiplied."""
    rank = max(left.ndim, right.ndim)
    left, right = aligned(left, rank), aligned(right, rank)
    return left + right if message_op == "ADD" else left * right


def edge_counts(xp: Any, dst: Array, rows: int) -> Array:
    counts = xp.zeros(rows, xp.int64)
    scatter_at("add", counts, dst, xp.ones(dst.shape, xp.int64))
    return counts


def reduce_messages(xp: Any, messages: Array, dst: Array, rows: int, reduce_op: str) -> Array:
    """The messages reduced into their destinations' rows, send_u_recv's way."""
    shape = (rows,) + messages.shape[1:]
    broadcast = (rows,) + (1,) * (messages.ndim - 1)
    if reduce_op in ("SUM", "MEAN"):
        out = xp.zeros(shape, messages.dtype)
        scatter_at("add", out, dst, messages)
        if reduce_op == "MEAN":
            divisor = xp.maximum(edge_counts(xp, dst, rows), 1).reshape(broadcast)
            out = divide_like_c(xp, out, divisor.astype(messages.dtype))
        return out
    largest = reduce_op == "MAX"
    if messages.dtype.kind in "iu":
        start = xp.iinfo(messages.dtype).min if largest else xp.iinfo(messages.dtype).max
    else:
        start = -xp.inf if largest else xp.inf
    out = xp.full(shape, start, messages.dtype)
    scatter_at("maximum" if largest else "minimum", out, dst, messages)
    empty = (edge_counts(xp, dst, rows) == 0).reshape(broadcast)
    return xp.where(empty, xp.zeros((), messages.dtype), out)


def index_inputs(*positions: int) -> Any:
    """A registration body letting the index inputs at ``positions`` keep their own dtype."""

    def configure(kernel: Kernel) -> None:
        for position in positions:
            kernel.input_at(position).set_dtype(D.ALL_DTYPE)

    return configure


def _send_ue_recv_outputs(kernel: Kernel) -> None:
    index_inputs(2, 3)(kernel)
    kernel.output_at(1).set_dtype(D.INT32)


@register_kernel("send_ue_recv", dtypes=GRAPH_DTYPES, configure=_send_ue_recv_outputs)
def send_ue_recv_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    src_index: Array,
    dst_index: Array,
    message_op: str,
    reduce_op: str,
    out_size: tuple[int, ...],
) -> tuple[Array, Array]:
    xp = ctx.xp
    rows = out_size[0] if out_size and out_size[0] > 0 else x.shape[0]
    src, dst = edge_ends(xp, src_index, dst_index)
    check_edges(xp, src, dst, x.shape[0], rows)
    messages = combine(xp, x[src], y, message_op)
    out = reduce_messages(xp, messages, dst, rows, reduce_op)
    return out.astype(x.dtype), edge_counts(xp, dst, rows).astype(xp.int32)


@register_kernel("send_uv", dtypes=GRAPH_DTYPES, configure=index_inputs(2, 3))
def send_uv_kernel(
    ctx: KernelContext, x: Array, y: Array, src_index: Array, dst_index: Array, message_op: str
) -> Array:
    xp = ctx.xp
    src, dst = edge_ends(xp, src_index, dst_index)
    check_edges(xp, src, dst, x.shape[0], y.shape[0])
    return combine(xp, x[src], y[dst], message_op).astype(x.dtype)


def _node_ids(xp: Any, x: Array, neighbors: Array) -> tuple[Array, Array, Array]:
    """(out_nodes, sorted node values, their ids) for graph_reindex."""
    n = x.shape[0]
    reversed_values, reversed_first = xp.unique(x[::-1], return_index=True)
    x_ids = (n - 1 - reversed_first).astype(xp.int64)
    values, first = xp.unique(neighbors, return_index=True)
    new = ~xp.isin(values, reversed_values)
    new_values, new_first = values[new], first[new]
    order = xp.argsort(new_first, kind="stable")
    new_values = new_values[order]
    new_ids = n + xp.arange(new_values.shape[0], dtype=xp.int64)
    keys = xp.concatenate([reversed_values, new_values])
    ids = xp.concatenate([x_ids, new_ids])
    by_key = xp.argsort(keys, kind="stable")
    return xp.concatenate([x, new_values]), keys[by_key], ids[by_key]


@register_kernel(
    "graph_reindex", dtypes=(D.INT32, D.INT64), configure=index_inputs(2, 3, 4)
)
def graph_reindex_kernel(
    ctx: KernelContext,
    x: Array,
    neighbors: Array,
    count: Array,
    hashtable_value: Array | None,
    hashtable_index: Array | None,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    n = x.shape[0]
    if n == 0 and count.shape[0]:
        raise InvalidArgumentError(
            f"argument 'count' must be empty when x is, got {count.shape[0]} counts"
        )
    if n and count.shape[0] % n:
        raise InvalidArgumentError(
            f"argument 'count' must hold a multiple of x's {n} nodes (one count per node and "
            f"edge type), got {count.shape[0]}"
        )
    counts = count.astype(xp.int64)
    if counts.size and bool(xp.any(counts < 0)):
        raise InvalidArgumentError(f"argument 'count' must be >= 0, got {int(xp.min(counts))}")
    total = int(counts.sum())
    if total != neighbors.shape[0]:
        raise InvalidArgumentError(
            f"argument 'count' must sum to the number of neighbors ({neighbors.shape[0]}), "
            f"got {total}"
        )
    out_nodes, keys, ids = _node_ids(xp, x, neighbors)
    reindex_src = ids[xp.searchsorted(keys, neighbors)] if total else xp.zeros(0, xp.int64)
    centers = ids[xp.searchsorted(keys, x)] if n else xp.zeros(0, xp.int64)
    if counts.size:
        centers = xp.tile(centers, counts.shape[0] // n)
    reindex_dst = xp.repeat(centers, counts)
    return reindex_src.astype(x.dtype), reindex_dst.astype(x.dtype), out_nodes.astype(x.dtype)
