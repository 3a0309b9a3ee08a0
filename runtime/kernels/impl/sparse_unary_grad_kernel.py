"""The sparse unary grad kernels (PHI's ``paddle/phi/kernels/sparse/unary_grad_kernel.h``):
``x_grad`` has the pattern of ``x`` (``out`` has the same) and holds the output gradient's
values times the op's derivative at each stored value.

The output gradient arrives with the forward output's pattern, entries in its order
(runtime/sparse/autograd.py makes it so), as PHI's grad kernels assume.
"""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.sparse_unary_kernel import (
    REAL_ONLY,
    SPARSE_MATH,
    SPARSE_REAL,
    with_values,
)
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import INTEGRAL, register_kernel
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = ["DERIVATIVES_OF_X", "DERIVATIVES_OF_OUT"]

Derivative = Callable[[Any, Any], Any]  # (xp, stored values) -> the derivative there

# the grad ops that take the forward input: (Tensor x, Tensor out_grad)
DERIVATIVES_OF_X: dict[str, Derivative] = {
    "abs": lambda xp, v: xp.sign(v),
    "asin": lambda xp, v: 1 / xp.sqrt(1 - v * v),
    "asinh": lambda xp, v: 1 / xp.sqrt(v * v + 1),
    "atan": lambda xp, v: 1 / (1 + v * v),
    "atanh": lambda xp, v: 1 / (1 - v * v),
    "log1p": lambda xp, v: 1 / (1 + v),
    "sin": lambda xp, v: xp.cos(v),
    "sinh": lambda xp, v: xp.cosh(v),
    "square": lambda xp, v: 2 * v,
    "tan": lambda xp, v: 1 + xp.tan(v) ** 2,
}
# the grad ops that take the forward output: (Tensor out, Tensor out_grad)
DERIVATIVES_OF_OUT: dict[str, Derivative] = {
    "expm1": lambda xp, r: r + 1,
    "sqrt": lambda xp, r: 0.5 / r,
    "tanh": lambda xp, r: 1 - r * r,
    "relu": lambda xp, r: r > 0,
    "relu6": lambda xp, r: (r > 0) & (r < 6),
}


def _grad(xp: Any, like: Any, out_grad: Any, local: Any) -> Any:
    """``like``'s pattern holding ``out_grad``'s values times ``local`` (conjugated for complex
    values, as PHI's complex grad kernels), in like's dtype."""
    dtype = like.values.array.dtype
    if dtype.kind == "c":
        local = xp.conj(local)
    return with_values(like, (out_grad.values.array * local).astype(dtype, copy=False))


def _x_kernels(derivative: Derivative) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def coo_kernel(
        ctx: KernelContext, x: SparseCooTensor, out_grad: SparseCooTensor
    ) -> SparseCooTensor:
        return _grad(ctx.xp, x, out_grad, derivative(ctx.xp, x.values.array))

    def csr_kernel(
        ctx: KernelContext, x: SparseCsrTensor, out_grad: SparseCsrTensor
    ) -> SparseCsrTensor:
        return _grad(ctx.xp, x, out_grad, derivative(ctx.xp, x.values.array))

    return coo_kernel, csr_kernel


def _out_kernels(derivative: Derivative) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def coo_kernel(
        ctx: KernelContext, out: SparseCooTensor, out_grad: SparseCooTensor
    ) -> SparseCooTensor:
        return _grad(ctx.xp, out, out_grad, derivative(ctx.xp, out.values.array))

    def csr_kernel(
        ctx: KernelContext, out: SparseCsrTensor, out_grad: SparseCsrTensor
    ) -> SparseCsrTensor:
        return _grad(ctx.xp, out, out_grad, derivative(ctx.xp, out.values.array))

    return coo_kernel, csr_kernel


def _register(name: str, kernels: tuple[Callable[..., Any], Callable[..., Any]]) -> None:
    dtypes = SPARSE_REAL if name in REAL_ONLY else SPARSE_MATH
    for kernel, kind in zip(kernels, ("coo", "csr")):
        kernel.__name__ = kernel.__qualname__ = f"{name}_{kind}_grad_kernel"
        kernel.__doc__ = f"PHI's ``{name}_{kind}_grad``: ``out_grad`` times {name}'s derivative."
        register_kernel(f"{name}_{kind}_grad", dtypes=dtypes)(kernel)


for _name, _derivative in DERIVATIVES_OF_X.items():
    _register(_name, _x_kernels(_derivative))
for _name, _derivative in DERIVATIVES_OF_OUT.items():
    _register(_name, _out_kernels(_derivative))


def _leaky_relu_local(v: Any, alpha: float) -> Any:
    return (v > 0) + (v <= 0) * v.dtype.type(alpha)


@register_kernel("leaky_relu_coo_grad", dtypes=SPARSE_REAL)
def leaky_relu_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: SparseCooTensor, alpha: float
) -> SparseCooTensor:
    """PHI's ``leaky_relu_coo_grad``: ``out_grad`` where x > 0, ``alpha * out_grad`` elsewhere."""
    return _grad(ctx.xp, x, out_grad, _leaky_relu_local(x.values.array, alpha))


@register_kernel("leaky_relu_csr_grad", dtypes=SPARSE_REAL)
def leaky_relu_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, out_grad: SparseCsrTensor, alpha: float
) -> SparseCsrTensor:
    """PHI's ``leaky_relu_csr_grad``."""
    return _grad(ctx.xp, x, out_grad, _leaky_relu_local(x.values.array, alpha))


def _pow_local(v: Any, factor: float) -> Any:
    return factor * v ** (factor - 1)


@register_kernel("pow_coo_grad", dtypes=SPARSE_REAL)
def pow_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: SparseCooTensor, factor: float
) -> SparseCooTensor:
    """PHI's ``pow_coo_grad``: ``out_grad * factor * x ** (factor - 1)``."""
    return _grad(ctx.xp, x, out_grad, _pow_local(x.values.array, factor))


@register_kernel("pow_csr_grad", dtypes=SPARSE_REAL)
def pow_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, out_grad: SparseCsrTensor, factor: float
) -> SparseCsrTensor:
    """PHI's ``pow_csr_grad``."""
    return _grad(ctx.xp, x, out_grad, _pow_local(x.values.array, factor))


_CAST_GRAD_DTYPES = (DataType.BOOL,) + SPARSE_REAL + INTEGRAL


def _x_of_any_dtype(kernel: Any) -> None:
    """The kernel's dtype is out_grad's (``data_type : out_grad``); x keeps its own, which the
    gradient is cast back to (PHI's registration leaves x's dtype open too)."""
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("cast_coo_grad", dtypes=_CAST_GRAD_DTYPES, configure=_x_of_any_dtype)
def cast_coo_grad_kernel(
    ctx: KernelContext, x: SparseCooTensor, out_grad: SparseCooTensor, value_dtype: DataType
) -> SparseCooTensor:
    """PHI's ``cast_coo_grad``: ``out_grad``'s values cast back to x's dtype, x's pattern."""
    return _grad(ctx.xp, x, out_grad, 1)


@register_kernel("cast_csr_grad", dtypes=_CAST_GRAD_DTYPES, configure=_x_of_any_dtype)
def cast_csr_grad_kernel(
    ctx: KernelContext, x: SparseCsrTensor, out_grad: SparseCsrTensor, value_dtype: DataType
) -> SparseCsrTensor:
    """PHI's ``cast_csr_grad``."""
    return _grad(ctx.xp, x, out_grad, 1)
