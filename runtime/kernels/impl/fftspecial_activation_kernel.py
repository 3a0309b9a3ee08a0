"""Kernels of stanh and maxout (PaddlePaddle 3.3.1's paddle/phi/kernels/cpu/activation_kernel.cc
STanhFunctor and maxout_kernel.cc), and their grads.

stanh is scale_b * tanh(scale_a * x), the scales rounded to float32 as PaddlePaddle's float
attributes are; its grad is out_grad * scale_a * scale_b * (1 - tanh^2),
conjugated for complex x as PaddlePaddle's. maxout takes the maximum over groups of ``groups``
consecutive channels; its grad goes to the first input of each group equal to the maximum
(PaddlePaddle's MaxOutGradFunctor stops at the first match).
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
STANH_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
REAL = (D.FLOAT32, D.FLOAT64)


def _scales(x: Array, scale_a: float, scale_b: float) -> tuple:
    """The float attributes as PaddlePaddle holds them (float32), in x's dtype."""
    return x.dtype.type(np.float32(scale_a)), x.dtype.type(np.float32(scale_b))


@register_kernel("stanh", dtypes=STANH_DTYPES)
def stanh_kernel(ctx: KernelContext, x: Array, scale_a: float, scale_b: float) -> Array:
    a, b = _scales(x, scale_a, scale_b)
    return b * ctx.xp.tanh(a * x)


@register_kernel("stanh_grad", dtypes=STANH_DTYPES)
def stanh_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, scale_a: float, scale_b: float
) -> Array:
    xp = ctx.xp
    a, b = _scales(x, scale_a, scale_b)
    tanh = xp.tanh(a * x)
    derivative = a * b * (1 - tanh * tanh)
    return out_grad * (xp.conj(derivative) if x.dtype.kind == "c" else derivative)


def _grouped(x: Array, groups: int, axis: int) -> tuple[Array, int]:
    """x with its channel axis split into (channels // groups, groups); the group axis."""
    channel = axis % 4
    shape = x.shape[:channel] + (x.shape[channel] // groups, groups) + x.shape[channel + 1 :]
    return x.reshape(shape), channel + 1


@register_kernel("maxout", dtypes=REAL)
def maxout_kernel(ctx: KernelContext, x: Array, groups: int, axis: int) -> Array:
    grouped, group_axis = _grouped(x, groups, axis)
    return grouped.max(axis=group_axis)


@register_kernel("maxout_grad", dtypes=REAL)
def maxout_grad_kernel(
    ctx: KernelContext, x: Array, out: Array, out_grad: Array, groups: int, axis: int
) -> Array:
    xp = ctx.xp
    grouped, group_axis = _grouped(x, groups, axis)
    first = xp.expand_dims(xp.argmax(grouped, axis=group_axis), group_axis)
    positions = xp.arange(groups).reshape(
        tuple(groups if i == group_axis else 1 for i in range(grouped.ndim))
    )
    x_grad = xp.where(positions == first, xp.expand_dims(out_grad, group_axis), 0)
    return x_grad.astype(x.dtype, copy=False).reshape(x.shape)
