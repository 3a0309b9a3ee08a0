"""The sparse unary ops: a function of each stored value, the pattern kept (PaddlePaddle's
``sin_coo``/``sin_csr`` kernels and their grads, sparse_ops.yaml / sparse_backward.yaml).

Each op is a forward function of the values and a derivative of (values, result); the
gradient of the input's values is the output gradient's values times the derivative.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from phiops.runtime.backends import module_of
from phiops.runtime.common import to_data_type
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.creation import grad_values, storage_of, with_values, wrap_sparse
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.sparse import SparseCooTensor, SparseCsrTensor

__all__ = [
    "abs",
    "sin",
    "tan",
    "asin",
    "atan",
    "sinh",
    "tanh",
    "asinh",
    "atanh",
    "sqrt",
    "square",
    "log1p",
    "expm1",
    "neg",
    "deg2rad",
    "rad2deg",
    "relu",
    "relu6",
    "leaky_relu",
    "pow",
    "scale",
    "cast",
    "isnan",
]

Forward = Callable[[Any, Any], Any]
Derivative = Callable[[Any, Any, Any], Any]


def _apply(op: str, x: Tensor, forward: Forward, derivative: Derivative | None) -> Tensor:
    storage = storage_of(x, op)
    values = storage.values.array
    xp = module_of(values)
    result = forward(xp, values)
    out = wrap_sparse(with_values(storage, result))
    if derivative is None:
        return out

    def backward(grad: Tensor) -> list[Any]:
        upstream = grad_values(grad, storage)
        local = derivative(xp, values, result)
        return [wrap_sparse(with_values(storage, (upstream * local).astype(values.dtype)))]

    return attach(op, [x], out, backward)


def _unary(op: str, forward: Forward, derivative: Derivative, doc: str) -> Callable[..., Tensor]:
    def function(x: Tensor, name: str | None = None) -> Tensor:
        return _apply(op, x, forward, derivative)

    function.__name__ = function.__qualname__ = op
    function.__doc__ = (
        f"{doc} of each stored value of sparse ``x`` (COO or CSR); the pattern is kept."
    )
    return function


abs = _unary("abs", lambda xp, v: xp.abs(v), lambda xp, v, r: xp.sign(v), "The absolute value")
sin = _unary("sin", lambda xp, v: xp.sin(v), lambda xp, v, r: xp.cos(v), "The sine")
tan = _unary("tan", lambda xp, v: xp.tan(v), lambda xp, v, r: 1 + r * r, "The tangent")
asin = _unary(
    "asin", lambda xp, v: xp.arcsin(v), lambda xp, v, r: 1 / xp.sqrt(1 - v * v), "The arcsine"
)
atan = _unary(
    "atan", lambda xp, v: xp.arctan(v), lambda xp, v, r: 1 / (1 + v * v), "The arctangent"
)
sinh = _unary("sinh", lambda xp, v: xp.sinh(v), lambda xp, v, r: xp.cosh(v), "The hyperbolic sine")
tanh = _unary(
    "tanh", lambda xp, v: xp.tanh(v), lambda xp, v, r: 1 - r * r, "The hyperbolic tangent"
)
asinh = _unary(
    "asinh", lambda xp, v: xp.arcsinh(v), lambda xp, v, r: 1 / xp.sqrt(v * v + 1), "The area sine"
)
atanh = _unary(
    "atanh", lambda xp, v: xp.arctanh(v), lambda xp, v, r: 1 / (1 - v * v), "The area tangent"
)
sqrt = _unary("sqrt", lambda xp, v: xp.sqrt(v), lambda xp, v, r: 0.5 / r, "The square root")
square = _unary("square", lambda xp, v: v * v, lambda xp, v, r: 2 * v, "The square")
log1p = _unary("log1p", lambda xp, v: xp.log1p(v), lambda xp, v, r: 1 / (1 + v), "log(1 + x)")
expm1 = _unary("expm1", lambda xp, v: xp.expm1(v), lambda xp, v, r: r + 1, "exp(x) - 1")
neg = _unary("neg", lambda xp, v: -v, lambda xp, v, r: -xp.ones_like(v), "The negation")
deg2rad = _unary(
    "deg2rad",
    lambda xp, v: v * v.dtype.type(math.pi / 180),
    lambda xp, v, r: xp.full_like(v, math.pi / 180),
    "Degrees to radians",
)
rad2deg = _unary(
    "rad2deg",
    lambda xp, v: v * v.dtype.type(180 / math.pi),
    lambda xp, v, r: xp.full_like(v, 180 / math.pi),
    "Radians to degrees",
)
relu = _unary(
    "relu",
    lambda xp, v: xp.maximum(v, 0).astype(v.dtype),
    lambda xp, v, r: (v > 0).astype(v.dtype),
    "max(x, 0)",
)
relu6 = _unary(
    "relu6",
    lambda xp, v: xp.clip(v, 0, 6).astype(v.dtype),
    lambda xp, v, r: ((v > 0) & (v < 6)).astype(v.dtype),
    "min(max(x, 0), 6)",
)


def _number(value: Any, op: str, argument: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be a number, got {type(value).__name__} {value!r}"
        )
    return float(value)


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """x where positive, ``negative_slope * x`` elsewhere, of each stored value of sparse ``x``."""
    slope = _number(negative_slope, "leaky_relu", "negative_slope")
    return _apply(
        "leaky_relu",
        x,
        lambda xp, v: xp.where(v > 0, v, v * v.dtype.type(slope)).astype(v.dtype),
        lambda xp, v, r: xp.where(v > 0, 1.0, slope).astype(v.dtype),
    )


def pow(x: Tensor, factor: float, name: str | None = None) -> Tensor:
    """Each stored value of sparse ``x`` to the power ``factor``."""
    exponent = _number(factor, "pow", "factor")
    return _apply(
        "pow",
        x,
        lambda xp, v: (v ** v.dtype.type(exponent)).astype(v.dtype),
        lambda xp, v, r: exponent * v ** (exponent - 1),
    )


def scale(x: Tensor, factor: float) -> Tensor:
    """Each stored value of sparse ``x`` times ``factor`` (what ``addmm`` scales by)."""
    value = _number(factor, "scale", "factor")
    return _apply(
        "scale",
        x,
        lambda xp, v: (v * v.dtype.type(value)).astype(v.dtype),
        lambda xp, v, r: xp.full_like(v, value),
    )


def isnan(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each stored value of sparse ``x`` is NaN (bool values, the pattern kept)."""
    return _apply("isnan", x, lambda xp, v: xp.isnan(v), None)


def cast(
    x: Tensor, index_dtype: Any = None, value_dtype: Any = None, name: str | None = None
) -> Tensor:
    """Sparse ``x`` with its indices (COO indices, CSR crows and cols) cast to ``index_dtype``
    (an integer type) and its values to ``value_dtype``; None keeps either."""
    op = "cast"
    storage = storage_of(x, op)
    index_type = None if index_dtype is None else to_data_type(index_dtype)
    if index_type is not None and not index_type.is_integer:
        raise InvalidArgumentError(
            f"{op}(): argument 'index_dtype' must be an integer type, got {index_type.name.lower()}"
        )
    value_type = None if value_dtype is None else to_data_type(value_dtype)
    values = storage.values.array
    new_values = values if value_type is None else values.astype(value_type.numpy_dtype)

    def index(part: DenseTensor) -> DenseTensor:
        if index_type is None:
            return part
        return DenseTensor(part.array.astype(index_type.numpy_dtype))

    if isinstance(storage, SparseCsrTensor):
        result: Any = SparseCsrTensor(
            index(storage.crows), index(storage.cols), DenseTensor(new_values), storage.shape
        )
    else:
        result = SparseCooTensor(
            index(storage.indices), DenseTensor(new_values), storage.shape, storage.coalesced
        )
    out = wrap_sparse(result)
    if new_values.dtype.kind not in "fc":
        return out

    def backward(grad: Tensor) -> list[Any]:
        return [wrap_sparse(with_values(storage, grad_values(grad, result).astype(values.dtype)))]

    return attach(op, [x], out, backward)
