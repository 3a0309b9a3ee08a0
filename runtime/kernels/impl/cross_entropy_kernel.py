"""cross_entropy_with_softmax: softmax along ``axis`` and the cross entropy of it with ``label``.

Inputs arrive checked by CrossEntropyWithSoftmaxInferMeta (ranks, dims, label dtype). Semantics
are PHI's (paddle/phi/kernels/cpu/cross_entropy_kernel.cc, funcs/cross_entropy.cc):
- hard labels (``soft_label=False``): ``label`` holds class indices, shaped like ``input`` with a
  size-1 class axis; ``loss = -log(softmax[label])``, and 0 where ``label == ignore_index``. A label
  outside [0, classes) that is not ``ignore_index`` raises InvalidArgumentError;
- soft labels: ``label`` is a distribution shaped like ``input``;
  ``loss = -sum(label * log(softmax))`` (``ignore_index`` does not apply);
- ``use_softmax=False``: ``input`` already holds probabilities; ``softmax`` is a copy of it;
- a log of 0 becomes -1e20 instead of -inf (PHI's TolerableValue), so a zero probability gives a
  loss of 1e20 and a zero soft label times it gives 0, not nan;
- ``numeric_stable_mode=True`` takes ``log(softmax)`` as ``shifted - log(sum(exp(shifted)))``, as
  PHI's GPU kernel does in that mode, so the loss stays finite when a probability underflows;
  ``False`` takes the log of the computed softmax, as PHI's CPU kernel does in either mode. The
  two agree to rounding unless a probability underflows to 0.
An input with no rows (an empty loss) gives empty outputs; an empty class axis with rows to
reduce raises InvalidArgumentError, as in PHI.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/cross_entropy_kernel.cc).
CROSS_ENTROPY_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)

# PHI's TolerableValue: the stand-in for an infinite log.
APPROXIMATE_INFINITY = 1e20


def _label_keeps_its_dtype(kernel: Kernel) -> None:
    # Hard labels are integers whatever the kernel dtype: PHI visits every integral label type.
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def tolerable_log(ctx: KernelContext, probability: Array) -> Array:
    """``log(probability)`` with an infinite result replaced by +-1e20."""
    return ctx.xp.clip(ctx.xp.log(probability), -APPROXIMATE_INFINITY, APPROXIMATE_INFINITY)


def class_axis(axis: int, ndim: int) -> int:
    return axis + ndim if axis < 0 else axis


def checked_classes(
    ctx: KernelContext, label: Array, ignore_index: int, classes: int, op: str
) -> Array:
    """Hard ``label`` as int64 indices, ``ignore_index`` entries replaced by class 0;
    InvalidArgumentError for any other label outside [0, classes)."""
    xp = ctx.xp
    ignored = label == ignore_index
    outside = ~ignored & ((label < 0) | (label >= classes))
    if bool(outside.any()):
        bad = label[outside].reshape(-1)[0].item()
        raise InvalidArgumentError(
            f"{op}: argument 'label' holds {bad}, which is neither a class index in [0, {classes}) "
            f"nor ignore_index ({ignore_index})"
        )
    return xp.where(ignored, 0, label).astype(xp.int64, copy=False)


@register_kernel(
    "cross_entropy_with_softmax", dtypes=CROSS_ENTROPY_DTYPES, configure=_label_keeps_its_dtype
)
@ieee_results
def cross_entropy_with_softmax_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002 - the YAML argument's name
    label: Array,
    soft_label: bool,
    use_softmax: bool,
    numeric_stable_mode: bool,
    ignore_index: int,
    axis: int,
) -> tuple[Array, Array]:
    xp = ctx.xp
    index = class_axis(axis, input.ndim)
    classes = input.shape[index]
    loss_shape = input.shape[:index] + (1,) + input.shape[index + 1 :]
    if 0 in loss_shape:
        return input.copy(), xp.zeros(loss_shape, dtype=input.dtype)
    if classes == 0:
        raise InvalidArgumentError(
            f"cross_entropy_with_softmax: argument 'input' with dims {list(input.shape)} has no "
            f"classes along axis {axis}; the class axis must not be empty"
        )
    if use_softmax:
        shifted = input - xp.max(input, axis=index, keepdims=True)
        exp = xp.exp(shifted)
        total = xp.sum(exp, axis=index, keepdims=True)
        softmax = exp / total
        log_prob = shifted - xp.log(total) if numeric_stable_mode else tolerable_log(ctx, softmax)
    else:
        softmax = input.copy()
        log_prob = tolerable_log(ctx, input)
    if soft_label:
        loss = -xp.sum(label.astype(input.dtype, copy=False) * log_prob, axis=index, keepdims=True)
        return softmax, loss
    classes_index = checked_classes(ctx, label, ignore_index, classes, "cross_entropy_with_softmax")
    if log_prob.ndim == 2 and index == 1:
        # [batch, classes], the usual case: the same gather as take_along_axis, whose index
        # building in Python costs about twice the indexing itself at small batches.
        picked = log_prob[xp.arange(log_prob.shape[0])[:, None], classes_index]
    else:
        picked = xp.take_along_axis(log_prob, classes_index, axis=index)
    loss = xp.where(label == ignore_index, xp.zeros((), dtype=input.dtype), -picked)
    return softmax, loss
