"""Grad kernels of the seq24 ops of issue 24 (runtime/kernels/impl/seq24_kernel.py), for the
dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_grad_kernel.cc)."""

from __future__ import annotations

import numpy as np

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.seq24_kernel import divide_like_c, swiglu_halves
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType


@register_kernel("add_position_encoding_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def add_position_encoding_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, alpha: float, beta: float
) -> Array:
    return out_grad * out_grad.dtype.type(np.float32(alpha))


@register_kernel("swiglu_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def swiglu_grad_kernel(
    ctx: KernelContext, x: Array, y: Array | None, out_grad: Array
) -> tuple[Array, Array]:
    xp = ctx.xp
    gate, value = swiglu_halves(xp, x, y)
    with np.errstate(over="ignore"):
        sigmoid = 1 / (1 + xp.exp(-gate))
    silu = gate * sigmoid
    gate_grad = out_grad * value * sigmoid * (1 + gate * (1 - sigmoid))
    value_grad = out_grad * silu
    if y is not None:
        return gate_grad, value_grad
    return xp.concatenate([gate_grad, value_grad], axis=-1), None


@register_kernel("fused_softmax_mask_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def fused_softmax_mask_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    return out * (out_grad - xp.sum(out_grad * out, axis=-1, keepdims=True))


@register_kernel("bilinear_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def bilinear_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, weight: Array, out_grad: Array
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    # x_grad[b, i] = sum_k out_grad[b, k] * (weight[k] @ y[b])[i], and so on
    weight_y = xp.matmul(weight, y.T)  # [k, in1, batch]
    x_grad = xp.einsum("bk,kib->bi", out_grad, weight_y)
    x_weight = xp.matmul(x[None, :, :], weight)  # [k, batch, in2]
    y_grad = xp.einsum("bk,kbj->bj", out_grad, x_weight)
    weight_grad = xp.einsum("bk,bi,bj->kij", out_grad, x, y)
    bias_grad = xp.sum(out_grad, axis=0, keepdims=True)
    return x_grad, y_grad, weight_grad, bias_grad


@register_kernel("cvm_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def cvm_grad_kernel(
    ctx: KernelContext, x: Array, cvm: Array, out_grad: Array, use_cvm: bool
) -> Array:
    """PHI's: out_grad passed through to the columns it came from, and the first two columns
    (show and click) given the cvm input's values, not a derivative (PaddlePaddle's CTR models
    feed the counts back this way)."""
    xp = ctx.xp
    batch = out_grad.shape[0]
    width = out_grad.shape[1] + (0 if use_cvm else 2)
    x_grad = xp.empty((batch, width), out_grad.dtype)
    x_grad[:, 2:] = out_grad[:, 2:] if use_cvm else out_grad
    x_grad[:, :2] = cvm
    return x_grad


@register_kernel("segment_pool_grad", dtypes=(D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64))
def segment_pool_grad_kernel(
    ctx: KernelContext,
    x: Array,
    segment_ids: Array,
    out: Array,
    summed_ids: Array | None,
    out_grad: Array,
    pooltype: str,
) -> Array:
    """PHI's: each row gets its segment's out_grad, divided by the segment's size for MEAN,
    and for MAX/MIN only where it equals the segment's result (every tied row gets it)."""
    xp = ctx.xp
    ids = segment_ids.astype(xp.int64)
    grad = out_grad[ids]
    if pooltype == "MEAN":
        counts = xp.zeros(out_grad.shape[0], xp.int64)
        scatter_at("add", counts, ids, xp.ones(ids.shape, xp.int64))
        divisor = counts[ids].reshape((-1,) + (1,) * (x.ndim - 1)).astype(grad.dtype)
        grad = divide_like_c(xp, grad, divisor)
    elif pooltype in ("MAX", "MIN"):
        grad = xp.where(x == out[ids], grad, xp.zeros((), grad.dtype))
    return grad.astype(out_grad.dtype)


def _index_inputs(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(D.ALL_DTYPE)
    kernel.input_at(2).set_dtype(D.ALL_DTYPE)
    kernel.input_at(4).set_dtype(D.ALL_DTYPE)


@register_kernel(
    "send_u_recv_grad", dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64), configure=_index_inputs
)
def send_u_recv_grad_kernel(
    ctx: KernelContext,
    x: Array,
    src_index: Array,
    dst_index: Array,
    out: Array | None,
    dst_count: Array | None,
    out_grad: Array,
    reduce_op: str,
) -> Array:
    """PHI's: each edge sends its destination's out_grad back to its source, divided by the
    destination's message count for MEAN, and for MAX/MIN only where the source equals the
    destination's result (every tied edge sends it)."""
    xp = ctx.xp
    src, dst = src_index.astype(xp.int64), dst_index.astype(xp.int64)
    grads = out_grad[dst]
    if reduce_op == "MEAN":
        counts = xp.zeros(out_grad.shape[0], xp.int64)
        scatter_at("add", counts, dst, xp.ones(dst.shape, xp.int64))
        divisor = counts[dst].reshape((-1,) + (1,) * (x.ndim - 1)).astype(grads.dtype)
        grads = divide_like_c(xp, grads, divisor)
    elif reduce_op in ("MAX", "MIN"):
        grads = xp.where(x[src] == out[dst], grads, xp.zeros((), grads.dtype))
    x_grad = xp.zeros(x.shape, out_grad.dtype)
    scatter_at("add", x_grad, src, grads)
    return x_grad
