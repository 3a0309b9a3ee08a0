"""Spec -> OpInfo, the runtime registration of an op, and its Python source."""

from __future__ import annotations

from phiops.codegen.api.python import candidate_names, identifier, key_attrs, literal
from phiops.codegen.model import OpSpec
from phiops.runtime.dispatch.op_info import AttrInfo, InputInfo, OpInfo, OutputInfo
from phiops.runtime.dispatch.signature import KernelSignature

__all__ = ["op_info", "op_info_source", "kernel_name", "kernel_signature"]


def kernel_name(op: OpSpec) -> str | None:
    """The dense kernel of ``op`` (selected-rows and sparse variants are not generated)."""
    if op.kernel is None:
        return None
    func = op.kernel.dense_func
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


def op_info_source(info: OpInfo) -> str:
    """Python source constructing ``info``: only names and literals."""

    def items(values: tuple) -> str:
        return literal(tuple(values))

    inputs = ", ".join(
        f"InputInfo({i.name!r}, is_list={i.is_list}, optional={i.optional})" for i in info.inputs
    )
    attrs = ", ".join(
        f"AttrInfo({a.name!r}, {a.type!r}, has_default={a.has_default})" for a in info.attrs
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
        f"signature=SIGNATURES[{info.name!r}]" if info.signature is not None else "signature=None",
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
    return "OpInfo(" + ", ".join(fields) + ")"
