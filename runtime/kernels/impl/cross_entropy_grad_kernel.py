"""cross_entropy_with_softmax_grad: the gradient of the loss with respect to ``input``.

PHI's CrossEntropyWithSoftmaxGradKernel (paddle/phi/kernels/cpu/cross_entropy_grad_kernel.cc),
with ``loss_grad`` broadcast along the class axis:
- ``use_softmax=True``, hard labels: ``(softmax - onehot(label)) * loss_grad``, zero along the
  class axis where ``label == ignore_index``;
- ``use_softmax=True``, soft labels: ``(softmax - label) * loss_grad``;
- ``use_softmax=False`` (``softmax`` is the probability input itself), hard labels:
  ``-loss_grad / softmax`` at the label's class and 0 elsewhere, zero where ignored;
- ``use_softmax=False``, soft labels: ``-label / softmax * loss_grad``.
A zero probability under ``use_softmax=False`` gives an infinite gradient, as in PHI. Labels were
checked by the forward kernel; an empty input gives an empty gradient.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.cross_entropy_kernel import CROSS_ENTROPY_DTYPES, class_axis
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _label_keeps_its_dtype(kernel: Kernel) -> None:
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel(
    "cross_entropy_with_softmax_grad", dtypes=CROSS_ENTROPY_DTYPES, configure=_label_keeps_its_dtype
)
@ieee_results
def cross_entropy_with_softmax_grad_kernel(
    ctx: KernelContext,
    label: Array,
    softmax: Array,
    loss_grad: Array,
    soft_label: bool,
    use_softmax: bool,
    numeric_stable_mode: bool,
    ignore_index: int,
    axis: int,
) -> Array:
    xp = ctx.xp
    if softmax.size == 0:
        return xp.zeros_like(softmax)
    index = class_axis(axis, softmax.ndim)
    if soft_label:
        target = label.astype(softmax.dtype, copy=False)
        if use_softmax:
            return (softmax - target) * loss_grad
        return -target / softmax * loss_grad
    zero = xp.zeros((), dtype=softmax.dtype)
    kept = label != ignore_index
    class_shape = [1] * softmax.ndim
    class_shape[index] = softmax.shape[index]
    is_label = xp.arange(softmax.shape[index]).reshape(class_shape) == label
    if use_softmax:
        grad = (softmax - is_label.astype(softmax.dtype)) * loss_grad
        return xp.where(kept, grad, zero)
    return xp.where(is_label & kept, -loss_grad / softmax, zero)
