"""Grad kernels of the random24 random ops (issue 24): poisson_grad, gaussian_inplace_grad and
uniform_inplace_grad (a draw does not depend on its input, so each gradient is zeros of
out_grad's shape and dtype, as PaddlePaddle 3.3.1's kernels give) and gumbel_softmax_grad (the
softmax gradient of the forward output) and shuffle_batch_grad (the rows moved back)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

FLOAT = (D.FLOAT32, D.FLOAT64)


@register_kernel("poisson_grad", dtypes=FLOAT)
def poisson_grad_kernel(ctx: KernelContext, out_grad: Array) -> Array:
    """Zeros like out_grad."""
    return ctx.xp.zeros_like(out_grad)


@register_kernel("gaussian_inplace_grad", dtypes=FLOAT + (D.COMPLEX64, D.COMPLEX128))
def gaussian_inplace_grad_kernel(
    ctx: KernelContext, out_grad: Array, mean: float, std: float, seed: int
) -> Array:
    """Zeros like out_grad."""
    return ctx.xp.zeros_like(out_grad)


@register_kernel("uniform_inplace_grad", dtypes=FLOAT)
def uniform_inplace_grad_kernel(
    ctx: KernelContext,
    out_grad: Array,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
) -> Array:
    """Zeros like out_grad."""
    return ctx.xp.zeros_like(out_grad)


@register_kernel("gumbel_softmax_grad", dtypes=FLOAT)
def gumbel_softmax_grad_kernel(ctx: KernelContext, out: Array, out_grad: Array, axis: int) -> Array:
    """The softmax gradient of the returned values: out * (out_grad - sum(out_grad * out))."""
    xp = ctx.xp
    if out.ndim == 0:
        return xp.zeros_like(out_grad)
    weighted = xp.sum(out_grad * out, axis=axis % out.ndim, keepdims=True)
    return out * (out_grad - weighted)


@register_kernel(
    "shuffle_batch_grad",
    dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64),
    configure=lambda k: k.input_at(0).set_dtype(D.ALL_DTYPE),
)
def shuffle_batch_grad_kernel(
    ctx: KernelContext, shuffle_idx: Array, out_grad: Array, startup_seed: int
) -> Array:
    """Row i of x_grad is row shuffle_idx[i] of out_grad."""
    rows = (
        out_grad.reshape(-1, out_grad.shape[-1]) if out_grad.ndim > 1 else out_grad.reshape(1, -1)
    )
    return rows[shuffle_idx].reshape(out_grad.shape)
