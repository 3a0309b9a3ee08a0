"""The backward engine: walks grad nodes in dependency order, as PaddlePaddle's eager engine does."""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Sequence

from runtime.autograd.grad_mode import GRAD_MODE
from runtime.autograd.grad_node import AccumulationNode, GradNode, MissingGradNode
from runtime.autograd.record import edge_of, is_differentiable
from runtime.core.tensor import Tensor
from runtime.core.tensor import wrap_array
from runtime.device import array_module
from runtime.dispatch.op_def import op_api
from runtime.errors import InvalidArgumentError

__all__ = ["run_backward", "grad"]

# Threads may run backward on one graph (retain_graph=True) into the same leaf: the read of
# ``.grad``, the add and the write back happen under this lock, so no update is lost.
_LEAF_LOCK = threading.Lock()


def _slot_count(node: Any) -> int:
    return 1 if type(node) is AccumulationNode else len(node.output_metas)


def _add(total: Any, grad: Tensor) -> Any:
    return grad if total is None else op_api("add")(total, grad)


def _accumulate(buffers: dict[Any, list[Any]], edge: Any, grad: Tensor) -> None:
    node, slot = edge
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * _slot_count(node)
    if type(slot) is tuple:
        index, position = slot
        items = slots[index]
        if items is None:
            items = slots[index] = {}
        items[position] = _add(items.get(position), grad)
    else:
        slots[slot] = _add(slots[slot], grad)


def _any_arrived(slots: list[Any]) -> bool:
    # A loop, not ``slots.count(None)``: that compares Tensors with ``==``, an op.
    for value in slots:
        if value is not None:
            return True
    return False


def _hooked_tensor(node: Any, slot: Any) -> str:
    if isinstance(node, AccumulationNode):
        return "a leaf tensor"
    return f"output {slot} of '{node.spec.op}'"


def _apply_hooks(node: Any, slot: Any, grad: Tensor) -> Tensor:
    for hook in list(node.hooks.get(slot, ())):
        replaced = hook(grad)
        if replaced is None:
            continue
        if (
            not isinstance(replaced, Tensor)
            or replaced.shape != grad.shape
            or replaced.dtype is not grad.dtype
        ):
            got = (
                f"{replaced.dtype.name.lower()} {replaced.shape}"
                if isinstance(replaced, Tensor)
                else f"{type(replaced).__name__} {replaced!r}"
            )
            raise InvalidArgumentError(
                f"gradient hook {getattr(hook, '__qualname__', repr(hook))} registered on "
                f"{_hooked_tensor(node, slot)} must return None or a Tensor like its gradient "
                f"({grad.dtype.name.lower()} {grad.shape}), got {got}"
            )
        grad = replaced
    return grad


def _dependencies(roots: list[Any]) -> tuple[dict[Any, int], dict[Any, list[Any]]]:
    """How many edges lead into each node reachable from ``roots``, and each node's next nodes
    (kept for the walk, which would otherwise ask every node for them a second time)."""
    counts: dict[Any, int] = {}
    children: dict[Any, list[Any]] = {}
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node in children:
            continue
        targets = children[node] = node.next_nodes()
        counts.setdefault(node, 0)
        for target in targets:
            counts[target] = counts.get(target, 0) + 1
            if target not in children:
                stack.append(target)
    return counts, children


def _reaching(roots: list[Any], targets: set[int]) -> set[int]:
    """ids of the nodes from which a target node can be reached (an explicit stack: graphs can
    be far deeper than Python's recursion limit)."""
    reached: set[int] = set()
    done: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False) for root in roots]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            # A MissingGradNode's inputs are unknown: it may lead anywhere, so it must run (and
            # fail).
            if (
                key in targets
                or isinstance(node, MissingGradNode)
                or any(id(target) in reached for target in node.next_nodes())
            ):
                reached.add(key)
            continue
        if key in done:
            continue
        done.add(key)
        stack.append((node, True))
        stack.extend((target, False) for target in node.next_nodes() if id(target) not in done)
    return reached


def _zeros(meta: Any) -> Tensor:
    xp = array_module(meta.place.backend)
    return wrap_array(xp.zeros(meta.dims, meta.dtype.numpy_dtype), meta)


def _filled(node: GradNode, slots: list[Any]) -> list[Any]:
    """Upstream gradients for every output of ``node``, zeros where none arrived (PHI's backward
    kernels expect every output gradient), lists for Tensor[] outputs."""
    metas = node.output_metas
    if len(metas) == 1 and slots[0] is not None and type(slots[0]) is not dict:
        return slots  # the common case: one output, its gradient arrived
    filled = []
    for value, meta in zip(slots, metas):
        if isinstance(meta, tuple):
            value = value or {}
            filled.append(
                [_zeros(m) if value.get(p) is None else value[p] for p, m in enumerate(meta)]
            )
        elif meta is None:
            filled.append(None)
        else:
            filled.append(_zeros(meta) if value is None else value)
    return filled


def _execute(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor | None],
    retain_graph: bool,
    create_graph: bool,
    capture: dict[Any, Any] | None,
) -> None:
    buffers: dict[Any, list[Any]] = {}
    root_nodes = []
    for tensor, seed in zip(roots, root_grads):
        if not isinstance(tensor, Tensor):
            raise InvalidArgumentError(
                f"backward: outputs must be Tensors, got {type(tensor).__name__} {tensor!r}"
            )
        if tensor.stop_gradient or tensor._grad_node is None:
            raise InvalidArgumentError(
                "backward: the tensor does not require a gradient (stop_gradient is True, or no op "
                "that needs a gradient produced it)"
            )
        if seed is None:
            seed = op_api("ones_like")(tensor)
        elif not isinstance(seed, Tensor):
            raise InvalidArgumentError(
                f"backward: grad_tensor must be a Tensor or None, got {type(seed).__name__} {seed!r}"
            )
        elif list(seed.shape) != tensor.shape:
            raise InvalidArgumentError(
                f"backward: grad_tensor has shape {seed.shape}, but the tensor has shape {tensor.shape}"
            )
        elif seed.dtype is not tensor.dtype:
            raise InvalidArgumentError(
                f"backward: grad_tensor has dtype {seed.dtype.name.lower()}, but the tensor has "
                f"dtype {tensor.dtype.name.lower()}"
            )
        _accumulate(buffers, tensor._grad_node, seed)
        root_nodes.append(tensor._grad_node[0])
    counts, children = _dependencies(root_nodes)
    wanted = None if capture is None else _reaching(root_nodes, {id(node) for node, _ in capture})
    ready = deque(node for node in dict.fromkeys(root_nodes) if counts[node] == 0)
    previous_mode = GRAD_MODE.enabled
    GRAD_MODE.enabled = create_graph
    try:
        while ready:
            node = ready.popleft()
            slots = buffers.pop(node, None) or [None] * _slot_count(node)
            if type(node) is AccumulationNode:
                _finish_leaf(node, slots[0], create_graph, capture)
                continue
            if node.hooks or capture is not None:
                for slot, value in enumerate(slots):
                    if value is not None and not isinstance(value, dict):
                        slots[slot] = _apply_hooks(node, slot, value)
                        if capture is not None and (node, slot) in capture:
                            capture[(node, slot)] = slots[slot]
            if wanted is None or id(node) in wanted:
                if _any_arrived(slots):
                    if len(slots) != len(node.spec.consumed):
                        node.check_arrivals(slots)
                    input_grads = node.apply(_filled(node, slots), create_graph)
                    for edge, grad_value in zip(node.edges, input_grads):
                        if edge is None or grad_value is None:
                            continue
                        if type(edge) is list:
                            for item_edge, item_grad in zip(edge, grad_value):
                                if item_edge is not None and item_grad is not None:
                                    _accumulate(buffers, item_edge, item_grad)
                        else:
                            _accumulate(buffers, edge, grad_value)
                if not retain_graph:
                    node.release()
            for target in children[node]:
                left = counts[target] - 1
                counts[target] = left
                if left == 0:
                    ready.append(target)
    finally:
        GRAD_MODE.enabled = previous_mode


def _finish_leaf(
    node: AccumulationNode, grad: Tensor | None, create_graph: bool, capture: dict | None
) -> None:
    if grad is None:
        return
    grad = _apply_hooks(node, 0, grad)
    if capture is not None:
        if (node, 0) in capture:
            capture[(node, 0)] = grad
        return
    tensor = node.tensor()
    if tensor is None:
        return
    if not create_graph:
        grad = grad.detach()
    with _LEAF_LOCK:
        tensor._grad = grad if tensor._grad is None else op_api("add")(tensor._grad, grad)


def run_backward(
    tensors: Sequence[Tensor], grad_tensors: Sequence[Tensor | None], retain_graph: bool = False
) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad``."""
    _execute(tensors, grad_tensors, retain_graph, False, None)


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Tensor | None] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool = False,
) -> list[Tensor | None]:
    """Gradients of ``outputs`` with respect to ``inputs``, as ``paddle.grad``: ``.grad`` is not
    touched; with ``create_graph`` the results are differentiable again."""
    outputs = _tensor_list(outputs, "outputs")
    inputs = _tensor_list(inputs, "inputs")
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs]
    elif isinstance(grad_outputs, (list, tuple)):
        grad_outputs = list(grad_outputs)
    else:
        raise InvalidArgumentError(
            f"grad: grad_outputs must be a Tensor, a list of Tensors (or None) or None, got "
            f"{type(grad_outputs).__name__} {grad_outputs!r}"
        )
    if len(grad_outputs) != len(outputs):
        raise InvalidArgumentError(
            f"grad: {len(grad_outputs)} grad_outputs for {len(outputs)} outputs"
        )
    capture: dict[Any, Any] = {}
    keys = []
    for position, tensor in enumerate(inputs):
        if not isinstance(tensor, Tensor):
            raise InvalidArgumentError(
                f"grad: inputs[{position}] must be a Tensor, got {type(tensor).__name__}"
            )
        if tensor.stop_gradient or not is_differentiable(tensor):
            raise InvalidArgumentError(
                f"grad: inputs[{position}] does not require a gradient (stop_gradient is True or its dtype "
                f"is {tensor.dtype.name.lower()})"
            )
        key = edge_of(tensor)
        keys.append(key)
        capture[key] = None
    _execute(
        outputs,
        grad_outputs,
        create_graph if retain_graph is None else retain_graph,
        create_graph,
        capture,
    )
    results = []
    for position, key in enumerate(keys):
        value = capture[key]
        if value is None and not allow_unused:
            raise InvalidArgumentError(
                f"grad: inputs[{position}] is not used to compute the outputs; pass allow_unused=True "
                "to get None for it"
            )
        if value is not None and not create_graph:
            value = value.detach()
        results.append(value)
    return results


def _tensor_list(value: Any, what: str) -> list[Tensor]:
    if isinstance(value, Tensor):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise InvalidArgumentError(
            f"grad: {what} must be a Tensor or a list of Tensors, got {type(value).__name__} "
            f"{value!r}"
        )
    for position, item in enumerate(value):
        if not isinstance(item, Tensor):
            raise InvalidArgumentError(
                f"grad: {what}[{position}] must be a Tensor, got {type(item).__name__} {item!r}"
            )
    if not value:
        raise InvalidArgumentError(f"grad: {what} is empty")
    return list(value)
