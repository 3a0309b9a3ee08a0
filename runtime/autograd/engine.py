"""The backward engine: walks grad nodes in dependency order, as PaddlePaddle's eager engine does."""

from __future__ import annotations

import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Sequence

from phiops.runtime.autograd.grad_mode import GRAD_MODE
from phiops.runtime.common import DataType
from phiops.runtime.autograd.grad_node import AccumulationNode, GradNode, MissingGradNode
from phiops.runtime.autograd.record import edge_of, is_differentiable
from phiops.runtime.tensor.version import bump_version, version_of
from phiops.runtime.backends import arrays_writable
from phiops.runtime.device import array_module, module_of
from phiops.runtime import runtime_flags
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.selected_rows import add_selected_rows

if TYPE_CHECKING:
    from phiops.runtime.eager.tensor import Tensor

__all__ = ["run_backward", "grad", "clear_grad", "register_backward_final_hook"]

# callables run after each backward() has written the leaves' gradients (PaddlePaddle's
# backward final hooks; amp.decorate(master_grad=True) casts the parameters' gradients there)
_FINAL_HOOKS: dict[int, Any] = {}
_FINAL_HOOK_IDS = iter(range(1 << 62))


def register_backward_final_hook(hook: Any) -> Any:
    """Run ``hook()`` at the end of every ``backward()``; returns a function that removes it."""
    if not callable(hook):
        raise InvalidArgumentError(
            f"register_backward_final_hook: the hook must be callable, got {type(hook).__name__}"
        )
    key = next(_FINAL_HOOK_IDS)
    _FINAL_HOOKS[key] = hook
    return lambda: _FINAL_HOOKS.pop(key, None)


# Threads may run backward on one graph (retain_graph=True) into the same leaf: the read of
# ``.grad``, the add and the write back happen under this lock, so no update is lost.
_LEAF_LOCK = threading.Lock()


def _accumulate(
    buffers: dict[Any, list[Any]],
    edge: Any,
    grad: Tensor,
    owned: set[int],
    create_graph: bool,
) -> None:
    """Add ``grad`` to the buffered gradient of ``edge``'s output of its node."""
    node, slot = edge
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node.slot_count
    if type(slot) is tuple:
        index, position = slot
        items = slots[index]
        if items is None:
            items = slots[index] = {}
        total = items.get(position)
        items[position] = grad if total is None else _sum(total, grad, owned, create_graph)
    else:
        total = slots[slot]
        slots[slot] = grad if total is None else _sum(total, grad, owned, create_graph)


def _sum(total: Tensor, grad: Tensor, owned: set[int], create_graph: bool) -> Tensor:
    """``total + grad``: into ``total`` when this pass allocated it (a third gradient for one
    slot), else a new sum, which the pass then owns (nothing is recorded without create_graph)."""
    if total.meta.kind is not _DENSE or grad.meta.kind is not _DENSE:
        return _add_kinds(total, grad)
    if id(total) in owned and _in_place(total, grad, False):
        return total
    result = _add(total, grad)
    if not create_graph:
        owned.add(id(result))
    return result


def _add(a: Tensor, b: Tensor) -> Tensor:
    """``a + b`` of two gradients by the add op. PaddlePaddle 3.3.1 registers no float16 or
    bfloat16 add on the CPU (nor does phiops, which keeps its registrations): half-precision
    gradients (phiops's amp on the CPU) are summed in float32 and rounded once, what a half add
    computes (PaddlePaddle's gradient accumulator does not go through the op). A float32
    gradient (``amp.decorate(master_grad=True)``'s) plus a half one is a float32 sum."""
    a_dtype, b_dtype = a.meta.dtype, b.meta.dtype
    if a_dtype in _HALF or b_dtype in _HALF:
        cast = op_api("cast")
        total = op_api("add")(
            a if a_dtype not in _HALF else cast(a, _FLOAT32),
            b if b_dtype not in _HALF else cast(b, _FLOAT32),
        )
        return cast(total, a_dtype) if a_dtype is b_dtype else total
    return op_api("add")(a, b)


_DENSE = TensorKind.DENSE
_FLOAT32 = DataType.FLOAT32
_HALF = (DataType.FLOAT16, DataType.BFLOAT16)


def _add_kinds(a: Tensor, b: Tensor) -> Tensor:
    """``a + b`` of two gradients one of which is a SelectedRows (an ``Embedding(...,
    sparse=True)`` weight's), as PaddlePaddle accumulates them: two SelectedRows give one with
    the rows of both, merged; with a dense gradient, a dense sum. Not recorded (a SelectedRows
    gradient has no grad node of its own)."""
    storage = add_selected_rows(
        a.array if a.meta.kind is not _DENSE else a, b.array if b.meta.kind is not _DENSE else b
    )
    if storage.meta.kind is _DENSE:
        return TENSOR_TYPE.wrap(storage.array, storage.meta)  # type: ignore[attr-defined]
    return TENSOR_TYPE.wrap(storage, storage.meta)


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
            not isinstance(replaced, TENSOR_TYPE.cls)
            or replaced.shape != grad.shape
            or replaced.dtype is not grad.dtype
        ):
            got = (
                f"{replaced.dtype.name.lower()} {replaced.shape}"
                if isinstance(replaced, TENSOR_TYPE.cls)
                else f"{type(replaced).__name__} {replaced!r}"
            )
            raise InvalidArgumentError(
                f"gradient hook {getattr(hook, '__qualname__', repr(hook))} registered on "
                f"{_hooked_tensor(node, slot)} must return None or a Tensor like its gradient "
                f"({grad.dtype.name.lower()} {grad.shape}), got {got}"
            )
        grad = replaced
    return grad


def _dependencies(roots: list[Any]) -> dict[Any, int]:
    """How many edges lead into each node reachable from ``roots`` (a node is first seen when
    its count is set)."""
    counts: dict[Any, int] = dict.fromkeys(roots, 0)
    stack = list(counts)
    while stack:
        for edge in stack.pop().edges:
            if edge is None:
                continue
            if type(edge) is list:
                for item in edge:
                    if item is not None:
                        _count(counts, stack, item[0])
                continue
            target = edge[0]
            count = counts.get(target)
            if count is None:
                counts[target] = 1
                stack.append(target)
            else:
                counts[target] = count + 1
    return counts


def _count(counts: dict[Any, int], stack: list[Any], target: Any) -> None:
    count = counts.get(target)
    if count is None:
        counts[target] = 1
        stack.append(target)
    else:
        counts[target] = count + 1


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
    return TENSOR_TYPE.wrap(xp.zeros(meta.dims, meta.dtype.numpy_dtype), meta)


def _filled(node: GradNode, slots: list[Any]) -> list[Any]:
    """Upstream gradients for every output of ``node`` whose gradient its backward op takes,
    zeros where none arrived (PHI's backward kernels expect every such gradient), lists for
    Tensor[] outputs; None for the outputs it takes none for."""
    metas = node.output_metas
    if len(metas) == 1 and slots[0] is not None and type(slots[0]) is not dict:
        return slots  # the common case: one output, its gradient arrived
    if getattr(node, "fills_own_slots", False):
        return slots  # a PyLayer's node: zeros or None, as its set_materialize_grads says
    consumed = node.spec.consumed
    filled = []
    for slot, (value, meta) in enumerate(zip(slots, metas)):
        if slot not in consumed:
            filled.append(None)
        elif isinstance(meta, tuple):
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
        if not isinstance(tensor, TENSOR_TYPE.cls):
            raise InvalidArgumentError(
                f"backward: outputs must be Tensors, got {type(tensor).__name__} {tensor!r}"
            )
        if tensor.stop_gradient or tensor._grad_node is None:
            raise InvalidArgumentError(
                "backward: the tensor does not require a gradient (stop_gradient is True, or no op "
                "that needs a gradient produced it)"
            )
        if seed is None:
            impl = tensor
            seed = TENSOR_TYPE.wrap(
                module_of(impl.array).ones(impl.meta.dims, impl.array.dtype), impl.meta
            )
        elif not isinstance(seed, TENSOR_TYPE.cls):
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
        _accumulate(buffers, tensor._grad_node, seed, set(), create_graph)
        root_nodes.append(tensor._grad_node[0])
    counts = _dependencies(root_nodes)
    wanted = None if capture is None else _reaching(root_nodes, {id(node) for node, _ in capture})
    ready = deque(node for node in dict.fromkeys(root_nodes) if counts[node] == 0)
    # ids of the buffered sums this pass allocated (by adding two gradients): nothing else holds
    # them, so a further gradient for the same slot is added to them in place.
    owned: set[int] = set()
    previous_mode = GRAD_MODE.enabled
    GRAD_MODE.enabled = create_graph
    try:
        while ready:
            node = ready.popleft()
            # Present only when a gradient arrived for one of the node's outputs.
            slots = buffers.pop(node, None)
            fresh = False
            if owned and slots is not None:
                fresh = id(slots[0]) in owned
                _disown(owned, slots)
            if type(node) is AccumulationNode:
                if slots is not None:
                    _finish_leaf(node, slots[0], create_graph, capture, fresh)
                continue
            runs = wanted is None or id(node) in wanted
            if slots is None or not runs:
                input_grads = None
                if slots is not None and (node._hooks or capture is not None):
                    _hook_slots(node, slots, capture)
                if runs and not retain_graph:
                    node.release()
            else:
                if node._hooks or capture is not None:
                    _hook_slots(node, slots, capture)
                if node.slot_count != 1 or type(slots[0]) is dict or not node.spec.consumed:
                    if len(slots) != len(node.spec.consumed):
                        node.check_arrivals(slots)
                    slots = _filled(node, slots)
                input_grads = node.apply(slots, create_graph, retain_graph)
            if input_grads is None:
                for edge in node.edges:
                    if edge is not None:
                        for target in _targets(edge):
                            left = counts[target] - 1
                            counts[target] = left
                            if left == 0:
                                ready.append(target)
                continue
            for edge, grad_value in zip(node.edges, input_grads):
                if edge is None:
                    continue
                if type(edge) is list:
                    if grad_value is not None:
                        for item_edge, item_grad in zip(edge, grad_value):
                            if item_edge is not None and item_grad is not None:
                                _accumulate(buffers, item_edge, item_grad, owned, create_graph)
                    for target in _targets(edge):
                        left = counts[target] - 1
                        counts[target] = left
                        if left == 0:
                            ready.append(target)
                    continue
                target, slot = edge
                if grad_value is not None:
                    if type(slot) is not int:
                        _accumulate(buffers, edge, grad_value, owned, create_graph)
                    else:
                        # _accumulate, inlined for the usual edge: (node, output index).
                        target_slots = buffers.get(target)
                        if target_slots is None:
                            target_slots = buffers[target] = [None] * target.slot_count
                            target_slots[slot] = grad_value
                        else:
                            total = target_slots[slot]
                            target_slots[slot] = (
                                grad_value
                                if total is None
                                else _sum(total, grad_value, owned, create_graph)
                            )
                left = counts[target] - 1
                counts[target] = left
                if left == 0:
                    ready.append(target)
    finally:
        GRAD_MODE.enabled = previous_mode


def _targets(edge: Any) -> list[Any]:
    """The nodes an edge (a (node, slot) pair or a list of them, None items included) leads to."""
    if type(edge) is list:
        return [item[0] for item in edge if item is not None]
    return [edge[0]]


def _hook_slots(node: Any, slots: list[Any], capture: dict[Any, Any] | None) -> None:
    """Run ``node``'s hooks on its arrived gradients (replacing them where a hook returns a
    Tensor), and capture those ``grad()`` asked for."""
    for slot, value in enumerate(slots):
        if value is not None and not isinstance(value, dict):
            slots[slot] = _apply_hooks(node, slot, value)
            if capture is not None and (node, slot) in capture:
                capture[(node, slot)] = slots[slot]


def _disown(owned: set[int], slots: list[Any]) -> None:
    """Forget the sums among ``slots``: the node about to run hands them on (a grad kernel may
    pass one through as an input gradient, even as two), so they are no longer the pass's alone."""
    for value in slots:
        if type(value) is dict:
            owned.difference_update(map(id, value.values()))
        elif value is not None:
            owned.discard(id(value))


def _in_place(target: Tensor, grad: Tensor, copy: bool) -> bool:
    """``target += grad`` (or ``target[...] = grad`` with ``copy``) on the arrays, as the
    ``add`` kernel computes it, when their shapes, dtypes and array types agree and no flag asks
    to see every kernel call (FLAGS_check_nan_inf, log_dispatch); False, touching nothing,
    otherwise."""
    switches = runtime_flags.SWITCHES
    if switches.check_nan_inf or switches.log_dispatch:
        return False
    impl = target
    array = impl.array
    other = grad.array
    if type(array) is not type(other) or array.shape != other.shape or array.dtype != other.dtype:
        return False
    if not arrays_writable(array):
        return False  # immutable arrays (a custom device's): the sum is a new array
    if copy:
        module_of(array).copyto(array, other)
    else:
        module_of(array).add(array, other, out=array)
    bump_version(impl)
    return True


def _finish_leaf(
    node: AccumulationNode,
    grad: Tensor,
    create_graph: bool,
    capture: dict | None,
    fresh: bool,
) -> None:
    """Hand ``grad`` to the leaf: its hooks, then ``grad()``'s capture or the leaf's ``.grad``.
    ``fresh``: the pass allocated ``grad`` itself (a sum), so the leaf may own it."""
    if node._hooks:
        # A hook may keep the gradient it is shown: the leaf must not own (and later write
        # into) it.
        grad = _apply_hooks(node, 0, grad)
        fresh = False
    if capture is not None:
        if (node, 0) in capture:
            capture[(node, 0)] = grad
        return
    tensor = node.tensor()
    if tensor is None:
        return
    with _LEAF_LOCK:
        current = tensor._grad
        if current is None:
            if not create_graph:
                grad = grad.detach()
            tensor._grad = grad
            node.owned_grad = grad if fresh and not create_graph else None
        elif current.meta.kind is not _DENSE or grad.meta.kind is not _DENSE:
            tensor._grad = _add_kinds(current, grad)  # a SelectedRows gradient's accumulation
            node.owned_grad = None
        elif (
            create_graph
            or current is not node.owned_grad
            # Zeroed by clear_grad and not written since: the gradient is copied in, not added.
            or not _in_place(current, grad, node.zeroed_version == version_of(current))
        ):
            total = _add(current, grad)
            tensor._grad = total
            node.owned_grad = None if create_graph else total
        node.zeroed_version = -1


def clear_grad(tensor: Tensor, set_to_zero: bool = True) -> None:
    """``tensor.clear_grad``: zero ``.grad`` in place (PaddlePaddle's default), or with
    ``set_to_zero=False`` set it to None, after which the next backward writes the gradient.

    In place when the gradient is a buffer the leaf owns (see AccumulationNode); otherwise (a
    grad kernel's output, which may share memory with other gradients) the zeros are a new
    buffer, which the leaf owns from then on. Either way the next backward copies its gradient
    into the zeros instead of adding it to them.
    """
    edge = tensor._grad_node
    node = edge[0] if edge is not None and type(edge[0]) is AccumulationNode else None
    with _LEAF_LOCK:
        grad = tensor._grad
        # A SelectedRows gradient is dropped (PaddlePaddle 3.3.1's clear_grad leaves None):
        # zeros of its kind would be an empty SelectedRows, and a dense one the memory it saves.
        if grad is None or not set_to_zero or grad.meta.kind is not _DENSE:
            tensor._grad = None
            if node is not None:
                node.owned_grad = None
                node.zeroed_version = -1
            return
        impl = grad
        if node is not None and grad is node.owned_grad and arrays_writable(impl.array):
            impl.array.fill(0)
            bump_version(impl)
        else:
            grad = TENSOR_TYPE.wrap(module_of(impl.array).zeros_like(impl.array), impl.meta)
            tensor._grad = grad
            if node is None:
                return
            node.owned_grad = grad
        node.zeroed_version = version_of(grad)


def run_backward(
    tensors: Sequence[Tensor], grad_tensors: Sequence[Tensor | None], retain_graph: bool = False
) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad``, then run the final hooks."""
    _execute(tensors, grad_tensors, retain_graph, False, None)
    for hook in list(_FINAL_HOOKS.values()):
        hook()


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool = False,
    *,
    dump_backward_graph_path: str | None = None,
) -> None:
    """``paddle.autograd.backward``: accumulate the gradients of ``tensors`` (a Tensor or a list
    of distinct Tensors) into every leaf's ``.grad``; ``grad_tensors`` are their initial
    gradients (None, or None entries: ones); the graph is freed unless ``retain_graph``. The
    arguments are checked as PaddlePaddle 3.3.1 checks them, each a named error."""
    where = "paddle.autograd.backward"
    if dump_backward_graph_path is not None:
        raise UnimplementedError(
            f"{where}: dump_backward_graph_path (a dot dump of the backward graph) is not "
            "implemented; pass None"
        )
    if tensors is None:
        raise InvalidArgumentError(f"{where}: tensors must not be None")
    roots = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    if not roots:
        raise InvalidArgumentError(f"{where}: tensors must not be empty")
    for position, value in enumerate(roots):
        if not isinstance(value, TENSOR_TYPE.cls):
            raise InvalidArgumentError(
                f"{where}: tensors[{position}] must be a Tensor, got {type(value).__name__}"
            )
    if len({id(value) for value in roots}) != len(roots):
        raise InvalidArgumentError(f"{where}: tensors holds the same Tensor twice")
    seeds: list[Any] = []
    if grad_tensors is not None:
        seeds = list(grad_tensors) if isinstance(grad_tensors, (list, tuple)) else [grad_tensors]
        for position, value in enumerate(seeds):
            if value is not None and not isinstance(value, TENSOR_TYPE.cls):
                raise InvalidArgumentError(
                    f"{where}: grad_tensors[{position}] must be a Tensor or None, got "
                    f"{type(value).__name__}"
                )
        if seeds and len(seeds) != len(roots):
            raise InvalidArgumentError(
                f"{where}: {len(seeds)} grad_tensors for {len(roots)} tensors"
            )
    if not isinstance(retain_graph, bool):
        raise InvalidArgumentError(f"{where}: retain_graph must be a bool, got {retain_graph!r}")
    run_backward(roots, seeds or [None] * len(roots), retain_graph)


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
    elif isinstance(grad_outputs, TENSOR_TYPE.cls):
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
        if not isinstance(tensor, TENSOR_TYPE.cls):
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
    if isinstance(value, TENSOR_TYPE.cls):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise InvalidArgumentError(
            f"grad: {what} must be a Tensor or a list of Tensors, got {type(value).__name__} "
            f"{value!r}"
        )
    for position, item in enumerate(value):
        if not isinstance(item, TENSOR_TYPE.cls):
            raise InvalidArgumentError(
                f"grad: {what}[{position}] must be a Tensor, got {type(item).__name__} {item!r}"
            )
    if not value:
        raise InvalidArgumentError(f"grad: {what} is empty")
    return list(value)
