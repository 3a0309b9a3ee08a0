"""Kernel: a registered function with its key and argument definition."""

from __future__ import annotations

import inspect
import threading
import weakref
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from phiops.runtime.common import Backend, DataLayout, DataType, Place
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.tensor.kinds import TensorKind

__all__ = [
    "Array",
    "KernelContext",
    "array_ufunc",
    "swap_wanted_outputs",
    "wanted_outputs",
    "TensorArgDef",
    "AttributeArgDef",
    "KernelArgsDef",
    "Kernel",
    "args_def_from_signature",
    "kernel_kind",
]


class Array:
    """Annotation marker for a tensor argument or result of a kernel: a numpy or CuPy array."""


class _Wanted(threading.local):
    """Which outputs the running grad kernel must compute, per thread (None: all of them)."""

    mask: tuple[bool, ...] | None = None


_WANTED = _Wanted()


def wanted_outputs() -> tuple[bool, ...] | None:
    """The mask ``outputs_wanted`` set for this thread, None when every output is wanted."""
    return _WANTED.mask


def swap_wanted_outputs(mask: tuple[bool, ...] | None) -> tuple[bool, ...] | None:
    """Set this thread's mask, returning the previous one to restore after the call: the grad
    kernel run next computes only the outputs whose ``mask`` entry is True and returns None for
    the others, as PHI passes a null output pointer for a gradient nobody asked for. The autograd
    engine sets it around exactly one backward op call."""
    previous = _WANTED.mask
    _WANTED.mask = mask
    return previous


def array_ufunc(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a kernel whose whole body is ``ctx.xp.<name>(*arrays)``: a plan may run that ufunc
    of its array module directly, without the kernel's own Python frame (a simple elementwise
    op then costs what the ufunc costs)."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.xp_ufunc = name  # type: ignore[attr-defined]
        return fn

    return mark


class KernelContext:
    """What a kernel may use besides its arguments: the array module and the place."""

    __slots__ = ("xp", "place", "backend")

    def __init__(self, xp: ModuleType, place: Place) -> None:
        self.xp = xp
        self.place = place
        self.backend = place.backend

    @staticmethod
    def wants(index: int) -> bool:
        """Whether a grad kernel must compute its output ``index``: False when the caller (the
        autograd engine) needs no gradient there; the kernel then returns None in its place."""
        mask = _WANTED.mask
        return mask is None or mask[index]

    def __repr__(self) -> str:
        return f"KernelContext({self.xp.__name__}, {self.place!r})"


@dataclass
class TensorArgDef:
    """One tensor input or output of a kernel; registrations may override its key parts.
    ``tensor_kind``: the kind of tensor it takes (PHI's ``TensorArgDef::type_index``): DENSE
    for a parameter annotated ``Array``, SELECTED_ROWS for one annotated ``SelectedRows`` (the
    kernel gets a runtime/tensor SelectedRows: ``rows``, ``height``, ``value``)."""

    name: str
    backend: Backend
    layout: DataLayout
    dtype: DataType
    is_list: bool = False
    is_optional: bool = False
    tensor_kind: TensorKind = TensorKind.DENSE

    def set_dtype(self, dtype: DataType) -> TensorArgDef:
        self.dtype = dtype
        return self

    def set_backend(self, backend: Backend) -> TensorArgDef:
        self.backend = backend
        return self

    def set_layout(self, layout: DataLayout) -> TensorArgDef:
        self.layout = layout
        return self

    @property
    def kind(self) -> str:
        text = "Tensor[]" if self.is_list else "Tensor"
        return f"optional {text}" if self.is_optional else text


@dataclass(frozen=True)
class AttributeArgDef:
    name: str
    type_name: str


@dataclass
class KernelArgsDef:
    inputs: list[TensorArgDef] = field(default_factory=list)
    attributes: list[AttributeArgDef] = field(default_factory=list)
    outputs: list[TensorArgDef] = field(default_factory=list)
    outputs_are_list: bool = False


_DENSE = TensorKind.DENSE
_TENSOR_ANNOTATIONS = {
    "Array": (False, False, _DENSE),
    "Array | None": (False, True, _DENSE),
    "list[Array]": (True, False, _DENSE),
    "list[Array] | None": (True, True, _DENSE),
}
# The annotation of a parameter or result of another kind: the class runtime/tensor defines
# for it (a kernel's module imports it, or names it under TYPE_CHECKING).
_KIND_ANNOTATIONS = {
    "SelectedRows": TensorKind.SELECTED_ROWS,
    "SparseCooTensor": TensorKind.SPARSE_COO,
    "SparseCsrTensor": TensorKind.SPARSE_CSR,
    "TensorArray": TensorKind.TENSOR_ARRAY,
    "StringTensor": TensorKind.STRING,
}
for _name, _kind in _KIND_ANNOTATIONS.items():
    _TENSOR_ANNOTATIONS[_name] = (False, False, _kind)
    _TENSOR_ANNOTATIONS[f"{_name} | None"] = (False, True, _kind)
# a single result: Array or another kind's class
_RESULT_KINDS = {"Array": _DENSE, **_KIND_ANNOTATIONS}


def kernel_kind(args_def: KernelArgsDef) -> TensorKind:
    """The kind a kernel is registered for (its key's): DENSE when every tensor argument and
    result is dense, else the first other kind among its inputs, then its outputs."""
    for arg in args_def.inputs:
        if arg.tensor_kind is not _DENSE:
            return arg.tensor_kind
    for arg in args_def.outputs:
        if arg.tensor_kind is not _DENSE:
            return arg.tensor_kind
    return _DENSE


def args_def_from_signature(fn: Callable[..., Any], key: KernelKey) -> KernelArgsDef:
    """Read a kernel's arguments from ``fn(ctx, inputs..., attrs...) -> Array | tuple | list``.

    Parameters annotated ``Array`` (or ``Array | None``, ``list[Array]``, ``list[Array] | None``)
    are tensor inputs, every other parameter after ``ctx`` is an attribute. The return
    annotation gives the outputs: ``Array`` (one), ``list[Array]`` (a Tensor[] output) or a
    tuple of those (several, one per item; an absent optional output is returned as None).
    A parameter or result annotated with another kind's class (``SelectedRows``,
    ``SelectedRows | None``, ``SparseCooTensor``, ...) is a tensor of that kind
    (``TensorArgDef.tensor_kind``).

    The signature is read once per function (a kernel is registered for many dtypes and
    backends); each call builds fresh argument definitions for ``key``.
    """
    try:
        parsed = _PARSED_SIGNATURES.get(fn)
    except TypeError:  # a callable that takes no weak reference: read it each time
        parsed = None
    if parsed is None:
        parsed = _parse_signature(fn)
        try:
            _PARSED_SIGNATURES[fn] = parsed
        except TypeError:
            pass
    inputs, attributes, outputs, outputs_are_list = parsed
    backend, layout, dtype = key.backend, key.layout, key.dtype
    return KernelArgsDef(
        [TensorArgDef(n, backend, layout, dtype, lst, opt, kind) for n, lst, opt, kind in inputs],
        [AttributeArgDef(n, text) for n, text in attributes],
        [
            TensorArgDef(f"out{i}", backend, layout, dtype, lst, False, kind)
            for i, (lst, kind) in enumerate(outputs)
        ],
        outputs_are_list,
    )


# a kernel function -> its parsed signature (inputs, attributes, outputs, outputs_are_list)
_PARSED_SIGNATURES: weakref.WeakKeyDictionary[Callable[..., Any], tuple[Any, ...]] = (
    weakref.WeakKeyDictionary()
)


def _parse_signature(fn: Callable[..., Any]) -> tuple[Any, ...]:
    """``fn``'s tensor inputs ``(name, is_list, is_optional, kind)``, attributes ``(name,
    annotation text)``, outputs ``(is_list, kind)`` and whether it returns one Tensor[]."""
    where = f"kernel function {fn.__module__}.{fn.__qualname__}"
    signature = inspect.signature(fn)
    parameters = list(signature.parameters.values())
    if not parameters or parameters[0].name != "ctx":
        raise InvalidArgumentError(f"{where}: the first parameter must be 'ctx'")
    inputs: list[tuple[str, bool, bool, TensorKind]] = []
    attributes: list[tuple[str, str]] = []
    for parameter in parameters[1:]:
        annotation = parameter.annotation
        if annotation is inspect.Parameter.empty:
            raise InvalidArgumentError(f"{where}: parameter {parameter.name!r} has no annotation")
        text = _annotation_text(annotation)
        shape = _TENSOR_ANNOTATIONS.get(text)
        if shape is not None:
            if attributes:
                raise InvalidArgumentError(
                    f"{where}: tensor parameter {parameter.name!r} comes after an attribute"
                )
            is_list, is_optional, tensor_kind = shape
            inputs.append((parameter.name, is_list, is_optional, tensor_kind))
        else:
            attributes.append((parameter.name, text))
    outputs_are_list = False
    returns = _annotation_text(signature.return_annotation)
    if returns in _RESULT_KINDS:
        lists = [False]
        kinds = [_RESULT_KINDS[returns]]
    elif returns == "list[Array]":
        lists = [True]
        kinds = [_DENSE]
        outputs_are_list = True
    elif returns == "tuple[()]":  # an op without outputs (p_send): the kernel returns ()
        lists, kinds = [], []
    elif returns.startswith("tuple[") and returns.endswith("]"):
        items = [item.strip() for item in returns[len("tuple[") : -1].split(",")]
        if any(item not in _RESULT_KINDS and item != "list[Array]" for item in items):
            raise InvalidArgumentError(
                f"{where}: return annotation {returns!r} must be a tuple of Array and list[Array]"
            )
        lists = [item == "list[Array]" for item in items]
        kinds = [_RESULT_KINDS.get(item, _DENSE) for item in items]
    else:
        raise InvalidArgumentError(
            f"{where}: return annotation must be Array, list[Array] or tuple[...] of those, "
            f"got {returns!r}"
        )
    return tuple(inputs), tuple(attributes), tuple(zip(lists, kinds)), outputs_are_list


def _annotation_text(annotation: Any) -> str:
    """An annotation as source text, whether or not the module postponed annotations."""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type) and not getattr(annotation, "__args__", None):
        return annotation.__name__
    return str(annotation).replace(f"{__name__}.", "").replace("NoneType", "None")


class Kernel:
    """A kernel function registered under one KernelKey; among the kernels registered for one
    key, the one of highest ``priority`` runs (phiops's own have 0)."""

    __slots__ = ("name", "fn", "key", "args_def", "priority")

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        key: KernelKey,
        args_def: KernelArgsDef,
        priority: int = 0,
    ) -> None:
        self.name = name
        self.fn = fn
        self.key = key
        self.args_def = args_def
        self.priority = priority

    def input_at(self, index: int) -> TensorArgDef:
        return self.args_def.inputs[index]

    def output_at(self, index: int) -> TensorArgDef:
        return self.args_def.outputs[index]

    def __repr__(self) -> str:
        where = f"{self.fn.__module__}.{self.fn.__qualname__}"
        if self.priority:
            return f"Kernel({self.name!r}, {self.key}, {where}, priority={self.priority})"
        return f"Kernel({self.name!r}, {self.key}, {where})"
