"""Spec -> OpInfo, the runtime registration of an op, and its Python source."""

from __future__ import annotations

from typing import TYPE_CHECKING

from phiops.codegen.api.python import (
    candidate_names,
    default_literal,
    identifier,
    key_attrs,
    literal,
)
from phiops.codegen.model import OpSpec
from phiops.runtime.dispatch.op_info import AttrInfo, InputInfo, OpInfo, OutputInfo
from phiops.runtime.dispatch.signature import KernelSignature

if TYPE_CHECKING:
    from phiops.codegen.op_traits import OpTraitsEntry

__all__ = ["op_info", "op_info_source", "kernel_name", "kernel_signature"]


def kernel_name(op: OpSpec) -> str | None:
    """The kernel ``op``'s dispatcher is built on: its dense kernel, else its first SelectedRows
    kernel (`KernelSpec.dispatch_func`); the other kinds' variants are selected at run time."""
    if op.kernel is None:
        return None
    func = op.kernel.dispatch_func
    return None if func is None else func.name


def kernel_signature(op: OpSpec) -> KernelSignature | None:
    """The KernelSignature of ``op``'s dense kernel: its kernel parameters (``kernel.param``,
    else every argument) split into inputs and attributes, and its outputs; None when it has no
    kernel (it invokes another op)."""
    kernel = kernel_name(op)
    if kernel is None:
        return None
    inputs = {a.name for a in op.inputs}
    params = op.kernel_params()
    return KernelSignature(
        kernel,
        tuple(p for p in params if p in inputs),
        tuple(p for p in params if p not in inputs),
        tuple(o.name for o in op.outputs),
    )


def op_info(op: OpSpec) -> OpInfo:
    """The OpInfo the generated registry records for ``op``."""
    for output in op.outputs:
        identifier(op, output.name, "output", "output")
    return OpInfo(
        name=op.name,
        location=f"{op.loc.file}:{op.loc.line}",
        inputs=tuple(InputInfo(a.name, a.type.is_list, a.name in op.optional) for a in op.inputs),
        attrs=tuple(AttrInfo(a.name, str(a.type), a.default is not None) for a in op.attrs),
        outputs=tuple(
            OutputInfo(o.name, o.type.is_list, o.name in op.intermediate, o.name in op.optional)
            for o in op.outputs
        ),
        infer_meta=op.infer_meta.func if op.infer_meta is not None else None,
        infer_meta_params=op.infer_meta_params() if op.infer_meta is not None else (),
        signature=kernel_signature(op),
        data_type=candidate_names(op, "data_type"),
        backend=candidate_names(op, "backend"),
        layout=candidate_names(op, "layout"),
        key_attrs=key_attrs(op) if op.kernel is not None else (),
        skip_transform=op.data_transform.skip_transform if op.data_transform else (),
        invoke=op.invoke.name if op.invoke is not None else None,
        backward=op.backward,
        is_backward=op.is_backward,
        inplace=tuple((p.input, p.output) for p in op.inplace),
        view=tuple((p.input, p.output) for p in op.view),
        no_need_buffer=op.no_need_buffer,
    )


def op_info_source(
    info: OpInfo,
    op: OpSpec,
    traits: OpTraitsEntry | None = None,
    signature: str | None = None,
) -> str:
    """Python source constructing ``info`` of ``op``, with each attribute's default as the
    generated API spells it and the op's entry of ops/op_traits.yaml (``traits``, if any): only
    names and literals. ``signature``: the source of its KernelSignature, when it is not the
    op's entry of generated/signatures.py (a sparse op's kernels, codegen/api/sparse.py)."""

    def items(values: tuple) -> str:
        return literal(tuple(values))

    inputs = ", ".join(
        f"InputInfo({i.name!r}, is_list={i.is_list}, optional={i.optional})" for i in info.inputs
    )
    defaults = {a.name: default_literal(op, a) for a in op.attrs if a.default is not None}
    attrs = ", ".join(
        f"AttrInfo({a.name!r}, {a.type!r}, has_default={a.has_default}"
        + (f", default={defaults[a.name]})" if a.name in defaults else ")")
        for a in info.attrs
    )
    outputs = ", ".join(
        f"OutputInfo({o.name!r}, is_list={o.is_list}, intermediate={o.intermediate}, optional={o.optional})"
        for o in info.outputs
    )
    fields = [
        f"name={info.name!r}",
        f"location={info.location!r}",
        f"inputs=({inputs}{',' if len(info.inputs) == 1 else ''})",
        f"attrs=({attrs}{',' if len(info.attrs) == 1 else ''})",
        f"outputs=({outputs}{',' if len(info.outputs) == 1 else ''})",
        f"infer_meta={info.infer_meta!r}",
        f"infer_meta_params={items(info.infer_meta_params)}",
        (
            f"signature={signature}"
            if signature is not None
            else (
                f"signature=SIGNATURES[{info.name!r}]"
                if info.signature is not None
                else "signature=None"
            )
        ),
        f"data_type={items(info.data_type)}",
        f"backend={items(info.backend)}",
        f"layout={items(info.layout)}",
        f"key_attrs={items(info.key_attrs)}",
        f"skip_transform={items(info.skip_transform)}",
        f"invoke={info.invoke!r}",
        f"backward={info.backward!r}",
        f"is_backward={info.is_backward}",
        f"inplace={literal(tuple(info.inplace))}",
        f"view={literal(tuple(info.view))}",
        f"no_need_buffer={items(info.no_need_buffer)}",
    ]
    if traits is not None:
        fields.append(f"traits={op_traits_source(traits)}")
    return "OpInfo(" + ", ".join(fields) + ")"


def op_traits_source(entry: OpTraitsEntry) -> str:
    """Python source constructing the OpTraits of an ops/op_traits.yaml entry: only names and
    literals; the fields the entry leaves at their defaults are left out."""
    from phiops.codegen.op_traits import REFLECTED_OPERATORS

    scalar_rules = dict(entry.scalar_operators)
    operators = tuple(
        "OperatorInfo("
        + ", ".join(
            [repr(dunder)]
            + (["reflected=True"] if dunder in REFLECTED_OPERATORS else [])
            + ([f"scalar_rule={scalar_rules[dunder]!r}"] if dunder in scalar_rules else [])
            + (["int16_own_dtype=True"] if dunder in entry.numpy_int16_own_dtype else [])
            + ([] if entry.static_operators else ["static=False"])
            + (
                ["static_swaps=True"]
                if dunder in REFLECTED_OPERATORS and dunder not in entry.static_unswapped
                else []
            )
        )
        + ")"
        for dunder in entry.operators
    )
    fields = [
        ("promotes", literal(entry.promotes), bool(entry.promotes)),
        ("same_dtype", literal(entry.same_dtype), bool(entry.same_dtype)),
        ("float_math", literal(entry.float_math), bool(entry.float_math)),
        ("true_division", "True", entry.true_division),
        ("kernel_transform", repr(entry.kernel_transform), entry.kernel_transform),
        ("zero_d_promotion", repr(entry.zero_d_promotion), entry.zero_d_promotion),
        ("integer_kernel", "True", entry.integer_kernel),
        ("results_stop_gradient", "True", entry.results_stop_gradient),
        ("value_attributes", literal(entry.value_attributes), bool(entry.value_attributes)),
        ("pd_op_renames", _pairs(entry.pd_op_renames), bool(entry.pd_op_renames)),
        ("pd_op_only", _pairs(entry.pd_op_only), bool(entry.pd_op_only)),
        ("phiops_only", _pairs(entry.phiops_only), bool(entry.phiops_only)),
        ("operators", _tuple(operators), bool(operators)),
        ("small_numpy_scalars", "True", entry.small_numpy_scalars),
        ("numpy_scalar_by_value", "True", entry.numpy_scalar_by_value),
        ("method_aliases", literal(entry.method_aliases), bool(entry.method_aliases)),
        ("legacy_elementwise", repr(entry.legacy_elementwise), entry.legacy_elementwise),
        (
            "translator_attributes",
            _pairs(entry.translator_attributes),
            bool(entry.translator_attributes),
        ),
    ]
    return "OpTraits(" + ", ".join(f"{k}={v}" for k, v, given in fields if given) + ")"


def _tuple(sources: tuple[str, ...]) -> str:
    return f"({sources[0]},)" if len(sources) == 1 else f"({', '.join(sources)})"


def _pairs(pairs: tuple[tuple[str, object], ...]) -> str:
    return _tuple(tuple(f"({literal(k)}, {literal(v)})" for k, v in pairs))
