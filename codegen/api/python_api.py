"""Views of ops/python_api.yaml's functions for templates/python_api.py.j2: their signatures,
the None-replacing lines and the op call, as ready-made Python source.

Every string is built from identifiers the model validated and literals it re-printed
(`phiops.codegen.api.python.default_literal`); nothing from YAML reaches the source verbatim.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Mapping

from phiops.codegen.api.python import GenerationError, annotation, default_literal
from phiops.codegen.api.python import returns_annotation as op_returns_annotation
from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import Arg, OpSpec
from phiops.codegen.python_api import NONE, OUT_ARG, FixedValue, PythonApi, literal

__all__ = ["PythonApiView", "python_api_view"]


@dataclass(frozen=True)
class PythonApiView:
    name: str
    params: tuple[str, ...]  # "x: Tensor", "axis: IntArrayLike | None = None", ...
    returns: str
    doc: tuple[str, ...]
    none_lines: tuple[tuple[str, str], ...]  # (argument, what None stands for)
    call: str  # `_api.op(...)`
    pick: tuple[int, ...] | None  # the op's outputs returned, by position; None: all
    alias: tuple[str, ...]
    is_method: bool
    keyword_aliases: str | None  # `{"x": ("input",)}` for keyword_aliases(...), or None
    has_out: bool  # the result is written into argument `out` when it is given


def _fail(api: PythonApi, message: str) -> GenerationError:
    return GenerationError(Diagnostic(api.loc, api.name, message, subject="api"))


def _param(api: PythonApi, op: OpSpec, arg: Arg) -> str:
    if arg.name == OUT_ARG:
        return f"{arg.name}: Tensor | None = None"
    if arg.type.is_tensor_like:
        text = "list[Tensor]" if arg.type.is_list else "Tensor"
    else:
        try:
            text = annotation(op, arg)
        except GenerationError as error:
            raise _fail(api, error.diagnostic.message) from None
    if arg.default is None:
        return f"{arg.name}: {text}"
    if arg.default is NONE:
        return f"{arg.name}: {text} | None = None"
    return f"{arg.name}: {text} = {default_literal(op, arg)}"


def _params(api: PythonApi, op: OpSpec) -> tuple[str, ...]:
    """The signature's parameters, with ``*`` before the keyword-only ones."""
    params = [_param(api, op, arg) for arg in api.args]
    if api.keyword_only is not None:
        params.insert(api.keyword_only, "*")
    return tuple(params)


def _value(api: PythonApi, op: OpSpec, op_arg: Arg, value: FixedValue) -> str:
    """Python source of ``value`` passed as ``op_arg``."""
    return default_literal(op, dataclasses.replace(op_arg, default=literal(value, op_arg)))


def _keyword_aliases(api: PythonApi) -> str | None:
    items = [(name, others) for name, others in api.arg_alias if others]
    if not items:
        return None
    entries = ", ".join(
        f'"{name}": (' + "".join(f'"{other}", ' for other in others) + ")" for name, others in items
    )
    return "{" + entries + "}"


def python_api_view(api: PythonApi, ops: Mapping[str, OpSpec]) -> PythonApiView:
    """The view of ``api``, which `check_python_api` has checked against ``ops``."""
    op = ops[api.op]
    given = {api.op_arg(arg.name): arg.name for arg in api.passed_args}
    fixed = {value.name: value for value in api.values}
    call_args = []
    for op_arg in op.args:
        if op_arg.name in given:
            call_args.append(given[op_arg.name])
        elif op_arg.name in fixed:
            call_args.append(_value(api, op, op_arg, fixed[op_arg.name]))
        elif op_arg.default is not None:
            call_args.append(default_literal(op, op_arg))
        else:
            call_args.append("None")  # an optional tensor
    if_none = {value.name: value for value in api.if_none}
    none_lines = []
    for arg in api.passed_args:
        if arg.default is not NONE:
            continue
        op_arg = op.args.get(api.op_arg(arg.name))
        assert op_arg is not None
        if arg.name in if_none:
            none_lines.append((arg.name, _value(api, op, op_arg, if_none[arg.name])))
        elif op_arg.default is not None:
            none_lines.append((arg.name, default_literal(op, op_arg)))
        # an optional tensor takes None as it is
    outputs = op.visible_outputs
    pick = None
    returns = op_returns_annotation(op)
    if api.returns is not None:
        names = [output.name for output in outputs]
        pick = tuple(names.index(name) for name in api.returns)
        kinds = ["list[Tensor]" if outputs[i].type.is_list else "Tensor" for i in pick]
        returns = kinds[0] if len(kinds) == 1 else f"tuple[{', '.join(kinds)}]"
        if len(outputs) == 1:
            pick = None
    what = "" if api.returns is None else f", returning {', '.join(api.returns)}"
    doc = (
        f"``paddle.{api.name}``: op ``{op.name}`` ({op.loc.file}:{op.loc.line}) with "
        f"PaddlePaddle's signature{what}.",
        "",
        f"Generated from {api.loc.file}:{api.loc.line}.",
    )
    return PythonApiView(
        name=api.name,
        params=_params(api, op),
        returns=returns,
        doc=doc,
        none_lines=tuple(none_lines),
        call=f"_api.{op.name}({', '.join(call_args)})",
        pick=pick,
        alias=api.alias,
        is_method=api.is_method,
        keyword_aliases=_keyword_aliases(api),
        has_out=api.has_out,
    )
