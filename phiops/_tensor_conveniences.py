"""PaddlePaddle 3.3.1's Tensor conveniences that are no ``paddle.*`` function: the ``new_*``
creators, the dtype casts as methods (``x.float32()``, ``x.byte()``, ``x.cdouble()``),
``type_as``, ``repeat``, ``requires_grad``, ``retain_grads``, the storage facts (``strides``,
``is_contiguous``, ``data_ptr``, ``itemsize``, ``device``, ``layout``, ...), the version and
history (``inplace_version``, ``grad_fn``) and the raw in-place setters (``copy_``, ``resize_``,
``set_``, ``detach_``); each as PaddlePaddle's eager Tensor (python/paddle/base/dygraph/*.py,
paddle/fluid/pybind/eager_method.cc) has it on CPU.

``TENSOR_ATTRIBUTES`` maps each name to what phiops/_api.py installs on Tensor: a function or
a property.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Sequence

import numpy as np

from phiops._paddle_api import _sizes_as_varargs
from phiops.generated import api as _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor.version import bump_version, version_of

__all__ = ["TENSOR_ATTRIBUTES", "DTYPE_CASTS"]


def _paddle() -> Any:
    """phiops's ``paddle.*`` namespace (phiops/_api.py, loaded before any of these is called)."""
    return sys.modules["phiops._api"]


# -- creators like this tensor ------------------------------------------------------------------


def _new(var: Tensor, size: Any, fill_value: Any, dtype: Any, device: Any, **kwargs: Any) -> Tensor:
    return _paddle().full(
        list(size) if isinstance(size, (tuple, list)) else size,
        fill_value,
        var.dtype if dtype is None else dtype,
        device=var.place if device is None else device,
        **kwargs,
    )


@_sizes_as_varargs("size")
def new_full(
    var: Tensor,
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of shape ``size`` filled with ``fill_value``, of this tensor's dtype and place
    unless given."""
    return _new(
        var, size, fill_value, dtype, device, requires_grad=requires_grad, pin_memory=pin_memory
    )


@_sizes_as_varargs("size")
def new_empty(
    var: Tensor,
    size: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """An uninitialised tensor of shape ``size`` (phiops fills it with zeros), of this tensor's
    dtype and place unless given."""
    return _new(var, size, 0, dtype, device, requires_grad=requires_grad, pin_memory=pin_memory)


@_sizes_as_varargs("size")
def new_ones(
    var: Tensor,
    size: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of ones of shape ``size``, of this tensor's dtype and place unless given."""
    return _new(var, size, 1, dtype, device, requires_grad=requires_grad, pin_memory=pin_memory)


@_sizes_as_varargs("size")
def new_zeros(
    var: Tensor,
    size: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor of zeros of shape ``size``, of this tensor's dtype and place unless given."""
    return _new(var, size, 0, dtype, device, requires_grad=requires_grad, pin_memory=pin_memory)


# -- dtype casts as methods ---------------------------------------------------------------------


def _astype(x: Tensor, dtype: DataType) -> Tensor:
    """PaddlePaddle's ``astype`` of the cast methods: the tensor itself when it has ``dtype``."""
    return x if x.dtype == dtype else _C_ops.cast(x, dtype)


# PaddlePaddle 3.3.1's _supported_dtype_conversions (base/dygraph/math_op_patch.py)
DTYPE_CASTS: dict[str, DataType] = {
    "float16": DataType.FLOAT16,
    "half": DataType.FLOAT16,
    "bfloat16": DataType.BFLOAT16,
    "float32": DataType.FLOAT32,
    "float": DataType.FLOAT32,
    "float64": DataType.FLOAT64,
    "double": DataType.FLOAT64,
    "int8": DataType.INT8,
    "char": DataType.INT8,
    "int16": DataType.INT16,
    "short": DataType.INT16,
    "int32": DataType.INT32,
    "int": DataType.INT32,
    "int64": DataType.INT64,
    "long": DataType.INT64,
    "bool": DataType.BOOL,
    "complex64": DataType.COMPLEX64,
    "complex128": DataType.COMPLEX128,
    "cfloat": DataType.COMPLEX64,
    "cdouble": DataType.COMPLEX128,
}


def _caster(name: str, dtype: DataType) -> Callable[[Tensor], Tensor]:
    def conversion_method(self: Tensor) -> Tensor:
        return _astype(self, dtype)

    conversion_method.__name__ = name
    conversion_method.__doc__ = (
        f"This tensor cast to {dtype.name.lower()} (the tensor itself when it is one already)."
    )
    return conversion_method


_FLOATING = (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)
_COMPLEX = (DataType.COMPLEX64, DataType.COMPLEX128)


def byte(self: Tensor) -> Tensor:
    """This tensor cast to uint8; floats go through int8 first (truncating toward 0 and wrapping
    as PaddlePaddle's), complex values lose their imaginary part."""
    if self.dtype in _FLOATING:
        return _astype(_astype(self, DataType.INT8), DataType.UINT8)
    if self.dtype in _COMPLEX:
        return _astype(_astype(_C_ops.real(self), DataType.INT8), DataType.UINT8)
    return _astype(self, DataType.UINT8)


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """This tensor cast to ``other``'s dtype (itself when it has it)."""
    return _astype(self, other.dtype)


# -- shape ------------------------------------------------------------------------------------


@_sizes_as_varargs("repeats")
def repeat(input: Tensor, repeats: Any) -> Tensor:
    """``tile(input, repeats)``: ``x.repeat(2, 3)`` and ``x.repeat([2, 3])`` alike."""
    return _paddle().tile(input, repeats)


def split_with_sizes(self: Tensor, split_sizes: Sequence[int], dim: int = 0) -> list[Tensor]:
    """Pieces of ``split_sizes`` elements along ``dim`` (they must add up to its size)."""
    for size in split_sizes:
        if size < 0:
            raise ValueError("split_with_sizes expects split_sizes have only non-negative entries")
    total = sum(split_sizes)
    if total != self.shape[dim]:
        raise ValueError(
            f"Split sizes add up to {total} but got the tensor's size of {self.shape[dim]}"
        )
    outs, start = [], 0
    for size in split_sizes:
        outs.append(_paddle().slice(self, axes=[dim], starts=[start], ends=[start + size]))
        start += size
    return outs


def is_same_shape(self: Tensor, y: Tensor, /) -> bool:
    """Whether ``y`` has this tensor's shape."""
    return list(self.shape) == list(y.shape)


# -- autograd ---------------------------------------------------------------------------------


def _get_requires_grad(self: Tensor) -> bool:
    return not self.stop_gradient


def _set_requires_grad(self: Tensor, value: bool) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"requires_grad must be bool, but got {type(value)}")
    self.stop_gradient = not value


def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """Set whether this tensor needs a gradient (``stop_gradient = not requires_grad``);
    returns the tensor."""
    _set_requires_grad(self, requires_grad)
    return self


def retain_grads(self: Tensor, /) -> None:
    """Keep the gradient of this non-leaf tensor in ``.grad`` after backward (a leaf keeps its
    own anyway), accumulated over backward passes as a leaf's."""
    if self.stop_gradient or self.is_leaf:
        return

    def keep(grad: Tensor) -> None:
        kept = grad.detach().clone()
        self._grad = kept if self._grad is None else _C_ops.add(self._grad, kept)

    self.register_hook(keep)


def _grad_fn(self: Tensor) -> Any:
    edge = self._grad_node
    return None if edge is None else edge[0]


def gradient(self: Tensor) -> np.ndarray | None:
    """The gradient as a numpy array (None before a backward pass); deprecated in
    PaddlePaddle for ``.grad``."""
    return None if self.grad is None else np.array(self.grad.numpy())


def detach_(self: Tensor, /) -> Tensor:
    """Take this tensor out of its autograd graph, in place: it becomes a leaf that needs no
    gradient."""
    self._grad_node = None
    self.stop_gradient = True
    return self


# -- storage ----------------------------------------------------------------------------------


def _itemsize(self: Tensor) -> int:
    return self.element_size()


def _strides(self: Tensor) -> list[int]:
    itemsize = self.element_size()
    return [int(s) // itemsize for s in self.array.strides]


def stride(self: Tensor, dim: int | None = None, /) -> Any:
    """The step in elements between neighbours along each dim (``dim``: that one's)."""
    strides = _strides(self)
    return strides if dim is None else strides[dim]


def get_strides(self: Tensor, /) -> list[int]:
    """The step in elements between neighbours along each dim."""
    return _strides(self)


def _root_array(array: Any) -> Any:
    while getattr(array, "base", None) is not None and hasattr(array.base, "strides"):
        array = array.base
    return array


def _data_address(array: Any) -> int:
    if isinstance(array, np.ndarray):
        return int(array.__array_interface__["data"][0])
    return int(array.data.ptr)  # CuPy


def _offset(self: Tensor) -> int:
    """Bytes from the start of the storage this tensor views to its first element."""
    return _data_address(self.array) - _data_address(_root_array(self.array))


def data_ptr(self: Tensor, /) -> int:
    """The address of this tensor's first element."""
    return _data_address(self.array)


def is_contiguous(self: Tensor, /) -> bool:
    """Whether the elements lie in row-major order without gaps."""
    return bool(self.array.flags.c_contiguous)


def contiguous(self: Tensor, /) -> Tensor:
    """This tensor when it is contiguous, else a contiguous copy."""
    return self if is_contiguous(self) else _C_ops.assign(self)


def _place_name(self: Tensor) -> str:
    text = str(self.place)
    return text[len("Place(") : -1] if text.startswith("Place(") else text


def _device(self: Tensor) -> str:
    return _place_name(self)


def get_device(self: Tensor) -> int:
    """The device id of a GPU tensor, -1 for a CPU one."""
    name = _place_name(self)
    return -1 if name == "cpu" else int(name.rsplit(":", 1)[-1])


def _is_cuda(self: Tensor) -> bool:
    return _place_name(self).startswith("gpu")


def _layout(self: Tensor) -> str:
    return self.meta.layout.name if self.meta.layout.name != "UNDEFINED" else "NCHW"


def dense_dim(self: Tensor, /) -> int:
    """The number of dense dims: every dim of a dense tensor."""
    return len(self.shape)


def sparse_dim(self: Tensor, /) -> int:
    """The number of sparse dims: none for a dense tensor."""
    return 0


def _inplace_version(self: Tensor) -> int:
    return version_of(self._impl)


def value(self: Tensor) -> Tensor:
    """The tensor's values: a dense tensor is its own."""
    return self


def get_tensor(self: Tensor, /) -> Any:
    """The DenseTensor under this tensor."""
    return self._impl


# -- raw in-place setters -----------------------------------------------------------------------


def _raw_write(self: Tensor, source: Tensor) -> Tensor:
    """Give ``self`` a copy of ``source``'s values and meta outside autograd, as PaddlePaddle's
    raw tensor copies; its version goes up."""
    with _paddle().no_grad():
        copied = _C_ops.assign(source)
    self.array, self.meta = copied.array, copied.meta
    bump_version(self)
    return self


def copy_(self: Tensor, src: Tensor, blocking: bool = True, /) -> Tensor:
    """Copy ``src``'s values and shape into this tensor (the dtypes must agree)."""
    if not isinstance(src, Tensor):
        raise InvalidArgumentError(f"copy_: src must be a Tensor, got {type(src).__name__}")
    if src.dtype != self.dtype:
        raise InvalidArgumentError(
            f"copy_: src has dtype {src.dtype.name.lower()}, this tensor "
            f"{self.dtype.name.lower()}; a copy cannot change the dtype (cast src first)"
        )
    return _raw_write(self, src)


def resize_(
    x: Tensor, shape: Sequence[int], fill_zero: bool = False, name: str | None = None
) -> Tensor:
    """Give ``x`` the shape ``shape``: its elements in row-major order, cut off or followed by
    zeros (PaddlePaddle leaves new elements unset unless ``fill_zero``; phiops zeros them)."""
    shape = [int(s) for s in shape]
    if any(s < 0 for s in shape):
        raise InvalidArgumentError(f"resize_: shape must have no negative dims, got {shape}")
    count = int(np.prod(shape, dtype=np.int64))
    flat = _C_ops.reshape(x.detach(), [-1])
    kept = flat[: min(count, flat.shape[0])] if flat.shape[0] else flat
    if count > kept.shape[0]:
        padding = _C_ops.full([count - kept.shape[0]], 0, x.dtype)
        kept = _C_ops.concat([kept, padding], 0)
    return _raw_write(x, _C_ops.reshape(kept, shape))


def set_(
    x: Tensor,
    source: Tensor | None = None,
    shape: Sequence[int] | None = None,
    stride: Sequence[int] | None = None,
    offset: int = 0,
    name: str | None = None,
) -> Tensor:
    """Make ``x`` a tensor of ``source``'s values (of no elements when None), of ``shape``
    (``source``'s by default). Only contiguous results: a ``stride`` other than the row-major
    one or an ``offset`` raises UnimplementedError."""
    if source is None:
        return _raw_write(x, _C_ops.full([0], 0, x.dtype))
    if not isinstance(source, Tensor):
        raise InvalidArgumentError(f"set_: source must be a Tensor, got {type(source).__name__}")
    if source.dtype != x.dtype:
        raise InvalidArgumentError(
            f"set_: source has dtype {source.dtype.name.lower()}, x {x.dtype.name.lower()}; "
            "they must agree"
        )
    shape = list(source.shape) if shape is None else [int(s) for s in shape]
    row_major = [int(np.prod(shape[i + 1 :], dtype=np.int64)) for i in range(len(shape))]
    if offset != 0 or (stride is not None and list(stride) != row_major):
        raise UnimplementedError(
            "set_: a stride other than the row-major one, or an offset, is not implemented "
            "(phiops tensors hold contiguous arrays)"
        )
    if int(np.prod(shape, dtype=np.int64)) > int(np.prod(source.shape, dtype=np.int64)):
        raise InvalidArgumentError(
            f"set_: shape {shape} needs more elements than source has ({source.shape})"
        )
    flat = _C_ops.reshape(source.detach(), [-1])
    return _raw_write(x, _C_ops.reshape(flat[: int(np.prod(shape, dtype=np.int64))], shape))


def _no_gradient_needed(self: Tensor) -> None:
    if not self.stop_gradient:
        raise RuntimeError("Cannot apply function on a tensor that required gradient.")


def apply(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """``func(self)``, for a tensor that needs no gradient."""
    _no_gradient_needed(self)
    return func(self)


def apply_(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """Write ``func(self)`` into this tensor (which needs no gradient) and return it."""
    _no_gradient_needed(self)
    return _raw_write(self, func(self))


def _get_data(self: Tensor) -> Tensor:
    return self.detach()


def _set_data(self: Tensor, value: Tensor) -> None:
    _raw_write(self, value)


TENSOR_ATTRIBUTES: dict[str, Any] = {
    "new_full": new_full,
    "new_empty": new_empty,
    "new_ones": new_ones,
    "new_zeros": new_zeros,
    **{name: _caster(name, dtype) for name, dtype in DTYPE_CASTS.items()},
    "byte": byte,
    "uint8": byte,
    "type_as": type_as,
    "repeat": repeat,
    "split_with_sizes": split_with_sizes,
    "is_same_shape": is_same_shape,
    "requires_grad": property(
        _get_requires_grad,
        _set_requires_grad,
        doc="Whether this tensor needs a gradient (not stop_gradient).",
    ),
    "requires_grad_": requires_grad_,
    "retain_grads": retain_grads,
    "grad_fn": property(_grad_fn, doc="The grad node that made this tensor (None: a leaf)."),
    "gradient": gradient,
    "detach_": detach_,
    "itemsize": property(_itemsize, doc="Bytes per element."),
    "strides": property(_strides, doc="The step in elements between neighbours along each dim."),
    "stride": stride,
    "get_strides": get_strides,
    "offset": property(_offset, doc="Bytes from the start of the storage to the first element."),
    "data_ptr": data_ptr,
    "is_contiguous": is_contiguous,
    "contiguous": contiguous,
    "device": property(_device, doc="The place as a string: 'cpu', 'gpu:0'."),
    "get_device": get_device,
    "is_cuda": property(_is_cuda, doc="Whether the tensor is on a GPU."),
    "layout": property(_layout, doc="The data layout's name ('NCHW' unless set)."),
    "dense_dim": dense_dim,
    "sparse_dim": sparse_dim,
    "inplace_version": property(
        _inplace_version, doc="How many times the storage was written in place."
    ),
    "value": value,
    "get_tensor": get_tensor,
    "copy_": copy_,
    "resize_": resize_,
    "set_": set_,
    "apply": apply,
    "apply_": apply_,
    "data": property(
        _get_data,
        _set_data,
        doc="This tensor's values outside autograd (sharing its storage); setting it copies "
        "the given tensor's values and shape in.",
    ),
}
