"""Grad kernels of the seq24 ops of issue 24 (runtime/kernels/impl/seq24_kernel.py), for the
dtypes PaddlePaddle 3.3.1 registers on CPU (paddle/phi/kernels/cpu/<op>_grad_kernel.cc)."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType


@register_kernel("add_position_encoding_grad", dtypes=(D.FLOAT32, D.FLOAT64))
def add_position_encoding_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, alpha: float, beta: float
) -> Array:
    return out_grad * out_grad.dtype.type(np.float32(alpha))
