"""matmul_grad and matmul_double_grad, for every operand shape the forward kernel takes:
vectors, matrices, batches that broadcast against each other, transposed operands."""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.common import DataType
from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.elementwise_grad_kernel import conj_if_complex, reduce_to_shape
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle's CPU registration (paddle/phi/kernels/cpu/matmul_grad_kernel.cc) without
# bfloat16 and float16, which the forward kernel lacks.
MATMUL_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _as_matrix(xp: ModuleType, operand: Array, transpose: bool, vector_axis: int) -> Array:
    """The operand as the forward kernel multiplied it: transposed when asked, a 1-D operand
    as a one-row (x, ``vector_axis`` -2) or one-column (y, -1) matrix."""
    if operand.ndim == 1:
        return xp.expand_dims(operand, vector_axis)
    return xp.swapaxes(operand, -1, -2) if transpose else operand


def _back_to_operand(
    xp: ModuleType, grad: Array, operand: Array, transpose: bool, vector_axis: int
) -> Array:
    """The gradient of ``_as_matrix(operand, transpose, vector_axis)``, summed over broadcast
    batch dims, as the gradient of ``operand`` itself."""
    if operand.ndim == 1:
        matrix_shape = list(operand.shape)
        matrix_shape.insert(len(matrix_shape) + 1 + vector_axis, 1)
        return reduce_to_shape(xp, grad, tuple(matrix_shape)).reshape(operand.shape)
    if transpose:
        grad = xp.swapaxes(grad, -1, -2)
    return xp.ascontiguousarray(reduce_to_shape(xp, grad, operand.shape))


def _matmul_grads(
    xp: ModuleType,
    x: Array,
    y: Array,
    out_grad: Array,
    transpose_x: bool,
    transpose_y: bool,
    *,
    want_x: bool = True,
    want_y: bool = True,
) -> tuple[Array | None, Array | None]:
    """(x_grad, y_grad) of out = matmul(x, y, transpose_x, transpose_y): with X and Y the
    operands as multiplied, dX = dOut @ conj(Y)^T and dY = conj(X)^T @ dOut, summed over
    broadcast batch dims and mapped back through the transposes and vector promotions."""
    matrix_x = _as_matrix(xp, x, transpose_x, -2)
    matrix_y = _as_matrix(xp, y, transpose_y, -1)
    # Re-insert the dims the forward kernel dropped for vector operands (y's first, so that
    # a 0-D out_grad of vector @ vector becomes 1 x 1).
    if y.ndim == 1:
        out_grad = xp.expand_dims(out_grad, -1)
    if x.ndim == 1:
        out_grad = xp.expand_dims(out_grad, -2)
    x_grad = y_grad = None
    if want_x:
        grad = blas.matmul(xp, out_grad, xp.swapaxes(conj_if_complex(xp, matrix_y), -1, -2))
        x_grad = _back_to_operand(xp, grad, x, transpose_x, -2)
    if want_y:
        grad = blas.matmul(xp, xp.swapaxes(conj_if_complex(xp, matrix_x), -1, -2), out_grad)
        y_grad = _back_to_operand(xp, grad, y, transpose_y, -1)
    return x_grad, y_grad


def _matmul(xp: ModuleType, x: Array, y: Array, transpose_x: bool, transpose_y: bool) -> Array:
    """The forward product, as matmul_kernel computes it."""
    if transpose_x and x.ndim > 1:
        x = xp.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = xp.swapaxes(y, -1, -2)
    return blas.matmul(xp, x, y)


@register_kernel("matmul_grad", dtypes=MATMUL_GRAD_DTYPES)
def matmul_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    out_grad: Array,
    transpose_x: bool,
    transpose_y: bool,
) -> tuple[Array, Array]:
    """x_grad and y_grad of matmul, with x's and y's shapes: batch dims that were broadcast
    are summed, a vector operand gets a vector gradient, a transposed operand a transposed
    one. Complex operands get the conjugate gradients (dX = dOut @ Y^H), as in PHI."""
    return _matmul_grads(
        ctx.xp,
        x,
        y,
        out_grad,
        transpose_x,
        transpose_y,
        want_x=ctx.wants(0),
        want_y=ctx.wants(1),
    )


@register_kernel("matmul_double_grad", dtypes=MATMUL_GRAD_DTYPES)
def matmul_double_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    grad_out: Array,
    grad_x_grad: Array | None,
    grad_y_grad: Array | None,
    transpose_x: bool,
    transpose_y: bool,
) -> tuple[Array, Array, Array]:
    """Backward of matmul_grad. matmul_grad is bilinear, so: x_grad = the x-gradient of
    matmul(x, grad_y_grad) for grad_out, y_grad = the y-gradient of matmul(grad_x_grad, y)
    for grad_out, grad_out_grad = matmul(grad_x_grad, y) + matmul(x, grad_y_grad), all with
    the same transposes. A missing grad_x_grad or grad_y_grad counts as zeros."""
    xp = ctx.xp
    x_grad = y_grad = grad_out_grad = None
    if ctx.wants(0):
        if grad_y_grad is None:
            x_grad = xp.zeros(x.shape, dtype=x.dtype)
        else:
            x_grad, _ = _matmul_grads(
                xp, x, grad_y_grad, grad_out, transpose_x, transpose_y, want_y=False
            )
    if ctx.wants(1):
        if grad_x_grad is None:
            y_grad = xp.zeros(y.shape, dtype=y.dtype)
        else:
            _, y_grad = _matmul_grads(
                xp, grad_x_grad, y, grad_out, transpose_x, transpose_y, want_x=False
            )
    if ctx.wants(2):
        grad_out_grad = xp.zeros(grad_out.shape, dtype=grad_out.dtype)
        if grad_y_grad is not None:
            grad_out_grad = grad_out_grad + _matmul(xp, x, grad_y_grad, transpose_x, transpose_y)
        if grad_x_grad is not None:
            grad_out_grad = grad_out_grad + _matmul(xp, grad_x_grad, y, transpose_x, transpose_y)
    return x_grad, y_grad, grad_out_grad
