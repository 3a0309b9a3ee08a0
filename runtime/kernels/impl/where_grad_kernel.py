"""where_grad: out_grad split between x and y by the condition."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/where_grad_kernel.cc) without the
# integer dtypes, which get no gradients.
WHERE_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128, D.BOOL, D.INT32, D.INT64)


def _condition_keeps_its_dtype(kernel: Kernel) -> None:
    """``condition`` is bool whatever the kernel dtype: it must not be cast to it."""
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("where_grad", dtypes=WHERE_GRAD_DTYPES, configure=_condition_keeps_its_dtype)
def where_grad_kernel(
    ctx: KernelContext, condition: Array, x: Array, y: Array, out_grad: Array
) -> tuple[Array, Array]:
    """x_grad = out_grad where condition, else 0; y_grad = out_grad where not condition, else 0;
    each summed to its input's shape (condition, x and y broadcast together in the forward
    op). Only the shapes of x and y are read (no_need_buffer)."""
    xp = ctx.xp
    zero = xp.zeros((), dtype=out_grad.dtype)
    x_grad = reduce_to_shape(xp, xp.where(condition, out_grad, zero), x.shape)
    y_grad = reduce_to_shape(xp, xp.where(condition, zero, out_grad), y.shape)
    return x_grad, y_grad
