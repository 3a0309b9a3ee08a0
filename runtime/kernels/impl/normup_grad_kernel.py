"""``rrelu_grad``: the output gradient times each element's slope (``noise``, 1 where x >= 0),
as PaddlePaddle 3.3.1's CPU kernel (paddle/phi/kernels/cpu/rrelu_grad_kernel.cc)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


# PaddlePaddle 3.3.1 registers rrelu_grad on CPU for float32 and float64.
@register_kernel("rrelu_grad", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def rrelu_grad_kernel(ctx: KernelContext, x: Array, noise: Array, out_grad: Array) -> Array:
    return out_grad * noise
