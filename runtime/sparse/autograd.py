"""Autograd for the sparse ops: one grad node per call, running the op's backward (a Python
function of the output gradient) and handing the engine one gradient per input.

The node has the interface the engine walks (runtime/autograd/engine.py: ``spec.consumed``,
``edges``, ``slot_count``, ``apply``, ...), as ``to_static``'s program node has. A sparse
input's gradient is a sparse tensor of the input's very pattern (entries in its order), as
PaddlePaddle's sparse grad kernels give it; a dense input's gradient is dense.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from phiops.runtime.autograd.grad_mode import GRAD_MODE
from phiops.runtime.autograd.grad_node import NodeSpec, PythonGradNode
from phiops.runtime.autograd.record import edge_of
from phiops.runtime.errors import PreconditionNotMetError, UnimplementedError

__all__ = ["attach", "detached"]


class SparseGradNode(PythonGradNode):
    """The grad node of one sparse op call with one output."""

    __slots__ = (
        "spec",
        "edges",
        "output_metas",
        "slot_count",
        "_hooks",
        "released",
        "_backward",
        "__weakref__",
    )

    def __init__(
        self, op: str, edges: list[Any], meta: Any, backward: Callable[[Any], Sequence[Any]]
    ) -> None:
        self.spec = NodeSpec(op, f"{op}_grad", 1)
        self.edges = edges
        self.output_metas = [meta]
        self.slot_count = 1
        self._hooks = None
        self.released = False
        self._backward = backward

    def release(self) -> None:
        self._backward = None
        self.released = True

    def apply(self, grads: list[Any], keep_graph: bool, retain: bool = True) -> list[Any]:
        if self.released or self._backward is None:
            raise PreconditionNotMetError(
                f"backward of '{self.spec.op}' runs a second time, but its saved tensors were "
                "freed after the first backward pass; pass retain_graph=True to the first backward()"
            )
        if keep_graph:
            raise UnimplementedError(
                f"higher-order gradients through the sparse op '{self.spec.op}' "
                "(create_graph=True) are not implemented"
            )
        results = list(self._backward(grads[0]))
        if not retain:
            self.release()
        return [result if edge is not None else None for result, edge in zip(results, self.edges)]


def attach(
    op: str,
    inputs: Sequence[Any],
    output: Any,
    backward: Callable[[Any], Any],
    input_grads: tuple[int | None, ...] | None = None,
) -> Any:
    """Make ``output`` the result of a recorded call of ``op`` when grad mode is on and an input
    (a Tensor or None) needs a gradient; ``backward(output_grad)`` gives one gradient per input
    (None where none flows). Returns ``output``.

    With ``input_grads`` (what generated/sparse_api.py passes), ``backward`` is the call of the
    op's backward op: its result (one Tensor or a tuple) holds the gradient of forward input
    ``input_grads[i]`` at position i, and the output gradient it is handed has the output's
    pattern, entries in its order, as PHI's sparse grad kernels take it."""
    if not GRAD_MODE.enabled:
        return output
    edges = [None if value is None else edge_of(value) for value in inputs]
    if all(edge is None for edge in edges) or output.array.dtype.kind not in "fc":
        return output
    if input_grads is not None:
        backward = _backward_op_call(backward, input_grads, len(inputs), output)
    node = SparseGradNode(op, edges, output.meta, backward)
    output.stop_gradient = False
    output._grad_node = (node, 0)
    return output


def detached(tensor: Any) -> Any:
    """A Tensor over ``tensor``'s storage without its grad node: what a grad node saves of the
    output it belongs to (saving the output itself would make a reference cycle)."""
    from phiops.runtime.eager.tensor import wrap_array

    return wrap_array(tensor.array, tensor.meta)


def _backward_op_call(
    call: Callable[[Any], Any], input_grads: tuple[int | None, ...], count: int, output: Any
) -> Callable[[Any], list[Any]]:
    """``call`` (a backward op's call on the output gradient) as a node's backward: the output
    gradient in the output's pattern first, then one gradient per forward input."""
    from phiops.runtime.sparse.creation import grad_values, with_values, wrap_sparse
    from phiops.runtime.tensor.kinds import TensorKind

    storage = output.array if output.meta.kind is not TensorKind.DENSE else None

    def backward(grad: Any) -> list[Any]:
        if storage is not None:
            grad = wrap_sparse(with_values(storage, grad_values(grad, storage)))
        result = call(grad)
        results = result if isinstance(result, tuple) else (result,)
        grads: list[Any] = [None] * count
        for value, index in zip(results, input_grads):
            if index is not None:
                grads[index] = value
        return grads

    return backward
