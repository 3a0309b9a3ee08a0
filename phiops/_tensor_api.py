"""PaddlePaddle 3.3.1's ``paddle.*`` tensor functions that are compositions of other functions in
PaddlePaddle itself (python/paddle/tensor/*.py: ``std``, ``var``, ``chunk``, ``hstack``,
``moveaxis``, ``outer``, ``nansum``, ...): each follows the dynamic-mode branch of its namesake,
built from phiops's ``paddle.*`` functions, so it differentiates and builds static programs as
they do. None of them is an op of PaddlePaddle's ops.yaml (those come from the specs).

``TENSOR_METHODS`` names the ones PaddlePaddle also installs as Tensor methods.
"""

from __future__ import annotations

import builtins
import math
import sys
from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Value

__all__ = [
    "rank",
    "is_tensor",
    "is_complex",
    "is_floating_point",
    "is_integer",
    "clone",
    "positive",
    "t",
    "diagflat",
    "rot90",
    "broadcast_to",
    "broadcast_shape",
    "broadcast_shapes",
    "moveaxis",
    "unflatten",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "hstack",
    "vstack",
    "dstack",
    "column_stack",
    "row_stack",
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "chunk",
    "masked_fill",
    "logaddexp",
    "nan_to_num",
    "nansum",
    "nanmean",
    "count_nonzero",
    "inner",
    "outer",
    "rad2deg",
    "deg2rad",
    "diff",
    "var",
    "std",
    "frac",
    "sgn",
    "hypot",
    "ldexp",
    "gcd",
    "lcm",
    "signbit",
    "isposinf",
    "isneginf",
    "isreal",
    "sinc",
    "polar",
    "vecdot",
    "matrix_transpose",
    "tensordot",
    "take",
    "block_diag",
    "cartesian_prod",
    "isin",
    "scatter_nd",
    "msort",
    "rand_like",
    "randn_like",
    "randint_like",
    "range",
    "swapaxes",
    "swapdims",
    "take_along_dim",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "greater",
    "less",
    "mul",
    "sub",
    "div",
    "mod",
    "floor_mod",
    "less_",
    "sub_",
    "div_",
    "mod_",
    "floor_mod_",
    "e",
    "pi",
    "inf",
    "nan",
    "newaxis",
    "finfo",
    "iinfo",
    "manual_seed",
    "get_rng_state",
    "set_rng_state",
    "get_cuda_rng_state",
    "set_cuda_rng_state",
    "median",
    "quantile",
    "nanquantile",
    "masked_scatter",
    "scatter_add",
    "index_fill",
    "select_scatter",
    "slice_scatter",
    "diagonal_scatter",
    "as_tensor",
    "asarray",
    "from_numpy",
    "create_parameter",
    "view_as_complex",
    "view_as_real",
    "argwhere",
    "bucketize",
    "trapezoid",
    "cumulative_trapezoid",
    "combinations",
    "frexp",
    "multigammaln",
    "log_normal",
    "histogram_bin_edges",
    "bitwise_invert",
    "bitwise_invert_",
    "narrow",
    "masked_fill_",
    "nan_to_num_",
    "index_fill_",
    "masked_scatter_",
    "scatter_add_",
]

# the functions PaddlePaddle 3.3.1 also has as Tensor methods (x.std(), x.chunk(2), ...)
TENSOR_METHODS = (
    "rank is_complex is_floating_point is_integer t diagflat rot90 broadcast_to moveaxis "
    "unflatten hsplit vsplit dsplit tensor_split chunk masked_fill logaddexp nan_to_num nansum "
    "nanmean count_nonzero inner outer rad2deg deg2rad diff var std frac sgn hypot ldexp gcd lcm "
    "signbit isposinf isneginf isreal sinc matrix_transpose tensordot take isin msort swapaxes "
    "swapdims take_along_dim median quantile nanquantile masked_scatter index_fill "
    "select_scatter slice_scatter diagonal_scatter bucketize trapezoid cumulative_trapezoid "
    "frexp multigammaln bitwise_invert bitwise_invert_ masked_fill_ nan_to_num_ index_fill_ "
    "masked_scatter_ scatter_add_ narrow less_ less greater"
).split()


def _paddle() -> Any:
    """phiops's ``paddle.*`` namespace (phiops/_api.py, loaded before any of these is called)."""
    return sys.modules["phiops._api"]


def _tensor(value: Any, function: str, argument: str = "x") -> Tensor | Value:
    if not isinstance(value, (Tensor, Value)):
        raise InvalidArgumentError(
            f"{function}: argument '{argument}' expects a Tensor, got {type(value).__name__}"
        )
    return value


def _axis(value: Any, ndim: int, function: str, argument: str = "axis") -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidArgumentError(
            f"{function}: argument '{argument}' expects an int, got {type(value).__name__}"
        )
    if not -max(ndim, 1) <= value < max(ndim, 1):
        raise InvalidArgumentError(
            f"{function}: {argument} {value} is out of range for a {ndim}-D tensor "
            f"(expected [{-max(ndim, 1)}, {max(ndim, 1)}))"
        )
    return int(value) % max(ndim, 1)


# -- attributes -------------------------------------------------------------------------------


def rank(input: Tensor) -> Tensor:
    """The number of dimensions of ``input``, as an int32 0-D tensor."""
    return _paddle().to_tensor(np.array(len(_tensor(input, "rank", "input").shape), "int32"))


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a Tensor (or a static program's Value)."""
    return isinstance(x, (Tensor, Value))


def _dtype_is(x: Any, function: str, dtypes: tuple[DataType, ...]) -> bool:
    if not isinstance(x, (Tensor, Value)):
        raise InvalidArgumentError(f"{function}: expected a Tensor, got {type(x).__name__}")
    return x.dtype in dtypes


def is_complex(x: Tensor) -> bool:
    """Whether ``x``'s dtype is complex64 or complex128."""
    return _dtype_is(x, "is_complex", (DataType.COMPLEX64, DataType.COMPLEX128))


def is_floating_point(x: Tensor) -> bool:
    """Whether ``x``'s dtype is float16, bfloat16, float32 or float64."""
    return _dtype_is(
        x,
        "is_floating_point",
        (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64),
    )


def is_integer(x: Tensor) -> bool:
    """Whether ``x``'s dtype is uint8, int8, int16, int32 or int64."""
    return _dtype_is(
        x,
        "is_integer",
        (DataType.UINT8, DataType.INT8, DataType.INT16, DataType.INT32, DataType.INT64),
    )


def clone(x: Tensor, name: str | None = None) -> Tensor:
    """A copy of ``x`` that stays in the autograd graph (``x.clone()``)."""
    return _tensor(x, "clone").clone()


def positive(x: Tensor, name: str | None = None) -> Tensor:
    """``+x``: ``x`` itself; a bool tensor is an error, as in PaddlePaddle."""
    if _tensor(x, "positive").dtype == DataType.BOOL:
        raise InvalidArgumentError("positive: the `+` operator on a bool tensor is not supported")
    return x


# -- shapes and layout ------------------------------------------------------------------------


def t(input: Tensor, name: str | None = None) -> Tensor:
    """The transpose of a matrix; a 0-D or 1-D tensor is returned as it is."""
    if len(_tensor(input, "t", "input").shape) > 2:
        raise InvalidArgumentError(
            f"t: input must have at most 2 dimensions, got {len(input.shape)}; use "
            "paddle.transpose for more"
        )
    return input if len(input.shape) <= 1 else _paddle().transpose(input, [1, 0])


def diagflat(x: Tensor, offset: int = 0, name: str | None = None) -> Tensor:
    """A matrix with ``x`` flattened on its ``offset``-th diagonal."""
    P = _paddle()
    if len(_tensor(x, "diagflat").shape) > 1:
        x = P.flatten(x, 0, -1)
    return P.diag(x, offset, 0)


def rot90(x: Tensor, k: int = 1, axes: Sequence[int] = [0, 1], name: str | None = None) -> Tensor:
    """``x`` rotated by 90 degrees ``k`` times in the plane of ``axes`` (from the first axis
    towards the second)."""
    P = _paddle()
    ndim = len(_tensor(x, "rot90").shape)
    axes = list(axes)
    if len(axes) != 2:
        raise InvalidArgumentError(f"rot90: expected 2 rotation axes, got axes = {axes}")
    if ndim < 2:
        raise InvalidArgumentError(f"rot90: expected a tensor of 2 or more dimensions, got {ndim}")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == ndim:
        raise InvalidArgumentError(f"rot90: the rotation axes must differ, got {axes}")
    for i, a in enumerate(axes):
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(f"rot90: rotation axis{i} {a} is out of range")
    k %= 4
    if k == 0:
        return x
    if k == 2:
        return P.flip(P.flip(x, axes[0]), axes[1])
    perm = list(builtins.range(ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return P.transpose(P.flip(x, axes[1]), perm)
    return P.flip(P.transpose(x, perm), axes[1])


def broadcast_to(x: Tensor, shape: Any, name: str | None = None) -> Tensor:
    """``x`` broadcast to ``shape`` (``paddle.expand``)."""
    return _paddle().expand(x, shape, name)


def broadcast_shape(x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    """The shape two tensors of these shapes broadcast to."""
    for label, shape in (("x_shape", x_shape), ("y_shape", y_shape)):
        if not isinstance(shape, (list, tuple)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in shape
        ):
            raise InvalidArgumentError(
                f"broadcast_shape: {label} expects a list or tuple of ints, got {shape!r}"
            )
    out = []
    for i in builtins.range(1, max(len(x_shape), len(y_shape)) + 1):
        a = x_shape[-i] if i <= len(x_shape) else 1
        b = y_shape[-i] if i <= len(y_shape) else 1
        if a != b and 1 not in (a, b) and -1 not in (a, b):
            raise InvalidArgumentError(
                f"broadcast_shape: shapes {list(x_shape)} and {list(y_shape)} do not broadcast "
                f"(dimension {-i}: {a} against {b})"
            )
        out.append(b if a == 1 else a if b == 1 else max(a, b))
    return [int(s) for s in reversed(out)]


def broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape tensors of all these shapes broadcast to."""
    if not shapes:
        return []
    current = list(shapes[0])
    for shape in shapes[1:]:
        current = broadcast_shape(current, shape)
    return current


def _axes_list(value: Any) -> list[int]:
    return [value] if isinstance(value, (int, np.integer)) else list(value)


def moveaxis(
    x: Tensor,
    source: int | Sequence[int],
    destination: int | Sequence[int],
    name: str | None = None,
) -> Tensor:
    """``x`` with its ``source`` axes moved to ``destination``, the others in order."""
    ndim = len(_tensor(x, "moveaxis").shape)
    src, dst = _axes_list(source), _axes_list(destination)
    if len(src) != len(dst):
        raise InvalidArgumentError(
            f"moveaxis: 'source' ({src}) and 'destination' ({dst}) must have the same length"
        )
    src = [_axis(a, ndim, "moveaxis", "source") for a in src]
    dst = [_axis(a, ndim, "moveaxis", "destination") for a in dst]
    for label, axes in (("source", src), ("destination", dst)):
        if len(axes) != len(set(axes)):
            raise InvalidArgumentError(f"moveaxis: each element of '{label}' must be unique")
    perm = [0] * ndim
    rest_src = [a for a in builtins.range(ndim) if a not in src]
    rest_dst = [a for a in builtins.range(ndim) if a not in dst]
    for s, d in zip(src, dst):
        perm[d] = s
    for s, d in zip(rest_src, rest_dst):
        perm[d] = s
    return _paddle().transpose(x, perm)


def unflatten(x: Tensor, axis: int, shape: Any, name: str | None = None) -> Tensor:
    """``x`` with its ``axis`` split into ``shape`` (one entry may be -1)."""
    ndim = len(_tensor(x, "unflatten").shape)
    axis = _axis(axis, ndim, "unflatten")
    if isinstance(shape, (Tensor, Value)):
        shape = [int(s) for s in shape.numpy().reshape(-1)]
    if not isinstance(shape, (list, tuple)):
        raise InvalidArgumentError(
            f"unflatten: shape expects a list, tuple or Tensor, got {type(shape).__name__}"
        )
    new_shape = list(x.shape[:axis]) + list(shape) + list(x.shape[axis + 1 :])
    return _paddle().reshape(x, new_shape)


def _atleast(inputs: tuple, function: str, shapes: dict[int, Any]) -> Any:
    P = _paddle()
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        if any(isinstance(item, (Tensor, Value)) for item in inputs[0]):
            inputs = tuple(inputs[0])
    out = []
    for item in inputs:
        tensor = item if isinstance(item, (Tensor, Value)) else P.to_tensor(item)
        reshape = shapes.get(len(tensor.shape))
        out.append(tensor if reshape is None else reshape(P, tensor))
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs: Any, name: str | None = None) -> Any:
    """Each input as a tensor of at least 1 dimension (a list for several inputs)."""
    return _atleast(inputs, "atleast_1d", {0: lambda P, v: P.reshape(v, [1])})


def atleast_2d(*inputs: Any, name: str | None = None) -> Any:
    """Each input as a tensor of at least 2 dimensions (a 1-D one becomes a row)."""
    return _atleast(
        inputs,
        "atleast_2d",
        {0: lambda P, v: P.reshape(v, [1, 1]), 1: lambda P, v: P.unsqueeze(v, 0)},
    )


def atleast_3d(*inputs: Any, name: str | None = None) -> Any:
    """Each input as a tensor of at least 3 dimensions ([n] -> [1, n, 1], [m, n] -> [m, n, 1])."""
    return _atleast(
        inputs,
        "atleast_3d",
        {
            0: lambda P, v: P.reshape(v, [1, 1, 1]),
            1: lambda P, v: P.unsqueeze(v, [0, 2]),
            2: lambda P, v: P.unsqueeze(v, 2),
        },
    )


def _tensors(x: Any, function: str) -> list:
    if not isinstance(x, (list, tuple)) or not x:
        raise InvalidArgumentError(
            f"{function}: x expects a non-empty list or tuple of Tensors, got {type(x).__name__}"
        )
    return [_tensor(item, function, "x") for item in x]


def hstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors concatenated column-wise (along axis 1; along axis 0 for 1-D tensors)."""
    arrays = atleast_1d(_tensors(x, "hstack"))
    arrays = arrays if isinstance(arrays, list) else [arrays]
    return _paddle().concat(arrays, axis=0 if len(arrays[0].shape) == 1 else 1)


def vstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors, made at least 2-D, concatenated row-wise (along axis 0)."""
    arrays = atleast_2d(_tensors(x, "vstack"))
    return _paddle().concat(arrays if isinstance(arrays, list) else [arrays], axis=0)


def dstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors, made at least 3-D, concatenated depth-wise (along axis 2)."""
    arrays = atleast_3d(_tensors(x, "dstack"))
    return _paddle().concat(arrays if isinstance(arrays, list) else [arrays], axis=2)


def column_stack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The tensors as columns: 0-D and 1-D ones become [n, 1], then concatenated along axis 1."""
    P = _paddle()
    arrays = [
        P.reshape(v, [math.prod(v.shape), 1]) if len(v.shape) < 2 else v
        for v in _tensors(x, "column_stack")
    ]
    return P.concat(arrays, axis=1)


def row_stack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """``vstack``."""
    return vstack(x, name)


def tensor_split(
    x: Tensor, num_or_indices: int | Sequence[int], axis: int = 0, name: str | None = None
) -> list[Tensor]:
    """``x`` split along ``axis`` into ``num_or_indices`` parts (the first ``n % parts`` one
    larger) or at the given indices."""
    P = _paddle()
    ndim = len(_tensor(x, "tensor_split").shape)
    if ndim == 0:
        raise InvalidArgumentError("tensor_split: x must have at least 1 dimension, got 0")
    axis = _axis(axis, ndim, "tensor_split")
    total = x.shape[axis]
    if isinstance(num_or_indices, (int, np.integer)) and not isinstance(num_or_indices, bool):
        if num_or_indices <= 0:
            raise InvalidArgumentError(
                f"tensor_split: num_or_indices must be positive, got {num_or_indices}"
            )
        base, extra = divmod(total, int(num_or_indices))
        sections = [base + 1] * extra + [base] * (int(num_or_indices) - extra)
        return P.split(x, sections, axis)
    if not isinstance(num_or_indices, (list, tuple)):
        raise InvalidArgumentError(
            "tensor_split: num_or_indices expects an int, or a list or tuple of ints, got "
            f"{type(num_or_indices).__name__}"
        )
    parts, start = [], 0
    for end in [*num_or_indices, total]:
        begin = start if start >= 0 else total + start
        stop = max(begin, end if end >= 0 else total + end)
        parts.append(P.slice(x, [axis], [begin], [stop]))
        start = end
    return parts


def _split_along(x: Tensor, num_or_indices: Any, function: str, least: int, axis: int) -> list:
    ndim = len(_tensor(x, function).shape)
    if ndim < least:
        raise InvalidArgumentError(
            f"{function}: x must have at least {least} dimensions, got {ndim}"
        )
    return tensor_split(x, num_or_indices, axis=axis)


def hsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """``tensor_split`` along axis 1 (axis 0 for a 1-D tensor)."""
    axis = 1 if len(_tensor(x, "hsplit").shape) > 1 else 0
    return _split_along(x, num_or_indices, "hsplit", 1, axis)


def vsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """``tensor_split`` along axis 0 of a tensor of 2 or more dimensions."""
    return _split_along(x, num_or_indices, "vsplit", 2, 0)


def dsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """``tensor_split`` along axis 2 of a tensor of 3 or more dimensions."""
    return _split_along(x, num_or_indices, "dsplit", 3, 2)


def chunk(x: Tensor, chunks: int, axis: int = 0, name: str | None = None) -> list[Tensor]:
    """``x`` split into ``chunks`` equal parts along ``axis`` (``paddle.split``)."""
    ndim = len(_tensor(x, "chunk").shape)
    if isinstance(chunks, bool) or not isinstance(chunks, (int, np.integer)):
        raise InvalidArgumentError(f"chunk: chunks expects an int, got {type(chunks).__name__}")
    if isinstance(axis, (int, np.integer)):
        extent = x.shape[_axis(axis, ndim, "chunk")]
        if chunks <= 0 or (extent > 0 and chunks > extent):
            raise InvalidArgumentError(
                f"chunk: chunks must be in [1, {extent}] (the size of axis {axis}), got {chunks}"
            )
    return _paddle().split(x, int(chunks), axis)


# -- elementwise and reductions ----------------------------------------------------------------


def masked_fill(x: Tensor, mask: Tensor, value: Any, name: str | None = None) -> Tensor:
    """``x`` with ``value`` where ``mask`` is true (mask and value broadcast against x)."""
    P = _paddle()
    _tensor(x, "masked_fill")
    _tensor(mask, "masked_fill", "mask")
    if not isinstance(value, (Tensor, Value)):
        if isinstance(value, (str, bytes)) or not np.isscalar(value):
            raise InvalidArgumentError(
                f"masked_fill: value expects a number or a Tensor, got {type(value).__name__}"
            )
        value = P.full([], value, x.dtype)
    if mask.dtype != DataType.BOOL:
        mask = P.cast(mask, "bool")
    shape = broadcast_shapes(list(x.shape), list(mask.shape), list(value.shape))
    if list(x.shape) != shape:
        raise InvalidArgumentError(
            f"masked_fill: mask {list(mask.shape)} and value {list(value.shape)} must broadcast "
            f"to x's shape {list(x.shape)}"
        )
    return P.where(mask, P.cast(value, x.dtype) if value.dtype != x.dtype else value, x)


def logaddexp(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """log(exp(x) + exp(y)), computed as max(x, y) + log1p(exp(-|x - y|))."""
    P = _paddle()
    log_1p = P.log1p(P.exp(-P.abs(_tensor(x, "logaddexp") - _tensor(y, "logaddexp", "y"))))
    largest = P.maximum(x, y)
    if largest.dtype in (DataType.INT32, DataType.INT64):
        largest = P.cast(largest, log_1p.dtype)
    return log_1p + largest


def nan_to_num(
    x: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    name: str | None = None,
) -> Tensor:
    """``x`` with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf`` (by default
    the dtype's largest and smallest finite values); float32 and float64."""
    P = _paddle()
    if _tensor(x, "nan_to_num").dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(f"nan_to_num: x must be float32 or float64, got {x.dtype}")
    info = np.finfo(np.float32 if x.dtype == DataType.FLOAT32 else np.float64)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = P.where(P.isnan(x), P.full_like(x, nan), x)
    x = P.where(P.equal(x, P.full_like(x, float("inf"))), P.full_like(x, posinf), x)
    return P.where(P.equal(x, P.full_like(x, float("-inf"))), P.full_like(x, neginf), x)


def nansum(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    dtype: Any = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The sum over ``axis`` with NaNs counted as zero."""
    P = _paddle()
    zeros = P.zeros_like(_tensor(x, "nansum"))
    return P.sum(P.where(P.isnan(x), zeros, x), axis, dtype, keepdim)


def nanmean(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The mean over ``axis`` of the values that are not NaN (NaN where all are)."""
    P = _paddle()
    axis = [axis] if isinstance(axis, int) else axis
    count = P.sum(P.logical_not(P.isnan(_tensor(x, "nanmean"))), axis=axis, keepdim=keepdim)
    return P.divide(nansum(x, axis=axis, keepdim=keepdim), P.cast(count, x.dtype))


def count_nonzero(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The number of nonzero elements over ``axis`` (int64)."""
    P = _paddle()
    axis = [axis] if isinstance(axis, int) else axis
    nonzero = P.cast(P.cast(_tensor(x, "count_nonzero"), "bool"), "int64")
    return P.sum(nonzero, axis=axis, keepdim=keepdim)


def inner(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The inner product over the last axes: shape x.shape[:-1] + y.shape[:-1] (a product with a
    one-element tensor is elementwise)."""
    P = _paddle()
    xs, ys = list(_tensor(x, "inner").shape), list(_tensor(y, "inner", "y").shape)
    if math.prod(xs) == 1 or math.prod(ys) == 1:
        return P.multiply(x, y)
    if xs[-1] != ys[-1]:
        raise InvalidArgumentError(f"inner: the last dimensions of x {xs} and y {ys} must be equal")
    out_shape = xs[:-1] + ys[:-1]
    nx = P.reshape(x, [math.prod(xs[:-1]), xs[-1]])
    ny = P.reshape(y, [math.prod(ys[:-1]), ys[-1]])
    return P.reshape(P.matmul(nx, ny, False, True), out_shape)


def outer(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """The outer product of ``x`` and ``y`` flattened: [x.numel(), y.numel()]."""
    P = _paddle()
    nx = P.reshape(_tensor(x, "outer"), [math.prod(x.shape), 1])
    ny = P.reshape(_tensor(y, "outer", "y"), [1, math.prod(y.shape)])
    return P.multiply(nx, ny, out=out)


def _scaled_angle(x: Tensor, factor: float, function: str) -> Tensor:
    P = _paddle()
    if _tensor(x, function).dtype in (DataType.INT32, DataType.INT64):
        x = P.cast(x, "float32")
    return P.scale(x, factor, 0.0, True)


def rad2deg(x: Tensor, name: str | None = None) -> Tensor:
    """Radians to degrees (int32/int64 input gives float32)."""
    return _scaled_angle(x, 180 / np.pi, "rad2deg")


def deg2rad(x: Tensor, name: str | None = None) -> Tensor:
    """Degrees to radians (int32/int64 input gives float32)."""
    return _scaled_angle(x, np.pi / 180.0, "deg2rad")


def diff(
    x: Tensor,
    n: int = 1,
    axis: int = -1,
    prepend: Tensor | None = None,
    append: Tensor | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The ``n``-th forward difference along ``axis`` (of ``prepend``, ``x`` and ``append``
    concatenated); for bool tensors, ``!=`` of neighbours."""
    P = _paddle()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidArgumentError(f"diff: n must be a positive int, got {n!r}")
    ndim = len(_tensor(x, "diff").shape)
    axis = _axis(axis, ndim, "diff")
    parts = [v for v in (prepend, x, append) if v is not None]
    value = P.concat(parts, axis) if len(parts) > 1 else x
    for _ in builtins.range(int(n)):
        length = value.shape[axis]
        after = P.slice(value, [axis], [1], [max(length, 1)])
        before = P.slice(value, [axis], [0], [max(length - 1, 0)])
        if value.dtype == DataType.BOOL:
            value = P.logical_xor(after, before)
        else:
            value = P.subtract(after, before)
    if out is not None:
        out.set_value(value)
        return out
    return value


def var(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    correction: float = 1,
    out: Tensor | None = None,
) -> Tensor:
    """The variance over ``axis``: the mean squared deviation times N / (N - correction)
    (``unbiased`` True or False sets the correction to 1 or 0; degrees of freedom below zero
    count as zero)."""
    P = _paddle()
    if unbiased is not None and correction != 1:
        raise InvalidArgumentError("var: only one of unbiased and correction may be given")
    actual = (1.0 if unbiased else 0.0) if unbiased is not None else float(correction)
    if _tensor(x, "var").dtype not in (
        DataType.FLOAT16,
        DataType.BFLOAT16,
        DataType.FLOAT32,
        DataType.FLOAT64,
    ):
        raise InvalidArgumentError(f"var: x must be a floating-point tensor, got {x.dtype}")
    dtype = DataType.FLOAT32 if x.dtype == DataType.FLOAT16 else x.dtype
    mean = P.mean(x, axis, True)
    total = P.sum(P.pow(x - mean, 2), axis, dtype, keepdim)
    count = P.cast(P.divide(P.cast(P.numel(x), "int64"), P.cast(P.numel(total), "int64")), dtype)
    if actual != 0:
        count = P.maximum(count - actual, P.zeros_like(count))
    result = P.divide(total, count)
    if result.dtype != x.dtype:
        result = P.cast(result, x.dtype)
    if out is not None:
        out.set_value(result)
        return out
    return result


def std(
    x: Tensor,
    axis: int | Sequence[int] | None = None,
    unbiased: bool = True,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The standard deviation over ``axis`` (the square root of ``var``)."""
    return _paddle().sqrt(var(x, axis, unbiased, keepdim))


# -- more elementwise functions ----------------------------------------------------------------


def frac(x: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """The fractional part, ``x - trunc(x)``."""
    P = _paddle()
    if _tensor(x, "frac").dtype not in (
        DataType.INT32,
        DataType.INT64,
        DataType.FLOAT16,
        DataType.FLOAT32,
        DataType.FLOAT64,
    ):
        raise InvalidArgumentError(
            f"frac: x must be int32, int64, float16, float32 or float64, got {x.dtype}"
        )
    return P.subtract(x, P.trunc(x), out=out)


def sgn(x: Tensor, name: str | None = None) -> Tensor:
    """The sign of a real tensor; x / |x| of a complex one (0 where x is 0)."""
    P = _paddle()
    if _tensor(x, "sgn").dtype not in (
        DataType.FLOAT16,
        DataType.FLOAT32,
        DataType.FLOAT64,
        DataType.COMPLEX64,
        DataType.COMPLEX128,
    ):
        raise InvalidArgumentError(
            f"sgn: x must be float16, float32, float64, complex64 or complex128, got {x.dtype}"
        )
    if x.dtype not in (DataType.COMPLEX64, DataType.COMPLEX128):
        return P.sign(x)
    parts = P.as_real(x) / P.unsqueeze(P.abs(x), -1)
    return P.as_complex(P.where(P.isnan(parts), P.zeros_like(parts), parts))


def hypot(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """sqrt(x**2 + y**2), elementwise with broadcasting."""
    P = _paddle()
    _tensor(x, "hypot")
    _tensor(y, "hypot", "y")
    return P.sqrt(P.pow(x, 2) + P.pow(y, 2))


def ldexp(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """x * 2**y, in float64 when either is float64, else in the default dtype."""
    P = _paddle()
    _tensor(x, "ldexp")
    _tensor(y, "ldexp", "y")
    if DataType.FLOAT64 in (x.dtype, y.dtype):
        dtype = DataType.FLOAT64
    else:
        dtype = P.get_default_dtype()
    x, y = P.cast(x, dtype), P.cast(y, dtype)
    return P.multiply(x, P.pow(P.to_tensor(2, dtype=dtype), y))


def gcd(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The greatest common divisor of |x| and |y| (integer tensors, broadcast)."""
    P = _paddle()
    shape = broadcast_shape(list(_tensor(x, "gcd").shape), list(_tensor(y, "gcd", "y").shape))
    x, y = P.abs(P.expand(x, shape)), P.abs(P.expand(y, shape))
    while bool(P.any(y != 0)):
        nonzero = y != 0
        safe = P.where(nonzero, y, P.ones(y.shape, y.dtype))
        x, y = P.where(nonzero, y, x), P.where(
            nonzero, P.remainder(x, safe), P.zeros(y.shape, y.dtype)
        )
        x, y = P.where(x < y, y, x), P.where(x < y, x, y)
    return x


def lcm(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The least common multiple of |x| and |y| (0 where either is 0)."""
    P = _paddle()
    d = gcd(x, y)
    zero = P.equal(d, P.zeros([], d.dtype))
    safe = P.where(zero, P.ones(d.shape, d.dtype), d)
    return P.where(zero, P.zeros(d.shape, d.dtype), P.floor_divide(P.abs(x * y), safe))


def signbit(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element's sign bit is set (true for -0.0)."""
    P = _paddle()
    _tensor(x, "signbit")
    ones = P.ones(x.shape, x.dtype)
    return P.less_than(P.sign(P.copysign(ones, x)), P.zeros([], x.dtype))


def isposinf(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element is +inf."""
    P = _paddle()
    return P.logical_and(P.isinf(_tensor(x, "isposinf")), P.logical_not(signbit(x)))


def isneginf(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element is -inf."""
    P = _paddle()
    return P.logical_and(P.isinf(_tensor(x, "isneginf")), signbit(x))


def isreal(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element is real (all true for a real dtype; imaginary part 0 for complex)."""
    P = _paddle()
    if _tensor(x, "isreal").dtype not in (DataType.COMPLEX64, DataType.COMPLEX128):
        return P.ones_like(x, dtype="bool")
    return P.equal(P.imag(x), P.zeros([], P.imag(x).dtype))


def sinc(x: Tensor, name: str | None = None) -> Tensor:
    """sin(pi x) / (pi x), 1 at 0."""
    P = _paddle()
    _tensor(x, "sinc")
    tmp = P.where(x != 0, x, P.full_like(x, 1.0e-20))
    tmp = P.multiply(tmp, P.to_tensor(math.pi, dtype=x.dtype))
    tmp = P.divide(P.sin(tmp), tmp)
    return P.where(P.logical_not(P.isnan(tmp)), tmp, P.full_like(x, 1.0))


def polar(
    abs: Tensor, angle: Tensor, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """The complex tensor abs * (cos(angle) + i sin(angle))."""
    P = _paddle()
    _tensor(abs, "polar", "abs")
    if _tensor(angle, "polar", "angle").dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(f"polar: angle must be float32 or float64, got {angle.dtype}")
    return P.complex(abs * P.cos(angle), abs * P.sin(angle), out=out)


# -- products, gathers and shapes ----------------------------------------------------------------


def vecdot(x: Tensor, y: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """The dot product over ``axis`` (x conjugated): ``(x.conj() * y).sum(axis)``."""
    P = _paddle()
    return P.sum(P.conj(_tensor(x, "vecdot")) * _tensor(y, "vecdot", "y"), axis=axis)


def matrix_transpose(x: Tensor, name: str | None = None) -> Tensor:
    """The transpose of the last two axes (``x.mT``)."""
    return _tensor(x, "matrix_transpose").mT


def tensordot(x: Tensor, y: Tensor, axes: Any = 2, name: str | None = None) -> Tensor:
    """The sum of products over ``axes`` of x and y: an int n (x's last n with y's first n), one
    list (the same axes of both) or two lists (x's, then y's)."""
    P = _paddle()
    _tensor(x, "tensordot")
    _tensor(y, "tensordot", "y")
    if isinstance(axes, (Tensor, Value)):
        axes = axes.tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        if axes < 0:
            raise InvalidArgumentError(f"tensordot: axes must not be negative, got {axes}")
        axes_x, axes_y = list(builtins.range(len(x.shape) - axes, len(x.shape))), list(
            builtins.range(axes)
        )
    elif isinstance(axes, (list, tuple)):
        if not axes or isinstance(axes[0], (int, np.integer)):
            axes_x, axes_y = list(axes), []
        else:
            axes_x = list(axes[0])
            axes_y = list(axes[1]) if len(axes) > 1 else []
    else:
        raise InvalidArgumentError(
            f"tensordot: axes expects an int, a list or a Tensor, got {type(axes).__name__}"
        )
    if len(axes_x) < len(axes_y):
        axes_x.extend(axes_y[len(axes_x) :])
    elif len(axes_y) < len(axes_x):
        axes_y.extend(axes_x[len(axes_y) :])
    shape_x, shape_y = list(x.shape), list(y.shape)
    contracted_x, contracted_y = [False] * len(shape_x), [False] * len(shape_y)
    size = 1
    for dim_x, dim_y in zip(axes_x, axes_y):
        sx, sy = shape_x[dim_x], shape_y[dim_y]
        if sx == 1:
            shape_y[dim_y] = 1
            y = P.reshape(P.sum(y, dim_y, y.dtype), shape_y)
        elif sy == 1:
            shape_x[dim_x] = 1
            x = P.reshape(P.sum(x, dim_x, x.dtype), shape_x)
        elif sx != sy:
            raise InvalidArgumentError(
                f"tensordot: x has size {sx} in dim {dim_x} while y has size {sy} in dim {dim_y}"
            )
        contracted_x[dim_x] = contracted_y[dim_y] = True
        size *= shape_x[dim_x]
    keep_x = [i for i in builtins.range(len(shape_x)) if not contracted_x[i]]
    keep_y = [i for i in builtins.range(len(shape_y)) if not contracted_y[i]]
    out_shape = [shape_x[i] for i in keep_x] + [shape_y[i] for i in keep_y]
    nx = P.reshape(P.transpose(x, keep_x + axes_x), [math.prod(shape_x[i] for i in keep_x), size])
    ny = P.reshape(P.transpose(y, axes_y + keep_y), [size, math.prod(shape_y[i] for i in keep_y)])
    return P.reshape(P.matmul(nx, ny), out_shape)


def take(x: Tensor, index: Tensor, mode: str = "raise", name: str | None = None) -> Tensor:
    """The elements of flattened ``x`` at ``index`` (shaped as index). ``mode``: 'raise'
    (negative indices count from the end), 'wrap' (modulo the size) or 'clip'."""
    P = _paddle()
    if mode not in ("raise", "wrap", "clip"):
        raise InvalidArgumentError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    _tensor(x, "take")
    if _tensor(index, "take", "index").dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(f"take: index must be int32 or int64, got {index.dtype}")
    flat, positions = P.flatten(x), P.flatten(index)
    size = flat.shape[-1]
    if mode == "raise":
        positions = P.where(positions < 0, positions + size, positions)
    elif mode == "wrap":
        positions = P.where(
            positions < 0, P.remainder(positions, P.full([], size, positions.dtype)), positions
        )
        positions = P.where(
            positions >= size, P.remainder(positions, P.full([], size, positions.dtype)), positions
        )
    elif size > 0:
        positions = P.clip(positions, 0, size - 1)
    return P.reshape(P.index_select(flat, positions), index.shape)


def block_diag(inputs: Sequence[Tensor], name: str | None = None) -> Tensor:
    """A block-diagonal matrix of the inputs (0-D, 1-D as a row, or 2-D)."""
    P = _paddle()
    blocks = []
    for item in _tensors(inputs, "block_diag"):
        if len(item.shape) > 2:
            raise InvalidArgumentError(
                f"block_diag: each input must have 0, 1 or 2 dimensions, got {len(item.shape)}"
            )
        blocks.append(P.reshape(item, [1, -1]) if len(item.shape) < 2 else item)
    columns = [
        P.concat(
            [
                block if i == j else P.zeros([other.shape[0], block.shape[1]], block.dtype)
                for j, other in enumerate(blocks)
            ],
            axis=0,
        )
        for i, block in enumerate(blocks)
    ]
    return P.concat(columns, axis=1)


def cartesian_prod(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The cartesian product of 1-D tensors: one row per combination."""
    P = _paddle()
    for item in _tensors(x, "cartesian_prod"):
        if len(item.shape) != 1:
            raise InvalidArgumentError(
                f"cartesian_prod: expected 1-D tensors, got shape {list(item.shape)}"
            )
    if len(x) == 1:
        return x[0]
    return P.reshape(P.stack(P.meshgrid(list(x)), axis=-1), [-1, len(x)])


def isin(
    x: Tensor,
    test_x: Tensor,
    assume_unique: bool = False,
    invert: bool = False,
    name: str | None = None,
) -> Tensor:
    """Whether each element of ``x`` is in ``test_x`` (negated with ``invert``)."""
    P = _paddle()
    _tensor(x, "isin")
    _tensor(test_x, "isin", "test_x")
    shape = list(x.shape)
    cmp = P.any(P.equal(P.reshape(x, [-1, 1]), P.reshape(test_x, [1, -1])), axis=1)
    if invert:
        cmp = P.logical_not(cmp)
    return P.reshape(cmp, shape)


def scatter_nd(index: Tensor, updates: Tensor, shape: Any, name: str | None = None) -> Tensor:
    """A zero tensor of ``shape`` with ``updates`` added at ``index`` (``scatter_nd_add``)."""
    P = _paddle()
    return P.scatter_nd_add(
        P.zeros(shape, _tensor(updates, "scatter_nd", "updates").dtype), index, updates
    )


def msort(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``input`` sorted along axis 0."""
    result = _paddle().sort(_tensor(input, "msort", "input"), axis=0)
    if out is not None:
        out.set_value(result)
        return out
    return result


def rand_like(
    input: Tensor,
    name: str | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Uniform [0, 1) draws of ``input``'s shape (and dtype, unless given)."""
    P = _paddle()
    out = P.rand(list(_tensor(input, "rand_like", "input").shape), dtype or input.dtype)
    out.stop_gradient = not requires_grad
    return out


def randn_like(
    x: Tensor,
    dtype: Any = None,
    name: str | None = None,
    *,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Standard normal draws of ``x``'s shape (and dtype, unless given)."""
    P = _paddle()
    out = P.randn(list(_tensor(x, "randn_like").shape), dtype or x.dtype)
    out.stop_gradient = not requires_grad
    return out


def randint_like(
    x: Tensor, low: int = 0, high: int | None = None, dtype: Any = None, name: str | None = None
) -> Tensor:
    """Integers drawn uniformly from [low, high) (from [0, low) without ``high``) in ``x``'s
    shape, cast to ``dtype`` (``x``'s by default)."""
    P = _paddle()
    if high is None:
        if low <= 0:
            raise InvalidArgumentError(
                f"randint_like: without high, low must be positive, got low = {low}"
            )
        low, high = 0, low
    if low >= high:
        raise InvalidArgumentError(f"randint_like: low ({low}) must be less than high ({high})")
    out = P.randint(low, high, list(_tensor(x, "randint_like").shape), "int64")
    return P.cast(out, dtype or x.dtype)


def range(
    start: Any = 0,
    end: Any = None,
    step: Any = 1,
    dtype: Any = None,
    *,
    out: Tensor | None = None,
    device: Any = None,
    requires_grad: bool = False,
    name: str | None = None,
) -> Tensor:
    """The values start, start + step, ... up to and including ``end`` (``range(n)``:
    0 .. n), in the default dtype unless given."""
    P = _paddle()
    if end is None:
        start, end = 0, start
    dtype = dtype or P.get_default_dtype()
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if values[2] == 0:
        raise InvalidArgumentError("range: step must not be 0")
    count = math.floor((values[1] - values[0]) / values[2]) + 1
    steps = P.arange(0, max(count, 0), 1, dtype)  # start + i * step in dtype, as range_v2
    result = steps * P.full([], values[2], dtype) + P.full([], values[0], dtype)
    result.stop_gradient = not requires_grad
    if out is not None:
        out.set_value(result)
        return out
    return result


def swapaxes(x: Tensor, perm: Sequence[int], name: str | None = None) -> Tensor:
    """``paddle.transpose`` under PaddlePaddle 3.3.1's alias (``perm`` a full permutation)."""
    return _paddle().transpose(x, perm)


swapdims = swapaxes


def take_along_dim(
    arr: Tensor, indices: Tensor, axis: int, broadcast: bool = True, *, out: Tensor | None = None
) -> Tensor:
    """``paddle.take_along_axis`` under PaddlePaddle 3.3.1's alias."""
    return _paddle().take_along_axis(arr, indices, axis, broadcast, out=out)


# -- aliases, constants and dtypes PaddlePaddle 3.3.1 exports --------------------------------------


def eq(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.equal``."""
    return _paddle().equal(x, y, out=out)


def ne(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.not_equal``."""
    return _paddle().not_equal(x, y, out=out)


def lt(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.less_than``."""
    return _paddle().less_than(x, y, out=out)


def le(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.less_equal``."""
    return _paddle().less_equal(x, y, out=out)


def gt(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.greater_than``."""
    return _paddle().greater_than(x, y, out=out)


def ge(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.greater_equal``."""
    return _paddle().greater_equal(x, y, out=out)


greater = gt
less = lt


def mul(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.multiply``."""
    return _paddle().multiply(x, y, out=out)


def sub(
    x: Tensor, y: Tensor, name: str | None = None, *, alpha: Any = 1, out: Tensor | None = None
) -> Tensor:
    """``paddle.subtract``."""
    return _paddle().subtract(x, y, alpha=alpha, out=out)


def div(
    x: Tensor,
    y: Tensor,
    name: str | None = None,
    *,
    rounding_mode: str | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """``paddle.divide``."""
    return _paddle().divide(x, y, rounding_mode=rounding_mode, out=out)


def mod(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.remainder``."""
    return _paddle().remainder(x, y, out=out)


floor_mod = mod


def less_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``paddle.less_than_``."""
    return _paddle().less_than_(x, y)


def sub_(x: Tensor, y: Tensor, name: str | None = None, *, alpha: Any = 1) -> Tensor:
    """``paddle.subtract_``."""
    return _paddle().subtract_(x, y, alpha=alpha)


def div_(
    x: Tensor, y: Tensor, name: str | None = None, *, rounding_mode: str | None = None
) -> Tensor:
    """``paddle.divide_``."""
    return _paddle().divide_(x, y, rounding_mode=rounding_mode)


def mod_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """``paddle.remainder_``."""
    return _paddle().remainder_(x, y)


floor_mod_ = mod_

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
newaxis = None


class _Info:
    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


def finfo(dtype: Any) -> Any:
    """The limits of a floating-point dtype: bits, eps, min, max, tiny, smallest_normal,
    resolution and dtype (its name), as ``paddle.finfo``."""
    from phiops.runtime.common.data_type import to_data_type

    data_type = to_data_type(dtype, "finfo(dtype)")
    if not (data_type.is_floating_point or data_type in (DataType.COMPLEX64, DataType.COMPLEX128)):
        raise InvalidArgumentError(f"finfo: expected a floating-point dtype, got {data_type}")
    import ml_dtypes

    info = ml_dtypes.finfo(data_type.numpy_dtype)
    out = _Info()
    out.dtype = {DataType.COMPLEX64: "float32", DataType.COMPLEX128: "float64"}.get(
        data_type, np.dtype(data_type.numpy_dtype).name
    )
    out.bits = int(info.bits)
    out.eps = float(info.eps)
    out.min = float(info.min)
    out.max = float(info.max)
    out.tiny = out.smallest_normal = float(info.tiny)
    out.resolution = float(10.0 ** -int(info.precision))
    return out


def iinfo(dtype: Any) -> Any:
    """The limits of an integer dtype: bits, min, max and dtype (its name), as ``paddle.iinfo``."""
    from phiops.runtime.common.data_type import to_data_type

    data_type = to_data_type(dtype, "iinfo(dtype)")
    if np.dtype(data_type.numpy_dtype).kind not in "iub":
        raise InvalidArgumentError(f"iinfo: expected an integer dtype, got {data_type}")
    info = np.iinfo(np.uint8 if data_type == DataType.BOOL else data_type.numpy_dtype)
    out = _Info()
    out.dtype = np.dtype(data_type.numpy_dtype).name
    out.bits, out.min, out.max = int(info.bits), int(info.min), int(info.max)
    return out


# -- random state -------------------------------------------------------------------------------


def manual_seed(seed: int) -> None:
    """``paddle.seed``."""
    return _paddle().seed(seed)


def get_rng_state(device: Any = None) -> list:
    """The state of the CPU generators (a list of one GeneratorState), for ``set_rng_state``."""
    from phiops.runtime.common import CPUPlace
    from phiops.runtime.random import GeneratorState

    return [GeneratorState(CPUPlace())]


def set_rng_state(state_list: list, device: Any = None) -> None:
    """Make the generators continue from states ``get_rng_state`` returned."""
    from phiops.runtime.random import GeneratorState

    if not isinstance(state_list, (list, tuple)) or not all(
        isinstance(state, GeneratorState) for state in state_list
    ):
        raise InvalidArgumentError(
            "set_rng_state: state_list expects the list get_rng_state returned, got "
            f"{type(state_list).__name__}"
        )
    for state in state_list:
        state.restore()


def get_cuda_rng_state() -> list:
    """The GPU generators' states: none without a GPU place (as PaddlePaddle's CPU build)."""
    return []


def set_cuda_rng_state(state_list: list) -> None:
    """Restore GPU generator states; an empty list (what a CPU run has) does nothing."""
    if state_list:
        set_rng_state(state_list)


# -- statistics -------------------------------------------------------------------------------------


def median(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
    *,
    out: Any = None,
) -> Any:
    """The median over ``axis`` (all elements when None): the mean of the two middle values for
    an even count with mode 'avg' (float32, float64 for float64 input), the lower one with
    'min' (with an int ``axis`` also its int64 index). NaN where the slice holds a NaN."""
    P = _paddle()
    ndim = len(_tensor(x, "median").shape)
    if isinstance(axis, (list, tuple)):
        raise InvalidArgumentError("median: axis must be None or an int")
    if axis is not None:
        axis = _axis(axis, ndim, "median")
    if mode not in ("avg", "min"):
        raise InvalidArgumentError(
            f"median: mode {mode!r} is not supported, expected 'avg' or 'min'"
        )
    if mode == "avg" and x.dtype != DataType.FLOAT64:
        x = P.cast(x, "float32")
    result = P.nanmedian(x, axis, keepdim, mode)
    values, indices = result if isinstance(result, tuple) else (result, None)
    if x.dtype.is_floating_point:
        has_nan = P.any(P.isnan(x), axis=axis, keepdim=keepdim)
        values = P.where(has_nan, P.full([], float("nan"), values.dtype), values)
    if mode == "min" and axis is not None:
        return values, indices
    return values


def _quantile(
    x: Tensor, q: Any, axis: Any, keepdim: bool, interpolation: str, ignore_nan: bool, function: str
) -> Tensor:
    P = _paddle()
    _tensor(x, function)
    if isinstance(q, (int, float)) and not isinstance(q, bool):
        q = [q]
    elif isinstance(q, (list, tuple)):
        if not q:
            raise InvalidArgumentError(f"{function}: q must not be empty")
    elif isinstance(q, (Tensor, Value)):
        if len(q.shape) > 1:
            raise InvalidArgumentError(f"{function}: q must be a 0-D or 1-D tensor")
        q = [q] if len(q.shape) == 0 else [q[i] for i in builtins.range(q.shape[0])]
    else:
        raise InvalidArgumentError(
            f"{function}: q expects a number, a list or tuple, or a Tensor, got {type(q).__name__}"
        )
    for value in q:
        number = float(value.item()) if isinstance(value, Tensor) else float(value)
        if not 0 <= number <= 1:
            raise InvalidArgumentError(f"{function}: q must be in [0, 1], got {number}")
    if interpolation not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise InvalidArgumentError(
            f"{function}: interpolation must be one of 'linear', 'lower', 'higher', 'nearest' or "
            f"'midpoint', got {interpolation!r}"
        )
    ndim = len(x.shape)
    out_shape = list(x.shape)
    if axis is None:
        x, axis, out_shape = P.flatten(x), 0, [1] * ndim
    elif isinstance(axis, (list, tuple)):
        source = [_axis(a, ndim, function) for a in axis]
        for a in source:
            out_shape[a] = 1
        target = list(builtins.range(-len(source), 0))
        x = P.moveaxis(x, source, target)
        if target:
            x, axis = P.flatten(x, target[0], target[-1]), target[0] % len(x.shape)
        else:
            x, axis = P.flatten(x), 0
    else:
        axis = _axis(axis, ndim, function)
        out_shape[axis] = 1
    mask = P.isnan(x)
    valid = P.cast(P.sum(P.logical_not(mask), axis=axis, keepdim=True), x.dtype)
    indices = []
    for value in q:
        q_value = P.to_tensor(value.item() if isinstance(value, Tensor) else value, dtype=x.dtype)
        index = q_value * (valid - 1)
        if not ignore_nan:
            last = P.full_like(index, x.shape[axis] - 1)
            index = P.where(P.any(mask, axis=axis, keepdim=True), last, index)
        indices.append(index)
    ordered = P.sort(x, axis)

    def pick(index: Tensor) -> Tensor:
        if interpolation == "nearest":
            return P.take_along_axis(ordered, P.cast(P.round(index), "int32"), axis=axis)
        below_index = P.cast(P.floor(index), "int32")
        below = P.take_along_axis(ordered, below_index, axis=axis)
        if interpolation == "lower":
            return below
        upper = P.take_along_axis(ordered, P.cast(P.ceil(index), "int32"), axis=axis)
        if interpolation == "higher":
            return upper
        if interpolation == "midpoint":
            return (P.cast(upper, x.dtype) + P.cast(below, x.dtype)) / 2
        weights = P.cast(index - P.cast(below_index, index.dtype), x.dtype)
        return P.lerp(P.cast(below, x.dtype), P.cast(upper, x.dtype), weights)

    outputs = []
    for index in indices:
        result = pick(index)
        outputs.append(P.reshape(result, out_shape) if keepdim else P.squeeze(result, axis))
    return P.stack(outputs, 0) if len(outputs) > 1 else outputs[0]


def quantile(
    x: Tensor,
    q: Any,
    axis: Any = None,
    keepdim: bool = False,
    interpolation: str = "linear",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The ``q``-quantiles over ``axis`` (NaN where a slice holds a NaN); a list of q stacks
    them first."""
    result = _quantile(x, q, axis, keepdim, interpolation, False, "quantile")
    if out is not None:
        out.set_value(result)
        return out
    return result


def nanquantile(
    x: Tensor, q: Any, axis: Any = None, keepdim: bool = False, interpolation: str = "linear"
) -> Tensor:
    """``quantile`` leaving NaNs out (NaN where a slice is all NaN)."""
    return _quantile(x, q, axis, keepdim, interpolation, True, "nanquantile")


# -- scatters ---------------------------------------------------------------------------------------


def masked_scatter(x: Tensor, mask: Tensor, value: Tensor, name: str | None = None) -> Tensor:
    """``x`` with the positions where ``mask`` (broadcast to x) is true filled, in order, from
    the flattened ``value``."""
    P = _paddle()
    _tensor(x, "masked_scatter")
    if _tensor(value, "masked_scatter", "value").dtype != x.dtype:
        raise InvalidArgumentError(
            f"masked_scatter: x and value must have the same dtype, got {x.dtype} and {value.dtype}"
        )
    if _tensor(mask, "masked_scatter", "mask").dtype != DataType.BOOL:
        raise InvalidArgumentError(f"masked_scatter: mask must be bool, got {mask.dtype}")
    counts = P.add(P.cast(mask, "int64"), P.zeros_like(x, dtype="int64"))
    prefix = P.clip(P.cumsum(counts) - 1, min=0)
    if math.prod(prefix.shape) and int(P.sum(counts)) > math.prod(value.shape):
        raise InvalidArgumentError(
            f"masked_scatter: mask has {int(P.sum(counts))} true elements, value only "
            f"{math.prod(value.shape)}"
        )
    filled = P.reshape(P.index_select(P.flatten(value), P.flatten(prefix)), counts.shape)
    return P.where(P.logical_not(P.cast(counts, "bool")), x, filled)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``input`` with ``src`` added at ``index`` along ``dim`` (``put_along_axis`` 'add')."""
    return _paddle().put_along_axis(
        input, index, src, dim, "add", include_self=True, broadcast=False
    )


def index_fill(x: Tensor, index: Tensor, axis: int, value: Any, name: str | None = None) -> Tensor:
    """``x`` with ``value`` at the positions ``index`` along ``axis``."""
    P = _paddle()
    ndim = len(_tensor(x, "index_fill").shape)
    _tensor(index, "index_fill", "index")
    if isinstance(value, (Tensor, Value)):
        if len(value.shape) > 0:
            raise InvalidArgumentError("index_fill: value must be a number or a 0-D tensor")
    else:
        value = P.to_tensor(value, dtype=x.dtype)
    axis = _axis(axis, ndim, "index_fill")
    if math.prod(index.shape) == 0:
        return x.clone()
    perm = list(builtins.range(ndim))
    perm[0], perm[axis] = axis, 0
    out = P.index_put(P.transpose(x, perm), (index,), P.cast(value, x.dtype))
    return P.transpose(out, perm)


def select_scatter(
    x: Tensor, values: Tensor, axis: int, index: int, name: str | None = None
) -> Tensor:
    """``x`` with its ``index``-th slice along ``axis`` replaced by ``values``."""
    P = _paddle()
    shape = list(_tensor(x, "select_scatter").shape)
    axis = _axis(axis, len(shape), "select_scatter")
    index = index + shape[axis] if index < 0 else index
    del shape[axis]
    if list(_tensor(values, "select_scatter", "values").shape) != shape:
        raise InvalidArgumentError(
            f"select_scatter: values has shape {list(values.shape)}, the slice {shape}"
        )
    from phiops import _C_ops

    return _C_ops.set_value_with_tensor(
        x, P.cast(values, x.dtype), [index], [index + 1], [1], [axis], [axis], []
    )


def slice_scatter(
    x: Tensor,
    value: Tensor,
    axes: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    strides: Sequence[int],
    name: str | None = None,
) -> Tensor:
    """``x`` with the slice ``starts:ends:strides`` over ``axes`` replaced by ``value``."""
    P = _paddle()
    _tensor(x, "slice_scatter")
    value = P.cast(_tensor(value, "slice_scatter", "value"), x.dtype)
    from phiops import _C_ops

    return _C_ops.set_value_with_tensor(x, value, starts, ends, strides, axes, [], [])


def diagonal_scatter(
    x: Tensor, y: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> Tensor:
    """``x`` with its diagonal (``offset``, between ``axis1`` and ``axis2``) replaced by ``y``
    (``fill_diagonal_tensor``)."""
    return _paddle().fill_diagonal_tensor(x, y, offset, axis1, axis2)


# -- creation ---------------------------------------------------------------------------------------


def as_tensor(
    data: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """``data`` as a tensor (a tensor of the same dtype and place is returned as it is)."""
    P = _paddle()
    if isinstance(data, Tensor) and (
        dtype is None or P.to_tensor([], dtype=dtype).dtype == data.dtype
    ):
        return data
    return P.to_tensor(data, dtype=dtype, place=device, stop_gradient=not requires_grad)


def asarray(
    obj: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``obj`` as a tensor; ``copy=True`` always copies a tensor."""
    if copy and isinstance(obj, Tensor):
        obj = obj.clone()
    return as_tensor(obj, dtype, device, requires_grad)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor of a numpy array's values and dtype."""
    if not isinstance(ndarray, np.ndarray):
        raise InvalidArgumentError(
            f"from_numpy: expected a numpy.ndarray, got {type(ndarray).__name__}"
        )
    return _paddle().to_tensor(ndarray)


def create_parameter(
    shape: Sequence[int],
    dtype: Any,
    name: str | None = None,
    attr: Any = None,
    is_bias: bool = False,
    default_initializer: Any = None,
) -> Tensor:
    """A trainable parameter, as ``Layer.create_parameter`` makes one (in a static program while
    static mode is on): ``attr``'s initializer, else the global one, else
    ``default_initializer``, else XavierUniform (Constant(0) for a bias)."""
    P = _paddle()
    if P.in_dynamic_mode():
        from phiops.runtime.nn.layer import Layer

        holder = Layer()
        parameter = holder.create_parameter(list(shape), attr, dtype, is_bias, default_initializer)
        if name is not None:
            parameter.name = name
        return parameter
    return P.static.create_parameter(shape, dtype, name, default_initializer, is_bias)


def view_as_complex(input: Tensor) -> Tensor:
    """``paddle.as_complex``: [..., 2] real pairs as complex numbers."""
    return _paddle().as_complex(input)


def view_as_real(input: Tensor) -> Tensor:
    """``paddle.as_real``: complex numbers as [..., 2] real pairs."""
    return _paddle().as_real(input)


def argwhere(input: Tensor) -> Tensor:
    """The [N, ndim] int64 indices of the nonzero elements (``paddle.nonzero``)."""
    return _paddle().nonzero(_tensor(input, "argwhere", "input"))


def bucketize(
    x: Tensor,
    sorted_sequence: Tensor,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The bucket of each element of ``x`` in the 1-D ``sorted_sequence``
    (``searchsorted``)."""
    if len(_tensor(sorted_sequence, "bucketize", "sorted_sequence").shape) != 1:
        raise InvalidArgumentError(
            f"bucketize: sorted_sequence must be 1-D, got shape {list(sorted_sequence.shape)}"
        )
    return _paddle().searchsorted(sorted_sequence, x, out_int32=out_int32, right=right, out=out)


# -- batch 4: integration, combinatorics and in-place forms -----------------------------------------


def _trapezoid(y: Tensor, x: Any, dx: Any, axis: int, function: str, cumulative: bool) -> Tensor:
    P = _paddle()
    if x is not None and dx is not None:
        raise InvalidArgumentError(f"{function}: give x or dx, not both")
    floats = (DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64)
    if _tensor(y, function, "y").dtype not in floats:
        raise InvalidArgumentError(
            f"{function}: y must be float16, float32 or float64, got {y.dtype}"
        )
    axis = _axis(axis, len(y.shape), function)
    length = y.shape[axis]
    if x is None:
        dx = P.to_tensor(1.0 if dx is None else dx)
        if len(dx.shape) > 1:
            raise InvalidArgumentError(f"{function}: dx must be a scalar")
    else:
        if _tensor(x, function).dtype not in floats:
            raise InvalidArgumentError(
                f"{function}: x must be float16, float32 or float64, got {x.dtype}"
            )
        if len(x.shape) == 1:
            dx = P.diff(x)
            shape = [1] * len(y.shape)
            shape[axis] = dx.shape[0]
            dx = P.reshape(dx, shape)
        else:
            dx = P.diff(x, axis=axis)
    pairs = P.gather(y, P.arange(1, length), axis=axis) + P.gather(
        y, P.arange(0, length - 1), axis=axis
    )
    total = P.cumsum(pairs * dx, axis=axis) if cumulative else P.sum(pairs * dx, axis=axis)
    return 0.5 * total


def trapezoid(
    y: Tensor,
    x: Tensor | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at points ``x`` or spacing
    ``dx`` (1 by default)."""
    return _trapezoid(y, x, dx, axis, "trapezoid", False)


def cumulative_trapezoid(
    y: Tensor,
    x: Tensor | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """The running trapezoidal integral of ``y`` along ``axis``."""
    return _trapezoid(y, x, dx, axis, "cumulative_trapezoid", True)


def combinations(
    x: Tensor, r: int = 2, with_replacement: bool = False, name: str | None = None
) -> Tensor:
    """The length-``r`` combinations of the 1-D ``x``'s elements, one per row (with
    replacement when asked)."""
    P = _paddle()
    if len(_tensor(x, "combinations").shape) != 1:
        raise InvalidArgumentError(
            f"combinations: expected a 1-D tensor, got shape {list(x.shape)}"
        )
    if isinstance(r, bool) or not isinstance(r, int) or r < 0:
        raise InvalidArgumentError(f"combinations: r must be a non-negative int, got {r!r}")
    if r == 0:
        return P.empty([0], dtype=x.dtype)
    grids = P.meshgrid([x] * r) if r > 1 else [x]
    positions = P.arange(x.shape[0], dtype="int64")
    index_grids = P.meshgrid([positions] * r) if r > 1 else [positions]
    mask = P.full([x.shape[0]] * r, True, dtype="bool")
    for i in builtins.range(r - 1):
        keep = (
            index_grids[i] <= index_grids[i + 1]
            if with_replacement
            else index_grids[i] < index_grids[i + 1]
        )
        mask = P.logical_and(mask, keep)
    return P.stack([P.masked_select(grid, mask) for grid in grids], 1)


def frexp(x: Tensor, name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mantissas (in [0.5, 1) by magnitude, signed as x) and exponents (floats) with
    x = mantissa * 2**exponent."""
    P = _paddle()
    if _tensor(x, "frexp").dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(f"frexp: x must be float32 or float64, got {x.dtype}")
    magnitude = P.abs(x)
    exponent = P.floor(P.log2(magnitude))
    exponent = P.where(P.isinf(exponent), P.full_like(exponent, 0), exponent)
    mantissa = P.divide(magnitude, P.pow(P.full_like(exponent, 2), exponent))
    exponent = P.where(mantissa >= 1, exponent + 1, exponent)
    mantissa = P.where(mantissa >= 1, mantissa / 2, mantissa)
    return P.where(x < 0, mantissa * -1, mantissa), exponent


def multigammaln(x: Tensor, p: int, name: str | None = None) -> Tensor:
    """The log of the multivariate gamma function of dimension ``p``."""
    P = _paddle()
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise InvalidArgumentError(f"multigammaln: p must be an int >= 1, got {p!r}")
    c = 0.25 * p * (p - 1) * math.log(math.pi)
    b = 0.5 * P.arange(1 - p, 1, 1, dtype=_tensor(x, "multigammaln").dtype)
    return P.sum(P.lgamma(P.unsqueeze(x, -1) + b), axis=-1) + c


def log_normal(
    mean: Any = 1.0, std: Any = 2.0, shape: Any = None, name: str | None = None
) -> Tensor:
    """exp of normal draws with ``mean`` and ``std``."""
    P = _paddle()
    return P.exp(P.normal(mean=mean, std=std, shape=shape))


def histogram_bin_edges(
    input: Tensor, bins: int = 100, min: float = 0.0, max: float = 0.0, name: str | None = None
) -> Tensor:
    """The ``bins + 1`` edges ``paddle.histogram`` uses: over [min, max], or the input's range
    when both are 0 (widened by 0.5 each way when empty)."""
    P = _paddle()
    if _tensor(input, "histogram_bin_edges", "input").dtype not in (
        DataType.FLOAT32,
        DataType.FLOAT64,
        DataType.INT32,
        DataType.INT64,
    ):
        raise InvalidArgumentError(
            f"histogram_bin_edges: input must be float32, float64, int32 or int64, got {input.dtype}"
        )
    low, high = float(min), float(max)
    if low == 0.0 and high == 0.0:
        low, high = float(P.min(input)), float(P.max(input))
    elif high < low:
        raise InvalidArgumentError(
            f"histogram_bin_edges: max ({high}) must not be less than min ({low})"
        )
    if low == high:
        low, high = low - 0.5, high + 0.5
    return P.linspace(low, high, bins + 1)


def bitwise_invert(x: Tensor, out: Tensor | None = None, name: str | None = None) -> Tensor:
    """``paddle.bitwise_not``."""
    return _paddle().bitwise_not(x, out=out)


def bitwise_invert_(x: Tensor, name: str | None = None) -> Tensor:
    """``paddle.bitwise_not_``."""
    return _paddle().bitwise_not_(x)


def narrow(input: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """The ``length`` elements of ``input`` from ``start`` along ``dim`` (a slice)."""
    P = _paddle()
    ndim = len(_tensor(input, "narrow", "input").shape)
    if ndim == 0:
        raise InvalidArgumentError("narrow: input must have at least 1 dimension")
    if isinstance(start, Tensor):
        start = int(start.item())
    dim = _axis(dim, ndim, "narrow", "dim")
    extent = input.shape[dim]
    if not -extent <= start <= extent:
        raise InvalidArgumentError(f"narrow: start {start} is out of range [{-extent}, {extent}]")
    start = start + extent if start < 0 else start
    if length < 0 or start + length > extent:
        raise InvalidArgumentError(
            f"narrow: start ({start}) + length ({length}) exceeds dimension size ({extent})"
        )
    return P.slice(input, [dim], [start], [start + length])


def _in_place(x: Tensor, compute: Any, function: str) -> Tensor:
    from phiops.runtime.eager.inplace import check_inplace, write_inplace

    check_inplace(function, "x", x)
    return write_inplace(x, compute())


def masked_fill_(x: Tensor, mask: Tensor, value: Any, name: str | None = None) -> Tensor:
    """``masked_fill`` written into ``x``."""
    return _in_place(x, lambda: masked_fill(x, mask, value), "masked_fill_")


def nan_to_num_(
    x: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    name: str | None = None,
) -> Tensor:
    """``nan_to_num`` written into ``x``."""
    return _in_place(x, lambda: nan_to_num(x, nan, posinf, neginf), "nan_to_num_")


def index_fill_(x: Tensor, index: Tensor, axis: int, value: Any, name: str | None = None) -> Tensor:
    """``index_fill`` written into ``x``."""
    return _in_place(x, lambda: index_fill(x, index, axis, value), "index_fill_")


def masked_scatter_(x: Tensor, mask: Tensor, value: Tensor, name: str | None = None) -> Tensor:
    """``masked_scatter`` written into ``x``."""
    return _in_place(x, lambda: masked_scatter(x, mask, value), "masked_scatter_")


def scatter_add_(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``scatter_add`` written into ``input``."""
    return _in_place(input, lambda: scatter_add(input, dim, index, src), "scatter_add_")


def _histogramdd_check(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidArgumentError(f"histogramdd: {message}")


def histogramdd(
    x: Tensor,
    bins: Any = 10,
    ranges: Sequence[float] | None = None,
    density: bool = False,
    weights: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, list[Tensor]]:
    """The D-dimensional histogram of the points in the last dim of ``x`` (float32/64, at
    least 2-D) and its bin edges: ``bins`` an int or D ints (equal bins over ``ranges``, the
    data's [min, max] per dim when None: D pairs) or a tuple of D edge tensors; ``weights``
    (``x``'s shape without its last dim) weight each point; ``density`` divides by the bin
    volumes and the total. PaddlePaddle's composition: searchsorted into the edges, bincount
    of the flattened indices."""
    P = _paddle()
    _histogramdd_check(isinstance(density, bool), f"density must be a bool, got {density!r}")
    _histogramdd_check(
        len(_tensor(x, "histogramdd").shape) >= 2, "x must be a tensor of at least 2 dims"
    )
    _histogramdd_check(
        x.dtype in (DataType.FLOAT32, DataType.FLOAT64), f"x must be float32 or float64, got {x.dtype}"
    )
    D = x.shape[-1]
    points = P.reshape(x, [-1, D])
    N = points.shape[0]
    if weights is not None:
        _histogramdd_check(
            list(weights.shape) == list(x.shape[:-1]) and weights.dtype == x.dtype,
            "weights must have x's shape without its last dim and x's dtype, got "
            f"{list(weights.shape)} {weights.dtype}",
        )
        weights = P.reshape(weights, [N])
    if ranges is None:
        bounds = [(P.min(points[:, i]), P.max(points[:, i])) for i in builtins.range(D)]
    else:
        _histogramdd_check(
            isinstance(ranges, (list, tuple)) and len(ranges) == 2 * D,
            f"ranges must be a list of {2 * D} numbers, got {ranges!r}",
        )
        bounds = [(float(ranges[2 * i]), float(ranges[2 * i + 1])) for i in builtins.range(D)]
    edges: list[Tensor] = []
    if isinstance(bins, (int, list)):
        counts = [bins] * D if isinstance(bins, int) else bins
        _histogramdd_check(len(counts) == D, f"bins must be {D} ints, got {bins!r}")
        for index, (low, high) in enumerate(bounds):
            if not isinstance(counts[index], int):
                raise ValueError(f"The type of {index}-th element in bins list must be int.")
            edges.append(P.linspace(low, high, counts[index] + 1, x.dtype))
    elif isinstance(bins, tuple):
        for edge in bins:
            edge = P.to_tensor(edge) if not isinstance(edge, Tensor) else edge
            _histogramdd_check(edge.dtype == x.dtype, "edge tensors in bins must have x's dtype")
            edges.append(edge)
        _histogramdd_check(len(edges) == D, f"bins must hold {D} edge tensors, got {len(edges)}")
    else:
        raise ValueError("Input bins must be Tensor[], int[], or int.")
    hist_shape = [int(edge.shape[0]) + 1 for edge in edges]
    indices = []
    for i, edge in enumerate(edges):
        column = points[:, i]
        index = P.searchsorted(edge, column, right=True)
        indices.append(P.where(column == edge[-1], index - 1, index))
    strides = [int(np.prod(hist_shape[i + 1 :], dtype=np.int64)) for i in builtins.range(D)]
    flat = P.sum(P.stack(indices, axis=-1) * P.to_tensor(strides, dtype="int64"), axis=-1)
    hist = P.bincount(flat, weights, minlength=int(np.prod(hist_shape, dtype=np.int64)))
    hist = P.reshape(hist, hist_shape).astype(x.dtype)
    hist = hist[tuple(builtins.slice(1, -1) for _ in builtins.range(D))]
    if density:
        total = P.sum(hist)
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = hist_shape[i] - 2
            hist = hist / P.reshape(P.diff(edges[i]), shape)
        hist = hist / total
    return hist, edges


__all__ += ["histogramdd"]
TENSOR_METHODS += ["histogramdd"]
