"""Checks on parsed op specs: per op, then across ops.

Every check appends to a list instead of raising, so that one run reports everything.
Per-field checks (syntax, types, defaults) happen while parsing (`phiops.codegen.parse`); here:

- per op (`error`): Tensor args before attributes, no attribute without default after one
  with a default, duplicate arg/output names, DataType constants only in `kernel.data_type`;
- per op (`inconsistency`): every name that must resolve within the entry does (`param`,
  `optional`, `intermediate`, `no_need_buffer`, `data_transform`, `support_tensor`,
  `inplace`, `view`, kernel candidates, `force_backend`/`use_gpudnn`, size expressions,
  `local_shape`/`global_shape`, `invoke`/`composite` arguments): a name that does not is one
  key disagreeing with the args or outputs, not a malformed file;
- across ops (`error`): the same op name defined twice;
- across ops (`inconsistency`): `backward:` targets exist, a backward op's `forward:` names an
  existing op that names it back and agrees with it (types position by position, a bare
  `Scalar` matching `Scalar(T)`; names and defaults may differ), its args come from the forward
  op (inputs, outputs, `<out>_grad`, attributes; extra attributes need a default), and
  `invoke` targets that are not C++ `*_impl` helpers exist.
"""

from __future__ import annotations

import keyword
from typing import Iterable

from .errors import ERROR, INCONSISTENCY, Diagnostic
from .model import Arg, OpSpec, Type
from .reserved import reserved_reason


class _Collector:
    def __init__(self, op: OpSpec, out: list[Diagnostic], severity: str = ERROR) -> None:
        self.op = op
        self.out = out
        self.severity = severity

    def __call__(self, loc, message: str, hint: str | None = None) -> None:
        self.out.append(Diagnostic(loc, self.op.name, message, hint, self.severity))


def validate_op(op: OpSpec, *, python_api: bool = True) -> list[Diagnostic]:
    """Schema errors, and names that do not resolve (inconsistencies), within one op.

    ``python_api``: also what phiops' generated Python API requires of a spec (argument names
    that can be Python parameters); PaddlePaddle's own files name arguments ``lambda``, so
    they are checked without it."""
    found: list[Diagnostic] = []
    err = _Collector(op, found)
    inc = _Collector(op, found, INCONSISTENCY)
    if python_api:
        reason = reserved_reason(op.name)
        if reason is not None:
            err(op.loc, f"op name '{op.name}' is reserved: {reason}", "rename the op")
    _check_args(op, err, python_api)
    _check_outputs(op, err, inc)
    arg_names = set(op.args.names)
    input_names = {a.name for a in op.inputs}
    attr_names = {a.name for a in op.attrs}
    output_names = set(op.outputs.names)

    def names_in(key: str, names: Iterable[str], allowed: set[str], what: str) -> None:
        for index, name in enumerate(names):
            if name not in allowed:
                inc(
                    op.loc_of(f"{key}.{index}"),
                    f"{key}: '{name}' is not {what} of the op",
                    _choices(allowed),
                )

    names_in("optional", op.optional, arg_names | output_names, "an argument or output")
    names_in("intermediate", op.intermediate, output_names, "an output")
    names_in("no_need_buffer", op.no_need_buffer, input_names, "a Tensor argument")
    if op.data_transform is not None:
        names_in(
            "data_transform.skip_transform",
            op.data_transform.skip_transform,
            input_names,
            "a Tensor argument",
        )
        names_in(
            "data_transform.support_trans_dtype",
            op.data_transform.support_trans_dtype,
            input_names,
            "a Tensor argument",
        )
    names_in("support_tensor", op.support_tensor, attr_names, "an attribute")
    for key, pairs in (("inplace", op.inplace), ("view", op.view)):
        for pair in pairs:
            if pair.input not in input_names:
                inc(
                    pair.loc,
                    f"{key}: '{pair.input}' in {pair} is not a Tensor argument of " f"the op",
                    _choices(input_names),
                )
            if pair.output not in output_names:
                inc(
                    pair.loc,
                    f"{key}: '{pair.output}' in {pair} is not an output of the op",
                    _choices(output_names),
                )
    if op.infer_meta is not None:
        _check_params(
            op,
            "infer_meta.param",
            op.infer_meta.param,
            op.infer_meta.param_literals,
            arg_names,
            inc,
        )
        for key in ("local_shape", "global_shape"):
            value = getattr(op.infer_meta, key)
            if value is not None and value not in output_names:
                inc(
                    op.loc_of(f"infer_meta.{key}"),
                    f"infer_meta.{key}: '{value}' is not an output of the op",
                )
    if op.kernel is not None:
        _check_kernel(op, arg_names, attr_names, err, inc)
    if op.invoke is not None:
        _check_call_names(op, "invoke", op.invoke, arg_names | output_names, inc)
    if op.composite is not None:
        _check_call_names(op, "composite", op.composite, arg_names | output_names, inc)
    return found


def _choices(names: Iterable[str]) -> str | None:
    names = sorted(names)
    return f"choose from: {', '.join(names)}" if names else None


def is_parameter_name(name: str) -> bool:
    """Whether an argument can be a parameter of the generated Python function: not a keyword,
    not private. An argument called `name` (`data`'s) takes the place of the trailing
    `name=None` every other API function has."""
    return not (keyword.iskeyword(name) or name.startswith("_"))


def _check_args(op: OpSpec, err: _Collector, python_api: bool) -> None:
    seen: set[str] = set()
    first_attr: Arg | None = None
    first_default: Arg | None = None
    for arg in op.args:
        if arg.name in seen:
            err(arg.loc, f"duplicate argument name '{arg.name}'")
        seen.add(arg.name)
        if python_api and not is_parameter_name(arg.name):
            err(
                arg.loc,
                f"argument '{arg.name}' cannot be a Python parameter name",
                "use an identifier that is not a Python keyword and does not start with '_'",
            )
        if arg.type.is_tensor_like:
            if first_attr is not None:
                err(
                    arg.loc,
                    f"Tensor argument '{arg.name}' comes after attribute " f"'{first_attr.name}'",
                    "list all Tensor arguments first",
                )
            continue
        first_attr = first_attr or arg
        if arg.default is not None:
            first_default = first_default or arg
        elif first_default is not None:
            err(
                arg.loc,
                f"attribute '{arg.name}' has no default but follows "
                f"'{first_default.name}', which has one",
                "give it a default or move it before the attributes with defaults",
            )


def _check_outputs(op: OpSpec, err: _Collector, inc: _Collector) -> None:
    seen: set[str] = set()
    arg_names = set(op.args.names)
    for out in op.outputs:
        if out.name in seen:
            err(
                out.loc,
                f"duplicate output name '{out.name}'",
                "name each output: Tensor(name)" if not out.name_given else None,
            )
        seen.add(out.name)
        if out.size_expr is not None:
            for name in out.size_expr.names():
                if name not in arg_names:
                    inc(
                        out.loc,
                        f"size expression {{{out.size_expr}}} of output '{out.name}' "
                        f"uses '{name}', which is not an argument of the op",
                        _choices(arg_names),
                    )


def _check_params(op, key, params, literals, arg_names, inc) -> None:
    if params is None:
        return
    for index, name in enumerate(params):
        if literals is not None and literals[index] is not None:
            continue
        if name not in arg_names:
            inc(
                op.loc_of(f"{key}.{index}"),
                f"{key}: '{name}' is not an argument of the op",
                _choices(arg_names),
            )


def _check_kernel(op: OpSpec, arg_names: set[str], attr_names: set[str], err, inc) -> None:
    kernel = op.kernel
    _check_params(op, "kernel.param", kernel.param, kernel.param_literals, arg_names, inc)
    for key in ("data_type", "backend", "layout"):
        candidates = getattr(kernel, key)
        if candidates is None:
            continue
        for item in candidates.items:
            if not hasattr(item, "complex_of"):
                if key != "data_type":
                    err(
                        candidates.loc,
                        f"kernel.{key}: a DataType constant ({item}) can only "
                        f"select the data type",
                    )
                continue
            if item.name not in arg_names:
                inc(
                    candidates.loc,
                    f"kernel.{key}: candidate '{item.name}' is not an argument " f"of the op",
                    _choices(arg_names),
                )
    if kernel.force_backend is not None and kernel.force_backend not in attr_names:
        inc(
            op.loc_of("kernel.force_backend"),
            f"kernel.force_backend: '{kernel.force_backend}' is not an attribute of the op",
        )
    if kernel.use_gpudnn not in (None, "true", "false") and kernel.use_gpudnn not in attr_names:
        inc(
            op.loc_of("kernel.use_gpudnn"),
            f"kernel.use_gpudnn: '{kernel.use_gpudnn}' is neither true/false nor an attribute",
        )


def _check_call_names(op: OpSpec, key: str, call, allowed: set[str], inc) -> None:
    for arg in call.args:
        if arg.kind in ("name", "method", "not") and arg.name not in allowed:
            inc(
                call.loc,
                f"{key}: argument '{arg.text}' of {call.name}(...) uses '{arg.name}', "
                f"which is not an argument or output of the op",
                _choices(allowed),
            )


# ------------------------------------------------------------------------- across ops


def validate_set(ops: list[OpSpec], broken: set[int]) -> list[Diagnostic]:
    """Duplicate names (errors) and cross-entry agreement (inconsistencies).

    `broken` holds the id() of ops that had parse errors: they count as defined but are not
    compared with anything, so that one mistake is not reported again as a disagreement.
    """
    found: list[Diagnostic] = []
    by_name: dict[str, OpSpec] = {}
    for op in ops:
        first = by_name.get(op.name)
        if first is not None:
            found.append(
                Diagnostic(
                    op.loc, op.name, f"op defined twice; first definition at " f"{first.loc}"
                )
            )
            continue
        by_name[op.name] = op
    # Linting ops/api.yaml alone: say once that the backward file is missing instead of
    # once per op that names a backward op.
    no_backward_file = not any(op.is_backward for op in ops)
    missing_backward = []
    for op in ops:
        if by_name.get(op.name) is not op:
            continue
        inc = _Collector(op, found, INCONSISTENCY)
        err = _Collector(op, found)
        if op.backward is not None:
            target = by_name.get(op.backward)
            if target is None and no_backward_file:
                missing_backward.append(op)
            elif target is None:
                inc(
                    op.loc_of("backward"),
                    f"backward op '{op.backward}' is not defined in the " f"loaded files",
                )
            elif not target.is_backward:
                inc(
                    op.loc_of("backward"),
                    f"backward: '{op.backward}' is a forward op, not a " f"backward op",
                )
        if op.invoke is not None and not op.invoke.is_cpp_helper:
            target = by_name.get(op.invoke.name)
            if target is None:
                inc(
                    op.invoke.loc,
                    f"invoke target '{op.invoke.name}' is not defined in the " f"loaded files",
                )
            elif id(target) not in broken and id(op) not in broken:
                _check_invoke_arity(op, target, inc)
                _check_invoke_types(op, target, err)
        if op.forward is not None:
            _check_forward(op, by_name, broken, inc)
            fwd = by_name.get(op.forward.name)
            if fwd is not None and id(fwd) not in broken and id(op) not in broken:
                _check_grad_outputs(op, fwd, err)
    if len(missing_backward) == 1:
        op = missing_backward[0]
        _Collector(op, found, INCONSISTENCY)(
            op.loc_of("backward"), f"backward op '{op.backward}' is not defined in the loaded files"
        )
    elif missing_backward:
        first = missing_backward[0]
        found.append(
            Diagnostic(
                first.loc_of("backward"),
                None,
                f"{len(missing_backward)} ops name backward ops ('{first.backward}', ...) but "
                "none of the files given defines backward ops",
                "add the backward spec file (e.g. ops/backward.yaml) to the files given",
                INCONSISTENCY,
            )
        )
    found.extend(_invoke_cycles(by_name))
    return found


def _invoke_cycles(by_name: dict[str, OpSpec]) -> list[Diagnostic]:
    """An op that reaches itself through `invoke` would recurse forever when called."""
    found = []
    reported: set[str] = set()
    for start in sorted(by_name):
        path = [start]
        current = by_name[start]
        while current.invoke is not None and current.invoke.name in by_name:
            following = current.invoke.name
            if following in path:
                cycle = path[path.index(following) :]
                if following == start and not reported.intersection(cycle):
                    reported.update(cycle)
                    op = by_name[start]
                    found.append(
                        Diagnostic(
                            op.invoke.loc,
                            op.name,
                            "invoke cycle: " + " -> ".join(cycle + [start]),
                            "an op must end in an op with a kernel",
                        )
                    )
                break
            path.append(following)
            current = by_name[following]
    return found


_LITERAL_FITS = {
    "int": ("int", "bool"),
    "int64_t": ("int", "bool"),
    "float": ("int", "float"),
    "double": ("int", "float"),
    "bool": ("bool",),
    "str": ("str",),
    "Scalar": ("int", "float", "bool"),
    "IntArray": ("int",),
}


def _check_invoke_types(op: OpSpec, target: OpSpec, err) -> None:
    """Each positional `invoke` argument must be of the kind the invoked op's argument takes:
    a Tensor for a Tensor, an attribute for an attribute, a literal that fits its type."""
    own = {a.name: a for a in op.args}
    own_outputs = set(op.outputs.names)
    for index, (given, wanted) in enumerate(zip(op.invoke.args, target.args), 1):
        where = f"invoke: argument {index} '{given}' of {target.name}(...)"
        wants_tensor = wanted.type.is_tensor_like
        if given.kind == "literal" and given.literal is not None:
            kind = given.literal.kind
            if wants_tensor:
                err(op.invoke.loc, f"{where} is a literal; '{wanted}' is a Tensor")
            elif not wanted.type.is_list and kind not in _LITERAL_FITS.get(
                wanted.type.base, (kind,)
            ):
                err(op.invoke.loc, f"{where} is a {kind} literal; '{wanted}' does not take one")
        elif given.kind == "name" and given.name in own:
            mine = own[given.name]
            if mine.type.is_tensor_like != wants_tensor:
                what = "a Tensor" if mine.type.is_tensor_like else "an attribute"
                err(op.invoke.loc, f"{where} is {what} ('{mine}'); '{wanted}' is not")
        elif given.kind == "name" and given.name in own_outputs and not wants_tensor:
            err(op.invoke.loc, f"{where} is an output; '{wanted}' is an attribute")


def _check_grad_outputs(op: OpSpec, fwd: OpSpec, err) -> None:
    """`x_grad` is the gradient of forward input `x`: an output naming no input is an error.
    PaddlePaddle's files also name gradients of forward outputs (intermediates) and of output
    gradients (`out_grad_grad`); those are tensors of the forward op too."""
    inputs = {a.name for a in op.forward.args if a.type.is_tensor_like}
    inputs |= {a.name for a in fwd.args if a.type.is_tensor_like}
    for outputs in (op.forward.outputs, fwd.outputs):
        inputs |= {o.name for o in outputs} | {f"{o.name}_grad" for o in outputs}
    for output in op.outputs:
        stem = output.name[: -len("_grad")] if output.name.endswith("_grad") else None
        if stem is not None and stem not in inputs:
            err(
                op.loc_of("output"),
                f"output '{output.name}' is the gradient of '{stem}', which is not a Tensor "
                f"input or output of forward op '{op.forward.name}'",
                _choices(f"{name}_grad" for name in inputs if not name.endswith("_grad")),
            )


def _check_invoke_arity(op: OpSpec, target: OpSpec, inc) -> None:
    given = len(op.invoke.args)
    needed = [a for a in target.args.args[given:] if a.default is None]
    # A backward op may be invoked with its grad outputs appended (2022 style).
    most = len(target.args) + (len(target.outputs) if target.is_backward else 0)
    if given > most:
        inc(
            op.invoke.loc,
            f"invoke: {op.invoke.name}(...) is given {given} arguments but "
            f"takes {most} (defined at {target.loc})",
        )
    elif needed:
        inc(
            op.invoke.loc,
            f"invoke: {op.invoke.name}(...) is given {given} arguments; "
            f"'{needed[0].name}' has no default (defined at {target.loc})",
        )


def _check_forward(op: OpSpec, by_name: dict[str, OpSpec], broken: set[int], inc) -> None:
    sig = op.forward
    fwd = by_name.get(sig.name)
    loc = op.loc_of("forward")
    if fwd is None:
        inc(loc, f"forward op '{sig.name}' is not defined in the loaded files")
        return
    if fwd.backward != op.name:
        names = f"names '{fwd.backward}'" if fwd.backward else "has no 'backward' key"
        inc(
            loc,
            f"forward op '{sig.name}' does not name '{op.name}' as its backward "
            f"(it {names}; defined at {fwd.loc})",
        )
    if id(fwd) in broken or id(op) in broken:
        return
    _compare_signature(op, fwd, inc)
    _check_grad_args(op, fwd, inc)


def _compare_signature(op: OpSpec, fwd: OpSpec, inc) -> None:
    sig = op.forward
    loc = op.loc_of("forward")
    where = f"'{fwd.name}' at {fwd.loc}"
    if len(sig.args) != len(fwd.args):
        inc(
            loc,
            f"forward: {sig.name} has {len(sig.args)} arguments here but "
            f"{len(fwd.args)} in {where}: {fwd.args}",
        )
    else:
        for index, (mine, theirs) in enumerate(zip(sig.args, fwd.args), 1):
            if not mine.type.matches(theirs.type):
                inc(
                    mine.loc,
                    f"forward: argument {index} is '{mine}' here but '{theirs}' in " f"{where}",
                )
    if len(sig.outputs) != len(fwd.outputs):
        inc(
            loc,
            f"forward: {sig.name} has {len(sig.outputs)} outputs here but "
            f"{len(fwd.outputs)} in {where}: {fwd.outputs}",
        )
    else:
        for index, (mine, theirs) in enumerate(zip(sig.outputs, fwd.outputs), 1):
            if mine.type != theirs.type:
                inc(
                    mine.loc,
                    f"forward: output {index} is '{mine}' here but '{theirs}' in " f"{where}",
                )


def _check_grad_args(op: OpSpec, fwd: OpSpec, inc) -> None:
    sig = op.forward
    tensors: dict[str, Type] = {}
    attrs: dict[str, Type] = {}
    for source in (fwd.args, sig.args):
        for arg in source:
            (tensors if arg.type.is_tensor_like else attrs).setdefault(arg.name, arg.type)
    for source in (fwd.outputs, sig.outputs):
        for out in source:
            tensors.setdefault(out.name, out.type)
            tensors.setdefault(f"{out.name}_grad", out.type)
    for arg in op.args:
        if arg.type.is_tensor_like:
            expected = tensors.get(arg.name)
            if expected is None:
                inc(
                    arg.loc,
                    f"argument '{arg.name}' is not an input, output or output "
                    f"gradient ('<out>_grad') of forward op '{sig.name}'",
                    _choices(tensors),
                )
            elif expected != arg.type:
                inc(arg.loc, f"argument '{arg}' is {expected} in forward op '{sig.name}'")
        else:
            expected = attrs.get(arg.name)
            if expected is None:
                if arg.default is None:
                    inc(
                        arg.loc,
                        f"attribute '{arg.name}' is not an attribute of forward op "
                        f"'{sig.name}' and has no default",
                        "extra attributes of a backward op need a default",
                    )
            elif not arg.type.matches(expected):
                inc(arg.loc, f"attribute '{arg}' is {expected} in forward op '{sig.name}'")
