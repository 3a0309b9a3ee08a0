"""Gradient kernels of the basic24 ops of issue 24, for the dtypes PaddlePaddle 3.3.1 registers
on CPU (paddle/phi/kernels/cpu/<op>_grad_kernel.cc).

- fill_grad: zeros of out_grad's shape and dtype (the filled result does not depend on x).
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

FILL_GRAD_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)


@register_kernel("fill_grad", dtypes=FILL_GRAD_DTYPES)
def fill_grad_kernel(ctx: KernelContext, out_grad: Array, value: bool | int | float) -> Array:
    return ctx.xp.zeros_like(out_grad)
