"""Per-op views for the templates: every string a template places, computed here."""

from __future__ import annotations

from dataclasses import dataclass

from codegen.api.python import (
    GenerationError,
    PyArg,
    invoke_call,
    key_attrs,
    output_size,
    python_args,
    returns_annotation,
)
from codegen.errors import Diagnostic
from codegen.model import OpSpec

__all__ = ["ApiView", "InferMetaView", "SignatureView", "api_view", "infer_meta_view", "signature_view"]


def _doc_escape(text: str) -> str:
    """Text safe inside a triple-double-quoted docstring."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(frozen=True)
class ApiView:
    name: str
    params: str
    returns: str
    doc: tuple[str, ...]
    normalise: tuple[str, ...]
    invoke: str | None
    impl_lines: tuple[str, ...]
    key_expr: str
    miss_exceptions: str
    input_tuple: str
    attr_tuple: str
    result_lines: tuple[str, ...]


def _impl_line(arg: PyArg) -> str:
    if arg.is_list:
        return f"_{arg.name} = [_t._impl for _t in {arg.name}]"
    if arg.optional:
        return f"_{arg.name} = None if {arg.name} is None else {arg.name}._impl"
    return f"_{arg.name} = {arg.name}._impl"


def _field_expr(arg: PyArg, field: str) -> str:
    """``field`` (meta or array) of the DenseTensor(s) behind argument ``arg``."""
    if arg.is_list:
        return f"[_t.{field} for _t in _{arg.name}]"
    if arg.optional:
        return f"None if _{arg.name} is None else _{arg.name}.{field}"
    return f"_{arg.name}.{field}"


def _meta_expr(arg: PyArg) -> str:
    expr = _field_expr(arg, "meta")
    return f"tuple({expr})" if arg.is_list else expr


def _tuple(items: list[str]) -> str:
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def _doc(op: OpSpec, args: tuple[PyArg, ...], file: str) -> tuple[str, ...]:
    outputs = ", ".join(str(o) for o in op.visible_outputs)
    lines = [
        f"PHI op ``{op.name}``: {op.args} -> {outputs}.",
        "",
        f"Generated from {file}:{op.loc.line}.",
        "",
        "Args:",
    ]
    for arg in args:
        default = "" if arg.default is None else f", default {arg.default}"
        role = "input tensor" if arg.is_input else "attribute"
        if arg.optional:
            role = "optional " + role
        lines.append(f"    {arg.name} ({arg.annotation}): {role}{default}.")
    lines.append("    name (str | None): unused; accepted for PaddlePaddle compatibility.")
    lines.append("")
    lines.append("Returns:")
    lines.append(f"    {returns_annotation(op)}: {', '.join(o.name for o in op.visible_outputs)}.")
    return tuple(_doc_escape(line) for line in lines)


def api_view(op: OpSpec, file: str, generated_ops: set[str]) -> ApiView:
    args = python_args(op)
    params = ", ".join([a.signature for a in args] + ["name: str | None = None"])
    doc = _doc(op, args, file)
    normalise = tuple(line for a in args for line in a.normalise)
    if op.invoke is not None:
        return ApiView(op.name, params, returns_annotation(op), doc, (), invoke_call(op, op.invoke, generated_ops), (), "", "", "", "", ())
    if op.kernel is None or op.infer_meta is None:
        raise GenerationError(
            Diagnostic(op.loc, op.name, "op needs both infer_meta and kernel, or invoke, to be generated")
        )
    if op.kernel.dense_func is None:
        kernels = ", ".join(str(f) for f in op.kernel.funcs)
        raise GenerationError(
            Diagnostic(
                op.loc_of("kernel.func"),
                op.name,
                f"kernel.func has no dense kernel ({kernels}); only dense kernels are generated",
            )
        )
    inputs = [a for a in args if a.is_input]
    by_name = {a.name: a for a in args}
    impl_lines = tuple(_impl_line(a) for a in inputs)
    key_items = [_meta_expr(a) for a in inputs] + list(key_attrs(op))
    kernel_args = [
        _field_expr(by_name[name], "array") if by_name[name].is_input else name for name in op.kernel_params()
    ]
    call = f"_run({', '.join(kernel_args)})"
    miss = "(AttributeError, KeyError, TypeError)" if any(a.is_list for a in inputs) else "(AttributeError, KeyError)"
    outputs = list(op.outputs)
    if len(outputs) == 1:
        if outputs[0].type.is_list:
            result_lines = (f"return [_wrap(_a, _m) for _a, _m in zip({call}, _out_meta)]",)
        else:
            result_lines = (f"return _wrap({call}, _out_meta)",)
    else:
        parts = []
        for index, output in enumerate(outputs):
            if output.name in op.intermediate:
                continue
            if output.type.is_list:
                parts.append(f"[_wrap(_a, _m) for _a, _m in zip(_result[{index}], _out_meta[{index}])]")
            else:
                parts.append(f"_wrap(_result[{index}], _out_meta[{index}])")
        returned = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
        result_lines = (f"_result = {call}", f"return {returned}")
    return ApiView(
        name=op.name,
        params=params,
        returns=returns_annotation(op),
        doc=doc,
        normalise=normalise,
        invoke=None,
        impl_lines=impl_lines,
        key_expr=", ".join(key_items) + ("," if len(key_items) == 1 else ""),
        miss_exceptions=miss,
        input_tuple=_tuple([a.name for a in inputs]) if inputs else "()",
        attr_tuple=_tuple([a.name for a in args if not a.is_input]) if len(args) > len(inputs) else "()",
        result_lines=result_lines,
    )


@dataclass(frozen=True)
class InferMetaView:
    name: str
    params: str
    function: str
    phi_name: str
    outputs: tuple[tuple[str, str], ...]  # (variable, construction)
    call_args: str
    returned: str


def infer_meta_function_variable(phi_name: str) -> str:
    from runtime.infermeta import infer_meta_python_name

    return "_" + infer_meta_python_name(phi_name)


def infer_meta_view(op: OpSpec) -> InferMetaView:
    assert op.infer_meta is not None
    params = []
    for arg in op.args:
        if arg.type.is_tensor_like:
            kind = "list[MetaTensor]" if arg.type.is_list else "MetaTensor"
            params.append(f"{arg.name}: {kind}{' | None' if arg.name in op.optional else ''}")
        else:
            params.append(f"{arg.name}: Any")
    params.append("config: MetaConfig = _RUNTIME")
    outputs = []
    for output in op.outputs:
        variable = f"_out_{output.name}"
        if output.type.is_list:
            size = output_size(op, output)
            construction = f"[MetaTensor(name=f\"{output.name}[{{_i}}]\") for _i in range({size})]"
        else:
            construction = f"MetaTensor(name={output.name!r})"
        outputs.append((variable, construction))
    names = set(op.args.names)
    for param in op.infer_meta_params():
        if param not in names:
            raise GenerationError(
                Diagnostic(op.loc_of("infer_meta.param"), op.name, f"infer_meta param '{param}' is not an argument")
            )
    call_args = ", ".join(list(op.infer_meta_params()) + [v for v, _ in outputs] + ["config"])
    returned = "(" + ", ".join(v for v, _ in outputs) + ("," if len(outputs) == 1 else "") + ")"
    return InferMetaView(
        name=op.name,
        params=", ".join(params),
        function=infer_meta_function_variable(op.infer_meta.func),
        phi_name=op.infer_meta.func,
        outputs=tuple(outputs),
        call_args=call_args,
        returned=returned,
    )


@dataclass(frozen=True)
class SignatureView:
    name: str
    kernel: str
    inputs: str
    attrs: str
    outputs: str


def signature_view(op: OpSpec, kernel: str) -> SignatureView:
    inputs = {a.name for a in op.inputs}
    params = op.kernel_params()

    def names(items: list[str]) -> str:
        return "(" + ", ".join(repr(i) for i in items) + ("," if len(items) == 1 else "") + ")"

    return SignatureView(
        name=op.name,
        kernel=kernel,
        inputs=names([p for p in params if p in inputs]),
        attrs=names([p for p in params if p not in inputs]),
        outputs=names([o.name for o in op.outputs]),
    )

