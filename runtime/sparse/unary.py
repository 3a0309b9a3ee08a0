"""The sparse unary ops: a function of each stored value, the pattern kept.

The ops are generated from PaddlePaddle's sparse_ops.yaml / sparse_backward.yaml entries
(ops/sparse_ops.yaml -> generated/sparse_api.py, kernels ``sin_coo``/``sin_csr`` and their grads
in runtime/kernels/impl/sparse_unary_*.py); these are ``paddle.sparse``'s functions over them,
with its signatures, as PaddlePaddle's Python calls its ``_C_ops.sparse_*`` functions.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType, to_data_type
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.sparse.registry import sparse_op_api

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


def _unary(op: str, doc: str) -> Callable[..., Tensor]:
    def function(x: Tensor, name: str | None = None) -> Tensor:
        return sparse_op_api(op)(x)

    function.__name__ = function.__qualname__ = op
    function.__doc__ = (
        f"{doc} of each stored value of sparse ``x`` (COO or CSR); the pattern is kept "
        f"(sparse op ``{op}``, ops/sparse_ops.yaml)."
    )
    return function


abs = _unary("abs", "The absolute value")
sin = _unary("sin", "The sine")
tan = _unary("tan", "The tangent")
asin = _unary("asin", "The arcsine")
atan = _unary("atan", "The arctangent")
sinh = _unary("sinh", "The hyperbolic sine")
tanh = _unary("tanh", "The hyperbolic tangent")
asinh = _unary("asinh", "The area sine")
atanh = _unary("atanh", "The area tangent")
sqrt = _unary("sqrt", "The square root")
square = _unary("square", "The square")
log1p = _unary("log1p", "log(1 + x)")
expm1 = _unary("expm1", "exp(x) - 1")
relu = _unary("relu", "max(x, 0)")
relu6 = _unary("relu6", "min(max(x, 0), 6)")
isnan = _unary("isnan", "Whether it is NaN (bool values)")


def _number(value: Any, op: str, argument: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be a number, got {type(value).__name__} {value!r}"
        )
    return float(value)


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """x where positive, ``negative_slope * x`` elsewhere, of each stored value of sparse ``x``."""
    slope = _number(negative_slope, "leaky_relu", "negative_slope")
    return sparse_op_api("leaky_relu")(x, slope)


def pow(x: Tensor, factor: float, name: str | None = None) -> Tensor:
    """Each stored value of sparse ``x`` to the power ``factor``."""
    return sparse_op_api("pow")(x, _number(factor, "pow", "factor"))


def scale(x: Tensor, factor: float) -> Tensor:
    """Each stored value of sparse ``x`` times ``factor`` (what ``addmm`` scales by)."""
    return sparse_op_api("scale")(x, _number(factor, "scale", "factor"), 0.0, True)


def neg(x: Tensor, name: str | None = None) -> Tensor:
    """The negation of each stored value of sparse ``x`` (sparse ``scale`` by -1, as
    PaddlePaddle's ``paddle.sparse.neg``)."""
    return sparse_op_api("scale")(x, -1.0, 0.0, True)


def _to_float(x: Tensor) -> Tensor:
    """``x`` with integer values cast to float32, as PaddlePaddle's deg2rad/rad2deg do."""
    dtype = getattr(getattr(x, "meta", None), "dtype", None)
    if isinstance(dtype, DataType) and dtype.is_integer:
        return cast(x, None, "float32")
    return x


def deg2rad(x: Tensor, name: str | None = None) -> Tensor:
    """Each stored value of sparse ``x`` from degrees to radians (sparse ``scale`` by pi/180)."""
    return sparse_op_api("scale")(_to_float(x), math.pi / 180.0, 0.0, True)


def rad2deg(x: Tensor, name: str | None = None) -> Tensor:
    """Each stored value of sparse ``x`` from radians to degrees (sparse ``scale`` by 180/pi)."""
    return sparse_op_api("scale")(_to_float(x), 180.0 / math.pi, 0.0, True)


def cast(
    x: Tensor, index_dtype: Any = None, value_dtype: Any = None, name: str | None = None
) -> Tensor:
    """Sparse ``x`` with its indices (COO indices, CSR crows and cols) cast to ``index_dtype``
    (an integer type) and its values to ``value_dtype``; None keeps either."""
    index_type = DataType.UNDEFINED if index_dtype is None else to_data_type(index_dtype)
    if index_type is not DataType.UNDEFINED and not index_type.is_integer:
        raise InvalidArgumentError(
            f"cast(): argument 'index_dtype' must be an integer type, got {index_type.name.lower()}"
        )
    value_type = DataType.UNDEFINED if value_dtype is None else to_data_type(value_dtype)
    return sparse_op_api("cast")(x, index_type, value_type)
