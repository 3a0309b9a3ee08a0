"""Grad kernels of the misc24 ops (issue 24): spectral_norm_grad, written from PaddlePaddle
3.3.1's (paddle/phi/kernels/impl/spectral_norm_grad_kernel_impl.h), and
fused_softmax_mask_upper_triangle_grad."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType as D
from phiops.runtime.kernels.impl.misc24_kernel import (
    SPECTRAL_NORM_DTYPES,
    from_weight_matrix,
    power_iteration,
    weight_matrix,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = [
    "spectral_norm_grad_kernel",
    "fused_softmax_mask_upper_triangle_grad_kernel",
]


@register_kernel("spectral_norm_grad", dtypes=SPECTRAL_NORM_DTYPES)
def spectral_norm_grad_kernel(
    ctx: KernelContext,
    weight: Array,
    u: Array,
    v: Array,
    out_grad: Array,
    dim: int,
    power_iters: int,
    eps: float,
) -> Array:
    """PHI's formula, which is not the derivative of spectral_norm beyond a 1x1 matrix:
    out_grad * (1 - u v^T * sum(W / sigma)) / sigma, with u, v and sigma after the power
    iterations taken as constants (the derivative would have sum(out_grad * W) / sigma where
    this has sum(W / sigma) elementwise times out_grad, and terms from the iterations).
    PaddlePaddle 3.3.1 trains with this gradient, so phiops gives the same."""
    xp = ctx.xp
    matrix = weight_matrix(xp, weight, dim)
    grad = weight_matrix(xp, out_grad, dim)
    with np.errstate(divide="ignore", invalid="ignore"):  # sigma 0: inf and NaN, as PHI's
        u, v, sigma = power_iteration(xp, matrix, u, v, power_iters, eps)
        total = xp.sum(matrix / sigma)
        weight_grad = grad * (1 - xp.outer(u, v) * total) / sigma
    return from_weight_matrix(xp, weight_grad.astype(weight.dtype, copy=False), weight.shape, dim)


# PaddlePaddle 3.3.1 registers this grad for GPU (float32, float16, bfloat16) only; phiops
# registers float32 and float64 on both, the forward kernel's CPU dtypes, so that it can be
# differentiated where it runs
@register_kernel("fused_softmax_mask_upper_triangle_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def fused_softmax_mask_upper_triangle_grad_kernel(
    ctx: KernelContext, Out: Array, Out_grad: Array
) -> Array:
    """The softmax gradient Out * (Out_grad - sum(Out_grad * Out)) over the last axis; the
    hidden keys, where Out is 0, get 0."""
    xp = ctx.xp
    return Out * (Out_grad - xp.sum(Out_grad * Out, axis=-1, keepdims=True))
