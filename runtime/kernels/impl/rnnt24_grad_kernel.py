"""Grad kernel of the rnnt24 op: warprnnt_grad (paddle/phi/kernels/impl/
warprnnt_grad_kernel_impl.h): the gradient the forward kernel saved (warprnntgrad, [B, T, U + 1,
D]) times each sequence's incoming loss gradient."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

RNNT_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def input_lengths_keep_their_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


@register_kernel("warprnnt_grad", dtypes=RNNT_DTYPES, configure=input_lengths_keep_their_dtype)
def warprnnt_grad_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002 - PaddlePaddle's name
    input_lengths: Array,
    warprnntgrad: Array,
    loss_grad: Array,
    blank: int,
    fastemit_lambda: float,
) -> Array:
    """``warprnntgrad * loss_grad[b]`` for each sequence b."""
    batch = warprnntgrad.shape[0]
    return warprnntgrad * loss_grad.reshape(batch, 1, 1, 1).astype(warprnntgrad.dtype)
