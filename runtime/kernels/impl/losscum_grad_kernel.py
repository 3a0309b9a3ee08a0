"""Grad kernels of the losscum ops (losscum_kernel.py), with PHI's formulas
(paddle/phi/kernels/cpu/*_grad_kernel.cc and impl/*_grad_kernel_impl.h of 3.3.1); the dtype
lists are PaddlePaddle 3.3.1's CPU registrations."""

from __future__ import annotations

from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.losscum_kernel import (
    FLOAT32_ONLY,
    LOSS_DTYPES,
    MEAN_ALL_DTYPES,
    label_keeps_its_dtype,
    float_attr,
    label_smooth_keep,
    nll_entries,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

BCE_GRAD_EPSILON = 1e-12
NORMALIZE_EPSILON = 1e-5


@register_kernel("bce_loss_grad", dtypes=LOSS_DTYPES)
@ieee_results
def bce_loss_grad_kernel(
    ctx: KernelContext, input: Array, label: Array, out_grad: Array  # noqa: A002
) -> Array:
    """out_grad * (input - label) / max(input * (1 - input), 1e-12)."""
    xp = ctx.xp
    denominator = xp.maximum((1 - input) * input, input.dtype.type(BCE_GRAD_EPSILON))
    return (out_grad * (input - label) / denominator).astype(input.dtype, copy=False)


@register_kernel("sigmoid_cross_entropy_with_logits_grad", dtypes=LOSS_DTYPES)
@ieee_results
def sigmoid_cross_entropy_with_logits_grad_kernel(
    ctx: KernelContext,
    x: Array,
    label: Array,
    pos_weight: Array | None,
    out_grad: Array,
    normalize: bool,
    ignore_index: int,
) -> Array:
    """out_grad * ((1 - label) - w * (1 - sigmoid(x))) with a pos_weight w; without one, PHI's
    (x > 0) - label - sign(x) * e / (1 + e), e = exp(-|x|), which is sigmoid(x) - label but at
    x = 0, where the sign counts as 1 and gives -0.5 - label (PaddlePaddle 3.3.1's value). 0
    where the label is ignore_index; divided by the count of the others with ``normalize``."""
    xp = ctx.xp
    zero = x.dtype.type(0)
    if pos_weight is None:
        decay = xp.exp(-xp.abs(x))
        tail = xp.where(x >= 0, decay, -decay) / (1 + decay)
        grad = out_grad * ((x > 0).astype(x.dtype) - label - tail)
    else:
        grad = out_grad * ((1 - label) - pos_weight / (1 + xp.exp(x)))
    ignored = label.astype("int64") == ignore_index
    grad = xp.where(ignored, zero, grad)
    if normalize:
        kept = x.dtype.type(int((~ignored).sum()))
        grad = grad / xp.maximum(kept, x.dtype.type(NORMALIZE_EPSILON))
    return grad.astype(x.dtype, copy=False)


@register_kernel("kldiv_loss_grad", dtypes=LOSS_DTYPES)
def kldiv_loss_grad_kernel(
    ctx: KernelContext,
    x: Array,
    label: Array,
    out_grad: Array,
    reduction: str,
    log_target: bool,
) -> Array:
    """-exp(label) * out_grad with log_target, else -label * out_grad where label > 0 and 0
    elsewhere; divided by the element count for 'mean' and by the first extent for
    'batchmean'."""
    xp = ctx.xp
    if log_target:
        grad = -xp.exp(label) * out_grad
    else:
        grad = xp.where(label > 0, -label * out_grad, label.dtype.type(0))
    grad = xp.broadcast_to(grad, label.shape)
    if reduction == "mean" and label.size:
        grad = grad / label.dtype.type(label.size)
    elif reduction == "batchmean" and label.ndim:
        grad = grad / label.dtype.type(label.shape[0])
    return grad.astype(label.dtype)  # a copy: grad may be a broadcast view


@register_kernel("huber_loss_grad", dtypes=LOSS_DTYPES)
def huber_loss_grad_kernel(
    ctx: KernelContext, residual: Array, out_grad: Array, delta: float
) -> tuple[Array, Array]:
    """With d = r where |r| <= delta and delta * sign(r) elsewhere (r = label - input):
    input_grad = -d * out_grad, label_grad = d * out_grad."""
    xp = ctx.xp
    delta_t = float_attr(residual, delta)
    step = xp.where(xp.abs(residual) <= delta_t, residual, delta_t * xp.sign(residual))
    grad = (step * out_grad).astype(residual.dtype, copy=False)
    input_grad = -grad if ctx.wants(0) else None
    label_grad = grad if ctx.wants(1) else None
    return input_grad, label_grad


@register_kernel("nll_loss_grad", dtypes=LOSS_DTYPES, configure=label_keeps_its_dtype)
def nll_loss_grad_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002
    label: Array,
    weight: Array | None,
    total_weight: Array,
    out_grad: Array,
    ignore_index: int,
    reduction: str,
) -> Array:
    """-weight[label] * out_grad at each entry's class (divided by total_weight for 'mean'), 0
    at the other classes and at ignored entries."""
    xp = ctx.xp
    _, weights, index = nll_entries(ctx, input, label, weight, ignore_index)
    scale = -weights * out_grad
    if reduction == "mean":
        nonzero = total_weight != 0
        scale = xp.where(nonzero, scale / xp.where(nonzero, total_weight, 1), input.dtype.type(0))
    classes = xp.arange(input.shape[1]).reshape((1, -1) + (1,) * (input.ndim - 2))
    hit = classes == xp.expand_dims(index, 1)
    return xp.where(hit, xp.expand_dims(scale, 1), input.dtype.type(0)).astype(input.dtype)


@register_kernel("log_loss_grad", dtypes=FLOAT32_ONLY)
@ieee_results
def log_loss_grad_kernel(
    ctx: KernelContext, input: Array, label: Array, out_grad: Array, epsilon: float  # noqa: A002
) -> Array:
    """out_grad * (-label / (input + epsilon) + (1 - label) / (1 - input + epsilon))."""
    eps = float_attr(input, epsilon)
    grad = out_grad * (-label / (input + eps) + (1 - label) / (1 - input + eps))
    return grad.astype(input.dtype, copy=False)


@register_kernel("hinge_loss_grad", dtypes=FLOAT32_ONLY)
def hinge_loss_grad_kernel(
    ctx: KernelContext, logits: Array, labels: Array, loss_grad: Array
) -> Array:
    """-(2 * labels - 1) * loss_grad where the margin 1 - logits * (2 * labels - 1) is
    positive, else 0."""
    xp = ctx.xp
    sign = 2 * labels - 1
    grad = xp.where(sign * logits < 1, -sign * loss_grad, logits.dtype.type(0))
    return grad.astype(logits.dtype, copy=False)


@register_kernel("label_smooth_grad", dtypes=LOSS_DTYPES)
def label_smooth_grad_kernel(ctx: KernelContext, out_grad: Array, epsilon: float) -> Array:
    """(1 - epsilon) * out_grad, 1 - epsilon computed in float as PHI does."""
    return (label_smooth_keep(out_grad, epsilon) * out_grad).astype(out_grad.dtype, copy=False)


@register_kernel("identity_loss_grad", dtypes=LOSS_DTYPES)
def identity_loss_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, reduction: int
) -> Array:
    """out_grad spread over x: as it is for 0 (sum) and 2 (none), divided by x's element count
    for 1 (mean)."""
    xp = ctx.xp
    grad = out_grad
    if reduction == 1 and x.size:
        grad = grad / out_grad.dtype.type(x.size)
    return xp.broadcast_to(grad, x.shape).astype(out_grad.dtype)


@register_kernel("mean_all_grad", dtypes=MEAN_ALL_DTYPES)
def mean_all_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array) -> Array:
    """out_grad / x's element count in every element of x's shape."""
    xp = ctx.xp
    grad = out_grad / out_grad.dtype.type(max(x.size, 1))
    return xp.broadcast_to(grad, x.shape).astype(out_grad.dtype)
