"""Grad kernels of the train24 ops of issue 24, for the dtypes PaddlePaddle 3.3.1 registers on
CPU:

- norm_grad (paddle/phi/kernels/cpu/norm_grad_kernel.cc, float32 and float64): with norm the
  forward's sqrt(sum(x * x, axis) + epsilon), x_grad = (out_grad - x * sum(x * out_grad, axis)
  / norm**2) / norm, the exact gradient of x / norm. It needs the norm of a call with
  is_test false (is_test leaves norm empty).
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("norm_grad", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def norm_grad_kernel(
    ctx: KernelContext,
    x: Array,
    norm: Array,
    out_grad: Array,
    axis: int,
    epsilon: float,
    is_test: bool,
) -> Array:
    xp = ctx.xp
    axis %= x.ndim
    kept = list(x.shape)
    kept[axis] = 1
    if is_test or tuple(norm.shape) != tuple(kept):
        raise InvalidArgumentError(
            f"norm_grad: argument 'norm' must be the forward's norm of dims {kept} (a call with "
            f"is_test=False), got dims {list(norm.shape)}"
        )
    dot = xp.sum(x * out_grad, axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (out_grad - x * dot / (norm * norm)) / norm
