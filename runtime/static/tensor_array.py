"""PaddlePaddle's tensor-array API (``paddle.tensor.create_array``, ``array_write``,
``array_read``, ``array_length``, ``tensor_array_to_tensor``): Python lists in eager mode, as
PaddlePaddle 3.3.1's are, and `pd_op.tensor_array<...>` Values in static mode, built as its PIR
API builds them (`pd_op.create_array`, `array_write_` after a `pd_op.cast` of the item to the
array's dtype, `array_read`, `array_length`, `array_to_tensor`). The executor runs them
(runtime/static/executor/steps/tensor_array.py).

`array_write_` writes its array in place and the API returns the array it was given, as
PaddlePaddle's does: inside ``static.nn.while_loop`` a body that writes to an array and returns
it returns its loop variable unchanged, so the array is not carried by the `pd_op.while` and the
writes are seen after the loop. As in PaddlePaddle, the write also gives the array's type the
written item's dims (the JSON keeps them; the text does not print them).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType, to_data_type
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.types import ELEMENT_TYPES, DenseTensorType, TensorArrayType
from phiops.runtime.static.build import dtype_name, dtype_of_type
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import current_block

__all__ = [
    "create_array",
    "array_write",
    "array_read",
    "array_length",
    "tensor_array_to_tensor",
]

_ELEMENTS = {name: element for element, name in ELEMENT_TYPES.items()}


def _element(dtype: DataType) -> str:
    element = _ELEMENTS.get(dtype_name(dtype))
    if element is None:
        raise InvalidArgumentError(f"create_array(): a tensor array cannot hold {dtype!r}")
    return element


def _is_array(value: Any) -> bool:
    return isinstance(value, Value) and isinstance(value.type, TensorArrayType)


def _check_index(function: str, i: Any) -> None:
    if not isinstance(i, Value) or not isinstance(i.type, DenseTensorType):
        raise InvalidArgumentError(
            f"{function}(): argument 'i' must be a Value of the program (an int64 tensor of "
            f"shape [1]), got {type(i).__name__}"
        )
    if dtype_of_type(i.type) is not DataType.INT64:
        raise InvalidArgumentError(
            f"{function}(): argument 'i' must be int64, got {dtype_name(dtype_of_type(i.type))}"
        )


def _eager_index(function: str, i: Any) -> int:
    if not isinstance(i, Tensor):
        raise InvalidArgumentError(
            f"{function}(): argument 'i' must be a Tensor in dynamic mode, got {type(i).__name__}"
        )
    if list(i.shape) != [1]:
        raise InvalidArgumentError(
            f"{function}(): argument 'i' must have shape [1] in dynamic mode, got {list(i.shape)}"
        )
    return int(np.asarray(i.numpy()).reshape(-1)[0])


def create_array(dtype: Any, initialized_list: Sequence[Any] | None = None) -> Any:
    """An array of tensors of ``dtype``, holding ``initialized_list``'s tensors: a Python
    list in dynamic mode, a `pd_op.tensor_array` Value in static mode."""
    items: list[Any] = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise InvalidArgumentError(
                "create_array(): argument 'initialized_list' must be a list or tuple, got "
                f"{type(initialized_list).__name__}"
            )
        items = list(initialized_list)
    for position, item in enumerate(items):
        if not isinstance(item, (Tensor, Value)):
            raise InvalidArgumentError(
                f"create_array(): item {position} of 'initialized_list' must be a Tensor, got "
                f"{type(item).__name__}"
            )
    if not in_static_mode():
        return items
    data_type = to_data_type(dtype, "create_array(): argument 'dtype'")
    op = Builder(current_block()).create(
        "pd_op.create_array",
        [],
        [TensorArrayType(_element(data_type))],
        {"dtype": dtype_name(data_type), "stop_gradient": [True]},
    )
    array = op.results[0]
    for item in items:
        item = op_api("cast")(item, data_type)
        write_op(array, item, array_length(array))
    return array


def write_op(array: Value, x: Value, i: Value) -> None:
    """`pd_op.array_write_` of ``x`` (already of the array's dtype) at ``i``. As PaddlePaddle's
    op builder: the array's type takes ``x``'s dims, and the array needs a gradient once an
    item that needs one is written."""
    array.type = TensorArrayType(array.type.element, tuple(x.type.dims), array.type.layout)
    if not x.stop_gradient:
        array.stop_gradient = False
    Builder(current_block()).create("pd_op.array_write_", [array, x, i], [array.type], {})


def read_op(array: Value, i: Value) -> Value:
    """`pd_op.array_read` of item ``i``: its extents unknown (the array's rank)."""
    type_ = array.type
    result = DenseTensorType(tuple(-1 for _ in type_.dims), type_.element, type_.layout)
    op = Builder(current_block()).create(
        "pd_op.array_read", [array, i], [result], {"stop_gradient": [array.stop_gradient]}
    )
    return op.results[0]


def array_write(x: Any, i: Any, array: Any = None) -> Any:
    """Write ``x`` at position ``i`` of ``array`` (a new one when None) and return the array:
    in dynamic mode a list, where ``i`` may be at most its length (appending); in static mode
    a `pd_op.array_write_`, which grows the array when ``i`` is past its end."""
    if not in_static_mode():
        if not isinstance(x, Tensor):
            raise InvalidArgumentError(
                f"array_write(): argument 'x' must be a Tensor, got {type(x).__name__}"
            )
        index = _eager_index("array_write", i)
        if array is None:
            array = []
        if not isinstance(array, list):
            raise InvalidArgumentError(
                f"array_write(): argument 'array' must be a list in dynamic mode, got "
                f"{type(array).__name__}"
            )
        if not 0 <= index <= len(array):
            raise InvalidArgumentError(
                f"array_write(): index {index} must be in [0, {len(array)}] (the length of "
                "'array') in dynamic mode"
            )
        if index < len(array):
            array[index] = x
        else:
            array.append(x)
        return array
    _check_index("array_write", i)
    if not isinstance(x, Value) or not isinstance(x.type, DenseTensorType):
        raise InvalidArgumentError(
            f"array_write(): argument 'x' must be a Value of a dense tensor, got {type(x).__name__}"
        )
    if array is not None and not _is_array(array):
        raise InvalidArgumentError(
            "array_write(): argument 'array' must be a tensor array Value (create_array)"
        )
    if array is None:
        array = create_array(dtype_of_type(x.type))
    write_op(array, op_api("cast")(x, dtype_of_type(array.type)), i)
    return array


def array_read(array: Any, i: Any) -> Any:
    """The tensor at position ``i`` of ``array``."""
    if not in_static_mode():
        if not isinstance(array, list):
            raise InvalidArgumentError(
                f"array_read(): argument 'array' must be a list in dynamic mode, got "
                f"{type(array).__name__}"
            )
        index = _eager_index("array_read", i)
        if not -len(array) <= index < len(array):
            raise InvalidArgumentError(
                f"array_read(): index {index} is outside the array of {len(array)} item(s)"
            )
        return array[index]
    if not _is_array(array):
        raise InvalidArgumentError(
            "array_read(): argument 'array' must be a tensor array Value (create_array)"
        )
    _check_index("array_read", i)
    return read_op(array, i)


def array_length(array: Any) -> Any:
    """The number of tensors in ``array``: an int in dynamic mode, an int64 Value of shape [1]
    in static mode."""
    if not in_static_mode():
        if not isinstance(array, list):
            raise InvalidArgumentError(
                f"array_length(): argument 'array' must be a list in dynamic mode, got "
                f"{type(array).__name__}"
            )
        return len(array)
    if not _is_array(array):
        raise InvalidArgumentError(
            "array_length(): argument 'array' must be a tensor array Value (create_array)"
        )
    op = Builder(current_block()).create(
        "pd_op.array_length", [array], [DenseTensorType((1,), "i64")], {}
    )
    return op.results[0]


def tensor_array_to_tensor(
    input: Any, axis: int = 1, use_stack: bool = False, name: str | None = None
) -> tuple[Any, Any]:
    """The tensors of ``input`` concatenated (or stacked, ``use_stack``) along ``axis``, and the
    extent each contributes along it (int64 in dynamic mode, as PaddlePaddle's; int32 in
    static mode, PHI's `array_to_tensor`)."""
    if not in_static_mode():
        if not isinstance(input, list) or not input:
            raise InvalidArgumentError(
                "tensor_array_to_tensor(): argument 'input' must be a non-empty list of Tensors "
                "in dynamic mode"
            )
        extents = [int(t.shape[axis]) for t in input]
        out = op_api("stack" if use_stack else "concat")(input, axis)
        return out, to_tensor(np.asarray(extents, dtype=np.int64))
    if not _is_array(input):
        raise InvalidArgumentError(
            "tensor_array_to_tensor(): argument 'input' must be a tensor array Value "
            "(create_array)"
        )
    type_ = input.type
    dims = list(type_.dims)
    rank = len(dims) + 1 if use_stack else len(dims)
    if dims and not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"tensor_array_to_tensor(): argument 'axis' must be in [{-rank}, {rank}), got {axis}"
        )
    if dims:
        if use_stack:
            dims.insert(axis % rank, -1)
        else:
            dims[axis % rank] = -1
    op = Builder(current_block()).create(
        "pd_op.array_to_tensor",
        [input],
        [DenseTensorType(tuple(dims), type_.element, type_.layout), DenseTensorType((-1,), "i32")],
        {"axis": axis, "use_stack": bool(use_stack), "stop_gradient": [input.stop_gradient] * 2},
    )
    return op.results[0], op.results[1]
