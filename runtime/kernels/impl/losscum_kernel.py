"""Kernels of the losscum ops of issue 24: the losses bce_loss, sigmoid_cross_entropy_with_logits,
kldiv_loss, huber_loss, nll_loss, log_loss, hinge_loss, label_smooth, identity_loss and the
reduction mean_all.

The dtype lists are PaddlePaddle 3.3.1's CPU registrations (paddle/phi/kernels/cpu/
bce_loss_kernel.cc, sigmoid_cross_entropy_with_logits_kernel.cc, kldiv_loss_kernel.cc, ...). The
formulas are PHI's: bce_loss clamps each log below at -100 and refuses inputs outside [0, 1]
(NaN included); float attributes (delta, epsilon) are C++ floats, so they reach a float64 kernel
rounded to float32, as ``_attr`` does here.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.cross_entropy_kernel import checked_classes
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

LOSS_DTYPES = (D.FLOAT32, D.FLOAT64)
FLOAT32_ONLY = (D.FLOAT32,)
MEAN_ALL_DTYPES = (D.FLOAT32, D.FLOAT64, D.BFLOAT16, D.COMPLEX64, D.COMPLEX128)
BCE_LOG_FLOOR = -100.0


def float_attr(x: Array, value: float) -> Array:
    """A C++ ``float`` attribute as PHI's kernel of ``x``'s dtype sees it: a numpy scalar (CuPy
    takes those beside its arrays, not numpy arrays)."""
    return x.dtype.type(np.float32(value))


def label_keeps_its_dtype(kernel: Kernel) -> None:
    # nll_loss's label is int64 class indices whatever the kernel dtype.
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


@register_kernel("bce_loss", dtypes=LOSS_DTYPES)
@ieee_results
def bce_loss_kernel(ctx: KernelContext, input: Array, label: Array) -> Array:  # noqa: A002
    xp = ctx.xp
    inside = (input >= 0) & (input <= 1)
    if not bool(inside.all()):
        bad = input[~inside].reshape(-1)[0].item()
        raise InvalidArgumentError(f"argument 'input' must hold probabilities in [0, 1], got {bad}")
    floor = input.dtype.type(BCE_LOG_FLOOR)
    log_x = xp.maximum(xp.log(input), floor)
    log_1mx = xp.maximum(xp.log(1 - input), floor)
    return ((label - 1) * log_1mx - label * log_x).astype(input.dtype, copy=False)


@register_kernel("sigmoid_cross_entropy_with_logits", dtypes=LOSS_DTYPES)
@ieee_results
def sigmoid_cross_entropy_with_logits_kernel(
    ctx: KernelContext,
    x: Array,
    label: Array,
    pos_weight: Array | None,
    normalize: bool,
    ignore_index: int,
) -> Array:
    """(1 - label) * x + w * (log(1 + exp(-|x|)) + max(-x, 0)), 0 where the label (cast to int)
    is ignore_index; divided by the count of the other elements with ``normalize``."""
    xp = ctx.xp
    zero = x.dtype.type(0)
    softplus = xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, zero)
    weight = 1 if pos_weight is None else pos_weight
    loss = (1 - label) * x + weight * softplus
    ignored = label.astype(np.int64) == ignore_index
    loss = xp.where(ignored, zero, loss)
    if normalize:
        kept = x.dtype.type(int((~ignored).sum()))
        loss = loss / xp.maximum(kept, x.dtype.type(1e-5))
    return loss.astype(x.dtype, copy=False)


@register_kernel("kldiv_loss", dtypes=LOSS_DTYPES)
@ieee_results
def kldiv_loss_kernel(
    ctx: KernelContext, x: Array, label: Array, reduction: str, log_target: bool
) -> Array:
    xp = ctx.xp
    zero = x.dtype.type(0)
    if log_target:
        loss = xp.exp(label) * (label - x)
    else:
        positive = label > 0
        safe = xp.where(positive, label, x.dtype.type(1))
        loss = xp.where(positive, label * (xp.log(safe) - x), zero)
    loss = loss.astype(x.dtype, copy=False)
    if reduction == "none":
        return loss
    total = loss.sum()
    if reduction == "mean":
        return (total / x.dtype.type(loss.size)).astype(x.dtype)
    if reduction == "batchmean" and x.ndim:
        return (total / x.dtype.type(x.shape[0])).astype(x.dtype)
    return total.astype(x.dtype)


@register_kernel("huber_loss", dtypes=LOSS_DTYPES)
def huber_loss_kernel(
    ctx: KernelContext, input: Array, label: Array, delta: float  # noqa: A002
) -> tuple[Array, Array]:
    xp = ctx.xp
    delta_t = float_attr(input, delta)
    residual = (label - input).astype(input.dtype, copy=False)
    size = xp.abs(residual)
    half = input.dtype.type(0.5)
    out = xp.where(size <= delta_t, half * residual * residual, delta_t * (size - half * delta_t))
    return out.astype(input.dtype, copy=False), residual


@register_kernel("nll_loss", dtypes=LOSS_DTYPES, configure=label_keeps_its_dtype)
def nll_loss_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002
    label: Array,
    weight: Array | None,
    ignore_index: int,
    reduction: str,
) -> tuple[Array, Array]:
    """-weight[label] * input[n, label] per entry; 'mean' divides the sum by the total weight of
    the entries not ignored (0 when that is 0)."""
    xp = ctx.xp
    picked, weights, _ = nll_entries(ctx, input, label, weight, ignore_index)
    losses = -picked * weights
    zero = input.dtype.type(0)
    if reduction == "none":
        return losses.astype(input.dtype, copy=False), xp.asarray(zero)
    total_weight = weights.sum().astype(input.dtype)
    total = losses.sum().astype(input.dtype)
    if reduction == "mean":
        total = xp.where(
            total_weight != 0, total / xp.where(total_weight != 0, total_weight, 1), zero
        )
    return xp.asarray(total, dtype=input.dtype), xp.asarray(total_weight, dtype=input.dtype)


def nll_entries(
    ctx: KernelContext,
    input: Array,
    label: Array,
    weight: Array | None,
    ignore_index: int,  # noqa: A002
) -> tuple[Array, Array, Array]:
    """For each entry of ``label`` (shaped like the loss): the input value at its class, its
    class weight (0 where ignored) and the class indices (0 where ignored)."""
    xp = ctx.xp
    classes = input.shape[1]
    label = label.reshape(input.shape[:1] + input.shape[2:])
    index = checked_classes(ctx, label, ignore_index, classes, "nll_loss")
    picked = xp.take_along_axis(input, xp.expand_dims(index, 1), axis=1)[:, 0]
    class_weight = xp.ones((classes,), input.dtype) if weight is None else weight
    weights = xp.where(label == ignore_index, input.dtype.type(0), class_weight[index])
    return picked, weights.astype(input.dtype, copy=False), index


@register_kernel("log_loss", dtypes=FLOAT32_ONLY)
@ieee_results
def log_loss_kernel(
    ctx: KernelContext, input: Array, label: Array, epsilon: float
) -> Array:  # noqa: A002
    xp = ctx.xp
    eps = float_attr(input, epsilon)
    out = -label * xp.log(input + eps) - (1 - label) * xp.log(1 - input + eps)
    return out.astype(input.dtype, copy=False)


@register_kernel("hinge_loss", dtypes=FLOAT32_ONLY)
def hinge_loss_kernel(ctx: KernelContext, logits: Array, labels: Array) -> Array:
    xp = ctx.xp
    margin = 1 - logits * (2 * labels - 1)
    return xp.maximum(margin, logits.dtype.type(0)).astype(logits.dtype, copy=False)


@register_kernel("label_smooth", dtypes=LOSS_DTYPES)
def label_smooth_kernel(
    ctx: KernelContext, label: Array, prior_dist: Array | None, epsilon: float
) -> Array:
    """(1 - epsilon) * label + epsilon * prior_dist, or + epsilon / C without a prior; PHI
    computes 1 - epsilon and epsilon / C in float (the attribute's type) before casting."""
    keep = label_smooth_keep(label, epsilon)
    if prior_dist is not None:
        out = keep * label + float_attr(label, epsilon) * prior_dist.reshape(-1)
    else:
        classes = label.shape[-1] if label.ndim else 1
        uniform = label.dtype.type(np.float32(epsilon) / np.float32(classes))
        out = keep * label + uniform
    return out.astype(label.dtype, copy=False)


def label_smooth_keep(label: Array, epsilon: float) -> Array:
    """1 - epsilon, computed in float as PHI's label_smooth kernels do."""
    return label.dtype.type(np.float32(1) - np.float32(epsilon))


@register_kernel("identity_loss", dtypes=LOSS_DTYPES)
@ieee_results
def identity_loss_kernel(ctx: KernelContext, x: Array, reduction: int) -> Array:
    if reduction == 0:
        return x.sum().astype(x.dtype)
    if reduction == 1:
        return (x.sum() / x.dtype.type(x.size)).astype(x.dtype)
    return x.copy()


@register_kernel("mean_all", dtypes=MEAN_ALL_DTYPES)
@ieee_results
def mean_all_kernel(ctx: KernelContext, x: Array) -> Array:
    if x.dtype.kind != "c" and x.dtype.itemsize < 4:
        # bfloat16: accumulated in float32 as PHI's MPType does
        return (x.astype(np.float32).sum() / np.float32(x.size)).astype(x.dtype)
    return (x.sum() / x.dtype.type(x.size)).astype(x.dtype)
