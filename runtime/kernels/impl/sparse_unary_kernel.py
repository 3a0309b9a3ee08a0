"""The sparse unary kernels (PHI's ``paddle/phi/kernels/sparse/unary_kernel.h``): a function of
each stored value of a SparseCooTensor or SparseCsrTensor, the pattern kept.

Each op has a COO and a CSR kernel under PHI's names (``sin_coo``, ``sin_csr``), the kinds read
from their annotations; ops/sparse_ops.yaml lists them and generated/sparse_api.py selects one
by the input's kind (docs/tensor_kinds.md). One value function serves both: ``VALUE_FUNCTIONS``.
"""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import KernelContext
from phiops.runtime.kernels.registration import COMPLEX, INTEGRAL, register_kernel
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = ["VALUE_FUNCTIONS", "SPARSE_REAL", "SPARSE_MATH", "with_values", "scale_values"]

# the value dtypes of PHI's CPU sparse kernels (runtime/kernels/paddle_3_3_1_cpu.json): float
# and double, the math functions complex too
SPARSE_REAL = (DataType.FLOAT32, DataType.FLOAT64)
SPARSE_MATH = SPARSE_REAL + COMPLEX
# the ops PHI registers for real values only
REAL_ONLY = frozenset({"sqrt", "relu", "relu6"})

Storage = Any  # SparseCooTensor | SparseCsrTensor


def with_values(storage: Storage, values: Any) -> Storage:
    """A storage of ``storage``'s pattern (the very index arrays) holding ``values``."""
    if isinstance(storage, SparseCsrTensor):
        return SparseCsrTensor(storage.crows, storage.cols, DenseTensor(values), storage.shape)
    return SparseCooTensor(storage.indices, DenseTensor(values), storage.shape, storage.coalesced)


def _same_dtype(function: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    return lambda xp, v: function(xp, v).astype(v.dtype, copy=False)


# op -> the function of the stored values (xp, values) -> values
VALUE_FUNCTIONS: dict[str, Callable[[Any, Any], Any]] = {
    "abs": lambda xp, v: xp.abs(v),
    "asin": lambda xp, v: xp.arcsin(v),
    "asinh": lambda xp, v: xp.arcsinh(v),
    "atan": lambda xp, v: xp.arctan(v),
    "atanh": lambda xp, v: xp.arctanh(v),
    "expm1": lambda xp, v: xp.expm1(v),
    "log1p": lambda xp, v: xp.log1p(v),
    "sin": lambda xp, v: xp.sin(v),
    "sinh": lambda xp, v: xp.sinh(v),
    "sqrt": lambda xp, v: xp.sqrt(v),
    "square": _same_dtype(lambda xp, v: v * v),
    "tan": lambda xp, v: xp.tan(v),
    "tanh": lambda xp, v: xp.tanh(v),
    "relu": _same_dtype(lambda xp, v: xp.maximum(v, 0)),
    "relu6": _same_dtype(lambda xp, v: xp.clip(v, 0, 6)),
}


def _register_pair(name: str, function: Callable[[Any, Any], Any]) -> None:
    dtypes = SPARSE_REAL if name in REAL_ONLY else SPARSE_MATH

    def coo_kernel(ctx: KernelContext, x: SparseCooTensor) -> SparseCooTensor:
        return with_values(x, function(ctx.xp, x.values.array))

    def csr_kernel(ctx: KernelContext, x: SparseCsrTensor) -> SparseCsrTensor:
        return with_values(x, function(ctx.xp, x.values.array))

    for kernel, kind in ((coo_kernel, "coo"), (csr_kernel, "csr")):
        kernel.__name__ = kernel.__qualname__ = f"{name}_{kind}_kernel"
        kernel.__doc__ = f"PHI's ``{name}_{kind}``: ``{name}`` of each stored value."
        register_kernel(f"{name}_{kind}", dtypes=dtypes)(kernel)


for _name, _function in VALUE_FUNCTIONS.items():
    _register_pair(_name, _function)


def _leaky_relu(xp: Any, v: Any, alpha: float) -> Any:
    return xp.where(v > 0, v, v * v.dtype.type(alpha)).astype(v.dtype, copy=False)


@register_kernel("leaky_relu_coo", dtypes=SPARSE_REAL)
def leaky_relu_coo_kernel(ctx: KernelContext, x: SparseCooTensor, alpha: float) -> SparseCooTensor:
    """PHI's ``leaky_relu_coo``: x where positive, ``alpha * x`` elsewhere."""
    return with_values(x, _leaky_relu(ctx.xp, x.values.array, alpha))


@register_kernel("leaky_relu_csr", dtypes=SPARSE_REAL)
def leaky_relu_csr_kernel(ctx: KernelContext, x: SparseCsrTensor, alpha: float) -> SparseCsrTensor:
    """PHI's ``leaky_relu_csr``."""
    return with_values(x, _leaky_relu(ctx.xp, x.values.array, alpha))


def _pow(v: Any, factor: float) -> Any:
    return (v ** v.dtype.type(factor)).astype(v.dtype, copy=False)


@register_kernel("pow_coo", dtypes=SPARSE_REAL)
def pow_coo_kernel(ctx: KernelContext, x: SparseCooTensor, factor: float) -> SparseCooTensor:
    """PHI's ``pow_coo``: each stored value to the power ``factor``."""
    return with_values(x, _pow(x.values.array, factor))


@register_kernel("pow_csr", dtypes=SPARSE_REAL)
def pow_csr_kernel(ctx: KernelContext, x: SparseCsrTensor, factor: float) -> SparseCsrTensor:
    """PHI's ``pow_csr``."""
    return with_values(x, _pow(x.values.array, factor))


def scale_values(v: Any, scale: float, bias: float, bias_after_scale: bool) -> Any:
    """``v * scale + bias`` (or ``(v + bias) * scale``), in ``v``'s dtype, as PHI's scale."""
    kind = v.dtype.type
    if bias_after_scale:
        result = v * kind(scale) + kind(bias)
    else:
        result = (v + kind(bias)) * kind(scale)
    return result.astype(v.dtype, copy=False)


@register_kernel("scale_coo", dtypes=SPARSE_REAL)
def scale_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, scale: float, bias: float, bias_after_scale: bool
) -> SparseCooTensor:
    """PHI's ``scale_coo``: the stored values scaled (and biased); absent entries stay absent."""
    return with_values(x, scale_values(x.values.array, scale, bias, bias_after_scale))


@register_kernel("scale_csr", dtypes=SPARSE_REAL)
def scale_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, scale: float, bias: float, bias_after_scale: bool
) -> SparseCsrTensor:
    """PHI's ``scale_csr``."""
    return with_values(x, scale_values(x.values.array, scale, bias, bias_after_scale))


def _isnan_configure(kernel: Any) -> None:
    kernel.output_at(0).set_dtype(DataType.BOOL)


_ISNAN_DTYPES = (DataType.FLOAT16, *SPARSE_REAL, DataType.INT32, DataType.INT64)


@register_kernel("isnan_coo", dtypes=_ISNAN_DTYPES, configure=_isnan_configure)
def isnan_coo_kernel(ctx: KernelContext, x: SparseCooTensor) -> SparseCooTensor:
    """PHI's ``isnan_coo``: whether each stored value is NaN (bool values)."""
    return with_values(x, ctx.xp.isnan(x.values.array))


@register_kernel("isnan_csr", dtypes=_ISNAN_DTYPES, configure=_isnan_configure)
def isnan_csr_kernel(ctx: KernelContext, x: SparseCsrTensor) -> SparseCsrTensor:
    """PHI's ``isnan_csr``."""
    return with_values(x, ctx.xp.isnan(x.values.array))


def _cast(storage: Storage, index_dtype: DataType, value_dtype: DataType) -> Storage:
    def index(part: DenseTensor) -> DenseTensor:
        if index_dtype is DataType.UNDEFINED:
            return part
        return DenseTensor(part.array.astype(index_dtype.numpy_dtype))

    values = storage.values.array
    if value_dtype is not DataType.UNDEFINED:
        values = values.astype(value_dtype.numpy_dtype)
    if isinstance(storage, SparseCsrTensor):
        return SparseCsrTensor(
            index(storage.crows), index(storage.cols), DenseTensor(values), storage.shape
        )
    return SparseCooTensor(
        index(storage.indices), DenseTensor(values), storage.shape, storage.coalesced
    )


_CAST_DTYPES = (DataType.BOOL,) + SPARSE_REAL + INTEGRAL


@register_kernel("cast_coo", dtypes=_CAST_DTYPES)
def cast_coo_kernel(
    ctx: KernelContext, x: SparseCooTensor, index_dtype: DataType, value_dtype: DataType
) -> SparseCooTensor:
    """PHI's ``cast_coo``: indices cast to ``index_dtype`` and values to ``value_dtype``
    (UNDEFINED keeps either)."""
    return _cast(x, index_dtype, value_dtype)


@register_kernel("cast_csr", dtypes=_CAST_DTYPES)
def cast_csr_kernel(
    ctx: KernelContext, x: SparseCsrTensor, index_dtype: DataType, value_dtype: DataType
) -> SparseCsrTensor:
    """PHI's ``cast_csr``: crows and cols cast to ``index_dtype``, values to ``value_dtype``."""
    return _cast(x, index_dtype, value_dtype)
