"""Tensor indexing: ``x[index]``, ``x[index] = value`` and iteration, lowered to ops.

Reading lowers to ops that record gradients, so they flow through indexing; a basic index
(ints, slices, ``None``, ``...``) then gives a view of ``x``'s storage, sharing its version
counter, as PaddlePaddle's does (an advanced index gives a copy):
- ints and slices become one ``slice`` (all steps 1, ints as ``decrease_axis``) or
  ``strided_slice`` (+ ``squeeze`` for the ints); ``None`` becomes ``unsqueeze``; ``...`` is
  expanded;
- one integer tensor or list on one axis becomes ``index_select`` (``gather`` when it is 0-D);
  a bool mask over the whole tensor becomes ``masked_select``; anything else advanced (several
  index tensors, a mask over some axes) becomes ``transpose`` + ``gather_nd`` (+ ``transpose``
  back), with NumPy's placement of the broadcast index dims, as PaddlePaddle 3.3.1 gives them.

Writing goes through PaddlePaddle's ops for ``x[idx] = value``: ``set_value`` (a scalar) or
``set_value_with_tensor`` for basic indices, ``index_put`` for advanced ones (on the flattened
tensor, at the positions NumPy's rules pick). The result is copied into ``x``'s storage and
``x``'s version goes up, as for every in-place op: a backward that saved the old ``x`` raises.
``x`` then leads to the write's grad node, so gradients flow to ``value`` and to the parts of
``x`` that were kept. A leaf that needs a gradient cannot be written while grads are recorded.

Out-of-range indices raise OutOfRangeError (an IndexError) naming the axis and its size; a bool
mask whose shape differs from the axes it covers raises OutOfRangeError naming both shapes.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterator

import numpy as np

from phiops.runtime.eager.tensor import Tensor, to_tensor, wrap_array
from phiops.runtime.tensor.version import bump_version, share_storage
from phiops.runtime.device import module_of
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError, UnimplementedError

__all__ = ["install_indexing", "getitem", "setitem"]

# Normalised index entries: (kind, payload, axis of x it starts at, original axis for errors).
_INT, _SLICE, _NONE, _TENSOR, _MASK = "int", "slice", "none", "tensor", "mask"


def _entry(item: Any) -> tuple[str, Any]:
    if item is None:
        return _NONE, None
    if isinstance(item, (bool, np.bool_)):
        if not item:
            raise UnimplementedError("indexing with the Python bool False is not implemented")
        return _NONE, None
    if isinstance(item, (int, np.integer)):
        return _INT, int(item)
    if isinstance(item, slice):
        return _SLICE, slice(*(_slice_bound(b) for b in (item.start, item.stop, item.step)))
    if isinstance(item, Tensor):
        array = item.numpy()
    elif isinstance(item, (list, tuple, np.ndarray)):
        array = np.asarray(item)
        if array.size == 0:
            array = array.astype(np.int64)
    else:
        raise TypeError(f"a Tensor cannot be indexed with {type(item).__name__} {item!r}")
    if array.dtype == np.bool_:
        return _MASK, array
    if array.dtype.kind not in "iu":
        raise TypeError(
            f"a Tensor index must hold integers or bools, got dtype {array.dtype} ({item!r})"
        )
    if array.ndim == 0:
        return _INT, int(array)
    return _TENSOR, array.astype(np.int64)


def _slice_bound(bound: Any) -> int | None:
    if bound is None:
        return None
    if isinstance(bound, Tensor):
        return int(bound.item())
    return int(bound)


def _entries(index: Any, rank: int) -> list[tuple[str, Any]]:
    """The index as a list of entries, ``...`` expanded into full slices."""
    items = index if isinstance(index, tuple) else (index,)
    ellipses = sum(1 for item in items if item is Ellipsis)
    if ellipses > 1:
        raise InvalidArgumentError("an index can hold at most one Ellipsis (...)")
    entries: list[tuple[str, Any]] = []
    ellipsis_at = -1
    for item in items:
        if item is Ellipsis:
            ellipsis_at = len(entries)
            continue
        entries.append(_entry(item))
    consumed = sum(p.ndim if kind == _MASK else 0 if kind == _NONE else 1 for kind, p in entries)
    if consumed > rank:
        raise OutOfRangeError(
            f"too many indices for a tensor of rank {rank}: the index addresses {consumed} axes"
        )
    fill = [(_SLICE, slice(None))] * (rank - consumed)
    if ellipsis_at < 0:
        return entries + fill
    return entries[:ellipsis_at] + fill + entries[ellipsis_at:]


def _check_int(value: int, size: int, axis: int) -> int:
    if not -size <= value < size:
        raise OutOfRangeError(
            f"index {value} is out of range for axis {axis} with size {size} "
            f"(expected [{-size}, {size}))"
        )
    return value + size if value < 0 else value


def _check_tensor(index: np.ndarray, size: int, axis: int) -> np.ndarray:
    if index.size:
        low, high = int(index.min()), int(index.max())
        if low < -size or high >= size:
            _check_int(low if low < -size else high, size, axis)
    return np.where(index < 0, index + size, index)


def _check_mask(mask: np.ndarray, dims: tuple[int, ...], axis: int) -> None:
    covered = tuple(dims[axis : axis + mask.ndim])
    if tuple(mask.shape) != covered:
        raise OutOfRangeError(
            f"the bool mask with shape {list(mask.shape)} does not match the shape "
            f"{list(covered)} of axes {list(range(axis, axis + mask.ndim))} it indexes"
        )


def _slice_bounds(s: slice, size: int) -> tuple[int, int, int]:
    """start, end, step for strided_slice (Python's bounds; a negative step's "through index
    0" end is -size-1, which strided_slice reads as before index 0)."""
    if s.step == 0:
        raise InvalidArgumentError("a slice step must not be 0")
    start, end, step = s.indices(size)
    if step < 0 and end == -1:
        end = -size - 1
    return start, end, step


def _lower_basic(
    api: ModuleType, x: Tensor, entries: list[tuple[str, Any]]
) -> tuple[Tensor, list[tuple[str, Any, int, int]]]:
    """Apply ``None``, ints and slices; return the result and the advanced entries left, each
    with the axis of the result it indexes and the axis of ``x`` it came from."""
    positions = _with_axes(entries)
    none_axes = [axis for kind, _, axis, _ in positions if kind == _NONE]
    if none_axes:
        x = api.unsqueeze(x, none_axes)
    dims = tuple(x.shape)
    axes, starts, ends, steps, decrease = [], [], [], [], []
    for kind, payload, axis, original in positions:
        if kind == _INT:
            value = _check_int(payload, dims[axis], original)
            axes.append(axis), starts.append(value), ends.append(value + 1), steps.append(1)
            decrease.append(axis)
        elif kind == _SLICE:
            start, end, step = _slice_bounds(payload, dims[axis])
            if (start, end, step) == (0, dims[axis], 1):
                continue
            axes.append(axis), starts.append(start), ends.append(end), steps.append(step)
    if axes and all(step == 1 for step in steps):
        x = api.slice(x, axes, starts, ends, [1] * len(axes), decrease)
    elif axes:
        x = api.strided_slice(x, axes, starts, ends, steps)
        if decrease:
            x = api.squeeze(x, decrease)
    advanced = []
    for kind, payload, axis, original in positions:
        if kind in (_TENSOR, _MASK):
            shift = sum(1 for d in decrease if d < axis)
            advanced.append((kind, payload, axis - shift, original))
    return x, advanced


def _as_view(out: Tensor, x: Tensor, entries: list[tuple[str, Any]]) -> Tensor:
    """``out``, the result of a basic index of ``x`` computed by ops (so that it has their grad
    node), made to hold the view of ``x``'s storage that the same index gives, and to share
    ``x``'s version counter."""
    index = tuple(None if kind == _NONE else payload for kind, payload in entries) + (Ellipsis,)
    view = x.array[index]
    if tuple(view.shape) == tuple(out.meta.dims) and view.dtype == out.array.dtype:
        out.array = view
        share_storage(out, x)
    return out


def _with_axes(entries: list[tuple[str, Any]]) -> list[tuple[str, Any, int, int]]:
    """Each entry with the axis it starts at once every ``None`` is an inserted axis, and the
    axis of the indexed tensor it addresses (for error messages)."""
    out = []
    axis = original = 0
    for kind, payload in entries:
        out.append((kind, payload, axis, original))
        width = payload.ndim if kind == _MASK else 1
        axis += width
        if kind != _NONE:
            original += width
    return out


def getitem(api: ModuleType, x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with PaddlePaddle's (NumPy's) semantics, through ops that record grads.

    A basic index (ints, slices, ``None``, ``...``) gives a view, as in PaddlePaddle: the result
    shares ``x``'s storage and version counter, so writing it in place writes ``x`` (and a
    backward that saved ``x`` then raises). An advanced index gives a copy."""
    entries = _entries(index, x.ndim)
    if not entries:
        return _as_view(api.assign(x), x, entries)
    source = x
    x, advanced = _lower_basic(api, x, entries)
    if not advanced:
        return _as_view(x, source, entries)
    dims = tuple(x.shape)
    if len(advanced) == 1:
        kind, payload, axis, original = advanced[0]
        if kind == _TENSOR:
            index_array = _check_tensor(payload, dims[axis], original)
            flat = to_tensor(index_array.reshape(-1), place=x.place)
            out = api.index_select(x, flat, axis)
            if index_array.ndim == 1:
                return out
            return api.reshape(out, list(dims[:axis] + index_array.shape + dims[axis + 1 :]))
        _check_mask(payload, dims, axis)
        if axis == 0 and payload.ndim == len(dims):
            return api.masked_select(x, to_tensor(payload, place=x.place))
    return _gather_advanced(api, x, advanced)


def _advanced_columns(
    advanced: list[tuple[str, Any, int, int]], dims: tuple[int, ...]
) -> tuple[list[int], list[np.ndarray]]:
    """The axes the advanced entries index and one int64 coordinate array per axis (masks give
    one per axis they cover), range-checked and broadcast together."""
    axes: list[int] = []
    columns: list[np.ndarray] = []
    for kind, payload, axis, original in advanced:
        if kind == _MASK:
            _check_mask(payload, dims, axis)
            for offset, column in enumerate(np.nonzero(payload)):
                axes.append(axis + offset)
                columns.append(column.astype(np.int64))
        else:
            axes.append(axis)
            columns.append(_check_tensor(payload, dims[axis], original))
    try:
        columns = list(np.broadcast_arrays(*columns))
    except ValueError:
        raise OutOfRangeError(
            f"the index tensors with shapes {[list(c.shape) for c in columns]} cannot be "
            "broadcast together"
        ) from None
    return axes, columns


def _gather_advanced(
    api: ModuleType, x: Tensor, advanced: list[tuple[str, Any, int, int]]
) -> Tensor:
    dims = tuple(x.shape)
    axes, columns = _advanced_columns(advanced, dims)
    rest = [a for a in range(len(dims)) if a not in axes]
    perm = axes + rest
    moved = x if perm == list(range(len(dims))) else api.transpose(x, perm)
    coordinates = np.stack(columns, axis=-1)
    out = api.gather_nd(moved, to_tensor(coordinates, place=x.place))
    # NumPy's rule: index dims replace adjacent advanced axes in place, else they lead.
    adjacent = axes == list(range(axes[0], axes[0] + len(axes)))
    if not adjacent or axes[0] == 0:
        return out
    batch = coordinates.ndim - 1
    lead = list(range(batch, batch + axes[0]))
    order = lead + list(range(batch)) + list(range(batch + axes[0], out.ndim))
    return api.transpose(out, order)


# -- writing -----------------------------------------------------------------------------------


def setitem(api: ModuleType, x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value`` in place, through set_value / set_value_with_tensor / index_put."""
    from phiops.runtime.autograd.grad_mode import GRAD_MODE

    if GRAD_MODE.enabled and not x.stop_gradient and x.is_leaf:
        raise InvalidArgumentError(
            "a leaf Tensor that needs a gradient (stop_gradient=False) cannot be written in "
            "place; write it under phi.no_grad() or write a copy"
        )
    entries = _entries(index, x.ndim)
    # The ops read an alias of x with x's history but a version counter of its own: the
    # reshape that index_put goes through is a view of it, and x's own counter is bumped below.
    source = wrap_array(x.array, x.meta)
    source.stop_gradient, source._grad_node = x.stop_gradient, x._grad_node
    if any(kind in (_TENSOR, _MASK) for kind, _ in entries):
        out = _put_advanced(api, source, entries, value)
    else:
        out = _set_basic(api, source, entries, value)
    if out.array is not x.array:
        module_of(x.array).copyto(x.array, out.array, casting="unsafe")
    bump_version(x)
    if out._grad_node is not None:
        x._grad_node = out._grad_node
        x.stop_gradient = False


def _value_tensor(x: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value if value.dtype is x.dtype else value.astype(x.dtype)
    return to_tensor(np.asarray(value, dtype=x.dtype.numpy_dtype), place=x.place)


def _set_basic(api: ModuleType, x: Tensor, entries: list[tuple[str, Any]], value: Any) -> Tensor:
    dims = tuple(x.shape)
    axes, starts, ends, steps, decrease, none_axes = [], [], [], [], [], []
    axis = 0
    for kind, payload in entries:
        if kind == _NONE:
            none_axes.append(axis)
            continue
        if kind == _INT:
            start = _check_int(payload, dims[axis], axis)
            axes.append(axis), starts.append(start), ends.append(start + 1), steps.append(1)
            decrease.append(axis)
        else:
            start, end, step = _slice_bounds(payload, dims[axis])
            if (start, end, step) != (0, dims[axis], 1):
                axes.append(axis), starts.append(start), ends.append(end), steps.append(step)
        axis += 1
    if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
        scalar = np.asarray(value).astype(x.dtype.numpy_dtype).item()
        return api.set_value(x, starts, ends, steps, axes, decrease, none_axes, [1], [scalar])
    return api.set_value_with_tensor(
        x, _value_tensor(x, value), starts, ends, steps, axes, decrease, none_axes
    )


def _put_advanced(api: ModuleType, x: Tensor, entries: list[tuple[str, Any]], value: Any) -> Tensor:
    dims = tuple(x.shape)
    numpy_index: list[Any] = []
    for kind, payload, axis, original in _with_axes(entries):
        real_axis = original
        if kind == _NONE:
            numpy_index.append(None)
        elif kind == _INT:
            numpy_index.append(_check_int(payload, dims[real_axis], real_axis))
        elif kind == _SLICE:
            numpy_index.append(payload)
        elif kind == _MASK:
            _check_mask(payload, dims, real_axis)
            numpy_index.append(payload)
        else:
            numpy_index.append(_check_tensor(payload, dims[real_axis], real_axis))
    positions = np.arange(int(np.prod(dims, dtype=np.int64))).reshape(dims)[tuple(numpy_index)]
    values = _value_tensor(x, value)
    if tuple(values.shape) != positions.shape:
        try:
            np.broadcast_shapes(tuple(values.shape), positions.shape)
        except ValueError:
            raise InvalidArgumentError(
                f"a value with shape {values.shape} cannot be broadcast to the shape "
                f"{list(positions.shape)} of the elements it is assigned to"
            ) from None
        values = api.expand(values, list(positions.shape))
    flat = api.reshape(x, [-1])
    target = to_tensor(positions.reshape(-1).astype(np.int64), place=x.place)
    out = api.index_put(flat, [target], api.reshape(values, [-1]), False)
    return api.reshape(out, list(dims))


def iterate(api: ModuleType, x: Tensor) -> Iterator[Tensor]:
    """The sub-tensors along the first axis, ``x[0]``, ``x[1]``, ..."""
    if x.ndim == 0:
        raise TypeError("iteration over a 0-D tensor")
    for position in range(x.shape[0]):
        yield getitem(api, x, position)


def install_indexing(api: ModuleType) -> None:
    """Give Tensor ``__getitem__``, ``__setitem__`` and ``__iter__`` built on ``api``'s ops."""
    Tensor.__getitem__ = lambda self, index: getitem(api, self, index)
    Tensor.__setitem__ = lambda self, index, value: setitem(api, self, index, value)
    Tensor.__iter__ = lambda self: iterate(api, self)
