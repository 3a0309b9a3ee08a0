"""Tensor: the user-facing tensor, a DenseTensor with autograd state.

One object per tensor: ``Tensor`` is a ``DenseTensor`` (its array, interned meta and version
counter in the base class's slots) with the autograd slots added, so wrapping a kernel's output
allocates one object. ``_impl`` is the tensor itself, kept for code that spelled the
DenseTensor behind a Tensor that way; the runtime and the generated API read ``array`` and
``meta`` directly.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from phiops.runtime.common import Backend, DataType, Place, to_data_type, to_place
from phiops.runtime.common.promotion import matmul_operator_dtype, scalar_result_dtype
from phiops.runtime.dispatch.op_def import get_op_def
from phiops.runtime.dispatch.tensor_type import install_tensor_type
from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.version import bump_version, share_storage
from phiops.runtime.eager.scalar_operands import ScalarOperators, python_number
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = ["Tensor", "TENSOR_METHODS", "to_tensor", "wrap_array", "install_operators"]


_DENSE = TensorKind.DENSE


class Tensor(DenseTensor):
    """A dense tensor: data on a Place, a meta, and autograd state (``stop_gradient``, ``grad``)."""

    __slots__ = ("stop_gradient", "_grad", "_grad_node", "name", "__weakref__")

    # numpy defers to Tensor's reflected operators: np.float32(2) * t is a Tensor, graph kept.
    __array_ufunc__ = None
    __array_priority__ = 100

    stop_gradient: bool

    def __init__(
        self, data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True
    ) -> None:
        made = to_tensor(data, dtype=dtype, place=place)
        self.array = made.array
        self.meta = made.meta
        self._version = 0
        self._base = None
        self.stop_gradient = stop_gradient
        self._grad = None
        self._grad_node = None
        self.name = None

    @property
    def _impl(self) -> Tensor:
        """The tensor itself: its DenseTensor part (once a separate object)."""
        return self

    # -- meta -------------------------------------------------------------------------------
    @property
    def shape(self) -> list[int]:
        """The dims as a list, as PaddlePaddle returns them (a SelectedRows tensor's are its
        value's, ``[len(rows()), ...]``, as PaddlePaddle shows them)."""
        meta = self.meta
        if meta.kind is _DENSE:
            return list(meta.dims)
        return list(self.array.dims)

    # -- kind -------------------------------------------------------------------------------
    def is_dense(self) -> bool:
        """Whether this is a dense tensor (every tensor but a SelectedRows gradient, here)."""
        return self.meta.kind is _DENSE

    def is_selected_rows(self) -> bool:
        """Whether this is a SelectedRows tensor: the gradient of an ``Embedding(...,
        sparse=True)`` weight, some rows of a tall tensor (``rows()`` names them)."""
        return self.meta.kind is TensorKind.SELECTED_ROWS

    def is_sparse(self) -> bool:
        """Whether this is a sparse COO or CSR tensor."""
        return self.meta.kind in (TensorKind.SPARSE_COO, TensorKind.SPARSE_CSR)

    def is_sparse_coo(self) -> bool:
        return self.meta.kind is TensorKind.SPARSE_COO

    def is_sparse_csr(self) -> bool:
        return self.meta.kind is TensorKind.SPARSE_CSR

    def rows(self) -> list[int]:
        """The row indices of a SelectedRows tensor, in the order of its value's rows (a row
        may repeat until the rows are merged); InvalidArgumentError for any other tensor."""
        if self.meta.kind is not TensorKind.SELECTED_ROWS:
            raise InvalidArgumentError(
                f"rows(): only a SelectedRows tensor has rows, this one is a "
                f"{self.meta.kind.title}"
            )
        return [int(row) for row in self.array.to_host_rows()]

    @property
    def ndim(self) -> int:
        return len(self.meta.dims)

    @property
    def size(self) -> int:
        """Number of elements."""
        return self.meta.numel

    @property
    def dtype(self) -> DataType:
        return self.meta.dtype

    @property
    def place(self) -> Place:
        return self.meta.place

    def numel(self) -> int:
        return self.meta.numel

    # -- data -------------------------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The data as a numpy array: on CPU a read-only view of the tensor's storage (no copy;
        writing into it raises numpy's "assignment destination is read-only", since a write
        would silently change values that grad nodes saved), a copy for GPU tensors. Use
        ``numpy().copy()`` for an array to modify, or ``set_value`` to change the tensor."""
        if self.meta.kind is not _DENSE:
            return self.array.to_numpy()  # a SelectedRows's value, as PaddlePaddle gives it
        array = self.to_numpy()
        if array is self.array:
            array = array.view()
            array.flags.writeable = False
        return array

    def item(self) -> Any:
        """The single element as a Python number."""
        if self.meta.numel != 1:
            raise InvalidArgumentError(
                f"item() needs a tensor with exactly 1 element, this one has shape {self.shape}"
            )
        return self.numpy().reshape(()).item()

    def set_value(self, value: Any) -> None:
        """Overwrite this tensor's data in place with ``value`` (same shape; cast to this dtype).

        The storage is shared with views and with grad nodes that saved this tensor: its version
        goes up, so a backward pass that needs the old values raises instead of using new ones.
        """
        from phiops.runtime.backends import assign_array
        from phiops.runtime.device import module_of

        array = value.numpy() if isinstance(value, Tensor) else np.asarray(value)
        if tuple(array.shape) != self.meta.dims:
            raise InvalidArgumentError(
                f"set_value: value has shape {list(array.shape)}, the tensor has shape {self.shape}"
            )
        written = assign_array(self.array, module_of(self.array).asarray(array))
        if written is not self.array:  # a device whose arrays are immutable gave a new one
            self.array = written
        bump_version(self)

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def __len__(self) -> int:
        if not self.meta.dims:
            raise TypeError("len() of a 0-D tensor")
        return self.meta.dims[0]

    def __bool__(self) -> bool:
        if self.meta.numel != 1:
            raise InvalidArgumentError(
                f"the truth value of a tensor with shape {self.shape} is ambiguous; use all()/any()"
            )
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if not self.meta.dtype.is_integer:
            raise TypeError(
                f"only integer tensors can be used as an index, this one is {self.dtype}"
            )
        return int(self.item())

    # -- autograd ---------------------------------------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient (None until a backward pass computed one)."""
        return self._grad

    @property
    def is_leaf(self) -> bool:
        """True unless an op that records gradients produced this tensor."""
        from phiops.runtime.autograd.grad_node import AccumulationNode

        return self._grad_node is None or isinstance(self._grad_node[0], AccumulationNode)

    def backward(
        self,
        grad_tensor: Tensor | None = None,
        retain_graph: bool = False,
        *,
        dump_backward_graph_path: str | None = None,
    ) -> None:
        """Accumulate the gradient of this tensor into ``.grad`` of every leaf it depends on.

        ``grad_tensor`` is the gradient of this tensor (ones when None); after the pass the
        graph's saved tensors are freed unless ``retain_graph``. Dumping the backward graph
        (``dump_backward_graph_path``) is not implemented.
        """
        from phiops.runtime.autograd.engine import run_backward

        if dump_backward_graph_path is not None:
            raise UnimplementedError(
                "backward: dump_backward_graph_path (writing the backward graph) is not "
                "implemented; pass None"
            )

        run_backward([self], [grad_tensor], retain_graph)

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        """Reset ``.grad``: to zeros in place (PaddlePaddle's default) or, with
        ``set_to_zero=False``, to None."""
        from phiops.runtime.autograd.engine import clear_grad

        clear_grad(self, set_to_zero)

    def clear_grad(self) -> None:
        """Reset ``.grad`` to zeros in place (``clear_gradient(set_to_zero=False)`` sets it to
        None), as PaddlePaddle's ``clear_grad()``."""
        self.clear_gradient(True)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> _HookHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a Tensor it returns replaces
        the gradient. Returns a handle whose ``remove()`` unregisters the hook."""
        from phiops.runtime.autograd.record import edge_of

        if not callable(hook):
            raise InvalidArgumentError(
                f"register_hook: hook must be callable (grad) -> Tensor | None, got "
                f"{type(hook).__name__} {hook!r}"
            )
        if self.stop_gradient:
            raise InvalidArgumentError(
                "register_hook: the tensor has stop_gradient=True, so it gets no gradient"
            )
        edge = edge_of(self)
        if edge is None:
            raise InvalidArgumentError(
                f"register_hook: a {self.dtype.name.lower()} tensor never gets a gradient"
            )
        node, slot = edge
        hooks = node.hooks.setdefault(slot, [])
        hooks.append(hook)
        return _HookHandle(hooks, hook)

    def detach(self) -> Tensor:
        """A new tensor sharing this one's data and its version counter, outside any autograd
        graph: writing it in place changes this tensor too, and a backward that saved this
        tensor then raises instead of using the new values (as in PaddlePaddle)."""
        detached = wrap_array(self.array, self.meta)
        share_storage(detached, self)
        return detached

    # -- display ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        body = np.array2string(self.numpy(), separator=", ", prefix="       ")
        return (
            f"Tensor(shape={self.shape}, dtype={self.dtype.name.lower()}, place={self.place!r}, "
            f"stop_gradient={self.stop_gradient},\n       {body})"
        )

    __hash__ = object.__hash__


class _HookHandle:
    """Returned by ``Tensor.register_hook``; ``remove()`` unregisters the hook."""

    __slots__ = ("hooks", "hook")

    def __init__(
        self,
        hooks: list[Callable[[Tensor], Tensor | None]],
        hook: Callable[[Tensor], Tensor | None],
    ) -> None:
        self.hooks = hooks
        self.hook = hook

    def remove(self) -> bool:
        """True if the hook was still registered."""
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)
            return True
        return False


# What the class bodies define (Tensor's and its DenseTensor bases', whose slots hold the data):
# generated methods of the same name do not replace them.
_HAND_WRITTEN = frozenset(name for cls in Tensor.__mro__[:-1] for name in vars(cls))

_new_tensor = object.__new__


def python_wrap_array(array: Any, meta: DenseTensorMeta) -> Tensor:
    """A new Tensor around ``array`` whose meta is already known (the dispatch hot path).
    ``wrap_array`` is this, or the same in C where runtime.kernels._native is built."""
    tensor = _new_tensor(Tensor)
    tensor.array = array
    tensor.meta = meta
    tensor._version = 0
    tensor._base = None
    tensor.stop_gradient = True
    tensor._grad = None
    tensor._grad_node = None
    tensor.name = None
    return tensor


# The slots wrap_array fills, in the order runtime.kernels._native's wrap_tensor takes them.
WRAPPED_SLOTS = (
    "array",
    "meta",
    "_version",
    "_base",
    "stop_gradient",
    "_grad",
    "_grad_node",
    "name",
)


def _native_wrap() -> Callable[[Any, DenseTensorMeta], Tensor]:
    """The compiled wrap_array where the optional extension is built (one C call instead of a
    Python frame and eight attribute stores), else ``python_wrap_array``."""
    try:
        from phiops.runtime.kernels import _native
    except ImportError:
        return python_wrap_array
    _native.configure_tensor(Tensor, WRAPPED_SLOTS)
    return _native.wrap_tensor


wrap_array = _native_wrap()
# Dispatch and autograd make their outputs as Tensors through this (they sit below this layer).
install_tensor_type(Tensor, wrap_array)


def to_tensor(
    data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True
) -> Tensor:
    """A tensor from a Python number, nested list, numpy array or another Tensor.

    Python floats take the default dtype (float32 unless paddle.set_default_dtype changed it),
    Python complex numbers its complex counterpart (complex64 for float32, complex128 for
    float64) and Python ints int64, as in PaddlePaddle; a numpy
    array keeps its dtype unless ``dtype`` is given. The data is copied.
    """
    from phiops.runtime.common.default_dtype import default_data_type
    from phiops.runtime.device import default_place, to_backend

    if isinstance(data, Tensor):
        array = np.array(data.numpy(), copy=True)
    else:
        try:
            array = np.array(data, copy=True)
        except (ValueError, TypeError) as error:
            raise InvalidArgumentError(
                f"to_tensor: cannot convert {type(data).__name__}: {error}"
            ) from None
        if dtype is None and not isinstance(data, (np.ndarray, np.generic)):
            if array.dtype == np.float64:
                array = array.astype(default_data_type().numpy_dtype)
            elif array.dtype == np.complex128:
                array = array.astype(default_data_type().to_complex.numpy_dtype)
            elif array.dtype.kind in "U S O".split():
                raise InvalidArgumentError(
                    f"to_tensor: data of numpy dtype {array.dtype} is not numeric"
                )
    if dtype is not None:
        array = array.astype(to_data_type(dtype, "to_tensor(dtype)").numpy_dtype)
    target = to_place(place, "to_tensor(place)")
    if not target.is_defined:
        target = default_place()  # paddle.set_device's choice (CPU unless set)
    if target.backend is not Backend.CPU:
        array = to_backend(array, target)
    tensor = wrap_array(array, DenseTensor(array).meta)
    tensor.stop_gradient = stop_gradient
    return tensor


# The names of the methods install_operators gave Tensor from the generated API (every op whose
# first argument is a Tensor, and the in-place variants); static Values have the same ones.
TENSOR_METHODS: list[str] = []


def _number_tensor(value: Any, like: Tensor, dtype: DataType) -> Tensor:
    """A 0-D tensor of ``dtype`` holding ``value``, on ``like``'s place."""
    from phiops.runtime.device import to_backend

    array = to_backend(np.asarray(value, dtype=dtype.numpy_dtype), like.place)
    return wrap_array(array, DenseTensor(array).meta)


def _is_number(value: Any) -> bool:
    return python_number(value) is not None or (isinstance(value, np.ndarray) and value.ndim == 0)


def _number_or_array(value: Any) -> Any:
    """``value`` as ScalarOperators.apply takes it: a numpy scalar as it is (PaddlePaddle casts
    some kinds into the tensor's dtype), any other number as the Python number it holds."""
    number = python_number(value)
    return value if number is None or isinstance(value, np.generic) else number


def _operand(like: Tensor, value: Any) -> Tensor:
    """``value`` as a tensor for a binary operator with ``like``: numbers take the dtype
    PaddlePaddle gives them (runtime/common/promotion.py scalar_result_dtype)."""
    if isinstance(value, Tensor):
        return value
    number = python_number(value)
    if number is not None:
        return _number_tensor(number, like, scalar_result_dtype(like.dtype, number))
    if isinstance(value, (np.ndarray, list, tuple)):
        return to_tensor(
            value, dtype=None if isinstance(value, np.ndarray) else like.dtype, place=like.place
        )
    raise TypeError(f"unsupported operand type for a Tensor operator: {type(value).__name__}")


def _matmul_operands(api: ModuleType, x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """``x @ y``'s operands cast as PaddlePaddle 3.3.1's ``@`` casts them
    (runtime/common/promotion.py ``matmul_operator_dtype``)."""
    dtype = matmul_operator_dtype(x.dtype, y.dtype)
    if dtype is None:
        return x, y
    return (
        x if x.dtype is dtype else api.cast(x, dtype),
        y if y.dtype is dtype else api.cast(y, dtype),
    )


def install_operators(
    api: ModuleType,
    inplace: ModuleType | None = None,
    methods: Sequence[str] = (),
    inplace_methods: Sequence[str] = (),
    operators: Sequence[tuple[Any, str]] = (),
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Give Tensor its Python operators and methods, implemented by the generated API in ``api``
    (those whose op ``api`` defines): ``x.op(...)`` is ``api.op(x, ...)`` for each of
    ``methods``, ``x.op_(...)`` is ``inplace.op_(x, ...)`` for each of ``inplace_methods``. A
    method Tensor's class defines by hand (``set_value``) keeps its own meaning. ``operators``
    are the registry's (OperatorInfo, op) pairs (``python_operators()``: ``__add__`` calls
    ``add``, a reflected one with the operands swapped); ``aliases`` its Tensor method aliases
    (``method_aliases()``)."""

    scalars = ScalarOperators(api, _number_tensor)

    def binary(fn: Callable[..., Tensor], operator: Any) -> Callable[[Tensor, Any], Tensor]:
        op = fn.__name__
        traits = get_op_def(op).info.traits

        def method(self: Tensor, other: Any) -> Tensor:
            if op != "matmul" and not isinstance(other, Tensor) and _is_number(other):
                return scalars.apply(op, operator, traits, self, _number_or_array(other))
            other = _operand(self, other)
            if op == "matmul":
                return fn(*_matmul_operands(api, self, other))
            return fn(self, other)

        method.__doc__ = f"Calls ``{fn.__name__}``."
        return method

    def reflected(fn: Callable[..., Tensor], operator: Any) -> Callable[[Tensor, Any], Tensor]:
        op = fn.__name__
        traits = get_op_def(op).info.traits

        def method(self: Tensor, other: Any) -> Tensor:
            if op != "matmul" and _is_number(other):
                return scalars.apply(op, operator, traits, self, _number_or_array(other))
            other = _operand(self, other)
            if op == "matmul":
                return fn(*_matmul_operands(api, other, self))
            return fn(other, self)

        method.__doc__ = f"Calls ``{fn.__name__}`` with the operands swapped."
        return method

    available = set(getattr(api, "__all__", ()))
    for operator, op in operators:
        if op in available:
            make = reflected if operator.reflected else binary
            setattr(Tensor, operator.dunder, make(getattr(api, op), operator))
    if "scale" in available:
        Tensor.__neg__ = lambda self: api.scale(self, -1.0, 0.0, True)
    if "abs" in available:
        Tensor.__abs__ = lambda self: api.abs(self)
    if "logical_not" in available:
        Tensor.__invert__ = lambda self: api.logical_not(self)
    if "bitwise_and" in available:
        _install_bitwise_operators(api)
    Tensor.__hash__ = object.__hash__
    installed = [
        (name, getattr(api, name))
        for name in methods
        if name in available and name not in _HAND_WRITTEN
    ]
    if inplace is not None:
        installed += [
            (name, getattr(inplace, name)) for name in inplace_methods if name not in _HAND_WRITTEN
        ]
    for name, function in installed:
        setattr(Tensor, name, function)
    TENSOR_METHODS[:] = [name for name, _ in installed]
    from phiops.runtime.eager.tensor_basics import install_tensor_basics

    install_tensor_basics(api, inplace, aliases or {})
    if {"slice", "strided_slice", "index_select", "gather_nd", "index_put"} <= available:
        from phiops.runtime.eager.indexing import install_indexing

        install_indexing(api)


def _install_bitwise_operators(api: ModuleType) -> None:
    """``& | ^ ~`` as PaddlePaddle 3.3.1 has them: bitwise on integer tensors and bool ones
    (logical there); ``3 & t`` takes the tensor's dtype while ``t & 3`` is refused, as there
    (and ``np.int32(3) & t`` too)."""

    def operator(bitwise: Callable[..., Tensor], symbol: str, reflected: bool) -> Any:
        def method(self: Tensor, other: Any) -> Tensor:
            if isinstance(other, Tensor):
                return bitwise(other, self) if reflected else bitwise(self, other)
            number = python_number(other)
            if reflected and isinstance(number, (bool, int)) and not isinstance(other, np.generic):
                return bitwise(_number_tensor(number, self, self.dtype), self)
            if number is not None or reflected or isinstance(other, np.ndarray) and not other.ndim:
                raise InvalidArgumentError(
                    f"{bitwise.__name__}(): Tensor {symbol} {type(other).__name__} is not "
                    f"supported (PaddlePaddle refuses it too); use {bitwise.__name__}(x, "
                    "to_tensor(value, dtype=x.dtype))"
                )
            return bitwise(self, _operand(self, other))

        method.__doc__ = (
            f"``{bitwise.__name__}``{' with the operands swapped' if reflected else ''}."
        )
        return method

    for name, symbol, fn in (
        ("and", "&", api.bitwise_and),
        ("or", "|", api.bitwise_or),
        ("xor", "^", api.bitwise_xor),
    ):
        setattr(Tensor, f"__{name}__", operator(fn, symbol, False))
        setattr(Tensor, f"__r{name}__", operator(fn, symbol, True))
    Tensor.__invert__ = lambda self: (
        api.bitwise_not(self) if self.dtype.is_integer else api.logical_not(self)
    )
