"""PaddlePaddle 3.3.1's ``paddle.*`` names that are no tensor computation of their own: the
torch-style tensor type factories (``paddle.FloatTensor([1, 2])``), ``paddle.Size``, aliases of
functions kept elsewhere (``ger`` of ``outer``, ``conv1d`` and ``adaptive_avg_pool1d`` of
``paddle.nn.functional``, the autocast queries of ``paddle.amp``), ``scatter_reduce`` (PaddlePaddle's
``put_along_axis`` call), DLPack exchange (``to_dlpack``/``from_dlpack``) and ``paddle.batch``.
Each follows its namesake in PaddlePaddle's python/paddle.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = [
    "FloatTensor",
    "DoubleTensor",
    "HalfTensor",
    "BFloat16Tensor",
    "ByteTensor",
    "CharTensor",
    "ShortTensor",
    "IntTensor",
    "LongTensor",
    "BoolTensor",
    "Size",
    "ger",
    "scatter_reduce",
    "to_dlpack",
    "from_dlpack",
    "batch",
    "disable_signal_handler",
]

# the ones PaddlePaddle 3.3.1 also installs as Tensor methods
TENSOR_METHODS = ("scatter_reduce",)


def _paddle() -> Any:
    """phiops's ``paddle.*`` namespace (phiops/_api.py, loaded before any of these is called)."""
    return sys.modules["phiops._api"]


def _dtype_tensor_factory(dtype: DataType) -> type:
    """PaddlePaddle's ``dtype_tensor_factory``: called with nothing, an empty 1-D tensor; with a
    list or tuple, a tensor of those values; with ints, an (unset: zeros) tensor of that shape;
    otherwise ``paddle.Tensor(*args, dtype=dtype, **kwargs)``."""

    class _DtypeTensorFactory:
        def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:  # type: ignore[misc]
            P = _paddle()
            if len(args) == 0:
                return P.empty(shape=[0], dtype=dtype)
            if len(args) == 1 and isinstance(args[0], (list, tuple)):
                return P.to_tensor(args[0], dtype=dtype)
            if all(isinstance(arg, int) for arg in args):
                return P.empty(shape=list(args), dtype=dtype)
            kwargs.setdefault("dtype", dtype)
            return P.Tensor(*args, **kwargs)

    _DtypeTensorFactory.__name__ = _DtypeTensorFactory.__qualname__ = "_DtypeTensorFactory"
    return _DtypeTensorFactory


FloatTensor = _dtype_tensor_factory(DataType.FLOAT32)
DoubleTensor = _dtype_tensor_factory(DataType.FLOAT64)
HalfTensor = _dtype_tensor_factory(DataType.FLOAT16)
BFloat16Tensor = _dtype_tensor_factory(DataType.BFLOAT16)
ByteTensor = _dtype_tensor_factory(DataType.UINT8)
CharTensor = _dtype_tensor_factory(DataType.INT8)
ShortTensor = _dtype_tensor_factory(DataType.INT16)
IntTensor = _dtype_tensor_factory(DataType.INT32)
LongTensor = _dtype_tensor_factory(DataType.INT64)
BoolTensor = _dtype_tensor_factory(DataType.BOOL)


class Size(list):
    """A shape: a list of ints that prints as ``paddle.Size([2, 3])`` and has ``numel()``."""

    def __init__(self, iterable: Iterable[int] = (), /) -> None:
        values = list(iterable)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(
                    f"paddle.Size() takes an iterable of 'int' (item 0 is '{type(value).__name__}')"
                )
        super().__init__(int(v) for v in values)

    def numel(self) -> int:
        """The number of elements of a tensor of this shape."""
        count = 1
        for extent in self:
            count *= extent
        return count

    def __repr__(self) -> str:
        return f"paddle.Size({list(self)})"

    __str__ = __repr__


def ger(x: Tensor, y: Tensor, name: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """``paddle.outer``: the outer product of two vectors."""
    return _paddle().outer(x, y, out=out)


_SCATTER_REDUCTIONS = {
    "sum": "add",
    "prod": "multiply",
    "mean": "mean",
    "amin": "amin",
    "amax": "amax",
}


def scatter_reduce(
    input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """``input`` with the elements of ``src`` reduced (``'sum'``, ``'prod'``, ``'mean'``,
    ``'amin'``, ``'amax'``) into the places ``index`` names along ``dim``; ``include_self``
    counts ``input``'s own element in each reduction. PaddlePaddle's ``put_along_axis`` call
    (without broadcasting)."""
    if reduce not in _SCATTER_REDUCTIONS:
        raise InvalidArgumentError(
            f"scatter_reduce: reduce must be one of {sorted(_SCATTER_REDUCTIONS)}, got {reduce!r}"
        )
    return _paddle().put_along_axis(
        input, index, src, dim, _SCATTER_REDUCTIONS[reduce], include_self, broadcast=False
    )


class _DLPackCapsule:
    """A DLPack capsule with the protocol's two methods, so numpy's ``from_dlpack`` takes it."""

    def __init__(self, capsule: Any, device: tuple[int, int]) -> None:
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **_: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


_DLPACK_CPU = 1


def to_dlpack(x: Tensor) -> Any:
    """A DLPack capsule of ``x``'s storage (shared, not copied)."""
    if not isinstance(x, Tensor):
        raise TypeError(
            f"The type of 'x' in to_dlpack must be paddle.Tensor, but received {type(x)}."
        )
    return x.array.__dlpack__()


def from_dlpack(dlpack: Any, *, device: Any = None, copy: bool | None = None) -> Tensor:
    """A tensor sharing the storage of ``dlpack``: a DLPack capsule (from ``to_dlpack``) or an
    object with ``__dlpack__`` (a numpy or CuPy array, a tensor of another library). CPU
    storage only unless CuPy is installed; ``copy=True`` copies, and ``device`` moves the
    result there."""
    if hasattr(dlpack, "__dlpack__"):
        source = dlpack
        kind = dlpack.__dlpack_device__()[0]
    elif type(dlpack).__name__ == "PyCapsule":
        source, kind = _DLPackCapsule(dlpack, (_DLPACK_CPU, 0)), _DLPACK_CPU
    else:
        raise TypeError(
            "The type of 'dlpack' in from_dlpack must be PyCapsule object or an object with "
            f"__dlpack__, but received {type(dlpack)}."
        )
    if kind == _DLPACK_CPU:
        array = np.from_dlpack(source)
    else:
        try:
            import cupy
        except ImportError:
            raise UnimplementedError(
                f"from_dlpack: storage on DLPack device type {kind} needs CuPy, which is not "
                "installed"
            ) from None
        array = cupy.from_dlpack(source)
    if copy:
        array = array.copy()
    from phiops.runtime.eager.tensor import to_tensor

    tensor = to_tensor(array) if copy else _shared_tensor(array)
    return tensor if device is None else tensor.to(device)


def _shared_tensor(array: Any) -> Tensor:
    from phiops.runtime.eager.tensor import wrap_array
    from phiops.runtime.tensor.dense_tensor import DenseTensor

    return wrap_array(array, DenseTensor(array).meta)


def batch(reader: Callable, batch_size: int, drop_last: bool = False) -> Callable:
    """A reader of lists of ``batch_size`` items of ``reader``'s (the last one shorter unless
    ``drop_last``), as PaddlePaddle's ``paddle.batch``."""
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(
            "batch_size should be a positive integer value, " f"but got batch_size={batch_size}"
        )

    def batch_reader() -> Any:
        items = []
        for instance in reader():
            items.append(instance)
            if len(items) == batch_size:
                yield items
                items = []
        if not drop_last and len(items) != 0:
            yield items

    return batch_reader


def disable_signal_handler() -> None:
    """PaddlePaddle's switch-off of its C++ signal handlers: phiops installs none, so there is
    nothing to do."""
