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

import functools
import warnings
import numbers
from typing import Any, NamedTuple, Sequence

import numpy as np

from phiops.generated import api as _C_ops
from phiops.generated import inplace as _inplace
from phiops.generated.python_api import keyword_aliases, write_out
from phiops.runtime.common import DataType
from phiops.runtime.common.default_dtype import default_data_type
from phiops.runtime.eager.inplace import check_inplace, write_inplace
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value

__all__ = [
    "conv3d",
    "scatter_",
    "disable_static",
    "get_flags",
    "grad",
    "seed",
    "set_flags",
    "empty",
    "empty_like",
    "full_like",
    "linspace",
    "ones",
    "ones_like",
    "rand",
    "randn",
    "standard_normal",
    "uniform",
    "zeros",
    "zeros_like",
    "expand_as",
    "neg",
    "negative",
    "normal_",
    "numel",
    "permute",
    "ravel",
    "tolist",
    "true_divide",
    "view",
    "view_as",
    "assign",
    "bmm",
    "cast_",
    "conv2d",
    "cumprod_",
    "cumsum_",
    "divide_",
    "flatten_",
    "group_norm",
    "layer_norm",
    "logit",
    "meshgrid",
    "mm",
    "nonzero",
    "pow_",
    "put_along_axis",
    "slice",
    "squeeze_",
    "subtract_",
    "take_along_axis",
    "tril_",
    "triu_",
    "unique",
    "unsqueeze_",
    "where_",
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

# The functions that are also Tensor methods: ``x.cumsum()`` is ``cumsum(x)``. The in-place
# ``add_``, ``clip_``/``clamp_``, ``scale_`` and ``put_along_axis_`` are only Tensor methods in
# PaddlePaddle 3.3.1 (not ``paddle.*`` names), so they are not in ``__all__``.
TENSOR_METHODS = (
    "scatter_",
    "expand_as",
    "neg",
    "negative",
    "normal_",
    "numel",
    "permute",
    "ravel",
    "tolist",
    "true_divide",
    "view",
    "view_as",
    "add_",
    "bmm",
    "cast_",
    "clip_",
    "clamp_",
    "cumprod_",
    "cumsum_",
    "divide_",
    "flatten_",
    "logit",
    "mm",
    "nonzero",
    "pow_",
    "put_along_axis",
    "put_along_axis_",
    "scale_",
    "slice",
    "squeeze_",
    "subtract_",
    "take_along_axis",
    "tril_",
    "triu_",
    "unique",
    "unsqueeze_",
    "where_",
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
    every bound is an integer (or an integer tensor), else the default dtype."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        integral = all(_is_integer(v) for v in (start, end, step))
        dtype = DataType.INT64 if integral else default_data_type()
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
    complex128 for a complex one, else the default dtype (paddle.get_default_dtype())."""
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
            dtype = default_data_type()
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
    dtype = default_data_type() if dtype is None else _dtype(dtype, "eye")
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
            _C_ops.gaussian(shape, float(mean), float(std), 0, default_data_type()),
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


# ---- selection, indexing and shape functions whose PaddlePaddle signature is not the op's


def unique(
    x: Tensor,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: Any = "int64",
    sorted: bool = True,
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """The sorted unique elements of ``x`` (flattened, or the unique slices along ``axis``),
    followed by the index, inverse and counts tensors that were asked for (a tuple then).
    ``sorted=False`` gives sorted output too, as PaddlePaddle 3.3.1's CPU kernel does."""
    if not isinstance(sorted, bool):
        raise InvalidArgumentError(f"unique: 'sorted' must be a bool, got {sorted!r}")
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise InvalidArgumentError(f"unique: 'axis' must be an int or None, got {axis!r}")
    outs = _C_ops.unique(
        x,
        return_index,
        return_inverse,
        return_counts,
        [] if axis is None else [int(axis)],
        _dtype(dtype, "unique"),
    )
    kept = [outs[0]] + [
        out
        for out, wanted in zip(outs[1:], (return_index, return_inverse, return_counts))
        if wanted
    ]
    return kept[0] if len(kept) == 1 else tuple(kept)


def nonzero(
    x: Tensor, as_tuple: bool = False, *, out: Tensor | None = None
) -> Tensor | tuple[Tensor, ...]:
    """The int64 indices of the nonzero elements of ``x``: a ``[count, rank]`` tensor, or with
    ``as_tuple`` one 1-D tensor per dimension."""
    if as_tuple:
        if out is not None:
            raise InvalidArgumentError("nonzero: 'out' cannot be given with as_tuple=True")
        return _nonzero_tuple(x)
    return write_out("nonzero", out, _C_ops.nonzero(x))


def logit(x: Tensor, eps: float | None = None, name: str | None = None) -> Tensor:
    """``log(x / (1 - x))``; with ``eps``, ``x`` is first clipped to ``[eps, 1 - eps]`` (None:
    no clipping, so 0 and 1 give -inf and inf)."""
    return _C_ops.logit(x, 0.0 if eps is None else eps)


def _along_axis_shape(arr: Tensor, indices: Tensor, axis: int) -> list[int] | None:
    """PaddlePaddle's ``infer_broadcast_shape``: ``arr``'s shape with ``indices``' size at
    ``axis``, or None when ``indices`` is larger than ``arr`` in some dimension."""
    if len(arr.shape) != len(indices.shape):
        raise InvalidArgumentError(
            f"'indices' must have as many dims as 'arr' ({len(arr.shape)}), "
            f"got shape {list(indices.shape)}"
        )
    if any(a < i for a, i in zip(arr.shape, indices.shape)):
        return None
    shape = list(arr.shape)
    shape[axis] = indices.shape[axis]
    return shape


def take_along_axis(
    arr: Tensor,
    indices: Tensor,
    axis: int,
    broadcast: bool = True,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The elements of ``arr`` at ``indices`` along ``axis``. With ``broadcast``, ``indices``
    is first broadcast to ``arr``'s shape in the other dims (and ``arr`` to ``indices``')."""
    if broadcast:
        shape = _along_axis_shape(arr, indices, axis)
        if shape is None:
            shape = list(indices.shape)
        indices = _C_ops.expand(indices, shape)
        arr_shape = list(shape)
        arr_shape[axis] = arr.shape[axis]
        arr = _C_ops.expand(arr, arr_shape)
    return write_out("take_along_axis", out, _C_ops.take_along_axis(arr, indices, axis))


def _put_along_axis_operands(
    arr: Tensor, indices: Tensor, values: Any, axis: int, broadcast: bool
) -> tuple[Tensor, Any]:
    if broadcast:
        shape = _along_axis_shape(arr, indices, axis)
        if shape is not None:
            indices = _C_ops.expand(indices, shape)
    if isinstance(values, _TENSORS):
        values = _cast_to(values, arr.dtype, "put_along_axis")
        if list(values.shape) != list(indices.shape):
            values = _C_ops.expand(values, list(indices.shape))
    else:
        values = _C_ops.full(list(indices.shape), values, arr.dtype, None)
    return indices, values


def put_along_axis(
    arr: Tensor,
    indices: Tensor,
    values: Any,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> Tensor:
    """``arr`` with ``values`` put (or reduced with ``reduce``) at ``indices`` along ``axis``;
    a number ``values`` fills every index. With ``broadcast``, ``indices`` is broadcast to
    ``arr``'s shape in the other dims and ``values`` to ``indices``'."""
    indices, values = _put_along_axis_operands(arr, indices, values, axis, broadcast)
    return _C_ops.put_along_axis(arr, indices, values, axis, reduce, include_self)


def put_along_axis_(
    arr: Tensor,
    indices: Tensor,
    values: Any,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> Tensor:
    """In-place ``put_along_axis``: the result is written into ``arr``, which is returned."""
    indices, values = _put_along_axis_operands(arr, indices, values, axis, broadcast)
    return _inplace.put_along_axis_(arr, indices, values, axis, reduce, include_self)


def slice(input: Tensor, axes: Sequence[int], starts: Any, ends: Any) -> Tensor:  # noqa: A001
    """``input[starts[i]:ends[i]]`` along each of ``axes`` (ends past the size are clipped)."""
    if not isinstance(axes, (list, tuple)):
        raise InvalidArgumentError(f"slice: 'axes' must be a list or tuple, got {axes!r}")
    return _C_ops.slice(input, list(axes), starts, ends, [1] * len(axes), [])


def meshgrid(*args: Any, **kwargs: Any) -> list[Tensor]:
    """Coordinate grids from 1-D tensors, given one by one or as one list: each output has
    shape ``[len(t) for t in tensors]`` ('ij' indexing)."""
    unknown = set(kwargs) - {"name"}
    if unknown:
        raise TypeError(f"meshgrid got unexpected keyword arguments {sorted(unknown)}")
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    if not args or not all(isinstance(arg, _TENSORS) for arg in args):
        raise InvalidArgumentError(
            "meshgrid: expected 1-D Tensors (one by one or as one list), got "
            f"{[type(arg).__name__ for arg in args]}"
        )
    return _C_ops.meshgrid(list(args))


def assign(x: Any, output: Tensor | None = None) -> Tensor:
    """A copy of ``x`` (a Tensor, a numpy array, a nested list, or a Python number, which gives
    a 1-element tensor), taken with numpy's dtype (a Python float gives float64), written into
    ``output`` when it is given."""
    if isinstance(x, _TENSORS):
        result = _C_ops.assign(x)
    elif isinstance(x, (int, float, bool, complex)):
        result = to_tensor(np.array([x]))
    elif isinstance(x, (np.ndarray, np.generic, list, tuple)):
        result = to_tensor(np.array(x))
    else:
        raise TypeError(
            "The type of 'x' in assign must be Tensor, numpy.ndarray, list, tuple or a number, "
            f"but received {type(x)}."
        )
    if output is None:
        return result
    return write_out("assign", output, result)


def _check_matrices(function: str, x: Tensor, y: Tensor, rank: int) -> None:
    if len(x.shape) != rank or len(y.shape) != rank:
        raise InvalidArgumentError(
            f"{function}: x and y must be {rank}-D, got shapes {list(x.shape)} and {list(y.shape)}"
        )
    if x.shape[-1] != y.shape[-2] or (rank == 3 and x.shape[0] != y.shape[0]):
        raise InvalidArgumentError(
            f"{function}: shapes {list(x.shape)} and {list(y.shape)} do not multiply"
        )


def bmm(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Batched matrix product of two 3-D tensors: ``[b, m, k] @ [b, k, n] -> [b, m, n]``."""
    _check_matrices("bmm", x, y, 3)
    return write_out("bmm", out, _C_ops.matmul(x, y, False, False))


def mm(input: Tensor, mat2: Tensor, name: str | None = None) -> Tensor:
    """The matrix product ``input @ mat2`` (with matmul's broadcasting)."""
    return _C_ops.matmul(input, mat2, False, False)


# paddle.conv2d, layer_norm and group_norm are paddle.nn.functional's, as in PaddlePaddle 3.3.1.
from phiops.runtime.nn.functional import conv2d, group_norm, layer_norm  # noqa: E402

# ---- in-place variants with PaddlePaddle's signatures: the out-of-place result written into x


def _checked(function: str, x: Any) -> None:
    if not isinstance(x, _TENSORS):
        raise InvalidArgumentError(f"{function}: 'x' must be a Tensor, got {type(x).__name__}")
    check_inplace(function, "x", x)


def flatten_(
    x: Tensor, start_axis: int = 0, stop_axis: int = -1, name: str | None = None
) -> Tensor:
    """In-place ``flatten``: dims ``start_axis`` .. ``stop_axis`` of ``x`` become one."""
    _checked("flatten_", x)
    if len(x.shape) == 0:
        return write_inplace(x, _C_ops.reshape(x, [1]))
    return _inplace.flatten_(x, start_axis, stop_axis)


def cumsum_(
    x: Tensor, axis: int | None = None, dtype: Any = None, name: str | None = None
) -> Tensor:
    """In-place ``cumsum``: over the flattened ``x`` when ``axis`` is None (``x`` becomes 1-D);
    ``x`` is cast to ``dtype`` first when one is given."""
    _checked("cumsum_", x)
    if dtype is not None and x.dtype != _dtype(dtype, "cumsum_"):
        x = _inplace.cast_(x, _dtype(dtype, "cumsum_"))
    flatten = axis is None
    return _inplace.cumsum_(x, -1 if flatten else axis, flatten, False, False)


def cumprod_(
    x: Tensor, dim: int | None = None, dtype: Any = None, name: str | None = None
) -> Tensor:
    """In-place ``cumprod``: over the flattened ``x`` when ``dim`` is None (``x`` becomes 1-D);
    ``x`` is cast to ``dtype`` first when one is given."""
    _checked("cumprod_", x)
    if dtype is not None and x.dtype != _dtype(dtype, "cumprod_"):
        x = _inplace.cast_(x, _dtype(dtype, "cumprod_"))
    if dim is None:
        x = flatten_(x)
        dim = -1
    return _inplace.cumprod_(x, dim, False, False)


def squeeze_(x: Tensor, axis: Any = None, name: str | None = None) -> Tensor:
    """In-place ``squeeze``: removes the size-1 dims ``axis`` (all of them when None)."""
    _checked("squeeze_", x)
    return _inplace.squeeze_(x, [] if axis is None else axis)


def unsqueeze_(x: Tensor, axis: Any, name: str | None = None) -> Tensor:
    """In-place ``unsqueeze``: inserts size-1 dims at ``axis`` (an int or a list)."""
    _checked("unsqueeze_", x)
    return _inplace.unsqueeze_(x, axis)


def tril_(x: Tensor, diagonal: int = 0, name: str | None = None) -> Tensor:
    """In-place ``tril``: zeros above the ``diagonal``-th diagonal."""
    _checked("tril_", x)
    return _inplace.tril_(x, diagonal)


def triu_(x: Tensor, diagonal: int = 0, name: str | None = None) -> Tensor:
    """In-place ``triu``: zeros below the ``diagonal``-th diagonal."""
    _checked("triu_", x)
    return _inplace.triu_(x, diagonal)


def pow_(x: Tensor, y: Any, name: str | None = None) -> Tensor:
    """In-place ``pow`` by a number ``y`` (PaddlePaddle's ``pow_`` takes no Tensor ``y``)."""
    if not isinstance(y, (int, float)) or isinstance(y, bool):
        raise TypeError(f"y must be scalar type, but received: {type(y)} ")
    _checked("pow_", x)
    return _inplace.pow_(x, y)


def where_(condition: Tensor, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """In-place ``where``: ``x`` takes the elements of ``y`` where ``condition`` is false."""
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if np.isscalar(y):
        y = _C_ops.full(list(x.shape), y, x.dtype, None)
    _checked("where_", x)
    return _inplace.where_(condition, x, y)


def add_(x: Tensor, y: Tensor, name: str | None = None, *, alpha: Any = 1) -> Tensor:
    """In-place ``x + alpha * y``."""
    _checked("add_", x)
    return _inplace.add_(x, _scaled(y, alpha))


def subtract_(x: Tensor, y: Tensor, name: str | None = None, *, alpha: Any = 1) -> Tensor:
    """In-place ``x - alpha * y``."""
    _checked("subtract_", x)
    return _inplace.subtract_(x, _scaled(y, alpha))


def divide_(
    x: Tensor, y: Tensor, name: str | None = None, *, rounding_mode: str | None = None
) -> Tensor:
    """In-place ``divide``, with its ``rounding_mode`` (None, ``'trunc'`` or ``'floor'``)."""
    _checked("divide_", x)
    if rounding_mode is None:
        return _inplace.divide_(x, y)
    return write_inplace(x, divide(x, y, rounding_mode=rounding_mode))


def clip_(x: Tensor, min: Any = None, max: Any = None, name: str | None = None) -> Tensor:
    """In-place ``clip``; a bound left None is the dtype's lowest or highest value."""
    _checked("clip_", x)
    lowest, highest = _CLIP_BOUNDS.get(x.dtype, _FLOAT32_BOUNDS)
    return _inplace.clip_(x, lowest if min is None else min, highest if max is None else max)


clamp_ = clip_


def scale_(
    x: Tensor,
    scale: Any = 1.0,
    bias: float = 0.0,
    bias_after_scale: bool = True,
    act: str | None = None,
    name: str | None = None,
) -> Tensor:
    """In-place ``scale``, then the in-place activation named ``act`` if one is."""
    _checked("scale_", x)
    out = _inplace.scale_(x, scale, float(bias), bias_after_scale)
    if act is None:
        return out
    activation = getattr(_inplace, f"{act}_", None)
    if activation is None:
        raise ValueError(f"scale_: unknown activation act={act!r}")
    return activation(out)


def cast_(x: Tensor, dtype: Any) -> Tensor:
    """In-place ``cast``: ``x`` takes ``dtype``."""
    _checked("cast_", x)
    return _inplace.cast_(x, _dtype(dtype, "cast_"))


# ---- functions PaddlePaddle also has as Tensor methods with the tensor named x/input


def _sizes_as_varargs(parameter: str) -> Any:
    """Let ``f(x, 2, 3)`` mean ``f(x, [2, 3])`` for the list ``parameter``, as PaddlePaddle's
    ``permute``/``view`` decorators do; the signature stays PaddlePaddle's."""

    def decorate(function: Any) -> Any:
        @functools.wraps(function)
        def call(first: Any, *args: Any, **kwargs: Any) -> Any:
            if len(args) > 1 and all(isinstance(a, (int, np.integer)) for a in args):
                args = (list(args),)
            return function(first, *args, **kwargs)

        return call

    return decorate


def neg(x: Tensor, name: str | None = None) -> Tensor:
    """``-x``."""
    return _C_ops.scale(x, -1.0, 0.0, True)


negative = neg


def numel(x: Tensor, name: str | None = None) -> Tensor:
    """The number of elements of ``x``, as a 0-D int64 tensor."""
    count = 1
    for size in x.shape:
        count *= size
    return to_tensor(np.array(count, dtype=np.int64))


def tolist(x: Tensor) -> Any:
    """The elements of ``x`` as nested Python lists (a number for a 0-D tensor)."""
    return x.numpy().tolist()


def true_divide(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``input / other`` in floating point (integers divide as float32)."""
    return write_out("true_divide", out, _C_ops.divide(input, other))


@_sizes_as_varargs("dims")
def permute(input: Tensor, dims: Sequence[int]) -> Tensor:
    """``input`` with its dims in the order ``dims`` (``x.permute(1, 0)`` also works)."""
    if not isinstance(dims, (list, tuple)):
        raise InvalidArgumentError(f"permute: 'dims' must be a list of ints, got {dims!r}")
    return _C_ops.transpose(input, list(dims))


def ravel(input: Tensor) -> Tensor:
    """``input`` flattened to 1-D."""
    return _C_ops.flatten(input, 0, -1) if len(input.shape) else _C_ops.reshape(input, [1])


def _view_keywords(function: Any) -> Any:
    """PaddlePaddle 3.3.1's ``view_decorator``: ``size=`` and ``dtype=`` name
    ``shape_or_dtype``, and ``x.view(2, 3)`` means ``x.view([2, 3])``."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        for alias in ("dtype", "size"):
            if alias in kwargs and "shape_or_dtype" not in kwargs:
                kwargs["shape_or_dtype"] = kwargs.pop(alias)
                break
        if len(args) > 2 and all(
            isinstance(a, (int, np.integer)) and not isinstance(a, DataType) for a in args[1:]
        ):
            args = (args[0], [int(a) for a in args[1:]])
        return function(*args, **kwargs)

    return call


@_view_keywords
def view(x: Tensor, shape_or_dtype: Any, name: str | None = None) -> Tensor:
    """``x`` seen with another shape (a list or tuple, one -1 inferred: op view_shape) or its
    bytes seen as another dtype (op view_dtype; the last extent scales by the ratio of the
    element sizes). The result is a view of ``x``'s buffer when ``x`` is contiguous, so writes
    through either are seen in both; where PaddlePaddle 3.3.1 raises "The Tensor can not be
    viewed" (strides that cannot take the shape), phiops copies."""
    if isinstance(shape_or_dtype, (int, np.integer)) and not isinstance(shape_or_dtype, DataType):
        shape_or_dtype = [int(shape_or_dtype)]
    if isinstance(shape_or_dtype, (list, tuple)):
        return _C_ops.view_shape(x, list(shape_or_dtype))
    dtype = to_dtype(shape_or_dtype, "view", "shape_or_dtype")
    if dtype == x.dtype:
        return x
    return _C_ops.view_dtype(x, dtype)


def view_as(x: Tensor, other: Tensor, name: str | None = None) -> Tensor:
    """``x`` seen with ``other``'s shape (op view_shape): a view of ``x``'s buffer when ``x``
    is contiguous."""
    return _C_ops.view_shape(x, list(other.shape))


def expand_as(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``x`` broadcast to ``y``'s shape."""
    return _C_ops.expand(x, list(y.shape))


def normal_(x: Tensor, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> Tensor:
    """Fill ``x`` with samples of N(``mean``, ``std``²), in place."""
    _checked("normal_", x)
    return write_inplace(x, _C_ops.gaussian(x.shape, float(mean), float(std), 0, x.dtype, x.place))


# ---- creation functions: PaddlePaddle 3.3.1's device=, requires_grad=, pin_memory=


def _with_creation_keywords(
    function: Any, pin_memory: bool = True, default_dtype: bool = False
) -> Any:
    """``function`` taking PaddlePaddle's keyword-only ``device=None, requires_grad=False``
    (and ``pin_memory=False`` where 3.3.1 has it), placed before a keyword-only ``name`` and
    otherwise last, as in 3.3.1. ``device`` ('cpu', 'gpu', 'gpu:N' or a Place) moves the result
    there, ``requires_grad=True`` gives it ``stop_gradient=False``; phiops has no pinned memory,
    so ``pin_memory=True`` raises UnimplementedError (PaddlePaddle's CPU build raises a
    RuntimeError for it). With ``default_dtype``, a ``dtype`` left out or None is the default
    dtype (paddle.get_default_dtype()), which ``function`` (generated, float32 for None) does not
    know."""
    import inspect

    from phiops.runtime.common import to_place

    label = function.__name__
    takes_pin_memory = pin_memory
    signature = inspect.signature(function)
    dtype_at = list(signature.parameters).index("dtype") if default_dtype else -1

    @functools.wraps(function)
    def call(*args: Any, device: Any = None, requires_grad: bool = False, **kwargs: Any) -> Any:
        if dtype_at >= 0:  # read the default only where the dtype is None
            if len(args) > dtype_at:
                if args[dtype_at] is None:
                    args = (*args[:dtype_at], default_data_type(), *args[dtype_at + 1 :])
            elif kwargs.get("dtype") is None:
                if len(args) == dtype_at:  # zeros([2]): stays on the everyday path below
                    kwargs.pop("dtype", None)
                    args = (*args, default_data_type())
                else:
                    kwargs["dtype"] = default_data_type()
        if device is None and requires_grad is False and not kwargs:
            return function(*args)  # the everyday call: nothing to add
        if not takes_pin_memory and "pin_memory" in kwargs:
            raise TypeError(f"{label}() got an unexpected keyword argument 'pin_memory'")
        if kwargs.pop("pin_memory", False):
            raise UnimplementedError(
                f"paddle.{label}: pin_memory=True is not implemented (phiops has no pinned memory)"
            )
        if not isinstance(requires_grad, bool):
            raise InvalidArgumentError(
                f"paddle.{label}: 'requires_grad' must be a bool, got {requires_grad!r}"
            )
        place = None if device is None else to_place(device, f"paddle.{label}: 'device'")
        result = function(*args, **kwargs)
        if isinstance(result, Tensor):
            if place is not None and kwargs.get("out") is None:
                result = result.to(place)
            if requires_grad:
                result.stop_gradient = False
        return result

    parameters = list(signature.parameters.values())
    added = [
        inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None),
        inspect.Parameter("requires_grad", inspect.Parameter.KEYWORD_ONLY, default=False),
    ]
    if pin_memory:
        added.append(inspect.Parameter("pin_memory", inspect.Parameter.KEYWORD_ONLY, default=False))
    last = parameters[-1] if parameters else None
    if last is not None and last.name == "name" and last.kind is inspect.Parameter.KEYWORD_ONLY:
        parameters[-1:-1] = added
    else:
        parameters += added
    call.__signature__ = signature.replace(parameters=parameters)
    return call


def _creation_functions() -> dict[str, Any]:
    from phiops.generated import python_api as generated

    here = globals()
    functions = {name: here[name] for name in ("arange", "eye", "full", "randperm")}
    for name in (
        "empty",
        "empty_like",
        "full_like",
        "linspace",
        "ones",
        "ones_like",
        "rand",
        "randn",
        "standard_normal",
        "uniform",
        "zeros",
        "zeros_like",
    ):
        functions[name] = getattr(generated, name)
    without_pin_memory = ("linspace", "standard_normal", "uniform")
    # the generated ones whose None dtype is float32 (ops/python_api.yaml's if_none)
    default_dtype = ("empty", "linspace", "ones", "rand", "randn", "standard_normal", "uniform", "zeros")
    return {
        name: _with_creation_keywords(
            function,
            pin_memory=name not in without_pin_memory,
            default_dtype=name in default_dtype,
        )
        for name, function in functions.items()
    }


globals().update(_creation_functions())


# ---- names whose parameters PaddlePaddle spells otherwise than the runtime functions


def seed(seed: int) -> None:
    """Reseed phiops' generators with ``seed`` (an int >= 0), so that the random functions
    replay. PaddlePaddle returns its Generator object; phiops returns None."""
    from phiops.runtime import random as _random

    _random.seed(seed)


def get_flags(flags: str | Sequence[str]) -> dict[str, Any]:
    """The values of one flag name or a list of them, keyed ``FLAGS_<name>``."""
    from phiops.runtime.flags import get_flags as _get_flags

    return _get_flags(flags)


def set_flags(flags: dict[str, Any]) -> None:
    """Set several flags at once, by name with or without the ``FLAGS_`` prefix; an unknown
    name or a bad value changes no flag."""
    from phiops.runtime.flags import set_flags as _set_flags

    _set_flags(flags)


def disable_static(place: Any = None) -> None:
    """Run API calls eagerly again (the default). ``place`` (PaddlePaddle's place of eager
    mode) is checked; choosing another place than the default one is not implemented."""
    from phiops.runtime.common import to_place
    from phiops.runtime.static import disable_static as _disable_static

    if place is not None:
        wanted = to_place(place, "disable_static: 'place'")
        default = to_tensor(np.zeros([0], dtype=np.float32)).place
        if wanted != default:
            raise UnimplementedError(
                f"disable_static(place={place!r}): phiops runs eager calls on the default place "
                f"({default}); choosing another one is not implemented"
            )
    _disable_static()


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Tensor | None] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool = False,
    no_grad_vars: Any = None,
    *,
    dump_backward_graph_path: str | None = None,
) -> list[Tensor | None]:
    """The gradients of ``outputs`` with respect to ``inputs`` (``.grad`` is not touched; with
    ``create_graph`` they are differentiable again). ``only_inputs=False`` (also accumulating
    into the other leaves), ``no_grad_vars`` and ``dump_backward_graph_path`` are not
    implemented."""
    from phiops.runtime.autograd.engine import grad as _grad

    if only_inputs is not True:
        raise UnimplementedError("grad: only_inputs=False is not implemented in phiops")
    if no_grad_vars is not None and (
        not isinstance(no_grad_vars, (list, tuple, set)) or no_grad_vars
    ):
        raise UnimplementedError("grad: no_grad_vars is not implemented in phiops")
    if dump_backward_graph_path is not None:
        raise UnimplementedError("grad: dump_backward_graph_path is not implemented in phiops")
    return _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)


def _triple(value: Any, what: str) -> list[int]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)] * 3
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return [int(v) for v in value]
    raise InvalidArgumentError(f"conv3d: '{what}' must be an int or 3 ints, got {value!r}")


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """A 3-D convolution of ``x`` (NCDHW or NDHWC) with ``weight`` ([out, in / groups, kd, kh,
    kw]), plus ``bias``; ``padding`` is an int, 3 ints, 'SAME' or 'VALID'."""
    if data_format not in ("NCDHW", "NDHWC"):
        raise InvalidArgumentError(
            f"conv3d: 'data_format' must be 'NCDHW' or 'NDHWC', got {data_format!r}"
        )
    if isinstance(padding, str):
        paddings, algorithm = [0, 0, 0], padding.upper()
    else:
        paddings, algorithm = _triple(padding, "padding"), "EXPLICIT"
    out = _C_ops.conv3d(
        x,
        weight,
        _triple(stride, "stride"),
        paddings,
        algorithm,
        groups,
        _triple(dilation, "dilation"),
        data_format,
    )
    if bias is None:
        return out
    shape = [1, -1, 1, 1, 1] if data_format == "NCDHW" else [1, 1, 1, 1, -1]
    return _C_ops.add(out, _C_ops.reshape(bias, shape))


def scatter_(*args: Any, **kwargs: Any) -> Tensor:
    """In-place ``scatter``: ``scatter_(x, index, updates, overwrite=True, name=None)`` writes
    the result into ``x``. PaddlePaddle's other form, torch's ``scatter_(x, dim, index, src,
    reduce=...)`` (an int second argument or ``dim=``), is not implemented."""
    if (len(args) >= 2 and isinstance(args[1], int)) or "dim" in kwargs:
        raise UnimplementedError(
            "scatter_: the torch-style form (x, dim, index, src, reduce) is not implemented in "
            "phiops; use put_along_axis_"
        )
    return _scatter_inplace(*args, **kwargs)


def _scatter_inplace(
    x: Tensor, index: Tensor, updates: Tensor, overwrite: bool = True, name: str | None = None
) -> Tensor:
    _checked("scatter_", x)
    return _inplace.scatter_(x, index, updates, overwrite)


# -- paddle.atan2, copysign and lerp: PaddlePaddle 3.3.1's python/paddle/tensor/math.py, which
# broadcast or convert their arguments before the op


def _broadcast_shape(op: str, x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    try:
        return list(np.broadcast_shapes(tuple(x_shape), tuple(y_shape)))
    except ValueError:
        raise InvalidArgumentError(
            f"{op}(): argument 'y' with shape {list(y_shape)} cannot be broadcast with argument "
            f"'x' with shape {list(x_shape)}"
        ) from None


def atan2(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Element-wise arctangent of ``x / y`` in the quadrant of ``(y, x)``, in [-pi, pi];
    ``x`` and ``y`` are broadcast to one shape first, and integer inputs give float64."""
    if list(x.shape) != list(y.shape):
        shape = _broadcast_shape("atan2", x.shape, y.shape)
        x, y = _C_ops.expand(x, shape), _C_ops.expand(y, shape)
    return _C_ops.atan2(x, y)


def copysign(x: Tensor, y: Any, name: str | None = None) -> Tensor:
    """The magnitude of ``x`` with the sign of ``y`` (a Tensor broadcast against ``x``, or a
    number, made a 0-D tensor of ``x``'s dtype), element by element."""
    if isinstance(y, numbers.Real) and not isinstance(y, bool):
        y = _C_ops.full([], y, x.dtype)
    out_shape = _broadcast_shape("copysign", x.shape, y.shape)
    if out_shape != list(x.shape):
        warnings.warn(
            f"The shape of broadcast output {out_shape} is different from the input tensor x "
            f"with shape: {list(x.shape)}, please make sure you are using copysign api correctly."
        )
    return _C_ops.copysign(x, y)


def lerp(x: Tensor, y: Tensor, weight: Any, name: str | None = None) -> Tensor:
    """``x + weight * (y - x)`` element by element; a number ``weight`` becomes a 0-D tensor of
    ``x``'s dtype, a Tensor one is broadcast against ``x`` and ``y``."""
    if isinstance(weight, numbers.Real) and not isinstance(weight, bool):
        weight = _C_ops.full([], float(weight), x.dtype)
    elif not isinstance(weight, (Tensor, Value)):
        raise InvalidArgumentError(
            f"lerp(): argument 'weight' must be a float or a Tensor, got {type(weight).__name__}"
        )
    return _C_ops.lerp(x, y, weight)


__all__ += ["atan2", "copysign", "lerp"]
TENSOR_METHODS = TENSOR_METHODS + ("atan2", "copysign", "lerp")


def unfold(x: Tensor, axis: int, size: int, step: int, name: str | None = None) -> Tensor:
    """The windows of ``size`` elements of ``x`` along ``axis``, ``step`` apart: axis becomes
    the number of windows, (n - size) // step + 1, and a last axis of ``size`` is added (op
    tensor_unfold). The result is a view of ``x``'s buffer when ``x`` is contiguous, as in
    PaddlePaddle 3.3.1; where windows overlap, the gradient sums over them."""
    return _C_ops.tensor_unfold(x, axis, size, step)


__all__ += ["unfold"]
TENSOR_METHODS += ("unfold",)


# -- the fftspecial family: the incomplete gamma functions -------------------------------------


def _check_non_negative(function: str, name: str, value: Tensor) -> None:
    """PaddlePaddle's check of gammaincc/gammainc's arguments (eagerly, where values exist)."""
    if isinstance(value, Value):
        return
    if not bool(_C_ops.all(_C_ops.greater_equal(value, _C_ops.zeros_like(value)), [], False)):
        raise ValueError(f"The input argument {name} must be greater than or equal to 0.")


def gammaincc(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The regularized upper incomplete gamma function Q(x, y) (op ``gammaincc``); x and y must
    be non-negative (ValueError, as PaddlePaddle)."""
    _check_non_negative("gammaincc", "x", x)
    _check_non_negative("gammaincc", "y", y)
    return _C_ops.gammaincc(x, y)


def gammainc(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The regularized lower incomplete gamma function P(x, y) = 1 - Q(x, y), as PaddlePaddle
    composes it from ``gammaincc``."""
    return 1 - gammaincc(x, y)


__all__ += ["gammaincc", "gammainc"]
TENSOR_METHODS += ("gammaincc", "gammainc")


def logspace(
    start: Any,
    stop: Any,
    num: Any,
    base: Any = 10.0,
    dtype: Any = None,
    name: str | None = None,
) -> Tensor:
    """``num`` values ``base ** e``, the exponents ``e`` evenly spaced from ``start`` to
    ``stop`` (op ``logspace``): numbers become 1-element tensors of ``dtype`` (float32 by
    default; an integer dtype truncates them), ``num`` an int32 one, as PaddlePaddle's."""
    dtype = default_data_type() if dtype is None else to_dtype(dtype, "logspace", "dtype")
    if not isinstance(num, (Tensor, Value)) and (not isinstance(num, int) or isinstance(num, bool)):
        raise TypeError(
            f"The type of 'num' in logspace must be <class 'int'>, but received {type(num)}."
        )

    def one(value: Any, value_dtype: DataType) -> Any:
        if isinstance(value, (Tensor, Value)):
            return value
        return to_tensor(np.array([value]).astype(value_dtype.numpy_dtype))

    return _C_ops.logspace(
        one(start, dtype), one(stop, dtype), one(num, DataType.INT32), one(base, dtype), dtype
    )


__all__ += ["logspace"]

# -- linalg2: paddle.linalg's functions (phiops/linalg.py) and their top-level names ---------------
#
# Each follows the dynamic-mode branch of its namesake in PaddlePaddle 3.3.1's
# python/paddle/tensor/linalg.py (renorm: math.py), composed of ops as PaddlePaddle composes them.


def _swap_last_two(x: Tensor) -> Tensor:
    rank = len(x.shape)
    return _C_ops.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def solve(
    x: Tensor, y: Tensor, left: bool = True, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Solves x @ out = y (``left``) or out @ x = y for each square matrix of ``x``; a 1-D ``y``
    is one right-hand side per matrix (``left`` only); the batch dims broadcast."""
    if not left:
        if len(x.shape) < 2 or len(y.shape) < 2:
            raise InvalidArgumentError(
                "solve(): with left=False, arguments 'x' and 'y' must have at least 2 "
                f"dimensions, got dims {list(x.shape)} and {list(y.shape)}"
            )
        return write_out(
            "solve", out, _swap_last_two(_C_ops.solve(_swap_last_two(x), _swap_last_two(y)))
        )
    return write_out("solve", out, _C_ops.solve(x, y))


def dist(x: Tensor, y: Tensor, p: float = 2, name: str | None = None) -> Tensor:
    """The p-norm of x - y over all elements (``x`` and ``y`` broadcast together), 0-D."""
    return _C_ops.dist(x, y, float(p))


def renorm(x: Tensor, p: float, axis: int, max_norm: float) -> Tensor:
    """Scales each slice of ``x`` along ``axis`` whose p-norm exceeds ``max_norm`` down to it;
    ``axis`` in [-rank, rank)."""
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"renorm(): argument 'axis' must be in [{-rank}, {rank}) for x dims "
            f"{list(x.shape)}, got {axis}"
        )
    return _C_ops.renorm(x, float(p), axis % rank, float(max_norm))


def renorm_(x: Tensor, p: float, axis: int, max_norm: float) -> Tensor:
    """In-place ``renorm``: writes the result into ``x`` and returns it."""
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"renorm_(): argument 'axis' must be in [{-rank}, {rank}) for x dims "
            f"{list(x.shape)}, got {axis}"
        )
    return _inplace.renorm_(x, float(p), axis % rank, float(max_norm))


def qr(x: Tensor, mode: str = "reduced", name: str | None = None) -> Any:
    """The QR decomposition of each matrix: (q, r) for mode "reduced" or "complete", r alone
    for mode "r"."""
    q, r = _C_ops.qr(x, mode)
    return r if mode == "r" else (q, r)


def svd(
    x: Tensor,
    full_matrices: bool = False,
    name: str | None = None,
    *,
    out: tuple[Tensor, Tensor, Tensor] | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """(u, s, vh) with x = u diag(s) vh for each matrix; ``out``, three tensors, receives them."""
    result = _C_ops.svd(x, full_matrices)
    if out is None:
        return result
    if not isinstance(out, (tuple, list)) or len(out) != 3:
        raise TypeError("paddle.linalg.svd: 'out' must be a tuple of three Tensors")
    return tuple(write_out("linalg.svd", o, r) for o, r in zip(out, result))


def eigvalsh(x: Tensor, UPLO: str = "L", name: str | None = None) -> Tensor:
    """The eigenvalues of each Hermitian matrix of ``x``, ascending, read from the triangle
    ``UPLO`` names."""
    values, _ = _C_ops.eigvalsh(x, UPLO, x.stop_gradient)
    return values


def _real_dtype(dtype: DataType) -> DataType:
    return {DataType.COMPLEX64: DataType.FLOAT32, DataType.COMPLEX128: DataType.FLOAT64}.get(
        dtype, dtype
    )


def matrix_rank(
    x: Tensor,
    tol: Any = None,
    hermitian: bool = False,
    atol: Any = None,
    rtol: Any = None,
    name: str | None = None,
) -> Tensor:
    """The rank of each matrix: its singular values (|eigenvalues| when ``hermitian``) above
    ``tol`` (a number or a tensor broadcasting with the batch dims), or above
    eps * max(M, N) * the largest one when ``tol`` is None; with ``atol``/``rtol`` (numbers or
    tensors) above max(atol, rtol * the largest one), atol None being 0 and rtol None
    eps * max(M, N)."""
    if atol is not None or rtol is not None:
        if tol is not None:
            raise ValueError("Only support to use tol alone or use atol and rtol without tol.")
        target = _real_dtype(x.dtype)

        def tolerance(value: Any) -> Tensor:
            if isinstance(value, (Tensor, Value)):
                return value if value.dtype == target else _C_ops.cast(value, target)
            return _C_ops.full([], float(value), target, None)

        atol = tolerance(0.0 if atol is None else atol)
        rtol = None if rtol is None else tolerance(rtol)
        return _C_ops.matrix_rank_atol_rtol(x, atol, rtol, hermitian)
    if isinstance(tol, (Tensor, Value)):
        target = _real_dtype(x.dtype)
        tol_tensor = tol if tol.dtype == target else _C_ops.cast(tol, target)
        return _C_ops.matrix_rank_tol(x, tol_tensor, False, hermitian)
    if tol is None:
        return _C_ops.matrix_rank(x, 0.0, True, hermitian)
    return _C_ops.matrix_rank(x, float(tol), False, hermitian)


def _vector_norm_axes(x: Tensor, p: float, axis: list[int], keepdim: bool) -> Tensor:
    if p in (np.inf, -np.inf):
        reduce = _C_ops.max if p == np.inf else _C_ops.min
        return reduce(_C_ops.abs(x), axis, keepdim)
    if p == 0:
        nonzero = _C_ops.not_equal(x, _C_ops.full([], 0, x.dtype))
        return _C_ops.cast(_C_ops.sum(_C_ops.cast(nonzero, "int64"), axis, None, keepdim), x.dtype)
    powered = _C_ops.pow(_C_ops.abs(x), p)
    return _C_ops.pow(_C_ops.sum(powered, axis, None, keepdim), float(1.0 / p))


def vector_norm(
    x: Tensor,
    p: float = 2.0,
    axis: Any = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """The p-norm of ``x`` taken as vectors along ``axis`` (an int, a list of axes, or None for
    all elements): p = inf (-inf) the largest (smallest) |x|, p = 0 the count of non-zeros."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise ValueError(f"only valid p type is int and float, found {type(p)}")
    if dtype is not None:
        x = _C_ops.cast(x, to_dtype(dtype, "linalg.vector_norm"))
    asvector = False
    if axis is None:
        axis, asvector = -1, True
    if isinstance(axis, tuple):
        axis = list(axis)
    if isinstance(axis, list) and len(axis) == 1:
        axis = axis[0]
    abs_x = _C_ops.abs(x) if x.dtype.is_complex else x
    if isinstance(axis, int):
        result = _C_ops.p_norm(abs_x, float(p), axis, 1e-12, keepdim, asvector)
    else:
        result = _vector_norm_axes(abs_x, p, list(axis), keepdim)
    return write_out("linalg.vector_norm", out, result)


def _backshift(axis: Sequence[int], rank: int) -> tuple[list[int], list[int]]:
    first, second = axis[0] % rank, axis[1] % rank
    perm = [i for i in range(rank) if i not in (first, second)] + [first, second]
    inverse = [i for i, _ in sorted(enumerate(perm), key=lambda pair: pair[1])]
    return perm, inverse


def _singular_value_norm(x: Tensor, axis: Sequence[int], keepdim: bool, reduce: Any) -> Tensor:
    perm, inverse = _backshift(axis, len(x.shape))
    _, s, _ = _C_ops.svd(_C_ops.transpose(x, perm), False)
    result = reduce(s, [-1], keepdim)
    if keepdim:
        result = _C_ops.transpose(_C_ops.unsqueeze(result, [-1]), inverse)
    return result


def matrix_norm(
    x: Tensor,
    p: Any = "fro",
    axis: Any = [-2, -1],
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The matrix norm of the matrices ``x`` holds in the two ``axis``: "fro", "nuc" (the sum
    of singular values), 1/-1 (largest/smallest column sum of |x|), inf/-inf (row sums), 2/-2
    (largest/smallest singular value)."""
    if isinstance(axis, tuple):
        axis = list(axis)
    if not (isinstance(axis, list) and len(axis) == 2):
        raise ValueError(
            f"except axis type int or list (length of list == 2), found {len(axis) if isinstance(axis, list) else axis}"
        )
    if p == "fro":
        return _C_ops.frobenius_norm(x, axis, keepdim, False)
    if p == "nuc":
        return _singular_value_norm(x, axis, keepdim, lambda s, a, k: _C_ops.sum(s, a, None, k))
    if isinstance(p, str) or p not in (np.inf, -np.inf, 1, -1, 2, -2):
        raise ValueError(
            f"just support p value 'fro','nuc',1,-1,inf,-inf,2,-2 if axis is 2D, found {p}"
        )
    reduce = _C_ops.max if p > 0 else _C_ops.min
    if abs(p) == 2:
        return _singular_value_norm(x, axis, keepdim, reduce)
    rank = len(x.shape)
    first, second = (a % rank for a in axis)
    if abs(p) == np.inf:
        first, second = second, first
    if not keepdim and first < second:
        second -= 1
    return reduce(vector_norm(x, 1.0, axis=first, keepdim=keepdim), [second], keepdim)


def norm(
    x: Tensor,
    p: Any = None,
    axis: Any = None,
    keepdim: bool = False,
    out: Tensor | None = None,
    dtype: Any = None,
    name: str | None = None,
) -> Tensor:
    """A vector norm (``axis`` None, an int or one axis) or a matrix norm (two axes, or a
    string ``p`` other than "fro" with one): p None is 2 (vectors) and "fro" (matrices)."""
    if isinstance(axis, tuple):
        axis = list(axis)
    elif isinstance(axis, list) and len(axis) == 1:
        axis = axis[0]
    if dtype is not None:
        x = _C_ops.cast(x, to_dtype(dtype, "norm"))
    if isinstance(p, str):
        if p == "fro" and (axis is None or isinstance(axis, int)):
            result = vector_norm(x, p=2, axis=axis, keepdim=keepdim)
        else:
            if axis is None:
                axis = list(range(len(x.shape)))
            result = matrix_norm(x, p=p, axis=axis, keepdim=keepdim)
    else:
        p = 2.0 if p is None else p
        if isinstance(axis, list) and len(axis) == 2:
            result = matrix_norm(x, p=p, axis=axis, keepdim=keepdim)
        else:
            result = vector_norm(x, p=p, axis=axis, keepdim=keepdim)
    return write_out("norm", out, result)


def cond(x: Tensor, p: Any = None, name: str | None = None) -> Tensor:
    """The condition number of each square (for p other than None, 2, -2) matrix: the ratio of
    its largest to smallest singular value (p None or 2; -2 the inverse), else
    norm(x, p) * norm(x^-1, p) for p "fro", "nuc", 1, -1, inf, -inf."""
    if len(x.shape) < 2:
        raise InvalidArgumentError(
            f"cond(): argument 'x' must have at least 2 dimensions, got dims {list(x.shape)}"
        )
    if p in (None, 2, -2):
        _, s, _ = _C_ops.svd(x, False)
        largest, smallest = _C_ops.max(s, [-1], False), _C_ops.min(s, [-1], False)
        return largest / smallest if p in (None, 2) else smallest / largest
    if p not in ("fro", "nuc", 1, -1, np.inf, -np.inf):
        raise ValueError(f"only support p is {p} when input is a ")
    inverse = _C_ops.inverse(x)
    return matrix_norm(x, p, [-2, -1]) * matrix_norm(inverse, p, [-2, -1])


def pinv(x: Tensor, rcond: Any = 1e-15, hermitian: bool = False, name: str | None = None) -> Tensor:
    """The Moore-Penrose pseudo-inverse of each matrix, from its SVD (the eigendecomposition
    when ``hermitian``): singular values at most rcond times the largest count as zero."""
    if not hermitian:
        u, s, vh = _C_ops.svd(x, False)
        largest = s if s.shape[-1] == 0 else _C_ops.max(s, [-1], True)
        cutoff = to_tensor(rcond, dtype=s.dtype) * largest
        inverse = _C_ops.where(_C_ops.greater_than(s, cutoff), 1 / s, _C_ops.full([], 0.0, s.dtype))
        v = _swap_last_two(vh)
        scaled = v * _C_ops.cast(_C_ops.unsqueeze(inverse, [-2]), v.dtype)
        return _C_ops.matmul(scaled, _C_ops.conj(u) if u.dtype.is_complex else u, False, True)
    if x.size == 0:
        return _swap_last_two(x)
    s, u = _C_ops.eigh(x, "L")
    magnitude = _C_ops.abs(s)
    cutoff = to_tensor(rcond, dtype=s.dtype) * _C_ops.max(magnitude, [-1], True)
    inverse = _C_ops.where(
        _C_ops.greater_than(magnitude, cutoff), 1 / s, _C_ops.full([], 0.0, s.dtype)
    )
    scaled = u * _C_ops.cast(_C_ops.unsqueeze(inverse, [-2]), u.dtype)
    return _C_ops.matmul(scaled, _C_ops.conj(u) if u.dtype.is_complex else u, False, True)


# paddle.* names; the paddle.linalg-only functions (solve, qr, svd, matrix_rank, vector_norm,
# matrix_norm, cond, pinv) are exported by phiops/linalg.py, and the Tensor methods below
__all__ += ["dist", "renorm", "renorm_", "eigvalsh", "norm"]
TENSOR_METHODS += ("solve", "dist", "renorm", "renorm_", "qr", "eigvalsh", "norm", "cond", "pinv")


def logcumsumexp(
    x: Tensor,
    axis: int | None = None,
    dtype: Any = None,
    name: str | None = None,
) -> Tensor:
    """The running log(sum(exp(x))) along ``axis``; over the flattened ``x`` when it is None.
    ``dtype`` casts ``x`` first. A running result of -inf alone is the dtype's lowest finite
    value, as PaddlePaddle gives it."""
    if dtype is not None:
        x = _cast_to(x, dtype, "logcumsumexp")
    flatten = axis is None
    return _C_ops.logcumsumexp(x, -1 if flatten else axis, flatten, False, False)


def _cum_extreme(op: Any, function: str, x: Tensor, axis: Any, dtype: Any) -> tuple:
    if axis is None:
        axis = -1
        x = _C_ops.flatten(x, 0, len(x.shape) - 1)
    return op(x, axis, _dtype(dtype, function))


def cummax(
    x: Tensor,
    axis: int | None = None,
    dtype: Any = "int64",
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The running maximum along ``axis`` (of the flattened ``x`` when it is None) and the
    indices (int32 or int64, ``dtype``) where each was found; a tie takes the later index."""
    return _cum_extreme(_C_ops.cummax, "cummax", x, axis, dtype)


def cummin(
    x: Tensor,
    axis: int | None = None,
    dtype: Any = "int64",
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The running minimum along ``axis`` (of the flattened ``x`` when it is None) and the
    indices (int32 or int64, ``dtype``) where each was found; a tie takes the later index."""
    return _cum_extreme(_C_ops.cummin, "cummin", x, axis, dtype)


__all__ += ["logcumsumexp", "cummax", "cummin"]
TENSOR_METHODS += ("logcumsumexp", "cummax", "cummin")


def lu(
    x: Tensor, pivot: bool = True, get_infos: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor] | tuple[Tensor, Tensor, Tensor]:
    """The LU factorization with partial pivoting of each matrix, x = P L U: the packed factors
    (L below the diagonal, U on and above it) and the int32 1-based pivots, with the int32
    infos (0, or the first zero pivot's 1-based index) when ``get_infos``."""
    factors, pivots, infos = _C_ops.lu(x, pivot)
    return (factors, pivots, infos) if get_infos else (factors, pivots)


def lstsq(
    x: Tensor,
    y: Tensor,
    rcond: float | None = None,
    driver: str | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The minimum-norm least-squares solution of x solution = y for each matrix, with the
    squared residuals (M > N, a driver other than gelsy), the ranks (not for gels) and the
    singular values (gelsd and gelss only), what is not computed an empty tensor; ``rcond``
    None is max(M, N) times float32's 1e-7 or float64's 1e-15, ``driver`` None gelsy."""
    if driver is None:
        driver = "gelsy"
    elif driver not in ("gels", "gelss", "gelsd", "gelsy"):
        raise ValueError(
            f"Only support valid driver is 'gels', 'gelss', 'gelsd', 'gelsy' or None for CPU "
            f"inputs. But got {driver}"
        )
    if len(x.shape) < 2:
        raise ValueError(
            f"The shape of x should be (*, M, N), but received ndim is [{len(x.shape)} < 2]"
        )
    if len(y.shape) < 2:
        raise ValueError(
            f"The shape of y should be (*, M, K), but received ndim is [{len(y.shape)} < 2]"
        )
    if x.shape[-2] != y.shape[-2]:
        raise ValueError(
            f"x with shape (*, M = {x.shape[-2]}, N) and y with shape (*, M = {y.shape[-2]}, K) "
            "should have same M."
        )
    if rcond is None:
        eps = {DataType.FLOAT32: 1e-7, DataType.FLOAT64: 1e-15}.get(x.dtype)
        rcond = 0.0 if eps is None else eps * max(x.shape[-2], x.shape[-1])
    solution, residuals, rank, singular_values = _C_ops.lstsq(x, y, rcond, driver)
    if driver == "gels":
        rank = _C_ops.full([0], 0, DataType.INT64, None)
        singular_values = _C_ops.full([0], 0, x.dtype, None)
    elif driver == "gelsy":
        singular_values = _C_ops.full([0], 0, x.dtype, None)
    return solution, residuals, rank, singular_values


# paddle.linalg names (phiops/linalg.py exports them) and Tensor methods
TENSOR_METHODS += ("lu", "lstsq")


def _observation_weights(
    weights: Tensor, dtype: DataType, observations: int, what: str, integer: bool
) -> Tensor:
    """cov's fweights/aweights checked as PaddlePaddle checks them, cast to ``dtype``."""
    if len(weights.shape) > 1:
        raise ValueError(
            f"Input({what}) only support N-D (N<=1) tensor in cov, but received "
            f"shape of Input(input) is {len(weights.shape)}."
        )
    if weights.shape[0] != observations:
        raise ValueError(
            f"The number of Input({what}) should equal to x's dim[1]: {observations}, but "
            f"received size of Input({what}) is {weights.shape[0]}."
        )
    values = weights.numpy()
    if values.size and values.min() < 0:
        raise ValueError(
            f"The value of Input({what}) cannot be negative, but received min of "
            f"Input({what}) is {values.min()}."
        )
    if integer and not np.array_equal(values, np.round(values.astype(np.float64))):
        raise ValueError(f"Input({what}) must be integer ")
    return _C_ops.cast(weights, dtype)


def cov(
    x: Tensor,
    rowvar: bool = True,
    ddof: bool = True,
    fweights: Tensor | None = None,
    aweights: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The covariance matrix of the variables ``x`` holds (rows, or columns when ``rowvar`` is
    False; a 1-D ``x`` is one variable), with integer frequency weights ``fweights`` and
    observation weights ``aweights`` per observation; ``ddof`` True divides by the weights'
    sum less one (less sum(w * aweights) / sum(w) with aweights), False by their sum. One
    variable gives a 0-D result, as PaddlePaddle's composite does."""
    if len(x.shape) > 2 or len(x.shape) < 1:
        raise ValueError(
            "Input(x) only support N-D (1<=N<=2) tensor in cov, but received "
            f"length of Input(input) is {len(x.shape)}."
        )
    nx = _C_ops.reshape(x, [1, -1]) if len(x.shape) == 1 else x
    if not rowvar and nx.shape[0] != 1:
        nx = _C_ops.transpose(nx, [1, 0])
    observations = nx.shape[1]
    weights = None
    if fweights is not None:
        weights = _observation_weights(fweights, nx.dtype, observations, "fweights", True)
    if aweights is not None:
        observation = _observation_weights(aweights, nx.dtype, observations, "aweights", False)
        weights = observation if weights is None else weights * observation
    total = _C_ops.full([], observations, nx.dtype, None)
    if weights is not None:
        total = _C_ops.sum(weights, [], None, False)
        if total.item() == 0:
            raise ValueError("The sum of weights is zero, can't be normalized.")
        weighted = nx * weights
    else:
        weighted = nx
    mean = _C_ops.sum(weighted, [1], None, False) / total
    if weights is not None and aweights is not None and ddof:
        aw = _C_ops.cast(aweights, weights.dtype)
        norm_factor = total - _C_ops.sum(weights * aw, [], None, False) / total
    else:
        norm_factor = total - _C_ops.full([], int(ddof), nx.dtype, None)
    norm_factor = _C_ops.maximum(norm_factor, _C_ops.full([], 0, nx.dtype, None))
    centred = nx - _C_ops.unsqueeze(mean, [1])
    other = _C_ops.conj(weighted) if weighted.dtype.is_complex else weighted
    product = _C_ops.matmul(centred, other, False, True)
    return _C_ops.squeeze(_C_ops.divide(product, norm_factor), [])


def corrcoef(x: Tensor, rowvar: bool = True, name: str | None = None) -> Tensor:
    """The Pearson correlation coefficients of the variables ``x`` holds: cov(x, rowvar)
    divided by the outer product of its diagonal's square roots, clipped to [-1, 1]; one
    variable gives c / c (1, or nan for a zero variance)."""
    if len(x.shape) > 2 or len(x.shape) < 1:
        raise ValueError(
            "Input(x) only support N-D (1<=N<=2) tensor in corrcoef, but received "
            f"length of Input(input) is {len(x.shape)}."
        )
    c = cov(x, rowvar)
    if len(c.shape) == 0:
        return c / c
    stddev = _C_ops.sqrt(_C_ops.diag(c, 0, 0.0))
    c = c / _C_ops.unsqueeze(stddev, [1])
    c = c / _C_ops.unsqueeze(stddev, [0])
    return _C_ops.clip(c, -1.0, 1.0)


TENSOR_METHODS += ("cov", "corrcoef")


_CDIST_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


def cdist(
    x: Tensor,
    y: Tensor,
    p: float = 2.0,
    compute_mode: str = "use_mm_for_euclid_dist_if_necessary",
    name: str | None = None,
) -> Tensor:
    """The p-norm distance between each row of ``x`` [..., R1, C] and each row of ``y``
    [..., R2, C] (batch dims broadcast): [..., R1, R2]. For p = 2 with "use_mm_for_euclid_dist"
    (or the default mode when R1 or R2 exceeds 25) it is sqrt(max(|x|^2 + |y|^2 - 2 x y^T, 0)),
    as PaddlePaddle's composite computes it; an empty R1 or R2 gives [R1, R2], as there."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(
            "The compute_mode should be 'use_mm_for_euclid_dist_if_necessary', "
            "'use_mm_for_euclid_dist' or 'donot_use_mm_for_euclid_dist', "
            f"but received compute_mode is {compute_mode}."
        )
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"cdist: argument 'p' must be an int or a float, got {type(p).__name__}")
    for label, tensor in (("x", x), ("y", y)):
        if len(tensor.shape) < 2:
            raise InvalidArgumentError(
                f"cdist: argument '{label}' must be at least 2-dimensional, got dims "
                f"{list(tensor.shape)}"
            )
    if x.shape[-1] != y.shape[-1]:
        raise InvalidArgumentError(
            f"cdist: arguments 'x' and 'y' must have the same last dimension, got "
            f"{x.shape[-1]} and {y.shape[-1]}"
        )
    if p < 0:
        raise InvalidArgumentError(f"cdist: argument 'p' must be >= 0, got {p}")
    rows_x, rows_y, columns = x.shape[-2], y.shape[-2], x.shape[-1]
    p = float(p)
    if rows_x == 0 or rows_y == 0:
        return _C_ops.full([rows_x, rows_y], 0, x.dtype, None)
    if columns == 0:
        return _C_ops.full([rows_x, rows_y], 0, x.dtype, None)
    mode = _CDIST_MODES.index(compute_mode)
    if p == 2.0 and (mode == 1 or (mode == 0 and (rows_x > 25 or rows_y > 25))):
        x_norm = _C_ops.sum(_C_ops.pow(x, 2.0), [-1], None, True)
        y_norm = _C_ops.sum(_C_ops.pow(y, 2.0), [-1], None, True)
        result = (
            _C_ops.scale(_C_ops.matmul(x, y, False, True), -2.0, 0.0, True)
            + _swap_last_two(y_norm)
            + x_norm
        )
        return _C_ops.sqrt(_C_ops.maximum(result, _C_ops.full([], 0.0, result.dtype, None)))
    difference = _C_ops.unsqueeze(x, [-2]) - _C_ops.unsqueeze(y, [-3])
    return norm(difference, p=p, axis=-1)


def pdist(x: Tensor, p: float = 2.0, name: str | None = None) -> Tensor:
    """The p-norm distance between every pair of rows of ``x`` [N, M], the pairs (i, j) with
    i < j in row-major order: [N (N - 1) / 2]."""
    if len(x.shape) != 2:
        raise InvalidArgumentError(
            f"pdist: argument 'x' must be 2-dimensional, got dims {list(x.shape)}"
        )
    difference = _C_ops.unsqueeze(x, [-2]) - _C_ops.unsqueeze(x, [-3])
    distances = norm(difference, p=p, axis=-1)
    rows = x.shape[0]
    upper = to_tensor(np.triu(np.ones((rows, rows), dtype=bool), 1))
    return _C_ops.masked_select(distances, upper)


def vander(
    x: Tensor, n: int | None = None, increasing: bool = False, name: str | None = None
) -> Tensor:
    """The Vandermonde matrix of the 1-D ``x``: [len(x), n] (n None: len(x)), column j holding
    x^(n - 1 - j), or x^j when ``increasing``; x^0 is 1."""
    if len(x.shape) != 1:
        raise ValueError(
            "The input of x is expected to be a 1-D Tensor."
            f"But now the dims of Input(X) is {len(x.shape)}."
        )
    if n is None:
        n = x.shape[0]
    if n < 0:
        raise ValueError("N must be non-negative.")
    rows = x.shape[0]
    columns = [_C_ops.full([rows, min(n, 1)], 1, x.dtype, None)]
    if n > 1:
        repeated = _C_ops.tile(_C_ops.unsqueeze(x, [1]), [1, n - 1])
        columns.append(_C_ops.cumprod(repeated, -1, False, False))
    result = _C_ops.concat(columns, 1) if len(columns) > 1 else columns[0]
    return result if increasing else _C_ops.flip(result, [1])


__all__ += ["cdist", "pdist", "vander"]
TENSOR_METHODS += ("cdist", "vander")


def householder_product(x: Tensor, tau: Tensor, name: str | None = None) -> Tensor:
    """The first N columns of the product H_1 H_2 ... H_k of Householder reflections
    H_i = I - tau_i w_i w_i^H, w_i being column i of ``x`` [..., M, N] (M >= N) below the
    diagonal with a 1 on it and zeros above (LAPACK's orgqr on geqrf's output); ``tau``
    [..., K], K <= N, of x's dtype and batch dims."""
    float_like = (
        DataType.FLOAT16,
        DataType.FLOAT32,
        DataType.FLOAT64,
        DataType.COMPLEX64,
        DataType.COMPLEX128,
    )
    for label, tensor in (("x", x), ("tau", tau)):
        if tensor.dtype not in float_like:
            raise TypeError(
                f"householder_product: argument '{label}' must be float16, float32, float64, "
                f"complex64 or complex128, got {tensor.dtype.name.lower()}"
            )
    if x.dtype != tau.dtype:
        raise InvalidArgumentError(
            "householder_product: argument 'tau' must have the dtype of argument 'x' "
            f"({x.dtype.name.lower()}), got {tau.dtype.name.lower()}"
        )
    if not (len(x.shape) >= 2 and len(tau.shape) >= 1 and len(x.shape) == len(tau.shape) + 1):
        raise InvalidArgumentError(
            "householder_product: argument 'x' must have at least 2 dimensions and one more "
            f"than argument 'tau', got dims {list(x.shape)} and {list(tau.shape)}"
        )
    m, n = x.shape[-2:]
    k = tau.shape[-1]
    if m < n:
        raise InvalidArgumentError(
            f"householder_product: argument 'x' must have at least as many rows as columns, "
            f"got dims {list(x.shape)}"
        )
    if n < k:
        raise InvalidArgumentError(
            f"householder_product: argument 'tau' must have at most x's {n} columns in its last "
            f"dim, got dims {list(tau.shape)}"
        )
    if list(x.shape[:-2]) != list(tau.shape[:-1]):
        raise InvalidArgumentError(
            "householder_product: arguments 'x' and 'tau' must have the same batch dims, got "
            f"dims {list(x.shape)} and {list(tau.shape)}"
        )
    q = _C_ops.cast(_C_ops.eye(m, m, DataType.FLOAT32, None), x.dtype)
    rows = np.arange(m)
    for i in range(min(k, n)):
        column = _C_ops.index_select(x, to_tensor(np.array([i], np.int64)), -1)
        below = to_tensor((rows > i).astype(np.float32)[:, None])
        unit = to_tensor((rows == i).astype(np.float32)[:, None])
        w = column * _C_ops.cast(below, x.dtype) + _C_ops.cast(unit, x.dtype)
        w_h = _swap_last_two(_C_ops.conj(w) if x.dtype.is_complex else w)
        scale = _C_ops.unsqueeze(
            _C_ops.index_select(tau, to_tensor(np.array([i], np.int64)), -1), [-1]
        )
        q = q - _C_ops.matmul(_C_ops.matmul(q, w), w_h) * scale
    return _C_ops.slice(q, [len(q.shape) - 1], [0], [n], [1], [])


TENSOR_METHODS += ("householder_product",)


# matrix_exp's Pade coefficients b_0 .. b_(d-1) of degree d (b_d = 1) and, per dtype, the
# degrees tried and the 1-norm bounds below which each is accurate, and the norm that scaling
# brings the matrix under for the last degree: Eigen's MatrixExponential, as PaddlePaddle 3.3.1
# takes them (Higham, "The scaling and squaring method for the matrix exponential revisited",
# 2005).
_PADE_COEFFICIENTS = {
    3: (120.0, 60.0, 12.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0),
    9: (
        17643225600.0,
        8821612800.0,
        2075673600.0,
        302702400.0,
        30270240.0,
        2162160.0,
        110880.0,
        3960.0,
        90.0,
    ),
    13: (
        64764752532480000.0,
        32382376266240000.0,
        7771770303897600.0,
        1187353796428800.0,
        129060195264000.0,
        10559470521600.0,
        670442572800.0,
        33522128640.0,
        1323241920.0,
        40840800.0,
        960960.0,
        16380.0,
        182.0,
    ),
}
_PADE_PLAN = {
    DataType.FLOAT32: (
        (3, 5, 7),
        (4.258730016922831e-001, 1.880152677804762e000),
        3.925724783138660,
    ),
    DataType.FLOAT64: (
        (3, 5, 7, 9, 13),
        (
            1.495585217958292e-002,
            2.539398330063230e-001,
            9.504178996162932e-001,
            2.097847961257068e000,
        ),
        5.371920351148152,
    ),
}


def _pade_uv(a: Tensor, identity: Tensor, degree: int) -> tuple[Tensor, Tensor]:
    """The odd (u) and even (v) parts of the degree-``degree`` Pade approximant's numerator:
    exp(a) ~ (v - u)^-1 (v + u)."""
    b = _PADE_COEFFICIENTS[degree]
    powers = {0: identity, 2: _C_ops.matmul(a, a, False, False)}
    for power in range(4, min(degree, 9), 2):
        powers[power] = _C_ops.matmul(powers[power - 2], powers[2], False, False)

    def combination(terms: list[tuple[float, int]]) -> Tensor:
        total = None
        for coefficient, power in terms:
            term = _C_ops.scale(powers[power], coefficient, 0.0, True)
            total = term if total is None else total + term
        return total

    if degree == 13:
        a6 = powers[6]
        odd = _C_ops.matmul(a6, combination([(1.0, 6), (b[11], 4), (b[9], 2)]), False, False)
        odd = odd + combination([(b[7], 6), (b[5], 4), (b[3], 2), (b[1], 0)])
        even = _C_ops.matmul(a6, combination([(b[12], 6), (b[10], 4), (b[8], 2)]), False, False)
        even = even + combination([(b[6], 6), (b[4], 4), (b[2], 2), (b[0], 0)])
        return _C_ops.matmul(a, odd, False, False), even
    odd = combination([(1.0, degree - 1)] + [(b[j], j - 1) for j in range(degree - 2, 0, -2)])
    even = combination([(b[j], j) for j in range(degree - 1, -1, -2)])
    return _C_ops.matmul(a, odd, False, False), even


def matrix_exp(x: Tensor, name: str | None = None) -> Tensor:
    """exp of each square matrix of ``x`` (float32 or float64; a 0-D or [..., 1, 1] ``x``
    elementwise) by scaling and squaring with the Pade approximant its 1-norm calls for, as
    PaddlePaddle 3.3.1 (after Eigen) computes it; a non-finite norm gives NaN."""
    if not isinstance(x, (Tensor, Value)):
        x = to_tensor(x)
    if x.dtype not in _PADE_PLAN:
        raise ValueError(
            "The input tensor's dtype must be float32 or float64, but got "
            f"{x.dtype.name.lower()}"
        )
    if len(x.shape) == 0:
        return _C_ops.exp(x)
    if len(x.shape) < 2:
        raise ValueError("The input tensor must be at least two-dimensional")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError("Last 2 dimensions of the tensor must be square")
    if list(x.shape[-2:]) == [1, 1]:
        return _C_ops.exp(x)
    dtype = x.dtype
    degrees, bounds, max_norm = _PADE_PLAN[dtype]
    l1_norm = _C_ops.unsqueeze(
        _C_ops.max(_C_ops.sum(_C_ops.abs(x), [len(x.shape) - 2], None, False), [-1], False),
        [-1, -2],
    )
    two = _C_ops.full([], 2.0, dtype, None)
    squarings = _C_ops.floor(
        _C_ops.log(l1_norm / _C_ops.full([], max_norm, dtype, None)) / _C_ops.log(two)
    )
    squarings = _C_ops.maximum(squarings, _C_ops.full([], 0.0, dtype, None))
    identity = _C_ops.eye(x.shape[-1], x.shape[-1], dtype, None)
    scaled = x / _C_ops.elementwise_pow(two, squarings)
    pairs = [_pade_uv(x, identity, degree) for degree in degrees[:-1]]
    pairs.append(_pade_uv(scaled, identity, degrees[-1]))
    u, v = pairs[-1]
    for bound, (u_small, v_small) in reversed(list(zip(bounds, pairs[:-1]))):
        below = _C_ops.less_than(l1_norm, _C_ops.full([], bound, dtype, None))
        u, v = _C_ops.where(below, u_small, u), _C_ops.where(below, v_small, v)
    if not bool(_C_ops.isfinite(_C_ops.max(l1_norm, [], False)).numpy()):
        return _C_ops.full(list(x.shape), float("nan"), dtype, None)
    result = _C_ops.solve(v - u, u + v)
    steps = int(_C_ops.max(squarings, [], False).numpy())
    for step in range(steps):
        again = _C_ops.less_than(_C_ops.full([], float(step), dtype, None), squarings)
        result = _C_ops.where(again, _C_ops.matmul(result, result, False, False), result)
    return result

# -- the search24 ops of issue 24 ------------------------------------------------------------


def nanmedian(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """The median of ``x`` over ``axis`` (every axis when None) leaving out NaN: the mean of the
    two middle numbers for an even count with mode 'avg', the lower one with 'min'. With mode
    'min' and an int ``axis`` also the int64 indices along ``axis`` of the medians."""
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("Axis list should not be empty.")
    if mode not in ("avg", "min"):
        raise ValueError(f"Mode {mode} is not supported. Must be avg or min.")
    need_index = axis is not None and not isinstance(axis, (list, tuple))
    axes = [] if axis is None else [axis] if isinstance(axis, int) else list(axis)
    out, indices = _C_ops.nanmedian(x, axes, keepdim, mode)
    indices.stop_gradient = True
    if mode == "min" and need_index:
        return out, indices
    return out


def searchsorted(
    sorted_sequence: Tensor,
    values: Tensor,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
    *,
    side: str | None = None,
    out: Tensor | None = None,
    sorter: Tensor | None = None,
) -> Tensor:
    """Where each of ``values`` would go in the sorted last axis of ``sorted_sequence``:
    before equal elements, or after them with ``right`` (or ``side='right'``). ``sorter``
    (indices that sort each row) is applied to ``sorted_sequence`` first."""
    if side is not None and side == "right":
        right = True
    if sorter is not None:
        sorted_sequence = _C_ops.take_along_axis(sorted_sequence, sorter, -1)
    result = _C_ops.searchsorted(sorted_sequence, values, out_int32, right)
    return write_out("searchsorted", out, result)


__all__ += ["nanmedian", "searchsorted"]
TENSOR_METHODS += ("nanmedian",)


def repeat_interleave(
    x: Tensor,
    repeats: int | Tensor,
    axis: int | None = None,
    name: str | None = None,
    *,
    output_size: int | None = None,
) -> Tensor:
    """Each slice of ``x`` along ``axis`` (of the flattened ``x`` when None) repeated
    ``repeats`` times (an int, or one count per slice in a 1-D int tensor; a 0-D one is one
    count for every slice); ``output_size`` is the result's extent along axis."""
    if isinstance(repeats, Tensor) and not repeats.shape:
        repeats = _C_ops.reshape(repeats, [1])
    if axis is None:
        if len(x.shape) != 1:
            x = _C_ops.flatten(x, 0, max(len(x.shape) - 1, 0))
        axis = 0
    size = -1 if output_size is None else output_size
    if isinstance(repeats, Tensor):
        return _C_ops.repeat_interleave_with_tensor_index(x, repeats, axis, size)
    return _C_ops.repeat_interleave(x, repeats, axis, size)


def unstack(x: Tensor, axis: int = 0, num: int | None = None) -> list[Tensor]:
    """The slices of ``x`` along ``axis``, that axis removed; ``num`` (when given) must be
    their count."""
    if not -len(x.shape) <= axis < len(x.shape):
        raise ValueError(f"`axis` must be in the range [-{len(x.shape)}, {len(x.shape)})")
    if num is not None and (num < 0 or num > x.shape[axis]):
        raise ValueError(f"`num` must be in the range [0, {x.shape[axis]})")
    if num is None:
        num = x.shape[axis]
    if num == 0:
        return []
    return _C_ops.unstack(x, axis, num)


__all__ += ["repeat_interleave", "unstack"]
TENSOR_METHODS += ("repeat_interleave", "unstack")


def _extreme(op: Any, x: Tensor, axis: Any, keepdim: bool, out: Tensor | None, name: str) -> Tensor:
    axes = [] if axis is None else [axis] if isinstance(axis, int) else list(axis)
    return write_out(name, out, op(x, axes, keepdim))


def amax(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The maximum of ``x`` over ``axis`` (every axis when None); its gradient is shared evenly
    among the elements equal to it."""
    return _extreme(_C_ops.amax, x, axis, keepdim, out, "amax")


def amin(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The minimum of ``x`` over ``axis`` (every axis when None); its gradient is shared evenly
    among the elements equal to it."""
    return _extreme(_C_ops.amin, x, axis, keepdim, out, "amin")


__all__ += ["amax", "amin"]
TENSOR_METHODS += ("amax", "amin")


# ---- the random24 ops of issue 24


def exponential_(x: Tensor, lam: float = 1.0, name: str | None = None) -> Tensor:
    """Fill ``x`` in place with draws from the exponential distribution of rate ``lam``
    (op ``exponential_``, whose ``lam`` has no default). A Tensor method only, as in 3.3.1."""
    _checked("exponential_", x)
    return _C_ops.exponential_(x, float(lam))


TENSOR_METHODS += ("exponential_",)

# ---- the manip24 ops of issue 24 whose PaddlePaddle signature is not the op's


def unique_consecutive(
    x: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: Any = "int64",
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Each run of consecutive equal elements of ``x`` (flattened, or of equal slices along
    ``axis``) collapsed into one, followed by the inverse and counts tensors that were asked
    for (a tuple then)."""
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise InvalidArgumentError(
            f"unique_consecutive: 'axis' must be an int or None, got {axis!r}"
        )
    outs = _C_ops.unique_consecutive(
        x,
        return_inverse,
        return_counts,
        [] if axis is None else [int(axis)],
        _dtype(dtype, "unique_consecutive"),
    )
    kept = [outs[0]] + [
        out for out, wanted in zip(outs[1:], (return_inverse, return_counts)) if wanted
    ]
    return kept[0] if len(kept) == 1 else tuple(kept)


def _scaled(value: Tensor, alpha: Any) -> Tensor:
    return value * alpha if alpha != 1 else value


def index_add(
    x: Tensor,
    index: Tensor,
    axis: int,
    value: Tensor,
    alpha: Any = 1,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``x`` with ``alpha * value``'s slices along ``axis`` added at the positions ``index``
    names."""
    return write_out("index_add", out, _C_ops.index_add(x, index, _scaled(value, alpha), axis))


def index_add_(
    x: Tensor, index: Tensor, axis: int, value: Tensor, alpha: Any = 1, name: str | None = None
) -> Tensor:
    """``index_add`` written into ``x``."""
    return _inplace.index_add_(x, index, _scaled(value, alpha), axis)


__all__ += ["unique_consecutive", "index_add", "index_add_"]
TENSOR_METHODS += ("unique_consecutive", "index_add", "index_add_")


def _matrix_size(value: Any, name: str, function: str) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
        raise InvalidArgumentError(f"{function}: '{name}' must be a non-negative int, got {value!r}")
    return int(value)


def tril_indices(row: int, col: int, offset: int = 0, dtype: Any = "int64") -> Tensor:
    """The [2, count] row and column indices of the elements of a ``row`` x ``col`` matrix on
    or below diagonal ``offset``, row by row."""
    return _C_ops.tril_indices(
        _matrix_size(row, "row", "tril_indices"),
        _matrix_size(col, "col", "tril_indices"),
        offset,
        _dtype(dtype, "tril_indices"),
    )


def triu_indices(row: int, col: int | None = None, offset: int = 0, dtype: Any = "int64") -> Tensor:
    """The [2, count] row and column indices of the elements of a ``row`` x ``col`` matrix
    (square when ``col`` is None) on or above diagonal ``offset``, row by row."""
    row = _matrix_size(row, "row", "triu_indices")
    col = row if col is None else _matrix_size(col, "col", "triu_indices")
    return _C_ops.triu_indices(row, col, offset, _dtype(dtype, "triu_indices"))


def fill_diagonal_(
    x: Tensor, value: float, offset: int = 0, wrap: bool = False, name: str | None = None
) -> Tensor:
    """Writes ``value`` on diagonal ``offset`` of ``x`` in place (``wrap``: for a tall 2-D
    ``x``, again after each square block; a tensor of more dimensions always wraps, as in
    PaddlePaddle 3.3.1)."""
    return _inplace.fill_diagonal_(x, value, offset, wrap if x.ndim == 2 else True)


__all__ += ["tril_indices", "triu_indices"]
TENSOR_METHODS += ("fill_diagonal_",)


from phiops.runtime.common.default_dtype import get_default_dtype, set_default_dtype  # noqa: E402

__all__ += ["get_default_dtype", "set_default_dtype"]


def einsum(equation: str, *operands: Tensor) -> Tensor:
    """Einstein summation over ``operands`` (op einsum): ``equation`` lists each operand's
    labels, comma-separated, then optionally ``->`` and the output's; a label left out of the
    output is summed, one repeated in a term takes the diagonal, ``...`` stands for broadcast
    leading dims. As in PaddlePaddle 3.3.1 the labels are case-insensitive (the equation is
    lowercased) and spaces are ignored; phiops contracts more than two operands in one op
    (PaddlePaddle pairwise, in opt_einsum's order), so rounding may differ there."""
    if not isinstance(equation, str):
        raise InvalidArgumentError(f"einsum: argument 'equation' must be a str, got {equation!r}")
    if not operands:
        raise InvalidArgumentError("einsum: at least one operand is required, got none")
    for i, operand in enumerate(operands):
        if not isinstance(operand, (Tensor, Value)):
            raise InvalidArgumentError(
                f"einsum: operand {i} must be a Tensor, got {type(operand).__name__}"
            )
    return _C_ops.einsum(list(operands), equation.lower().replace(" ", ""))[0]


__all__ += ["einsum"]

def crop(
    x: Tensor,
    shape: Any = None,
    offsets: Any = None,
    name: str | None = None,
) -> Tensor:
    """The box of ``shape`` (x's shape when None; -1 takes the rest of a dimension) cut out of
    ``x`` at ``offsets`` (zeros when None), op ``crop``."""
    if shape is None:
        shape = x.shape
    if offsets is None:
        offsets = [0] * len(x.shape)
    return _C_ops.crop(x, shape, offsets)


__all__ += ["crop"]
