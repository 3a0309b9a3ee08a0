"""Layers in static mode: calling a Layer while ``phi.enable_static()`` is on builds its
operations into the current program (``phi.static.program_guard``).

A Layer's parameters and buffers are always created eagerly (its initializer draws them with
numpy, as in eager mode). When a Layer is called in static mode, each parameter and buffer of
the layer (and its sublayers) becomes a `builtin.parameter` of the main program, named as
PaddlePaddle names it (``linear_0.w_0``, ``batch_norm2d_0.w_1`` for a running mean); the startup
program records its *current* value (`pd_op.assign_value`) and `builtin.set_parameter`. So a
layer built under ``program_guard`` starts from its initializer's draw, and a layer trained
eagerly and then called in static mode carries its trained values, as PaddlePaddle's
``to_static`` does. Calling the layer again in the same program reuses the parameters.
Buffers (BatchNorm's running statistics) are persistable parameters that are not trainable.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np

from runtime.common import DataType
from runtime.core.tensor import Tensor
from runtime.dispatch.op_def import op_api
from runtime.errors import InvalidArgumentError
from runtime.ir.attributes import Attribute
from runtime.ir.core import Value
from runtime.static.initializer import Initializer
from runtime.static.program import default_main_program, unique_name
from runtime.static.variables import create_parameter

__all__ = ["static_state"]


class _Swapped:
    depth = 0


_SWAPPED = _Swapped()


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
            return op.results[0]
    value = create_parameter(
        list(array.shape), tensor.dtype, tensor.name, default_initializer=_Assign(array)
    )
    if not trainable:
        op = value.define_op
        op.attributes["trainable"] = Attribute("array", (Attribute("bool", False),))
        op.attributes["stop_gradient"] = Attribute("array", (Attribute("bool", True),))
    return value


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
