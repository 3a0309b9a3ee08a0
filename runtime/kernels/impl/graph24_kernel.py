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
