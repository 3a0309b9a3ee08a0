"""Grad kernels of the graph24 ops of issue 24 (send_ue_recv_grad, send_uv_grad), PHI's: the
gradient of each edge's message is sent back to the rows that made it, summed over the dims
they were broadcast along."""

from __future__ import annotations

from typing import Any

from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.graph24_kernel import (
    GRAPH_DTYPES,
    aligned,
    combine,
    edge_counts,
    edge_ends,
    index_inputs,
)
from phiops.runtime.kernels.impl.seq24_kernel import divide_like_c
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def sum_to_rows(xp: Any, grad: Array, rows: Array) -> Array:
    """``grad`` [n, broadcast dims...] summed over the dims ``rows`` [n, ...] was broadcast
    along, in rows' shape."""
    target = aligned(rows, grad.ndim).shape
    axes = tuple(i for i in range(1, grad.ndim) if target[i] == 1 and grad.shape[i] != 1)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(rows.shape)


def _scatter_rows(xp: Any, like: Array, index: Array, grads: Array) -> Array:
    out = xp.zeros(like.shape, grads.dtype)
    scatter_at("add", out, index, grads)
    return out


@register_kernel("send_ue_recv_grad", dtypes=GRAPH_DTYPES, configure=index_inputs(2, 3, 5))
def send_ue_recv_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    src_index: Array,
    dst_index: Array,
    out: Array | None,
    dst_count: Array | None,
    out_grad: Array,
    message_op: str,
    reduce_op: str,
) -> tuple[Array, Array]:
    """Each edge's message gradient is its destination's out_grad, divided by the
    destination's message count for MEAN, and for MAX/MIN kept only where the message equals
    the destination's result (every tied edge keeps it)."""
    xp = ctx.xp
    src, dst = edge_ends(xp, src_index, dst_index)
    grads = out_grad[dst]
    if reduce_op == "MEAN":
        counts = edge_counts(xp, dst, out_grad.shape[0])[dst]
        grads = divide_like_c(xp, grads, aligned(counts, grads.ndim).astype(grads.dtype))
    elif reduce_op in ("MAX", "MIN"):
        messages = combine(xp, x[src], y, message_op)
        grads = xp.where(messages == out[dst], grads, xp.zeros((), grads.dtype))
    if message_op == "ADD":
        x_grads, y_grads = grads, grads
    else:
        rank = grads.ndim
        x_grads, y_grads = grads * aligned(y, rank), grads * aligned(x[src], rank)
    x_grad = _scatter_rows(xp, x, src, sum_to_rows(xp, x_grads, x[src]))
    y_grad = sum_to_rows(xp, y_grads, y)
    return x_grad.astype(out_grad.dtype), y_grad.astype(out_grad.dtype)


@register_kernel("send_uv_grad", dtypes=GRAPH_DTYPES, configure=index_inputs(2, 3))
def send_uv_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    src_index: Array,
    dst_index: Array,
    out_grad: Array,
    message_op: str,
) -> tuple[Array, Array]:
    xp = ctx.xp
    src, dst = edge_ends(xp, src_index, dst_index)
    if message_op == "ADD":
        x_grads, y_grads = out_grad, out_grad
    else:
        rank = out_grad.ndim
        x_grads = out_grad * aligned(y[dst], rank)
        y_grads = out_grad * aligned(x[src], rank)
    x_grad = _scatter_rows(xp, x, src, sum_to_rows(xp, x_grads, x[src]))
    y_grad = _scatter_rows(xp, y, dst, sum_to_rows(xp, y_grads, y[dst]))
    return x_grad.astype(x.dtype), y_grad.astype(x.dtype)
