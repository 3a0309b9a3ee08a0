"""OpInfo: what the generated registry records about each op, and the op registry."""

from __future__ import annotations

from dataclasses import dataclass, field

from phiops.runtime.dispatch.signature import KernelSignature
from phiops.runtime.errors import AlreadyExistsError, NotFoundError

__all__ = [
    "InputInfo",
    "AttrInfo",
    "OutputInfo",
    "OpInfo",
    "OP_REGISTRY",
    "register_op",
    "get_op_info",
]


@dataclass(frozen=True)
class InputInfo:
    name: str
    is_list: bool = False
    optional: bool = False


@dataclass(frozen=True)
class AttrInfo:
    name: str
    type: str
    has_default: bool = False


@dataclass(frozen=True)
class OutputInfo:
    name: str
    is_list: bool = False
    intermediate: bool = False
    optional: bool = False


@dataclass(frozen=True)
class OpInfo:
    """One op's registration, generated from its YAML entry.

    ``signature`` is the op's KernelSignature (generated/signatures.py, the one source of the
    kernel's name and arguments in order: ``kernel`` and ``kernel_params`` read it), None for an
    op that invokes another; ``infer_meta_params`` are the argument names passed to the InferMeta
    function, in order; ``data_type``/``backend``/``layout`` are candidate names (a
    ``complex(x)`` candidate is spelled ``complex:x``, a DataType constant ``DataType::X``);
    ``key_attrs`` are the attributes that the dispatch cache key includes, because they can
    change the selected kernel or the inferred meta.
    """

    name: str
    location: str
    inputs: tuple[InputInfo, ...]
    attrs: tuple[AttrInfo, ...]
    outputs: tuple[OutputInfo, ...]
    infer_meta: str | None = None
    infer_meta_params: tuple[str, ...] = ()
    signature: KernelSignature | None = None
    data_type: tuple[str, ...] = ()
    backend: tuple[str, ...] = ()
    layout: tuple[str, ...] = ()
    key_attrs: tuple[str, ...] = ()
    skip_transform: tuple[str, ...] = ()
    invoke: str | None = None
    backward: str | None = None
    is_backward: bool = False
    inplace: tuple[tuple[str, str], ...] = ()
    view: tuple[tuple[str, str], ...] = ()
    no_need_buffer: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def kernel(self) -> str | None:
        """The kernel's name, None for an op that invokes another."""
        return None if self.signature is None else self.signature.name

    @property
    def kernel_params(self) -> tuple[str, ...]:
        """The argument names passed to the kernel, in order (inputs and attributes)."""
        return () if self.signature is None else self.signature.params

    @property
    def attr_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.attrs)

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.inputs)


OP_REGISTRY: dict[str, OpInfo] = {}


def register_op(info: OpInfo) -> OpInfo:
    """Add ``info`` to the registry; AlreadyExistsError if the name is taken."""
    previous = OP_REGISTRY.get(info.name)
    if previous is not None and previous != info:
        raise AlreadyExistsError(
            f"op {info.name!r} is registered twice ({previous.location}, {info.location})"
        )
    OP_REGISTRY[info.name] = info
    return info


def get_op_info(name: str) -> OpInfo:
    try:
        return OP_REGISTRY[name]
    except KeyError:
        raise NotFoundError(f"no op named {name!r} is registered") from None
