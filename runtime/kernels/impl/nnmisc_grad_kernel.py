"""Grad kernels of the nnmisc ops: warpctc_grad (paddle/phi/kernels/impl/
warpctc_grad_kernel_impl.h): the gradient the forward kernel saved (warpctcgrad, [T, B, C]) times
each sequence's incoming loss gradient, divided by the sequence's input length when
``norm_by_times``."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

CTC_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def logits_length_keeps_its_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


@register_kernel("warpctc_grad", dtypes=CTC_DTYPES, configure=logits_length_keeps_its_dtype)
def warpctc_grad_kernel(
    ctx: KernelContext,
    logits: Array,
    logits_length: Array | None,
    warpctcgrad: Array,
    loss_grad: Array,
    blank: int,
    norm_by_times: bool,
) -> Array:
    """``warpctcgrad * loss_grad[b]`` for each sequence b (divided by its length when
    ``norm_by_times``)."""
    batch = warpctcgrad.shape[1]
    scale = loss_grad.reshape(1, batch, 1).astype(warpctcgrad.dtype)
    grad = warpctcgrad * scale
    if norm_by_times and logits_length is not None:
        lengths = logits_length.astype(warpctcgrad.dtype).reshape(1, batch, 1)
        grad = grad * (1 / lengths)
    return grad
