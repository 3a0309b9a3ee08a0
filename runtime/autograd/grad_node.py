"""Gradient nodes: what a recorded op keeps for its backward, and how it runs it.

A GradNode is created when an op with a ``backward:`` runs on an input that needs a gradient. It
keeps only what its backward op reads (``GradSpec.args``): saved inputs (by meta alone for
``no_need_buffer`` ones), saved outputs, attributes; and one edge per forward input to the node
that produced it (or to the AccumulationNode of a leaf). ``release()`` drops the saved tensors
after a backward pass that does not retain the graph.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.tensor.version import detached_storage, version_of
from phiops.runtime.device import module_of
from phiops.runtime.dispatch.op_def import OP_DEFS, op_api
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from phiops.runtime.kernels.kernel import swap_wanted_outputs

if TYPE_CHECKING:
    from phiops.runtime.eager.tensor import Tensor

__all__ = [
    "GradSpec",
    "GradNode",
    "AccumulationNode",
    "TensorWrapper",
    "Edge",
    "NodeSpec",
    "PythonGradNode",
]


Edge = tuple[
    Any, Any
]  # (node, slot): slot is an output index, or (index, position) in a list output


@dataclass(frozen=True)
class GradSpec:
    """How an op's backward op is called, decided by codegen from the two specs.

    ``args`` has one entry per backward argument: ``("input", i)``, ``("output", i)``,
    ``("grad", i)`` (the gradient of forward output i), ``("attr", i)`` or ``("value", v)`` (the
    default of a backward attribute the forward op does not have). ``input_grads`` maps each
    backward output to the forward input it is the gradient of (None when it is not one).
    ``meta_only`` lists the forward inputs saved without their data (``no_need_buffer``).
    """

    op: str
    backward: str
    args: tuple[tuple[str, Any], ...]
    input_grads: tuple[int | None, ...]
    meta_only: frozenset[int] = frozenset()
    double_grad: bool = False  # whether the backward op has a backward op of its own
    # Derived from ``args``: the forward outputs whose gradients the backward op takes, the
    # (argument position, output index) of each gradient argument, and the positions of the
    # saved tensors (what ``GradNode.apply`` fills in, without reading ``args`` kind by kind).
    consumed: frozenset[int] = field(init=False, compare=False, repr=False)
    grad_args: tuple[tuple[int, int], ...] = field(init=False, compare=False, repr=False)
    tensor_args: tuple[int, ...] = field(init=False, compare=False, repr=False)
    # Whether backward output i is the gradient of forward input i, for every i.
    grads_in_order: bool = field(init=False, compare=False, repr=False)
    # What record() saves for each argument: (SAVE_* kind, index or value, the saved tensor's
    # name for error messages, whether only its meta is kept).
    save_plan: tuple[tuple[int, Any, tuple, bool], ...] = field(
        init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        grad_args = tuple(
            (position, value) for position, (kind, value) in enumerate(self.args) if kind == "grad"
        )
        tensor_args = tuple(
            position
            for position, (kind, _) in enumerate(self.args)
            if kind == "input" or kind == "output"
        )
        object.__setattr__(self, "consumed", frozenset(value for _, value in grad_args))
        object.__setattr__(self, "grad_args", grad_args)
        object.__setattr__(self, "tensor_args", tensor_args)
        in_order = self.input_grads == tuple(range(len(self.input_grads)))
        object.__setattr__(self, "grads_in_order", in_order)
        plan = tuple(
            (_SAVE_KINDS[kind], value, (kind, value), kind == "input" and value in self.meta_only)
            for kind, value in self.args
        )
        object.__setattr__(self, "save_plan", plan)


SAVE_INPUT, SAVE_OUTPUT, SAVE_ATTR, SAVE_VALUE, SAVE_NOTHING = range(5)
_SAVE_KINDS = {
    "input": SAVE_INPUT,
    "output": SAVE_OUTPUT,
    "attr": SAVE_ATTR,
    "value": SAVE_VALUE,
    "grad": SAVE_NOTHING,
}


_PLACEHOLDER_LIMIT = 4096
_PLACEHOLDERS: dict[Any, DenseTensor] = {}


def meta_placeholder(impl: DenseTensor) -> DenseTensor:
    """The read-only stand-in for a ``no_need_buffer`` input with ``impl``'s meta: a zero-stride
    view (the shape and dtype, one element of memory), one shared by every record of that meta
    instead of one allocated per record."""
    meta = impl.meta
    placeholder = _PLACEHOLDERS.get(meta)
    if placeholder is None:
        if len(_PLACEHOLDERS) >= _PLACEHOLDER_LIMIT:
            _PLACEHOLDERS.clear()
        xp = module_of(impl.array)
        array = xp.broadcast_to(xp.zeros((), impl.array.dtype), meta.dims)
        placeholder = _PLACEHOLDERS[meta] = DenseTensor(array, meta)
    return placeholder


# The innermost ``saved_tensors_hooks`` (pack, unpack) pair, None outside any
# (runtime/autograd/saved_hooks.py sets it).
_SAVED_HOOKS: tuple[Callable[[Tensor], Any], Callable[[Any], Any]] | None = None


def set_saved_tensors_hooks(hooks: tuple[Callable, Callable] | None) -> None:
    global _SAVED_HOOKS
    _SAVED_HOOKS = hooks


class TensorWrapper:
    """A saved tensor: its DenseTensor (the Tensor itself for an input, a DenseTensor sharing its
    storage and version counter for an output), the version it had, and (weakly, for outputs)
    its node. Under ``saved_tensors_hooks`` it keeps what the pack hook returned instead, and
    the unpack hook gives the tensor back."""

    __slots__ = ("impl", "version", "stop_gradient", "grad_node", "weak_node", "op", "name", "unpack")

    def __init__(
        self, tensor: Tensor, op: str, name: tuple, meta_only: bool, is_output: bool
    ) -> None:
        """``name``: ("input" or "output", index) of the saved tensor, plus its position in a
        Tensor[] argument; spelled out only in an error message."""
        hooks = _SAVED_HOOKS
        if meta_only:
            impl = meta_placeholder(detached_storage(tensor) if is_output else tensor)
            self.version = -1
            self.unpack = None
        elif hooks is not None:
            # the pack hook's object stands for the tensor: no version to check
            impl = hooks[0](tensor)
            self.version = -1
            self.unpack = hooks[1]
        else:
            impl = detached_storage(tensor) if is_output else tensor
            self.version = version_of(impl)
            self.unpack = None
        self.impl = impl
        self.stop_gradient = tensor.stop_gradient
        self.op = op
        self.name = name
        node = tensor._grad_node
        self.weak_node = is_output and node is not None
        if self.weak_node:
            self.grad_node = (weakref.ref(node[0]), node[1])
        else:
            self.grad_node = node

    @property
    def spelled_name(self) -> str:
        """``input 0``, ``output 1``, ``input 2[3]``."""
        kind, index, *position = self.name
        return f"{kind} {index}" + "".join(f"[{p}]" for p in position)

    def unwrap(self, keep_graph: bool) -> Tensor:
        """The saved tensor; with ``keep_graph`` it still leads to its grad node (double grad)."""
        impl = self.impl
        if self.unpack is not None:
            impl = self.unpack(impl)
            if not isinstance(impl, TENSOR_TYPE.cls):
                raise InvalidArgumentError(
                    f"backward of '{self.op}': saved_tensors_hooks' unpack_hook must return a "
                    f"Tensor for its saved tensor '{self.spelled_name}', got "
                    f"{type(impl).__name__}"
                )
        elif self.version >= 0 and version_of(impl) != self.version:
            raise PreconditionNotMetError(
                f"backward of '{self.op}': its saved tensor '{self.spelled_name}' was modified in place after "
                f"the forward pass (version {version_of(impl)}, saved at version "
                f"{self.version}); compute it again or copy it before changing it"
            )
        tensor = TENSOR_TYPE.wrap(impl.array, impl.meta)
        if keep_graph:
            tensor.stop_gradient = self.stop_gradient
            node = self.grad_node
            if self.weak_node and node is not None:
                target = node[0]()
                node = None if target is None else (target, node[1])
            tensor._grad_node = node
        return tensor


_BACKWARD_APIS: dict[str, Callable[..., Any]] = {}


def _backward_api(name: str) -> Callable[..., Any]:
    """The API function of backward op ``name``, looked up once (the generated API binds it at
    import, before any backward pass)."""
    api = _BACKWARD_APIS[name] = op_api(name)
    return api


class _Hooked:
    """A node's gradient hooks by output slot, ``_hooks`` None until the first is registered
    (most nodes never get one, and the engine then skips the hook machinery)."""

    __slots__ = ()
    _hooks: dict[Any, list[Callable[[Tensor], Tensor | None]]] | None

    @property
    def hooks(self) -> dict[Any, list[Callable[[Tensor], Tensor | None]]]:
        hooks = self._hooks
        if hooks is None:
            hooks = self._hooks = {}
        return hooks


class NodeSpec:
    """What the engine reads of a Python-defined node's spec (``PythonGradNode``): a name for
    the op, its backward's name, and the output slots that take a gradient (all of them)."""

    __slots__ = ("op", "backward", "consumed")

    def __init__(self, op: str, backward: str, slots: int) -> None:
        self.op = op
        self.backward = backward
        self.consumed = frozenset(range(slots))


class PythonGradNode(_Hooked):
    """The engine's interface for nodes whose backward is Python code rather than a backward op
    (PyLayer's, the sparse ops', to_static's program): subclasses set ``spec`` (a NodeSpec),
    ``edges``, ``output_metas``, ``slot_count``, ``_hooks`` and ``released``, and define
    ``release`` and ``apply``."""

    __slots__ = ()
    spec: NodeSpec
    edges: list[Any]
    slot_count: int

    @property
    def name(self) -> str:
        return self.spec.backward

    @property
    def output_count(self) -> int:
        return self.slot_count

    def next_nodes(self) -> list[Any]:
        return [edge[0] for edge in self.edges if edge is not None]

    def check_arrivals(self, slots: list[Any]) -> None:
        return None


class GradNode(_Hooked):
    """One recorded op: runs its backward op on the gradients of its outputs.

    ``every_edge``: every forward input leads to a node (no None, no Tensor[] edge), so every
    gradient the backward op computes is wanted; record() knows it for free, and ``apply`` then
    builds no mask. ``slot_count``: how many output gradients the engine collects for it.
    """

    __slots__ = (
        "spec",
        "edges",
        "saved",
        "output_metas",
        "slot_count",
        "every_edge",
        "_hooks",
        "released",
        "__weakref__",
    )

    def __init__(
        self,
        spec: GradSpec,
        edges: list[Any],
        saved: list[Any],
        output_metas: list[Any],
        every_edge: bool = False,
    ) -> None:
        self.spec = spec
        self.edges = edges
        self.saved = saved
        self.output_metas = output_metas
        self.slot_count = len(output_metas)
        self.every_edge = every_edge
        self._hooks: dict[Any, list[Callable[[Tensor], Tensor | None]]] | None = None
        self.released = False

    @property
    def name(self) -> str:
        return self.spec.backward

    @property
    def output_count(self) -> int:
        return len(self.output_metas)

    def next_nodes(self) -> list[Any]:
        found = []
        for edge in self.edges:
            if edge is None:
                continue
            if type(edge) is list:
                found.extend(e[0] for e in edge if e is not None)
            else:
                found.append(edge[0])
        return found

    def release(self) -> None:
        self.saved = []
        self.released = True

    def check_arrivals(self, slots: list[Any]) -> None:
        """UnimplementedError when a gradient arrived for an output the backward op takes no
        gradient for (cross_entropy_with_softmax's softmax, as in PaddlePaddle)."""
        consumed = self.spec.consumed
        for slot, value in enumerate(slots):
            if value is not None and slot not in consumed:
                raise UnimplementedError(
                    f"a gradient reached output {slot} of '{self.spec.op}', but its backward op "
                    f"'{self.spec.backward}' takes no gradient for that output (as in PaddlePaddle); "
                    "compute the loss from its other outputs"
                )

    def _wanted_outputs(self) -> tuple[bool, ...] | None:
        """Which outputs of the backward op are needed: a gradient of a forward input that leads
        nowhere (stop_gradient, an integer tensor) is not. None when all are, or when the backward
        op invokes other ops (the mask is meant for one grad kernel, not for those it calls)."""
        edges = self.edges
        wanted = []
        for index in self.spec.input_grads:
            if index is None:
                wanted.append(True)
                continue
            edge = edges[index]
            wanted.append(
                edge is not None and (type(edge) is not list or edge.count(None) < len(edge))
            )
        if False not in wanted or OP_DEFS[self.spec.backward].invoke is not None:
            return None
        return tuple(wanted)

    def apply(
        self, grads: list[Any], keep_graph: bool, retain: bool = True
    ) -> list[Any] | tuple[Any, ...]:
        """Gradients of the forward inputs (lists for Tensor[] inputs, None where none flows),
        one per edge, from ``grads``, the gradients of the forward outputs (None where none
        arrived); the saved tensors are released after unless ``retain``."""
        if self.released:
            raise PreconditionNotMetError(
                f"backward of '{self.spec.op}' runs a second time, but its saved tensors were freed "
                "after the first backward pass; pass retain_graph=True to the first backward() or grad()"
            )
        spec = self.spec
        # ``saved`` holds the attributes in place and None at the gradients' positions.
        args = self.saved.copy()
        for position, output in spec.grad_args:
            args[position] = grads[output]
        for position in spec.tensor_args:
            saved = args[position]
            if type(saved) is TensorWrapper:
                args[position] = saved.unwrap(keep_graph)
            elif saved is not None:
                args[position] = [wrapper.unwrap(keep_graph) for wrapper in saved]
        api = _BACKWARD_APIS.get(spec.backward) or _backward_api(spec.backward)
        if keep_graph or self.every_edge:
            results = api(*args)
        else:
            mask = self._wanted_outputs()
            if mask is None:
                results = api(*args)
            else:
                previous = swap_wanted_outputs(mask)
                try:
                    results = api(*args)
                finally:
                    swap_wanted_outputs(previous)
        if not retain:
            self.saved = []
            self.released = True
        if type(results) is not tuple:
            results = (results,)
        if keep_graph and not spec.double_grad and self._reads_graph(args):
            for result in results:
                if (
                    result is not None
                    and not isinstance(result, list)
                    and result._grad_node is None
                ):
                    result.stop_gradient = False
                    result._grad_node = (MissingGradNode(spec), 0)
        if spec.grads_in_order and len(results) == len(self.edges):
            return results
        input_grads: list[Any] = [None] * len(self.edges)
        for index, result in zip(spec.input_grads, results):
            if index is not None:
                input_grads[index] = result
        return input_grads

    def _reads_graph(self, args: list[Any]) -> bool:
        """Whether a tensor whose value the backward op reads needs a gradient: a later backward
        pass differentiates through it (shape-only inputs do not count)."""
        meta_only = self.spec.meta_only
        for (kind, value), arg in zip(self.spec.args, args):
            if kind == "grad" or kind == "output" or (kind == "input" and value not in meta_only):
                for tensor in arg if isinstance(arg, list) else (arg,):
                    if tensor is not None and not tensor.stop_gradient:
                        return True
        return False


class MissingGradNode(_Hooked):
    """Stands for the backward of a backward op that has none (``create_graph=True`` through an op
    without a double grad): reaching it in a later backward pass is an error, not a silent zero."""

    __slots__ = ("spec", "_hooks", "output_metas", "__weakref__")

    slot_count = 1
    edges: tuple[Any, ...] = ()

    def __init__(self, spec: GradSpec) -> None:
        self.spec = spec
        self._hooks = None
        self.output_metas = [None]

    @property
    def name(self) -> str:
        return f"{self.spec.backward} (no backward)"

    @property
    def output_count(self) -> int:
        return 1

    def next_nodes(self) -> list[Any]:
        return []

    def release(self) -> None:
        return None

    def check_arrivals(self, slots: list[Any]) -> None:
        return None

    def apply(self, grads: list[Any], keep_graph: bool, retain: bool = True) -> list[Any]:
        raise UnimplementedError(
            f"higher-order gradient through '{self.spec.op}': its backward op '{self.spec.backward}' "
            "has no backward op in ops/backward.yaml"
        )


class AccumulationNode(_Hooked):
    """The end of the graph for a leaf tensor: adds arriving gradients to ``tensor.grad``.

    ``owned_grad`` is the leaf's gradient when it is a buffer nothing else shares (one the
    engine's add or ``clear_grad`` allocated), which later gradients are then added to in place;
    ``zeroed_version`` the version that buffer had when ``clear_grad`` zeroed it (-1: not
    zeroed), while which the next gradient is copied into it rather than added to zeros.
    """

    __slots__ = ("tensor", "_hooks", "owned_grad", "zeroed_version", "__weakref__")

    slot_count = 1
    edges: tuple[Any, ...] = ()

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = weakref.ref(tensor)
        self._hooks = None
        self.owned_grad: Tensor | None = None
        self.zeroed_version = -1

    @property
    def name(self) -> str:
        return "accumulate_grad"

    def next_nodes(self) -> list[Any]:
        return []
