"""PaddlePaddle 3.3.1's ``paddle.*`` functions that do more than rename, reorder or default one
op: they choose the op, a dtype or an axis from the values they are given. The one-op functions
are declared in ops/python_api.yaml and generated (generated/python_api.py); phiops/_api.py
exports both over the op-level functions of the same name.

Each function follows the dynamic-mode branch of its namesake in PaddlePaddle's
python/paddle/tensor/*.py, with the same other keyword names (``keyword_aliases``);
docs/python_api.md lists what still differs (torch-style calls). ``out=`` writes the result
into the given tensor (``write_out``).
"""

from __future__ import annotations

import numbers
from typing import Any, NamedTuple, Sequence

import numpy as np

from phiops.generated import api as _C_ops
from phiops.generated.python_api import keyword_aliases, write_out
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.ir.core import Value

__all__ = [
    "add",
    "arange",
    "argmax",
    "argmin",
    "bernoulli",
    "clip",
    "clamp",
    "cumprod",
    "cumsum",
    "divide",
    "eye",
    "full",
    "logsumexp",
    "mean",
    "normal",
    "pow",
    "prod",
    "randint",
    "randperm",
    "scale",
    "softmax",
    "split",
    "subtract",
    "topk",
    "TopKRetType",
    "where",
]

# The functions that are also Tensor methods: ``x.cumsum()`` is ``cumsum(x)``.
TENSOR_METHODS = (
    "add",
    "argmax",
    "argmin",
    "clip",
    "cumprod",
    "cumsum",
    "divide",
    "logsumexp",
    "mean",
    "pow",
    "prod",
    "scale",
    "softmax",
    "split",
    "subtract",
    "topk",
    "where",
)

# what PaddlePaddle takes as a tensor: an eager Tensor, or a Value of a program being built
_TENSORS = (Tensor, Value)
_WIDENED_BY_CUMSUM = (DataType.UINT8, DataType.INT8, DataType.INT16, DataType.INT32)


def _dtype(value: Any, function: str) -> DataType:
    return to_dtype(value, function, "dtype")


def _cast_to(x: Tensor, dtype: Any, function: str) -> Tensor:
    """``x`` in ``dtype`` (a copy only when the dtype differs), as paddle's ``cast`` before an op."""
    wanted = _dtype(dtype, function)
    return x if x.dtype == wanted else _C_ops.cast(x, wanted)


def _arg_extreme(op: Any, function: str, x: Tensor, axis: Any, keepdim: bool, dtype: Any) -> Tensor:
    if dtype is None:
        raise ValueError(f"the value of 'dtype' in {function} could not be None, but received None")
    flatten = axis is None
    return op(x, 0 if flatten else axis, keepdim, flatten, _dtype(dtype, function))


def argmax(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: Any = "int64",
    name: str | None = None,
) -> Tensor:
    """Indices of the largest values along ``axis``; over the flattened ``x`` when it is None."""
    return _arg_extreme(_C_ops.argmax, "argmax", x, axis, keepdim, dtype)


def argmin(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: Any = "int64",
    name: str | None = None,
) -> Tensor:
    """Indices of the smallest values along ``axis``; over the flattened ``x`` when it is None."""
    return _arg_extreme(_C_ops.argmin, "argmin", x, axis, keepdim, dtype)


def arange(
    start: Any = 0,
    end: Any = None,
    step: Any = 1,
    dtype: Any = None,
    *,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """``[start, end)`` by ``step``; ``arange(n)`` is ``[0, n)``. Without a dtype: int64 when
    every bound is an integer (or an integer tensor), else float32."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = DataType.INT64 if all(_is_integer(v) for v in (start, end, step)) else "float32"
    return write_out("arange", out, _C_ops.arange(start, end, step, _dtype(dtype, "arange")))


def _is_integer(value: Any) -> bool:
    if isinstance(value, _TENSORS):
        return value.dtype.is_integer
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


@keyword_aliases({"shape": ("size",)})
def full(
    shape: Any,
    fill_value: Any,
    dtype: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value``. Without a dtype: bool for a bool value,
    complex128 for a complex one, else float32."""
    if not isinstance(fill_value, (numbers.Number, str, *_TENSORS)):
        raise TypeError(
            "The fill_value should be int, float, bool, complex, np.number, string numeric "
            f"value or Tensor, but received {type(fill_value)}."
        )
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = DataType.BOOL
        elif isinstance(fill_value, complex):
            dtype = DataType.COMPLEX128
        else:
            dtype = DataType.FLOAT32
    return write_out("full", out, _C_ops.full(shape, fill_value, _dtype(dtype, "full"), None))


_CLIP_BOUNDS = {
    DataType.INT32: (np.iinfo(np.int32).min, np.iinfo(np.int32).max - 2**7),
    DataType.INT64: (np.iinfo(np.int64).min, np.iinfo(np.int64).max - 2**39),
    DataType.FLOAT16: (float(np.finfo(np.float16).min), float(np.finfo(np.float16).max)),
    DataType.FLOAT64: (float(np.finfo(np.float64).min), float(np.finfo(np.float64).max)),
}
_FLOAT32_BOUNDS = (float(np.finfo(np.float32).min), float(np.finfo(np.float32).max))


@keyword_aliases({"x": ("input",)})
def clip(
    x: Tensor,
    min: Any = None,
    max: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``x`` limited to ``[min, max]``; a bound left None is the lowest or highest value of the
    dtype. An integer ``x`` with a float bound is clipped in float32, as paddle does."""
    lowest, highest = _CLIP_BOUNDS.get(x.dtype, _FLOAT32_BOUNDS)
    min = lowest if min is None else min
    max = highest if max is None else max
    if x.dtype in (DataType.INT32, DataType.INT64):
        if isinstance(min, Tensor):
            min = min.item()
        if isinstance(max, Tensor):
            max = max.item()
        if isinstance(min, float) or isinstance(max, float):
            x = _C_ops.cast(x, DataType.FLOAT32)
    return write_out("clip", out, _C_ops.clip(x, min, max))


clamp = clip


@keyword_aliases({"x": ("input",), "axis": ("dim",)})
def cumsum(
    x: Tensor,
    axis: int | None = None,
    dtype: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Cumulative sum along ``axis``; over the flattened ``x`` when it is None. Without a dtype,
    uint8/int8/int16/int32 inputs are summed in int64."""
    if dtype is None:
        if x.dtype in _WIDENED_BY_CUMSUM:
            x = _C_ops.cast(x, DataType.INT64)
    else:
        x = _cast_to(x, dtype, "cumsum")
    flatten = axis is None
    return write_out(
        "cumsum", out, _C_ops.cumsum(x, -1 if flatten else axis, flatten, False, False)
    )


@keyword_aliases({"x": ("input",)})
def cumprod(
    x: Tensor,
    dim: int | None = None,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Cumulative product along ``dim``; over the flattened ``x`` when it is None."""
    if dim is None:
        dim = -1
        x = _C_ops.flatten(x, 0, len(x.shape) - 1)
    if dtype is not None:
        x = _cast_to(x, dtype, "cumprod")
    return write_out("cumprod", out, _C_ops.cumprod(x, dim, False, False))


@keyword_aliases({"x": ("input",), "axis": ("dim",)})
def mean(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mean over ``axis`` (all axes when None), of ``x`` cast to ``dtype`` when one is given."""
    if dtype is not None:
        x = _cast_to(x, dtype, "mean")
    return write_out("mean", out, _C_ops.mean(x, () if axis is None else axis, keepdim))


@keyword_aliases({"x": ("input",), "y": ("exponent",)})
def pow(x: Tensor, y: Any, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``x ** y``: op ``pow`` for a Python number ``y``, ``elementwise_pow`` for a Tensor."""
    if isinstance(y, (int, float)):
        return write_out("pow", out, _C_ops.pow(x, y))
    if isinstance(y, _TENSORS):
        return write_out("pow", out, _C_ops.elementwise_pow(x, y))
    raise TypeError(
        f"y must be scalar, Tensor(in dygraph mode), Value(in pir mode) but received: {type(y)}"
    )


def scale(
    x: Tensor,
    scale: Any = 1.0,
    bias: float = 0.0,
    bias_after_scale: bool = True,
    act: str | None = None,
    name: str | None = None,
) -> Tensor:
    """``scale * x + bias`` (``scale * (x + bias)`` when not ``bias_after_scale``), then the
    activation op named ``act`` if one is."""
    out = _C_ops.scale(x, scale, float(bias), bias_after_scale)
    if act is None:
        return out
    activation = getattr(_C_ops, act, None) if act in _C_ops.__all__ else None
    if activation is None:
        raise ValueError(f"scale: unknown activation act={act!r}")
    return activation(out)


def softmax(
    input: Tensor, dim: int | None = None, dtype: Any = None, *, out: Tensor | None = None
) -> Tensor:
    """``paddle.softmax`` (PaddlePaddle's torch-compatible one): softmax along ``dim``; when it
    is None, axis 0 for 0-D, 1-D and 3-D inputs, else axis 1. ``input`` is cast to ``dtype``
    first when one is given."""
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    if dtype is not None:
        input = _C_ops.cast(input, _dtype(dtype, "softmax"))
    return write_out("softmax", out, _C_ops.softmax(input, dim))


def split(
    x: Tensor,
    num_or_sections: int | Sequence[int],
    axis: int | Tensor = 0,
    name: str | None = None,
) -> list[Tensor]:
    """``x`` cut along ``axis`` into ``num_or_sections`` equal parts (an int) or parts of the
    given sizes (a list; one of them may be -1, the rest)."""
    if isinstance(axis, Tensor):
        axis = axis.item()
    rank = len(x.shape)
    if axis + rank < 0:
        raise ValueError("(rank(x) + axis) must >= 0")
    axis = axis + rank if axis < 0 else axis
    if isinstance(num_or_sections, (list, tuple)):
        sections = [s.item() if isinstance(s, Tensor) else s for s in num_or_sections]
        return _C_ops.split(x, sections, axis)
    if not isinstance(num_or_sections, int):
        raise TypeError(
            "The type of 'num_or_sections' in split must be int, list or tuple in imperative "
            f"mode, but received {type(num_or_sections)}."
        )
    return _C_ops.split_with_num(x, num_or_sections, axis)


class TopKRetType(NamedTuple):
    """What ``topk`` returns: the ``k`` values and their int64 indices."""

    values: Tensor
    indices: Tensor


@keyword_aliases({"x": ("input",), "axis": ("dim",)})
def topk(
    x: Tensor,
    k: int | Tensor,
    axis: int | None = None,
    largest: bool = True,
    sorted: bool = True,
    name: str | None = None,
    *,
    out: tuple[Tensor, Tensor] | None = None,
) -> TopKRetType:
    """The ``k`` largest (or smallest) values along ``axis`` (the last when None), with their
    indices, as a named tuple ``(values, indices)``; written into the two tensors of ``out``
    when it is given."""
    values, indices = _C_ops.topk(x, k, -1 if axis is None else axis, largest, sorted)
    if out is not None:
        values, indices = write_out("topk", out[0], values), write_out("topk", out[1], indices)
    return TopKRetType(values=values, indices=indices)


@keyword_aliases({"x": ("input",), "y": ("other",)})
def where(
    condition: Tensor,
    x: Any = None,
    y: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Elements of ``x`` where ``condition`` holds, else of ``y`` (broadcast together; numbers
    become tensors as ``to_tensor`` makes them). ``where(condition)`` alone is
    ``nonzero(condition, as_tuple=True)``: one int64 index tensor per dimension."""
    if np.isscalar(x):
        x = to_tensor(x)
    if np.isscalar(y):
        y = to_tensor(y)
    if x is None and y is None:
        return _nonzero_tuple(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if condition.dtype != DataType.BOOL:
        raise ValueError(
            "The `condition` is expected to be a boolean Tensor, "
            f"but got a Tensor with dtype {condition.dtype}"
        )
    return write_out("where", out, _C_ops.where(condition, x, y))


def _nonzero_tuple(condition: Tensor) -> tuple[Tensor, ...]:
    indices = _C_ops.nonzero(condition)  # [count, rank]
    rank = len(condition.shape)
    if rank <= 1:
        return (_C_ops.reshape(indices, [-1]),)
    columns = _C_ops.split_with_num(indices, rank, 1)
    return tuple(_C_ops.reshape(column, [-1]) for column in columns)


# ---- elementwise arithmetic with PaddlePaddle's keyword-only extras


def _scaled(y: Any, alpha: Any) -> Any:
    """``y * alpha``, as PaddlePaddle's add/subtract scale ``y`` first when ``alpha`` is not 1."""
    return y if alpha == 1 else _C_ops.scale(y, alpha, 0.0, True)


@keyword_aliases({"x": ("input",), "y": ("other",)})
def add(
    x: Tensor,
    y: Tensor,
    name: str | None = None,
    *,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """``x + alpha * y``."""
    return write_out("add", out, _C_ops.add(x, _scaled(y, alpha)))


@keyword_aliases({"x": ("input",), "y": ("other",)})
def subtract(
    x: Tensor,
    y: Tensor,
    name: str | None = None,
    *,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """``x - alpha * y``."""
    return write_out("subtract", out, _C_ops.subtract(x, _scaled(y, alpha)))


@keyword_aliases({"x": ("input",), "y": ("other",)})
def divide(
    x: Tensor,
    y: Tensor,
    name: str | None = None,
    *,
    rounding_mode: str | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """``x / y``; rounded toward zero (``rounding_mode='trunc'``) or down (``'floor'``).
    PaddlePaddle's ``trunc_divide`` op is not one of phiops' ops: ``'trunc'`` is the floored
    quotient of the floating-point quotient's sign (``ceil`` below zero, ``floor`` above), and
    of integers ``sign(x) * sign(y) * (|x| // |y|)``."""
    if rounding_mode is None:
        result = _C_ops.divide(x, y)
    elif rounding_mode == "floor":
        result = _C_ops.floor_divide(x, y)
    elif rounding_mode == "trunc":
        if x.dtype.is_integer:
            signs = _C_ops.multiply(_C_ops.sign(x), _C_ops.sign(y))
            result = _C_ops.multiply(signs, _C_ops.floor_divide(_C_ops.abs(x), _C_ops.abs(y)))
        else:
            quotient = _C_ops.divide(x, y)
            negative = _C_ops.less_than(quotient, _C_ops.zeros_like(quotient))
            result = _C_ops.where(negative, _C_ops.ceil(quotient), _C_ops.floor(quotient))
    else:
        raise ValueError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"{rounding_mode}."
        )
    return write_out("divide", out, result)


# ---- reductions that choose reduce_all from the axis


def _reduce_axes(x: Tensor, axis: Any) -> tuple[list[int], bool]:
    """PaddlePaddle's ``_get_reduce_axis``: the axes as a list, and whether every axis is
    reduced (no axis, an empty list, or as many axes as ``x`` has)."""
    if axis is None:
        return [], True
    axes = [axis] if isinstance(axis, int) else list(axis)
    return axes, len(axes) == 0 or len(axes) == len(x.shape)


@keyword_aliases({"x": ("input",), "axis": ("dim",)})
def prod(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    dtype: Any = None,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The product over ``axis`` (every axis when None), of ``x`` cast to ``dtype`` first when
    one is given."""
    if dtype is not None:
        x = _cast_to(x, dtype, "prod")
    axes, reduce_all = _reduce_axes(x, axis)
    return write_out("prod", out, _C_ops.prod(x, axes, keepdim, reduce_all))


def logsumexp(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis`` (every axis when None), computed stably."""
    axes, reduce_all = _reduce_axes(x, axis)
    return write_out("logsumexp", out, _C_ops.logsumexp(x, axes, keepdim, reduce_all))


# ---- creation and random: the random ones draw from phiops' generator (phiops.seed)


def _count(value: Any, what: str) -> int:
    if isinstance(value, _TENSORS):
        value = value.item()
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
        raise TypeError(f"{what} should be a non-negative int.")
    return int(value)


@keyword_aliases({"num_rows": ("n",), "num_columns": ("m",)})
def eye(
    num_rows: int | Tensor,
    num_columns: int | Tensor | None = None,
    dtype: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """A ``num_rows`` x ``num_columns`` (square when None) matrix with ones on the diagonal."""
    rows = _count(num_rows, "num_rows")
    columns = rows if num_columns is None else _count(num_columns, "num_columns")
    dtype = DataType.FLOAT32 if dtype is None else _dtype(dtype, "eye")
    return write_out("eye", out, _C_ops.eye(rows, columns, dtype))


@keyword_aliases({"shape": ("size",)})
def normal(
    mean: Any = 0.0,
    std: Any = 1.0,
    shape: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Samples of N(``mean``, ``std``²): of ``shape`` for numbers; for a Tensor ``mean`` or
    ``std``, one sample per element (of ``mean``'s shape when it is a Tensor, else ``std``'s)."""
    if isinstance(mean, complex) or (
        isinstance(mean, _TENSORS) and mean.dtype in (DataType.COMPLEX64, DataType.COMPLEX128)
    ):
        raise UnimplementedError("paddle.normal: a complex mean is not implemented in phiops")
    if isinstance(mean, _TENSORS):
        if isinstance(std, _TENSORS):
            std = _C_ops.reshape(_cast_to(std, mean.dtype, "normal"), mean.shape)
        else:
            std = float(std)
        samples = _C_ops.gaussian(mean.shape, 0.0, 1.0, 0, mean.dtype)
    elif isinstance(std, _TENSORS):
        mean = float(mean)
        samples = _C_ops.gaussian(std.shape, 0.0, 1.0, 0, std.dtype)
    else:
        return write_out(
            "normal",
            out,
            _C_ops.gaussian(shape, float(mean), float(std), 0, DataType.FLOAT32),
        )
    scaled = (
        _C_ops.multiply(samples, std)
        if isinstance(std, _TENSORS)
        else _C_ops.scale(samples, std, 0.0, True)
    )
    shifted = (
        _C_ops.add(scaled, mean)
        if isinstance(mean, _TENSORS)
        else _C_ops.scale(scaled, 1.0, mean, True)
    )
    return write_out("normal", out, shifted)


def randint(
    low: int = 0,
    high: int | None = None,
    shape: Any = [1],
    dtype: Any = None,
    name: str | None = None,
) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``; from ``[0, low)`` when ``high`` is None.
    int64 unless ``dtype`` says otherwise."""
    if high is None:
        if low <= 0:
            raise ValueError(
                f"If high is None, low must be greater than 0, but received low = {low}."
            )
        low, high = 0, low
    dtype = DataType.INT64 if dtype is None else _dtype(dtype, "randint")
    if isinstance(shape, _TENSORS):
        shape = shape.numpy().tolist()
    return _C_ops.randint(low, high, shape, dtype)


def randperm(
    n: int,
    dtype: Any = "int64",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    return write_out("randperm", out, _C_ops.randperm(n, _dtype(dtype, "randperm")))


def bernoulli(x: Tensor, p: float | None = None, name: str | None = None) -> Tensor:
    """1 with probability ``x`` (elementwise), else 0, in ``x``'s dtype; with ``p``, every
    element has probability ``p``."""
    if p is not None:
        x = _C_ops.full_like(x, p)
    return _C_ops.bernoulli(x)
