"""Per-op views for the templates: every string a template places, computed here."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from phiops.codegen.api.python import (
    GenerationError,
    PyArg,
    has_name_arg,
    invoke_call,
    key_attrs,
    name_params,
    output_size,
    python_args,
    returns_annotation,
)
from phiops.codegen.api.autograd import grad_spec_source
from phiops.codegen.docs import OpDoc
from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import DataTypeConst, OpSpec

__all__ = [
    "ApiView",
    "InferMetaView",
    "SignatureView",
    "OpViews",
    "api_view",
    "infer_meta_view",
    "signature_view",
    "op_views",
    "generation_problems",
]


def _doc_escape(text: str) -> str:
    """Text safe inside a triple-double-quoted docstring."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(frozen=True)
class ApiView:
    """One API function: signature, docstring and the statements of its body, in groups the
    template places inside ``try`` / ``except`` / ``else`` and after them. The template wraps
    the body in one more ``try`` that names the op in a phiops error raised by a kernel on the
    cached path (which calls the kernel directly, past the dispatcher that names it otherwise);
    a ``try`` costs nothing until something is raised (Python 3.11; one instruction in 3.10)."""

    name: str
    params: str
    returns: str
    doc: tuple[str, ...]
    normalise: tuple[str, ...]
    invoke: str | None
    try_lines: tuple[str, ...] = ()
    miss_exceptions: str = ""
    except_lines: tuple[str, ...] = ()
    else_lines: tuple[str, ...] = ()
    after_lines: tuple[str, ...] = ()
    grad_spec: str | None = None


def _field_expr(arg: PyArg, field: str) -> str:
    """``field`` (meta or array) of the tensor(s) passed as argument ``arg``."""
    if arg.is_list:
        return f"[_t.{field} for _t in {arg.name}]"
    if arg.optional:
        return f"None if {arg.name} is None else {arg.name}.{field}"
    return f"{arg.name}.{field}"


def _meta_expr(arg: PyArg) -> str:
    expr = _field_expr(arg, "meta")
    return f"tuple({expr})" if arg.is_list else expr


def _tuple(items: list[str]) -> str:
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


_DOC_WIDTH = 92  # a docstring line's text: black's 100 less the function body's indent


def _wrapped(first: str, text: str, indent: str) -> list[str]:
    """``first`` then ``text``, filled to the docstring's width, later lines under ``indent``."""
    return textwrap.wrap(
        f"{first}{text}",
        _DOC_WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _prose_doc(
    op: OpSpec,
    args: tuple[PyArg, ...],
    file: str,
    doc: OpDoc,
    lead: str = "",
    note: tuple[str, ...] = (),
) -> list[str]:
    """The docstring of ``op`` from its ops/docs.yaml entry ``doc``: ``lead`` and the summary,
    the paragraph ``note`` (if any), a line per argument (type, default, meaning), what it
    returns, then where it comes from."""
    lines = _wrapped(lead, doc.summary, "")
    if note:
        lines += ["", *note]
    lines += ["", "Args:"]
    for arg in args:
        default = "" if arg.default is None else f", default {arg.default}"
        head = f"    {arg.name} ({arg.annotation}{default}): "
        lines += _wrapped(head, doc.arg(arg.name) or "", " " * 8)
    if not has_name_arg(op):
        lines.append("    name (str | None): Unused; accepted for PaddlePaddle compatibility.")
    lines += ["", "Returns:"]
    lines += _wrapped(f"    {returns_annotation(op)}: ", doc.returns, " " * 8)
    outputs = ", ".join(str(o) for o in op.visible_outputs)
    lines += [
        "",
        f"PHI op ``{op.name}``: {op.args} -> {outputs}.",
        f"Generated from {file}:{op.loc.line} and {doc.loc.file}:{doc.loc.line}.",
    ]
    return lines


def _doc(
    op: OpSpec, args: tuple[PyArg, ...], file: str, doc: OpDoc | None = None
) -> tuple[str, ...]:
    if doc is not None:
        return tuple(_doc_escape(line) for line in _prose_doc(op, args, file, doc))
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
    if not has_name_arg(op):
        lines.append("    name (str | None): unused; accepted for PaddlePaddle compatibility.")
    lines.append("")
    lines.append("Returns:")
    lines.append(f"    {returns_annotation(op)}: {', '.join(o.name for o in op.visible_outputs)}.")
    return tuple(_doc_escape(line) for line in lines)


def api_view(
    op: OpSpec,
    file: str,
    generated_ops: set[str],
    backward_op: OpSpec | None = None,
    op_doc: OpDoc | None = None,
) -> ApiView:
    args = python_args(op)
    params = ", ".join([a.signature for a in args] + name_params(op))
    doc = _doc(op, args, file, op_doc)
    normalise = tuple(line for a in args for line in a.normalise)
    if op.invoke is not None:
        return ApiView(
            op.name,
            params,
            returns_annotation(op),
            doc,
            (),
            invoke_call(op, op.invoke, generated_ops),
        )
    if op.kernel is None or op.infer_meta is None:
        raise GenerationError(
            Diagnostic(
                op.loc, op.name, "op needs both infer_meta and kernel, or invoke, to be generated"
            )
        )
    if op.kernel.dispatch_func is None:
        kernels = ", ".join(str(f) for f in op.kernel.funcs)
        raise GenerationError(
            Diagnostic(
                op.loc_of("kernel.func"),
                op.name,
                f"kernel.func has no dense or SelectedRows kernel ({kernels}); the ops of the "
                "sparse kinds are generated from sparse_ops.yaml",
                "list a dense kernel, or one whose kinds are dense and selected_rows",
            )
        )
    inputs = [a for a in args if a.is_input]
    attrs = [a for a in args if not a.is_input]
    normalise += _amp_lines(op, inputs)
    by_name = {a.name: a for a in args}
    key_items = [_meta_expr(a) for a in inputs] + list(key_attrs(op))
    kernel_args = [
        _field_expr(by_name[name], "array") if by_name[name].is_input else name
        for name in op.kernel_params()
    ]
    call = f"_run({', '.join(kernel_args)})"
    slow_call = f"_OP_{op.name}.call({_tuple([a.name for a in inputs]) if inputs else '()'}, {_tuple([a.name for a in attrs]) if attrs else '()'})"
    try_lines = (
        f"_run, _out_meta = _CACHE_{op.name}[{', '.join(key_items)}{',' if len(key_items) == 1 else ''}]",
    )
    miss = (
        "(AttributeError, KeyError, TypeError)"
        if any(a.is_list for a in inputs)
        else "(AttributeError, KeyError)"
    )
    outputs = list(op.outputs)
    inplace = _inplace_pairs(op)
    grad_spec = grad_spec_source(op, backward_op) if backward_op is not None else None
    record = _record_lines(op, inputs, attrs, grad_spec is not None)
    common = dict(
        name=op.name,
        params=params,
        returns=returns_annotation(op),
        doc=doc,
        normalise=normalise,
        invoke=None,
        try_lines=try_lines,
        miss_exceptions=miss,
        grad_spec=grad_spec,
    )
    views = _view_lines(op)
    if not outputs:  # an op without outputs (p_send): run it for its effect
        return ApiView(
            **common,
            except_lines=(slow_call,),
            else_lines=(call,),
            after_lines=("return None",),
        )
    if len(outputs) == 1 and not inplace and not record and not views:
        return ApiView(
            **common,
            except_lines=(f"return {slow_call}[0]",),
            after_lines=(f"return {_wrap_expr(op, 0, call, '_out_meta')}",),
        )
    if len(outputs) == 1:
        except_lines = (f"(_out,) = {slow_call}",)
        else_lines = (f"_out = {_wrap_expr(op, 0, call, '_out_meta')}",)
        outs = "(_out,)"
    else:
        except_lines = (f"_outs = {slow_call}",)
        wrapped = [
            _wrap_expr(op, i, f"_result[{i}]", f"_out_meta[{i}]") for i in range(len(outputs))
        ]
        else_lines = (f"_result = {call}", f"_outs = ({', '.join(wrapped)},)")
        outs = "_outs"
    after: list[str] = []
    if inplace:
        after.append(
            f"{outs if outs == '_outs' else '(_out,)'} = _assign_inplace({outs}, {inplace})"
        )
    if record:
        after.extend(line.replace("{outs}", outs) for line in record)
    after.extend(views)
    visible = [i for i, o in enumerate(outputs) if o.name not in op.intermediate]
    if outs == "(_out,)":
        after.append("return _out")
    else:
        returned = [f"_outs[{i}]" for i in visible]
        after.append(
            f"return {returned[0] if len(returned) == 1 else '(' + ', '.join(returned) + ')'}"
        )
    return ApiView(
        **common, except_lines=except_lines, else_lines=else_lines, after_lines=tuple(after)
    )


def _wrap_expr(op: OpSpec, index: int, value: str, meta: str) -> str:
    """Wrapping output ``index`` (array ``value`` with meta ``meta``) into Tensor(s)."""
    output = op.outputs.outputs[index]
    # A backward op's grad kernel returns None for a gradient the autograd engine did not want.
    skippable = op.is_backward and len(op.outputs.outputs) > 1
    if output.type.is_list:
        items = f"[_wrap(_a, _m) for _a, _m in zip({value}, {meta})]"
        return f"None if {value} is None else {items}" if skippable else items
    if output.name in op.optional or skippable:
        return f"None if {value} is None else _wrap({value}, {meta})"
    return f"_wrap({value}, {meta})"


# Ops that auto-mixed precision never casts the inputs of (PaddlePaddle skips in-place ops and
# cast itself).
_NO_AMP = frozenset({"cast"})


def _amp_lines(op: OpSpec, inputs: list[PyArg]) -> tuple[str, ...]:
    """The head of an op function under auto_cast (runtime/dispatch/amp_state.py): its tensor
    inputs cast to the dtype automatic mixed precision picks for the op."""
    if not inputs or op.name.endswith("_") or op.name in _NO_AMP:
        return ()
    names = _tuple([a.name for a in inputs])
    return (
        "if _AMP.active:",
        f"    {names} = _AMP.cast_inputs({op.name!r}, {names})",
    )


def _inplace_pairs(op: OpSpec) -> str | None:
    """``((input, output index), ...)`` of an in-place-only op (name ending in ``_``)."""
    if not op.name.endswith("_") or not op.inplace:
        return None
    index = {o.name: i for i, o in enumerate(op.outputs)}
    pairs = [f"({p.input}, {index[p.output]})" for p in op.inplace]
    return "(" + ", ".join(pairs) + ("," if len(pairs) == 1 else "") + ")"


def _view_lines(op: OpSpec) -> tuple[str, ...]:
    """For an op with ``view`` pairs (reshape: ``x -> out``): each output shares its input's
    version counter when its array is a view of the input's (runtime/tensor/version.py)."""
    if op.name.endswith("_") or not op.view:
        return ()
    index = {o.name: i for i, o in enumerate(op.outputs)}
    lines = []
    for pair in op.view:
        out = "_out" if len(op.outputs) == 1 else f"_outs[{index[pair.output]}]"
        lines.append(f"_share_view({out}, {pair.input})")
    return tuple(lines)


def _record_lines(
    op: OpSpec, inputs: list[PyArg], attrs: list[PyArg], has_backward: bool
) -> tuple[str, ...]:
    """The statements that record a grad node when an input needs a gradient."""
    if not has_backward or not inputs:
        return ()
    tests = []
    for arg in inputs:
        if arg.is_list and arg.optional:
            # No builtin all()/any() here: generated/api.py defines ops named all and any.
            tests.append(
                f"({arg.name} is not None and False in [_t.stop_gradient for _t in {arg.name}])"
            )
        elif arg.is_list:
            tests.append(f"False in [_t.stop_gradient for _t in {arg.name}]")
        elif arg.optional:
            tests.append(f"({arg.name} is not None and not {arg.name}.stop_gradient)")
        else:
            tests.append(f"not {arg.name}.stop_gradient")
    condition = tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"
    return (
        f"if {condition} and _GRAD_MODE.enabled:",
        f"    _record(_GRAD_{op.name}, {_tuple([a.name for a in inputs])}, {_tuple([a.name for a in attrs]) if attrs else '()'}, {{outs}})",
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
    from phiops.runtime.infermeta import infer_meta_python_name

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
            construction = f'[MetaTensor(name=f"{output.name}[{{_i}}]") for _i in range({size})]'
        else:
            construction = f"MetaTensor(name={output.name!r})"
        outputs.append((variable, construction))
    names = set(op.args.names)
    for param in op.infer_meta_params():
        if param not in names:
            raise GenerationError(
                Diagnostic(
                    op.loc_of("infer_meta.param"),
                    op.name,
                    f"infer_meta param '{param}' is not an argument",
                )
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
    from phiops.codegen.api.registry import kernel_signature

    signature = kernel_signature(op)

    def names(items: tuple[str, ...]) -> str:
        return "(" + ", ".join(repr(i) for i in items) + ("," if len(items) == 1 else "") + ")"

    return SignatureView(
        name=op.name,
        kernel=signature.name,
        inputs=names(signature.inputs),
        attrs=names(signature.attrs),
        outputs=names(signature.outputs),
    )


@dataclass(frozen=True)
class OpViews:
    """Everything the templates place for one op."""

    api: ApiView
    infer_meta: InferMetaView | None
    signature: SignatureView | None
    info: Any


def op_views(
    op: OpSpec, generated_names: set[str], backward: OpSpec | None, doc: OpDoc | None = None
) -> OpViews:
    """The views of ``op`` (``backward``: its backward op, if any; ``doc``: its prose from
    ops/docs.yaml, if any); GenerationError when the spec cannot be generated."""
    from phiops.codegen.api.registry import kernel_name, op_info

    api = api_view(op, op.loc.file, generated_names, backward, doc)
    infer_meta = signature = None
    if op.invoke is None:
        infer_meta = infer_meta_view(op)
        signature = signature_view(op, kernel_name(op) or op.name)
    return OpViews(api, infer_meta, signature, op_info(op))


def generation_problems(
    op: OpSpec, generated_names: set[str], backward: OpSpec | None
) -> list[Diagnostic]:
    """Why ``op`` cannot be generated, short of the runtime's own checks (InferMeta functions
    exist, kernel signatures match): the views cannot be built, or a DataType/DataLayout name
    the model accepts (PaddlePaddle's list) is missing from the runtime's enums, where a
    generated ``DataType.FLOAT8_E4M3FN`` would fail only at import. Run by ``phiops.codegen.collect``,
    so that lint and generation reject the same specs."""
    try:
        op_views(op, generated_names, backward)
    except GenerationError as error:
        return [error.diagnostic]
    return _runtime_name_problems(op)


def _runtime_name_problems(op: OpSpec) -> list[Diagnostic]:
    from phiops.runtime.common import DataLayout, DataType

    problems = []
    members = {"datatype": ("DataType", DataType), "layout": ("DataLayout", DataLayout)}
    for arg in op.args:
        if arg.default is not None and arg.default.kind in members:
            enum_name, enum = members[arg.default.kind]
            if arg.default.value not in enum.__members__:
                problems.append(
                    Diagnostic(
                        op.loc_of("args"),
                        op.name,
                        f"default {arg.default.text} of argument '{arg.name}': the runtime has no "
                        f"{enum_name}.{arg.default.value}",
                        f"runtime {enum_name}s: {', '.join(enum.__members__)}",
                    )
                )
    data_type = op.kernel.data_type if op.kernel is not None else None
    for item in data_type.items if data_type is not None else ():
        if isinstance(item, DataTypeConst) and item.name not in DataType.__members__:
            problems.append(
                Diagnostic(
                    op.loc_of("kernel.data_type"),
                    op.name,
                    f"kernel.data_type {item}: the runtime has no DataType.{item.name}",
                    f"runtime DataTypes: {', '.join(DataType.__members__)}",
                )
            )
    return problems


@dataclass(frozen=True)
class InplaceView:
    """``<op>_``, the in-place variant of an op with ``inplace`` pairs: it calls the op's API
    function and writes each paired output into its input (runtime/eager/inplace.py)."""

    name: str
    op: str
    params: str
    call_args: str
    doc: tuple[str, ...]
    pairs: tuple[tuple[str, int], ...]  # (input argument, index among the returned outputs)
    returns_many: bool


def inplace_view(op: OpSpec, op_doc: OpDoc | None = None) -> InplaceView:
    """The in-place variant of ``op`` (which has ``inplace`` pairs and no ``_`` suffix); its
    docstring reuses the prose of ``op``'s ops/docs.yaml entry ``op_doc``, if any."""
    args = python_args(op)
    visible = [o.name for o in op.visible_outputs]
    pairs = []
    for pair in op.inplace:
        if pair.output not in visible:
            raise GenerationError(
                Diagnostic(
                    op.loc_of("inplace"),
                    op.name,
                    f"inplace output '{pair.output}' is intermediate; an in-place variant "
                    "returns only visible outputs",
                )
            )
        pairs.append((pair.input, visible.index(pair.output)))
    written = ", ".join(f"``{p.input}``" for p in op.inplace)
    rules = (
        "The written tensor's version goes up; a leaf tensor that needs a gradient cannot be",
        "written in place while gradients are recorded; otherwise the tensor takes the grad",
        f"node of ``{op.name}`` (the graph is rebased onto it), as in PaddlePaddle.",
    )
    pairs_text = ", ".join(str(p) for p in op.inplace)
    if op_doc is None:
        doc = (
            f"In-place ``{op.name}``: writes the result into the storage of {written} and returns it.",
            "",
            f"Generated from {op.loc.file}:{op.loc.line} (``inplace : {pairs_text}``).",
            *rules,
        )
    else:
        where = _wrapped(
            "", f"The result is written into the storage of {written}, which is returned.", ""
        )
        lines = _prose_doc(
            op, args, op.loc.file, op_doc, f"In-place ``{op.name}``: ", (*where, *rules)
        )
        doc = (*lines[:-1], f"{lines[-1][:-1]} (``inplace : {pairs_text}``).")
    return InplaceView(
        name=f"{op.name}_",
        op=op.name,
        params=", ".join([a.signature for a in args] + name_params(op)),
        call_args=", ".join(
            [f"{a.name}={a.name}" for a in args] + ([] if has_name_arg(op) else ["name=name"])
        ),
        doc=tuple(_doc_escape(line) for line in doc),
        pairs=tuple(pairs),
        returns_many=len(visible) > 1,
    )


def inplace_ops(ops: list[OpSpec]) -> list[OpSpec]:
    """The forward ops that get a generated in-place variant ``<op>_``: those with ``inplace``
    pairs whose name has no ``_`` suffix and whose ``<op>_`` is not an op of its own (sgd_)."""
    names = {op.name for op in ops}
    return [
        op
        for op in ops
        if op.inplace
        and not op.is_backward
        and not op.name.endswith("_")
        and f"{op.name}_" not in names
    ]
