"""Recording: called by a generated op with a backward when an input needs a gradient."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from phiops.runtime.autograd.grad_node import (
    SAVE_ATTR,
    SAVE_INPUT,
    SAVE_OUTPUT,
    SAVE_VALUE,
    AccumulationNode,
    GradNode,
    GradSpec,
    TensorWrapper,
)
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE

import ml_dtypes
import numpy as np

if TYPE_CHECKING:
    from phiops.runtime.eager.tensor import Tensor

__all__ = ["record", "edge_of", "is_differentiable"]

_DIFFERENTIABLE_KINDS = frozenset("fc")
_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def _is_differentiable_dtype(dtype: Any) -> bool:
    """numpy's floating and complex kinds, and bfloat16 (ml_dtypes' kind is "V")."""
    return dtype.kind in _DIFFERENTIABLE_KINDS or dtype == _BFLOAT16


def is_differentiable(tensor: Tensor) -> bool:
    """Floating (bfloat16 included) and complex tensors can carry gradients; integer and bool
    ones never do."""
    return _is_differentiable_dtype(tensor.array.dtype)


def edge_of(tensor: Tensor) -> Any:
    """Where a gradient for ``tensor`` goes: its producer's (node, slot), a leaf's accumulation
    node (created on first use), or None when it needs no gradient."""
    if tensor.stop_gradient or not is_differentiable(tensor):
        return None
    edge = tensor._grad_node
    if edge is None:
        edge = tensor._grad_node = (AccumulationNode(tensor), 0)
    return edge


def record(
    spec: GradSpec, inputs: tuple[Any, ...], attrs: tuple[Any, ...], outputs: tuple[Any, ...]
) -> None:
    """Attach a GradNode for this call to ``outputs`` if any input needs a gradient."""
    edges: list[Any] = []
    needed = False
    every_edge = True
    for value in inputs:
        if value is None:
            edges.append(None)
            every_edge = False
        elif isinstance(value, (list, tuple)):
            items = [edge_of(t) for t in value]
            needed = needed or any(e is not None for e in items)
            edges.append(items)
            every_edge = False
        elif value.stop_gradient or not _is_differentiable_dtype(value.array.dtype):
            edges.append(None)
            every_edge = False
        else:
            edge = value._grad_node
            if edge is None:
                edge = value._grad_node = (AccumulationNode(value), 0)
            edges.append(edge)
            needed = True
    if not needed:
        return
    tensor = TENSOR_TYPE.cls
    if len(outputs) == 1 and type(outputs[0]) is tensor:
        # The common case, one Tensor output: no per-output dispatch on its kind.
        output = outputs[0]
        node = GradNode(spec, edges, [], [output.meta], every_edge)
        if _is_differentiable_dtype(output.array.dtype):
            output.stop_gradient = False
            output._grad_node = (node, 0)
    else:
        node = _node_for_outputs(spec, edges, outputs, every_edge)
    # Saved after the outputs got their node, so a saved output still leads back to it.
    saved = node.saved
    op = spec.op
    for kind, index, name, meta_only in spec.save_plan:
        if kind == SAVE_INPUT:
            value = inputs[index]
            if type(value) is tensor:
                saved.append(TensorWrapper(value, op, name, meta_only, False))
            else:
                saved.append(_wrap(value, op, name, meta_only, False))
        elif kind == SAVE_OUTPUT:
            value = outputs[index]
            if type(value) is tensor:
                saved.append(TensorWrapper(value, op, name, False, True))
            else:
                saved.append(_wrap(value, op, name, False, True))
        elif kind == SAVE_ATTR:
            saved.append(attrs[index])
        elif kind == SAVE_VALUE:
            saved.append(index)
        else:
            saved.append(None)


def _node_for_outputs(
    spec: GradSpec, edges: list[Any], outputs: tuple[Any, ...], every_edge: bool
) -> GradNode:
    """The GradNode of a call with several outputs (or a list or optional one), set as the
    producer of each differentiable output."""
    metas = [
        (None if out is None else tuple(t.meta for t in out) if isinstance(out, list) else out.meta)
        for out in outputs
    ]
    node = GradNode(spec, edges, [], metas, every_edge)
    for slot, output in enumerate(outputs):
        if output is None:
            continue
        if isinstance(output, list):
            for position, item in enumerate(output):
                if is_differentiable(item):
                    item.stop_gradient = False
                    item._grad_node = (node, (slot, position))
        elif _is_differentiable_dtype(output.array.dtype):
            output.stop_gradient = False
            output._grad_node = (node, slot)
    return node


def _wrap(value: Any, op: str, name: tuple, meta_only: bool, is_output: bool) -> Any:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [
            TensorWrapper(t, op, name + (i,), meta_only, is_output) for i, t in enumerate(value)
        ]
    return TensorWrapper(value, op, name, meta_only, is_output)
