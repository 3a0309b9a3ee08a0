"""The package's kernels, each written once against ``ctx.xp`` (numpy on CPU, CuPy on GPU) and
registered for every backend phiops has. Tensor inputs arrive as arrays, attributes as Python
values; a kernel returns arrays of the dtype and dims its InferMeta function gave."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

FLOATS = (DataType.FLOAT32, DataType.FLOAT64)


def _sigmoid(xp, z: Array) -> Array:
    # 1 / (1 + exp(-z)) overflows exp for large negative z; the two-sided form does not
    with np.errstate(over="ignore"):
        e = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1 / (1 + e), e / (1 + e))


@register_kernel("custom_swish", dtypes=FLOATS)
def custom_swish_kernel(ctx: KernelContext, x: Array, beta: float) -> Array:
    xp = ctx.xp
    return (x * _sigmoid(xp, x * x.dtype.type(beta))).astype(x.dtype, copy=False)


@register_kernel("custom_swish_grad", dtypes=FLOATS)
def custom_swish_grad_kernel(ctx: KernelContext, x: Array, out_grad: Array, beta: float) -> Array:
    # d/dx x * s(bx) = s(bx) + b x s(bx) (1 - s(bx))
    xp = ctx.xp
    b = x.dtype.type(beta)
    s = _sigmoid(xp, x * b)
    return (out_grad * (s + b * x * s * (1 - s))).astype(x.dtype, copy=False)


@register_kernel("custom_scaled_add", dtypes=FLOATS)
def custom_scaled_add_kernel(ctx: KernelContext, x: Array, y: Array, alpha: float) -> Array:
    return x + x.dtype.type(alpha) * y


@register_kernel("custom_scaled_add_grad", dtypes=FLOATS)
def custom_scaled_add_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, alpha: float
) -> tuple[Array, Array]:
    return out_grad.copy(), out_grad * out_grad.dtype.type(alpha)


@register_kernel(
    "custom_count_nonzero",
    dtypes=(DataType.FLOAT32, DataType.FLOAT64, DataType.INT32, DataType.INT64, DataType.BOOL),
    configure=lambda kernel: kernel.output_at(0).set_dtype(DataType.INT64),
)
def custom_count_nonzero_kernel(ctx: KernelContext, x: Array, axis: int, keepdim: bool) -> Array:
    xp = ctx.xp
    if x.ndim == 0:
        return xp.asarray(x != 0, dtype=xp.int64)
    return (x != 0).sum(axis=axis, keepdims=keepdim, dtype=xp.int64)
