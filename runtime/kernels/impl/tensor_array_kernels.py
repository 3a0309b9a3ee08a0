"""Kernels on TensorArrays (PHI's ``paddle/phi/kernels/array_kernel.cc``): create_array,
create_array_like, array_length, array_read, array_write_, array_to_tensor, array_pop,
slice_array, slice_array_dense and tensor_to_array (array_to_tensor's gradient).

A TensorArray (runtime/tensor/sparse.py) holds DenseTensors of one dtype. As PHI's, writing
past the end grows the array (the slots between stay empty: 0-element tensors of the array's
dtype) and the written tensor is copied; reading past the end is an InvalidArgumentError.
These kernels take the array module as ``xp`` (numpy on CPU, CuPy on GPU) and are run by the
executor's TensorArray steps (runtime/static/executor/steps/tensor_array.py): the ops have no
phiops OpDef (PaddlePaddle defines them by hand in its PIR dialect, not in its op YAML), and in
eager mode PaddlePaddle's ``paddle.tensor`` array functions work on Python lists.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.sparse import TensorArray

__all__ = [
    "create_array_kernel",
    "create_array_like_kernel",
    "array_length_kernel",
    "array_read_kernel",
    "array_write_kernel",
    "array_to_tensor_kernel",
    "array_pop_kernel",
    "slice_array_kernel",
    "slice_array_dense_kernel",
    "tensor_to_array_kernel",
    "index_of",
]


def index_of(op: str, i: Any) -> int:
    """The position a 1-element integer tensor (or an int) names; InvalidArgumentError
    naming ``op`` otherwise."""
    if isinstance(i, int):
        return i
    size = getattr(i, "size", None)
    kind = getattr(getattr(i, "dtype", None), "kind", None)
    if size != 1 or kind not in ("i", "u"):
        raise InvalidArgumentError(
            f"{op}(): argument 'i' must be a 1-element integer tensor, got "
            f"{getattr(i, 'dtype', type(i).__name__)} of shape {list(getattr(i, 'shape', ()))}"
        )
    return int(i.reshape(-1)[0])


def create_array_kernel(xp: Any, dtype: DataType) -> TensorArray:
    """An empty array of ``dtype`` items."""
    return TensorArray((), dtype)


def create_array_like_kernel(xp: Any, input: TensorArray, val: float) -> TensorArray:
    """An array of ``input``'s length whose items have the shapes and dtype of ``input``'s,
    filled with ``val``."""
    items = [
        DenseTensor(xp.full(item.array.shape, val, dtype=item.array.dtype)) for item in input.items
    ]
    return TensorArray(items, input.dtype)


def array_length_kernel(xp: Any, x: TensorArray) -> Any:
    """The number of items, as an int64 tensor of shape [1]."""
    return xp.asarray([len(x.items)], dtype=xp.int64)


def array_read_kernel(xp: Any, array: TensorArray, i: Any) -> Any:
    """A copy of item ``i``."""
    index = index_of("array_read", i)
    if not 0 <= index < len(array.items):
        raise InvalidArgumentError(
            f"array_read(): index {index} is outside the array of {len(array.items)} item(s)"
        )
    return array.items[index].array.copy()


def array_write_kernel(xp: Any, array: TensorArray, x: Any, i: Any) -> TensorArray:
    """``array`` with a copy of ``x`` at ``i``, in place; writing past the end grows it."""
    index = index_of("array_write_", i)
    if index < 0:
        raise InvalidArgumentError(f"array_write_(): index {index} must not be negative")
    dtype = array.dtype
    if x.dtype != dtype.numpy_dtype:
        raise InvalidArgumentError(
            f"array_write_(): argument 'x' is {x.dtype}, the array holds "
            f"{dtype.name.lower()} (cast it first, as paddle.tensor.array_write does)"
        )
    while len(array.items) <= index:
        array.items.append(DenseTensor(xp.zeros((0,), dtype=dtype.numpy_dtype)))
    array.items[index] = DenseTensor(x.copy())
    return array


def array_to_tensor_kernel(
    xp: Any, x: TensorArray, axis: int, use_stack: bool
) -> tuple[Any, Any]:
    """The items concatenated (or stacked, ``use_stack``) along ``axis``, and an int32 tensor
    of each item's extent along ``axis`` (PHI's ``out_index``; with ``use_stack`` the extent
    of the items' own dim ``axis``, as PHI computes it)."""
    if not x.items:
        raise InvalidArgumentError(
            "array_to_tensor(): the array is empty; it needs at least one item"
        )
    arrays = [item.array for item in x.items]
    rank = arrays[0].ndim
    limit = rank + 1 if use_stack else rank
    if not -limit <= axis < max(limit, 1):
        raise InvalidArgumentError(
            f"array_to_tensor(): argument 'axis' must be in [{-limit}, {limit}), got {axis}"
        )
    axis = axis % limit if limit else 0
    for position, array in enumerate(arrays[1:], 1):
        if array.ndim != rank:
            raise InvalidArgumentError(
                f"array_to_tensor(): item {position} has rank {array.ndim}, item 0 rank {rank}"
            )
    out = xp.stack(arrays, axis) if use_stack else xp.concatenate(arrays, axis)
    extents = [a.shape[axis] if axis < a.ndim else 1 for a in arrays]
    return out, xp.asarray(extents, dtype=xp.int32)


def array_pop_kernel(xp: Any, array: TensorArray, index: int) -> tuple[TensorArray, Any]:
    """``array`` without item ``index`` (negative counts from the end), in place, and that
    item."""
    size = len(array.items)
    if size == 0:
        raise InvalidArgumentError("array_pop(): the array is empty")
    position = index + size if index < 0 else index
    if not 0 <= position < size:
        raise InvalidArgumentError(
            f"array_pop(): index {index} is outside the array of {size} item(s)"
        )
    item = array.items.pop(position)
    return array, item.array


def _first(op: str, argument: str, values: Any) -> int:
    """The first entry of an IntArray given as an integer array (or a list of ints)."""
    flat = [int(v) for v in (values.reshape(-1).tolist() if hasattr(values, "reshape") else values)]
    if not flat:
        raise InvalidArgumentError(f"{op}(): argument '{argument}' is empty; it needs one entry")
    return flat[0]


def slice_array_kernel(xp: Any, input: TensorArray, starts: Any, ends: Any) -> TensorArray:
    """The items ``[starts[0], ends[0])`` as a new array (a negative bound counts from the end;
    the bounds are clipped to the array)."""
    size = len(input.items)
    start = _first("slice_array", "starts", starts)
    end = _first("slice_array", "ends", ends)
    start, end = (start + size if start < 0 else start), (end + size if end < 0 else end)
    start, end = min(max(start, 0), size), min(max(end, 0), size)
    items = [DenseTensor(item.array.copy()) for item in input.items[start:end]]
    return TensorArray(items, input.dtype)


def slice_array_dense_kernel(xp: Any, input: TensorArray, starts: Any) -> Any:
    """Item ``starts[0]`` (negative counts from the end), as a dense tensor."""
    size = len(input.items)
    start = _first("slice_array_dense", "starts", starts)
    position = start + size if start < 0 else start
    if not 0 <= position < size:
        raise InvalidArgumentError(
            f"slice_array_dense(): start {start} is outside the array of {size} item(s)"
        )
    return input.items[position].array.copy()


def tensor_to_array_kernel(
    xp: Any, x: TensorArray, out_grad: Any, axis: int, use_stack: bool
) -> TensorArray:
    """``array_to_tensor``'s gradient (PHI's ``tensor_to_array``): ``out_grad`` cut back into
    items of ``x``'s shapes, along ``axis`` (unstacked with ``use_stack``)."""
    if not x.items:
        raise InvalidArgumentError("tensor_to_array(): the array is empty")
    rank = out_grad.ndim
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"tensor_to_array(): argument 'axis' must be in [{-rank}, {rank}), got {axis}"
        )
    axis %= rank
    if use_stack:
        parts = [xp.take(out_grad, k, axis=axis) for k in range(out_grad.shape[axis])]
    else:
        cuts, total = [], 0
        for item in x.items[:-1]:
            total += item.array.shape[axis]
            cuts.append(total)
        parts = xp.split(out_grad, cuts, axis=axis)
    if len(parts) != len(x.items):
        raise InvalidArgumentError(
            f"tensor_to_array(): out_grad holds {len(parts)} item(s), the array {len(x.items)}"
        )
    return TensorArray([DenseTensor(xp.ascontiguousarray(p)) for p in parts], x.dtype)
