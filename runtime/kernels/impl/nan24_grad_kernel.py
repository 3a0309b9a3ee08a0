"""Gradient kernels of the nan24 ops of issue 24, for the dtypes PaddlePaddle 3.3.1 registers on
CPU: reduce_as_grad (paddle/phi/kernels/cpu/reduce_as_grad_kernel.cc) broadcasts out_grad back
to x's dims, in x's dtype."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.nan24_kernel import REDUCE_AS_DTYPES
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel


def _target_any_dtype(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)  # only its dims are read


@register_kernel("reduce_as_grad", dtypes=REDUCE_AS_DTYPES, configure=_target_any_dtype)
def reduce_as_grad_kernel(ctx: KernelContext, x: Array, target: Array, out_grad: Array) -> Array:
    xp = ctx.xp
    kept = (1,) * (x.ndim - target.ndim) + tuple(target.shape)
    grad = xp.broadcast_to(out_grad.reshape(kept), x.shape)
    return xp.array(grad, dtype=x.dtype)
