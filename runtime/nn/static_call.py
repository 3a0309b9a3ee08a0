"""Layers in static mode: calling a Layer while ``phi.enable_static()`` is on builds its
operations into the current program (``phi.static.program_guard``).

A Layer's parameters and buffers are always created eagerly (its initializer draws them with
numpy, as in eager mode). When a Layer is called in static mode, each parameter and buffer of
the layer (and its sublayers) becomes a `builtin.parameter` of the main program, named as
PaddlePaddle names it (``linear_0.w_0``, ``batch_norm2d_0.w_1`` for a running mean); the startup
program records `builtin.set_parameter` of its first value: for a layer made while static mode
is on, and not changed since, its initializer's ops (`pd_op.uniform`, `pd_op.gaussian`,
`pd_op.full`), as PaddlePaddle's startup programs hold them; otherwise its *current* value
(`pd_op.assign_value`), so a layer trained eagerly and then called in static mode carries its
trained values, as PaddlePaddle's ``to_static`` does. Calling the layer again in the same program reuses the parameters.
Buffers (BatchNorm's running statistics) are persistable parameters that are not trainable.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import Any, Iterator

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.tensor.version import version_of
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import scoped_attributes
from phiops.runtime.ir.core import Value
from phiops.runtime.nn.initializer import Initializer
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import current_block, default_main_program, unique_name
from phiops.runtime.static.variables import create_parameter

__all__ = ["static_state", "struct_name_scope", "declare_parameter"]


class _Swapped:
    depth = 0


_SWAPPED = _Swapped()


# The parameters (and buffers) a Layer made while static mode was on, by id: a weak reference to
# the tensor, the initializer that drew it and the array and version it drew. Called in static
# mode with that array unchanged, such a parameter's startup value is its initializer's ops, as
# PaddlePaddle records them. (Keyed by id: a Tensor's == builds an op, so it cannot key a
# WeakKeyDictionary.)
_BORN_STATIC: dict[int, tuple[weakref.ref, Initializer, Any, int]] = {}


def declare_parameter(layer: Any, tensor: Tensor, initializer: Initializer) -> None:
    """``tensor``, a parameter ``layer`` has just made in static mode, becomes the main program's
    `builtin.parameter` now (as PaddlePaddle declares a layer's parameters when it is made), its
    startup value ``initializer``'s ops while the array it drew is unchanged."""
    key = id(tensor)
    reference = weakref.ref(tensor, lambda _: _BORN_STATIC.pop(key, None))
    _BORN_STATIC[key] = (reference, initializer, tensor.array, version_of(tensor))
    _parameter_value(layer, tensor, not tensor.stop_gradient)


def _born_static(tensor: Tensor) -> tuple[Initializer, bool] | None:
    """(initializer, whether the array it drew is unchanged) of a parameter declared by
    ``declare_parameter``; None for any other tensor."""
    born = _BORN_STATIC.get(id(tensor))
    if born is None or born[0]() is not tensor:
        return None
    _, initializer, drawn, version = born
    return initializer, drawn is tensor.array and version == version_of(tensor)


def _startup_initializer(tensor: Tensor, array: np.ndarray) -> Initializer:
    born = _born_static(tensor)
    return born[0] if born is not None and born[1] else _Assign(array)


class _Assign(Initializer):
    """The startup value of a parameter taken from a layer: ``pd_op.assign_value``."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Value:
        return op_api("assign_value")(list(shape), dtype, self.array.ravel().tolist())


def _parameter_value(owner: Any, tensor: Tensor, trainable: bool) -> Value:
    array = tensor.numpy()
    main = default_main_program().block
    for op in main.ops:
        if op.name == "builtin.parameter" and op.attributes["parameter_name"].value == tensor.name:
            declared = op.results[0].type
            if tuple(declared.dims) != array.shape or declared.dtype != array.dtype.name:
                raise InvalidArgumentError(
                    f"{type(owner).__name__}: the program already has a parameter named "
                    f"{tensor.name!r} of another shape or dtype (layers built under different "
                    "unique_name_guard blocks can share names; give them distinct names)"
                )
            born = _born_static(tensor)
            if born is not None and not born[1]:
                raise PreconditionNotMetError(
                    f"{type(owner).__name__}: parameter {tensor.name!r} was changed after the "
                    "layer was made in static mode, but the program starts it from its "
                    "initializer; set it in the scope after running the startup program, or "
                    "make the layer before enable_static()"
                )
            return op.results[0]
    value = create_parameter(
        list(array.shape),
        tensor.dtype,
        tensor.name,
        default_initializer=_startup_initializer(tensor, array),
    )
    if not trainable:
        op = value.define_op
        op.attributes["trainable"] = Attribute("array", (Attribute("bool", False),))
        op.attributes["stop_gradient"] = Attribute("array", (Attribute("bool", True),))
    return value


# the class names of the layers being called in static mode, outermost first
_CALLING: list[str] = []


@contextlib.contextmanager
def struct_name_scope(layer: Any) -> Iterator[None]:
    """The ops built while ``layer`` is being called carry PaddlePaddle's ``struct_name``: the
    class names of the layers being called, ``"/Net/Sequential/Linear/"``."""
    _CALLING.append(type(layer).__name__)
    try:
        with scoped_attributes(current_block(), struct_name="/" + "/".join(_CALLING) + "/"):
            yield
    finally:
        _CALLING.pop()


@contextlib.contextmanager
def static_state(layer: Any) -> Iterator[None]:
    """Inside the ``with`` block, ``layer``'s parameters and buffers (and its sublayers') are
    the main program's parameter Values; the eager tensors come back afterwards. A sublayer
    called inside its parent's call finds them swapped already."""
    if _SWAPPED.depth:
        yield
        return
    swapped: list[tuple[dict, str, Tensor]] = []
    owners: dict[str, Tensor] = {}
    try:
        for sublayer in layer.sublayers(include_self=True):
            for table, trainable in ((sublayer._parameters, True), (sublayer._buffers, False)):
                for key, tensor in list(table.items()):
                    if isinstance(tensor, Tensor):
                        if tensor.name is None:  # assigned after the layer's construction
                            tensor.name = unique_name(f"{sublayer.full_name()}.w")
                        if owners.setdefault(tensor.name, tensor) is not tensor:
                            raise InvalidArgumentError(
                                f"{type(layer).__name__}: two of its parameters or buffers are "
                                f"named {tensor.name!r} (layers built under different "
                                "unique_name_guard blocks can share names)"
                            )
                        value = _parameter_value(
                            sublayer, tensor, trainable and not tensor.stop_gradient
                        )
                        swapped.append((table, key, tensor))
                        table[key] = value
        _SWAPPED.depth += 1
        try:
            yield
        finally:
            _SWAPPED.depth -= 1
    finally:
        for table, key, tensor in swapped:
            table[key] = tensor
