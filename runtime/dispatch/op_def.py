"""OpDef: everything about one op, in one object, in one registry (DESIGN.md §5).

``generated/registry.py`` builds one ``OpDef`` per op of ``ops/`` and registers it here: its spec
facts (the ``OpInfo``: inputs, attributes, outputs, optional, intermediate, inplace/view pairs,
no_need_buffer), its InferMeta binding (the generated wrapper), its ``KernelSignature``, its
``GradSpec`` and its dispatcher (``plan``/``execute``). The generated API binds each eager function
to its OpDef when it is defined. The autograd engine, the optimizer and, later, the IR's ``pd_op``
dialect and the executors find ops here and nowhere else: ``get_op_def(name)`` (``get_op_info``
for its spec facts). It is the one op registry: the tables the runtime derives from every op's
traits (the Python operators, the Tensor method aliases, the legacy elementwise ops) are read
from it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator

from phiops.runtime.dispatch.dispatcher import OpDispatcher
from phiops.runtime.dispatch.op_info import (
    AttrInfo,
    InputInfo,
    OperatorInfo,
    OpInfo,
    OutputInfo,
)
from phiops.runtime.dispatch.signature import KernelSignature
from phiops.runtime.errors import AlreadyExistsError, NotFoundError, UnimplementedError

if TYPE_CHECKING:
    from phiops.runtime.autograd.grad_node import GradSpec

__all__ = [
    "OpDef",
    "OP_DEFS",
    "register_op_def",
    "get_op_def",
    "get_op_info",
    "op_api",
    "op_defs",
    "python_operators",
    "method_aliases",
    "legacy_elementwise_ops",
]


class OpDef:
    """One op: spec facts, InferMeta binding, kernel signature, grad spec, dispatcher, eager API.

    ``infer_meta``, ``signature`` and ``dispatcher`` are None for an op that invokes another op
    instead of running a kernel of its own; ``grad`` is None for an op without ``backward:``.
    """

    __slots__ = ("info", "infer_meta", "grad", "dispatcher", "api")

    def __init__(
        self,
        info: OpInfo,
        infer_meta: Callable[..., tuple[Any, ...]] | None = None,
        grad: GradSpec | None = None,
    ) -> None:
        self.info = info
        self.infer_meta = infer_meta
        self.grad = grad
        self.dispatcher = None if infer_meta is None else OpDispatcher(info, infer_meta)
        self.api: Callable[..., Any] | None = None

    def bind_api(self, function: Callable[..., Any]) -> None:
        """Record the op's eager API function (the generated modules call this once per op)."""
        if self.api is not None and self.api is not function:
            raise AlreadyExistsError(f"op {self.name!r} already has an API function")
        self.api = function

    # -- spec facts, read through from the OpInfo -------------------------------------------
    @property
    def signature(self) -> KernelSignature | None:
        """The kernel signature (generated/signatures.py); None for an op that invokes another."""
        return self.info.signature

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def location(self) -> str:
        return self.info.location

    @property
    def inputs(self) -> tuple[InputInfo, ...]:
        return self.info.inputs

    @property
    def attrs(self) -> tuple[AttrInfo, ...]:
        return self.info.attrs

    @property
    def outputs(self) -> tuple[OutputInfo, ...]:
        return self.info.outputs

    @property
    def optional(self) -> tuple[str, ...]:
        """Names of the optional inputs and outputs."""
        return tuple(i.name for i in self.info.inputs if i.optional) + tuple(
            o.name for o in self.info.outputs if o.optional
        )

    @property
    def intermediate(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.info.outputs if o.intermediate)

    @property
    def inplace(self) -> tuple[tuple[str, str], ...]:
        return self.info.inplace

    @property
    def view(self) -> tuple[tuple[str, str], ...]:
        return self.info.view

    @property
    def no_need_buffer(self) -> tuple[str, ...]:
        return self.info.no_need_buffer

    @property
    def kernel(self) -> str | None:
        return self.info.kernel

    @property
    def invoke(self) -> str | None:
        return self.info.invoke

    @property
    def backward(self) -> str | None:
        return self.info.backward

    @property
    def is_backward(self) -> bool:
        return self.info.is_backward

    def __repr__(self) -> str:
        return f"OpDef({self.name!r}, {self.location})"


OP_DEFS: dict[str, OpDef] = {}


def register_op_def(op: OpDef) -> OpDef:
    """Add ``op`` to the registry; AlreadyExistsError if the name is taken by another op."""
    previous = OP_DEFS.get(op.name)
    if previous is not None and previous.info != op.info:
        raise AlreadyExistsError(
            f"op {op.name!r} is registered twice ({previous.location}, {op.location})"
        )
    OP_DEFS[op.name] = op
    _DERIVED.clear()
    return op


def get_op_def(name: str) -> OpDef:
    """The OpDef of ``name``; NotFoundError naming it when no op of that name is registered."""
    try:
        return OP_DEFS[name]
    except KeyError:
        raise NotFoundError(
            f"no op named {name!r} is registered (is `import generated` missing?)"
        ) from None


def get_op_info(name: str) -> OpInfo:
    """The spec facts (OpInfo) of op ``name``; NotFoundError naming it when none is registered."""
    return get_op_def(name).info


def op_api(name: str) -> Callable[..., Any]:
    """The eager API function of op ``name``, for runtime code that calls ops (autograd, the
    optimizer); UnimplementedError when the generated API does not have it."""
    op = OP_DEFS.get(name)
    if op is None or op.api is None:
        raise UnimplementedError(
            f"the runtime needs the op '{name}', which the generated API does not have (or "
            "`import generated` has not run); add the op to the specs"
        )
    return op.api


def op_defs() -> Iterator[OpDef]:
    """Every registered OpDef, in registration order."""
    return iter(tuple(OP_DEFS.values()))


# tables derived from every registered op's traits, built on first use after a registration
_DERIVED: dict[str, Any] = {}


def python_operators() -> tuple[tuple[OperatorInfo, str], ...]:
    """Every Python operator an op declares (ops/op_traits.yaml ``operators``) with the op it
    calls, in registration order: the one table Tensor's and Value's operators are made from."""
    found = _DERIVED.get("operators")
    if found is None:
        found = _DERIVED["operators"] = tuple(
            (operator, op.name) for op in OP_DEFS.values() for operator in op.info.traits.operators
        )
    return found


def method_aliases() -> dict[str, str]:
    """PaddlePaddle's Tensor method aliases (ops/op_traits.yaml ``method_aliases``): alias ->
    the generated function it calls (an alias ending in ``_`` calls the op's in-place form)."""
    found = _DERIVED.get("aliases")
    if found is None:
        found = _DERIVED["aliases"] = {
            alias: op.name + "_" if alias.endswith("_") else op.name
            for op in OP_DEFS.values()
            for alias in op.info.traits.method_aliases
        }
    return dict(found)


def legacy_elementwise_ops() -> dict[str, str]:
    """Legacy elementwise op type -> the op it becomes (ops/op_traits.yaml
    ``legacy_elementwise``)."""
    found = _DERIVED.get("elementwise")
    if found is None:
        found = _DERIVED["elementwise"] = {
            op.info.traits.legacy_elementwise: op.name
            for op in OP_DEFS.values()
            if op.info.traits.legacy_elementwise is not None
        }
    return dict(found)
