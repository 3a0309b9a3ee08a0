"""matmul: matrix product with optional transposes, vector operands and batch broadcasting."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

_SMALL = blas.MULTITHREAD_MIN_MACS  # x.size * y.size below it: a product under the threshold

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/matmul_kernel.cc).
MATMUL_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


@register_kernel("matmul", dtypes=MATMUL_DTYPES)
def matmul_kernel(
    ctx: KernelContext, x: Array, y: Array, transpose_x: bool, transpose_y: bool
) -> Array:
    """x @ y, each first transposed in its last two dims when asked. A 1-D operand is a vector
    (its transpose flag is ignored, as in PHI's MatMulFunction): 1-D @ 1-D is a 0-D dot
    product, 1-D @ N-D and N-D @ 1-D drop the vector's dimension. Integer products wrap
    around on overflow."""
    xp = ctx.xp
    if transpose_x and x.ndim > 1:
        x = xp.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = xp.swapaxes(y, -1, -2)
    if blas.ready and x.size * y.size < _SMALL:  # the common case without a call: one thread
        return xp.matmul(x, y)
    return blas.matmul(xp, x, y)
