"""OpInfo: what the generated registry records about each op (its spec facts and its traits
from ops/op_traits.yaml). The registry itself is runtime/dispatch/op_def.py's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from phiops.runtime.dispatch.signature import KernelSignature

__all__ = [
    "InputInfo",
    "AttrInfo",
    "NO_DEFAULT",
    "OutputInfo",
    "OperatorInfo",
    "OpTraits",
    "OpInfo",
]


class _NoDefault:
    """The default of an attribute the spec gives none (``None`` is a default of its own)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class InputInfo:
    name: str
    is_list: bool = False
    optional: bool = False


@dataclass(frozen=True)
class AttrInfo:
    """One attribute; ``default`` is the spec's default as the generated API takes it
    (``NO_DEFAULT`` where the spec gives none)."""

    name: str
    type: str
    has_default: bool = False
    default: Any = NO_DEFAULT


@dataclass(frozen=True)
class OutputInfo:
    name: str
    is_list: bool = False
    intermediate: bool = False
    optional: bool = False


@dataclass(frozen=True)
class OperatorInfo:
    """A Python operator that calls the op (ops/op_traits.yaml ``operators``): ``x + y`` is
    ``add(x, y)``; a ``reflected`` one (``__radd__``) swaps the operands. ``scalar_rule``: how a
    Tensor or a static Value meeting a Python number computes with one ``scale`` instead
    (``plus``, ``minus``, ``rminus``, ``times``, ``over``), or a Tensor with one ``pow``
    (``power``), None to run or build the op on a 0-D operand; ``int16_own_dtype``: a numpy
    int16 scalar is taken as a 0-D int16 operand, as PaddlePaddle 3.3.1 takes it; ``static``: whether
    Values have the operator too; ``static_swaps``: whether a Value's reflected form builds the
    op with the operands swapped (PaddlePaddle's math_op_patch does not for ``__radd__`` and
    ``__rmul__``)."""

    dunder: str
    reflected: bool = False
    scalar_rule: str | None = None
    static: bool = True
    static_swaps: bool = False
    int16_own_dtype: bool = False


@dataclass(frozen=True)
class OpTraits:
    """The facts about an op that PaddlePaddle's schema has no key for (ops/op_traits.yaml,
    docs/op_traits.md): type promotion, static-building quirks, the pd_op's argument
    differences, Python operators and Tensor method aliases, legacy translation."""

    promotes: tuple[str, ...] = ()
    same_dtype: tuple[str, ...] = ()
    float_math: tuple[str, ...] = ()
    true_division: bool = False
    kernel_transform: str | None = None
    zero_d_promotion: str | None = None
    integer_kernel: bool = False
    results_stop_gradient: bool = False
    value_attributes: tuple[str, ...] = ()
    pd_op_renames: tuple[tuple[str, str], ...] = ()
    pd_op_only: tuple[tuple[str, Any], ...] = ()
    phiops_only: tuple[tuple[str, Any], ...] = ()
    operators: tuple[OperatorInfo, ...] = ()
    small_numpy_scalars: bool = False
    numpy_scalar_by_value: bool = False
    method_aliases: tuple[str, ...] = ()
    legacy_elementwise: str | None = None
    translator_attributes: tuple[tuple[str, str], ...] = ()


NO_TRAITS = OpTraits()


@dataclass(frozen=True)
class OpInfo:
    """One op's registration, generated from its YAML entry.

    ``signature`` is the op's KernelSignature (generated/signatures.py, the one source of the
    kernel's name and arguments in order: ``kernel`` and ``kernel_params`` read it), None for an
    op that invokes another; ``infer_meta_params`` are the argument names passed to the InferMeta
    function, in order; ``data_type``/``backend``/``layout`` are candidate names (a
    ``complex(x)`` candidate is spelled ``complex:x``, a DataType constant ``DataType::X``);
    ``key_attrs`` are the attributes that the dispatch cache key includes, because they can
    change the selected kernel or the inferred meta; ``traits`` are its facts from
    ops/op_traits.yaml; ``dialect`` is the IR dialect of its operations (``pd_op``, or an op
    package's own).
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
    traits: OpTraits = NO_TRAITS
    # the IR dialect its operations are built in: "pd_op" for phiops's own ops, the op
    # package's dialect for an op of an out-of-tree package (runtime/dispatch/op_packages.py)
    dialect: str = "pd_op"
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
