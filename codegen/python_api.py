"""ops/python_api.yaml: the ``paddle.*`` functions that rename, reorder or default one op.

Its own model and parser, to the standards of the op specs (docs/python_api.md has the schema):
every value located, keys consumed one by one (a leftover key is an error with a "did you mean"),
every diagnostic collected before stopping, mini-language values parsed by the token parsers of
`phiops.codegen.parse`. An entry::

    - api : argsort                         # the function's name in paddle.*
      op : argsort                          # the op of ops/api.yaml it calls
      args : (Tensor x, int axis = -1, bool descending = false, bool stable = false, str name = None)
      map : {x : x}                         # argument -> op argument, where the names differ
      values : {flatten : false}            # op arguments the function fixes
      if_none : {dtype : DataType::FLOAT32} # what an argument defaulting to None passes when None
      returns : indices                     # the op outputs it returns: a name or a list
      alias : [cat]                         # other names of the same function
      arg_alias : {x : [input], axis : [dim]}  # other keyword names of arguments
      method : true                         # also a Tensor method (default: first arg a Tensor)

`check_python_api(path, specs)` reads the file and, given phiops' ops by name, checks every entry
against its op: an op or argument that does not resolve is an inconsistency, as in op_compat.yaml.
"""

from __future__ import annotations

import keyword
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .errors import INCONSISTENCY, Diagnostic, sort_diagnostics
from .lexer import EOF, NAME
from .loader import YScalar, YSeq
from .model import INT_ARRAY, SCALAR, Arg, ArgList, Default, Location, OpSpec, Type
from .parse import (
    ParseError,
    Tokens,
    _check_name,
    _check_round_trip,
    _EntryParser,
    _kind_phrase,
    parse_default_tokens,
    parse_type_at,
    suggest,
)

__all__ = [
    "PYTHON_API_FILE_NAME",
    "PYTHON_API_KEYS",
    "NONE",
    "FixedValue",
    "PythonApi",
    "PythonApiSet",
    "PythonArgs",
    "parse_python_args",
    "check_python_api",
    "is_python_api_file",
]

PYTHON_API_FILE_NAME = "python_api.yaml"
PYTHON_API_KEYS = (
    "api",
    "op",
    "args",
    "map",
    "values",
    "if_none",
    "returns",
    "alias",
    "arg_alias",
    "method",
)
# the Default of an argument written `= None`
NONE = Default("none", None, "None")
# paddle's `name` argument: accepted and unused, as PaddlePaddle's dynamic mode leaves it
NAME_ARG = "name"
# paddle's `out` argument (`Tensor out = None`): the result is written into it and it is returned
OUT_ARG = "out"
_INTS = ("int", "int64_t")
_FLOATS = ("float", "double")


@dataclass(frozen=True)
class FixedValue:
    """One ``name : literal`` of `values` (an op argument) or `if_none` (an argument).

    ``text`` is the literal as written; it is typed against the op argument's type when the
    entry is checked against its op (`PythonApi.literal`)."""

    name: str
    text: str
    loc: Location = field(compare=False)


@dataclass(frozen=True)
class PythonApi:
    name: str
    op: str
    args: ArgList
    renames: tuple[tuple[str, str], ...]  # (argument, op argument) of `map`
    values: tuple[FixedValue, ...]
    if_none: tuple[FixedValue, ...]
    returns: tuple[str, ...] | None  # None: what the op returns
    alias: tuple[str, ...]
    # (argument, its other keyword names): PaddlePaddle's ParamAliasDecorator (`dim` for `axis`)
    arg_alias: tuple[tuple[str, tuple[str, ...]], ...]
    method: bool | None  # None: a Tensor method when the first argument is one Tensor
    loc: Location = field(compare=False)
    # the index in `args` of the first keyword-only argument (after `*`); None: there is none
    keyword_only: int | None = None
    key_locs: tuple[tuple[str, Location], ...] = field(default=(), compare=False)

    def op_arg(self, name: str) -> str:
        """The op argument argument ``name`` is passed as."""
        for python_name, op_name in self.renames:
            if python_name == name:
                return op_name
        return name

    @property
    def passed_args(self) -> tuple[Arg, ...]:
        """The arguments handed to the op: all but ``name`` and ``out``."""
        return tuple(arg for arg in self.args if arg.name not in (NAME_ARG, OUT_ARG))

    @property
    def has_out(self) -> bool:
        """Whether the function takes ``out``, the tensor its result is written into."""
        return any(arg.name == OUT_ARG for arg in self.args)

    @property
    def is_method(self) -> bool:
        if self.method is not None:
            return self.method
        first = next(iter(self.args), None)
        return first is not None and first.type.is_tensor

    def loc_of(self, key: str) -> Location:
        """Where ``key`` (``args``, ``map.x``, ``values.flatten`` ...) is given, else the entry."""
        for name, loc in self.key_locs:
            if name == key:
                return loc
        if "." in key:
            return self.loc_of(key.rsplit(".", 1)[0])
        return self.loc


@dataclass(frozen=True)
class PythonApiSet:
    apis: tuple[PythonApi, ...]
    file: str

    def find(self, name: str) -> PythonApi | None:
        for api in self.apis:
            if api.name == name:
                return api
        return None


# ------------------------------------------------------------------------------- parsers


def _python_arg(toks: Tokens, locate) -> Arg:
    start = toks.peek()
    type_ = parse_type_at(toks)
    name = toks.name("an argument name after the type")
    _check_name(name)
    if keyword.iskeyword(name.text) or name.text in ("True", "False", "None"):
        raise ParseError(f"'{name.text}' is a Python keyword, not an argument name", name.pos)
    default = None
    if toks.accept("="):
        tokens = toks.balanced_until({",", ")"})
        if len(tokens) == 1 and tokens[0].kind == NAME and tokens[0].text == "None":
            default = NONE
        else:
            default = parse_default_tokens(tokens, type_, name.text)
    return Arg(type_, name.text, default, locate(start.pos))


@dataclass(frozen=True)
class PythonArgs:
    """A parsed ``args``: the arguments, and where the keyword-only ones (after ``*``) start."""

    args: ArgList
    keyword_only: int | None  # index in ``args`` of the first keyword-only argument

    def __str__(self) -> str:
        items = [str(arg) for arg in self.args]
        if self.keyword_only is not None:
            items.insert(self.keyword_only, "*")
        return f"({', '.join(items)})"


def parse_python_args(text: str, locate) -> PythonArgs:
    """``(Tensor x, int axis = -1, str name = None, *, Tensor out = None)``: the op-spec grammar,
    where any argument may default to ``None`` and a bare ``*`` makes the arguments after it
    keyword-only, as in Python; names must be Python identifiers that are not keywords, given
    once, and a positional argument without a default may not follow one with a default."""
    toks = Tokens(text)
    toks.expect("(", "'(' to open the argument list")
    args: list[Arg] = []
    positions: list[int] = []
    keyword_only = None
    star_pos = None
    if not toks.accept(")"):
        while True:
            if toks.peek().text == "*":
                if keyword_only is not None:
                    raise ParseError("'*' is given twice", toks.peek().pos)
                star_pos = toks.next().pos
                keyword_only = len(args)
            else:
                positions.append(toks.peek().pos)
                args.append(_python_arg(toks, locate))
            if toks.accept(")"):
                break
            if toks.peek().kind == EOF:
                raise ParseError("unbalanced '(': the argument list is not closed", toks.peek().pos)
            toks.expect(",", "',' or ')' after an argument")
    toks.end("end of the argument list")
    if keyword_only is not None and keyword_only == len(args):
        raise ParseError(
            "'*' must be followed by an argument",
            star_pos,
            "write the keyword-only arguments after '*', or remove it",
        )
    seen: set[str] = set()
    defaulted = None
    for index, (arg, pos) in enumerate(zip(args, positions)):
        if arg.name in seen:
            raise ParseError(f"argument '{arg.name}' is given twice", pos)
        seen.add(arg.name)
        if keyword_only is not None and index >= keyword_only:
            continue  # a keyword-only argument may go without a default anywhere
        if arg.default is not None:
            defaulted = arg.name
        elif defaulted is not None:
            raise ParseError(
                f"argument '{arg.name}' without a default follows '{defaulted}', which has one",
                pos,
                "Python requires defaulted arguments last",
            )
    result = PythonArgs(ArgList(tuple(args)), keyword_only)
    _check_round_trip(result, toks)
    return result


def _literal_text(value: object) -> str | None:
    """A YAML scalar of `values`/`if_none` as the op-spec literal it stands for."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    return None


class _PythonApiParser(_EntryParser):
    """Consumes one python_api.yaml entry's keys into a PythonApi."""

    def error(self, loc: Location, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(loc, self.op, message, hint, subject="api"))

    def run_api(self) -> PythonApi | None:
        entry = self.entry
        if "api" not in entry.items:
            self.error(entry.loc, "entry has no 'api' key", "start the entry with '- api : name'")
            self.consume(entry, PYTHON_API_KEYS)
            return None
        name = self.identifier("api", entry.items["api"][1])
        if name is not None:
            self.op = name
        values = self.consume(entry, PYTHON_API_KEYS)
        op = None
        if "op" not in values:
            self.error(
                entry.loc, "missing required key 'op'", "name the op of ops/api.yaml it calls"
            )
        else:
            op = self.identifier("op", values["op"])
        args = None
        keyword_only = None
        if "args" not in values:
            self.error(
                entry.loc,
                "missing required key 'args'",
                "write paddle's signature, e.g. 'args : (Tensor x, str name = None)'",
            )
        else:
            parsed = self.parse("args", values["args"], parse_python_args)
            args = None if parsed is None else parsed.args
            keyword_only = None if parsed is None else parsed.keyword_only
        renames = self.renames(values.get("map"))
        fixed = self.literals("values", values.get("values"))
        if_none = self.literals("if_none", values.get("if_none"))
        returns = self.returns(values.get("returns"))
        alias = self.identifier_list("alias", values.get("alias"))
        arg_alias = tuple(
            (name, self.identifier_list(f"arg_alias.{name}", value))
            for name, _, value in self.key_names("arg_alias", values.get("arg_alias"))
        )
        method = None
        node = values.get("method")
        if node is not None:
            if isinstance(node, YScalar) and isinstance(node.value, bool):
                method = node.value
            else:
                self.error(node.loc, f"'method' must be true or false, not {_kind_phrase(node)}")
        if name is None or op is None or args is None:
            return None
        return PythonApi(
            name=name,
            op=op,
            args=args,
            renames=renames,
            values=fixed,
            if_none=if_none,
            returns=returns,
            alias=alias,
            arg_alias=arg_alias,
            method=method,
            loc=entry.items["api"][1].loc,
            keyword_only=keyword_only,
            key_locs=tuple(self.key_locs),
        )

    def identifier(self, key: str, node) -> str | None:
        scalar = self.string(key, node)
        if scalar is None:
            return None
        text = scalar.value
        if not text.isidentifier() or keyword.iskeyword(text) or text in ("true", "false"):
            self.error(scalar.loc, f"{key}: '{text}' is not a Python identifier")
            return None
        return text

    def key_names(self, key: str, node):
        """The (name, key node, value node) of a mapping whose keys are identifiers."""
        mapping = self.mapping(key, node)
        if mapping is None:
            return []
        for name, loc, first in mapping.duplicates:
            self.error(
                loc,
                f"duplicate key '{key}.{name}' (first given at line {first.line})",
                "YAML would silently keep only one of them; merge or remove one",
            )
        for key_node in mapping.bad_keys:
            self.error(key_node.loc, f"{key}: keys must be strings, got {_kind_phrase(key_node)}")
        found = []
        for name, (key_node, value) in mapping.items.items():
            if self.identifier(f"{key} key", key_node) is None:
                continue
            self.key_locs.append((f"{key}.{name}", key_node.loc))
            found.append((name, key_node, value))
        return found

    def renames(self, node) -> tuple[tuple[str, str], ...]:
        pairs = []
        for name, _, value in self.key_names("map", node):
            target = self.identifier(f"map.{name}", value)
            if target is not None:
                pairs.append((name, target))
        return tuple(pairs)

    def literals(self, key: str, node) -> tuple[FixedValue, ...]:
        found = []
        for name, key_node, value in self.key_names(key, node):
            text = _literal_text(value.value) if isinstance(value, YScalar) else None
            if text is None:
                self.error(
                    value.loc,
                    f"{key}.{name}: expected a literal, not {_kind_phrase(value)}",
                    "e.g. true, -1, 1.5, DataType::FLOAT32, CPUPlace() or '{}' (quoted)",
                )
                continue
            where = value.loc_at(0) if isinstance(value, YScalar) else value.loc
            found.append(FixedValue(name, text, where))
        return tuple(found)

    def returns(self, node) -> tuple[str, ...] | None:
        if node is None:
            return None
        items = node.items if isinstance(node, YSeq) else (node,)
        before = len(self.diagnostics)
        names = []
        for index, item in enumerate(items):
            name = self.identifier("returns", item)
            if name is None:
                continue
            self.key_locs.append((f"returns.{name}", item.loc))
            if name in names:
                self.error(item.loc, f"returns: output '{name}' is named twice")
                continue
            names.append(name)
        if not names and len(self.diagnostics) == before:
            self.error(node.loc, "returns: name at least one output")
        return tuple(names)

    def identifier_list(self, key: str, node) -> tuple[str, ...]:
        if node is None:
            return ()
        if not isinstance(node, YSeq):
            self.error(node.loc, f"'{key}' must be a list like [a, b], not {_kind_phrase(node)}")
            return ()
        names = []
        for item in node.items:
            name = self.identifier(key, item)
            if name is not None:
                self.key_locs.append((f"{key}.{name}", item.loc))
                names.append(name)
        return tuple(names)


# ---------------------------------------------------------------------------- the file


def is_python_api_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a python_api.yaml file (by its name), not an op-spec file."""
    return Path(path).name == PYTHON_API_FILE_NAME


def check_python_api(
    path: str | os.PathLike[str],
    specs: Mapping[str, OpSpec] | None = None,
    *,
    base: str | os.PathLike[str] | None = None,
) -> tuple[PythonApiSet | None, list[Diagnostic]]:
    """Read and check python_api.yaml ``path``; with ``specs`` (phiops' ops by name), check each
    entry against its op. Returns the set (None when there is any diagnostic: generation needs
    every entry to resolve) and every diagnostic, sorted. Never raises for bad input."""
    from .entry_files import read_entry_file

    read = read_entry_file(path, base, lambda node, said: _PythonApiParser(node, said).run_api())
    display, apis, diagnostics = read.display, read.entries, read.diagnostics
    diagnostics.extend(_check_names(apis))
    if specs is not None:
        for api in apis:
            diagnostics.extend(_check_against_op(api, specs))
    diagnostics = sort_diagnostics(diagnostics)
    if diagnostics:
        return None, diagnostics
    return PythonApiSet(tuple(apis), display), diagnostics


def _check_names(apis: list[PythonApi]) -> list[Diagnostic]:
    """The same name (a function's or an alias) given twice."""
    found: list[Diagnostic] = []
    seen: dict[str, PythonApi] = {}
    for api in apis:
        for name, loc in ((api.name, api.loc),) + tuple(
            (alias, api.loc_of(f"alias.{alias}")) for alias in api.alias
        ):
            first = seen.get(name)
            if first is None:
                seen[name] = api
                continue
            where = "itself" if first is api else f"the entry at line {first.loc.line}"
            found.append(
                Diagnostic(
                    loc,
                    api.name,
                    f"name '{name}' is already taken by {where}",
                    "each function and alias needs a name of its own",
                    subject="api",
                )
            )
    return found


def accepts(op_type: Type, given: Type) -> bool:
    """Whether an argument of type ``given`` may be passed as an op argument of ``op_type``."""
    if op_type.matches(given):
        return True
    if op_type.is_tensor_like or given.is_tensor_like:
        return False
    if op_type.base == INT_ARRAY and not op_type.is_list:
        return given.base in _INTS
    if op_type.is_list != given.is_list:
        return False
    if op_type.base == SCALAR:
        return given.base in _INTS + _FLOATS + ("bool",)
    for family in (_INTS, _FLOATS):
        if op_type.base in family and given.base in family:
            return True
    return given.base in _INTS and op_type.base in _FLOATS


def literal(value: FixedValue, op_arg: Arg) -> Default:
    """``value`` typed as ``op_arg``'s type; ParseError (offset in the text) when it does not fit."""
    tokens = [t for t in Tokens(value.text).tokens if t.kind != EOF]
    return parse_default_tokens(tokens, op_arg.type, op_arg.name)


def _check_against_op(api: PythonApi, specs: Mapping[str, OpSpec]) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def say(loc: Location, message: str, hint: str | None = None) -> None:
        found.append(Diagnostic(loc, api.name, message, hint, INCONSISTENCY, subject="api"))

    op = specs.get(api.op)
    if op is None or op.is_backward:
        forward = sorted(name for name, spec in specs.items() if not spec.is_backward)
        say(
            api.loc_of("op"),
            f"op '{api.op}' does not exist" if op is None else f"op '{api.op}' is a backward op",
            suggest(api.op, forward) or "name an op of ops/api.yaml",
        )
        return found
    names = [arg.name for arg in api.args]
    covered: dict[str, str] = {}  # op argument -> what gives it
    for python_name, target in api.renames:
        if python_name not in names:
            say(
                api.loc_of(f"map.{python_name}"),
                f"map: '{python_name}' is not an argument of the function",
                suggest(python_name, names),
            )
    for arg in api.passed_args:
        target = api.op_arg(arg.name)
        op_arg = op.args.get(target)
        where = api.loc_of(f"map.{arg.name}") if target != arg.name else arg.loc
        if op_arg is None:
            hint = suggest(target, op.args.names)
            say(
                where,
                f"argument '{target}' is not an argument of op '{op.name}'",
                hint
                or f"map it to one with 'map : {{{arg.name} : ...}}'; "
                f"arguments of '{op.name}': {', '.join(op.args.names) or 'none'}",
            )
            continue
        if target in covered:
            say(
                where,
                f"op argument '{target}' is given by both {covered[target]} and "
                f"argument '{arg.name}'",
            )
            continue
        covered[target] = f"argument '{arg.name}'"
        if not accepts(op_arg.type, arg.type):
            say(
                arg.loc,
                f"argument '{arg.name}' is {arg.type}, but op argument '{target}' of "
                f"'{op.name}' is {op_arg.type}",
            )
        if arg.default is NONE and op_arg.default is None and not op.is_optional(target):
            if not any(item.name == arg.name for item in api.if_none):
                say(
                    arg.loc,
                    f"argument '{arg.name}' defaults to None, but op argument '{target}' of "
                    f"'{op.name}' has no default to pass for it",
                    f"say what None passes with 'if_none : {{{arg.name} : ...}}'",
                )
    for value in api.values:
        op_arg = op.args.get(value.name)
        if op_arg is None:
            say(
                api.loc_of(f"values.{value.name}"),
                f"values: '{value.name}' is not an argument of op '{op.name}'",
                suggest(value.name, op.args.names),
            )
            continue
        if value.name in covered:
            say(
                api.loc_of(f"values.{value.name}"),
                f"values: op argument '{value.name}' is already given by {covered[value.name]}",
            )
            continue
        covered[value.name] = "'values'"
        found.extend(_typed(api, value, op_arg, "values"))
    for value in api.if_none:
        arg = api.args.get(value.name)
        if arg is None or arg.default is not NONE:
            say(
                api.loc_of(f"if_none.{value.name}"),
                f"if_none: '{value.name}' is not an argument that defaults to None",
                suggest(value.name, [a.name for a in api.args if a.default is NONE]),
            )
            continue
        op_arg = op.args.get(api.op_arg(value.name))
        if op_arg is not None:
            found.extend(_typed(api, value, op_arg, "if_none"))
    for op_arg in op.args:
        if (
            op_arg.name not in covered
            and op_arg.default is None
            and not op.is_optional(op_arg.name)
        ):
            say(
                api.loc_of("args"),
                f"op argument '{op_arg.name}' of '{op.name}' gets no value",
                f"add an argument for it, map one to it, or give it in 'values'",
            )
    found.extend(_check_arg_alias(api))
    visible = [output.name for output in op.visible_outputs]
    for name in api.returns or ():
        if name not in visible:
            say(
                api.loc_of(f"returns.{name}"),
                f"returns: '{name}' is not an output of op '{op.name}'",
                suggest(name, visible) or f"outputs of '{op.name}': {', '.join(visible)}",
            )
    found.extend(_check_out(api, op))
    return found


def _check_out(api: PythonApi, op: OpSpec) -> list[Diagnostic]:
    """``out`` is ``Tensor out = None`` and the function returns one Tensor to write into it."""
    arg = api.args.get(OUT_ARG)
    if arg is None:
        return []
    if not (arg.type.is_tensor and not arg.type.is_list) or arg.default is not NONE:
        return [
            Diagnostic(
                arg.loc,
                api.name,
                f"argument 'out' is '{arg}', but 'out' is the tensor the result is written into",
                "declare it 'Tensor out = None'",
                subject="api",
            )
        ]
    returned = [o for o in op.visible_outputs if api.returns is None or o.name in api.returns]
    if len(returned) != 1 or returned[0].type.is_list:
        names = ", ".join(o.name for o in returned) or "nothing"
        return [
            Diagnostic(
                arg.loc,
                api.name,
                f"argument 'out' needs one Tensor result, but the function returns {names}",
                "pick one output with 'returns : name', or drop 'out'",
                INCONSISTENCY,
                subject="api",
            )
        ]
    return []


def _typed(api: PythonApi, value: FixedValue, op_arg: Arg, key: str) -> list[Diagnostic]:
    try:
        literal(value, op_arg)
    except ParseError as exc:
        loc = value.loc.shifted(exc.pos) if exc.pos is not None else value.loc
        return [
            Diagnostic(loc, api.name, f"{key}.{value.name}: {exc.message}", exc.hint, subject="api")
        ]
    return []


def _check_arg_alias(api: PythonApi) -> list[Diagnostic]:
    """Each `arg_alias` key is an argument; each alias is a name no argument or other alias has."""
    found: list[Diagnostic] = []
    names = [arg.name for arg in api.args]
    taken: dict[str, str] = {}
    for name, others in api.arg_alias:
        if name not in names:
            found.append(
                Diagnostic(
                    api.loc_of(f"arg_alias.{name}"),
                    api.name,
                    f"arg_alias: '{name}' is not an argument of the function",
                    suggest(name, names),
                    INCONSISTENCY,
                    subject="api",
                )
            )
        for other in others:
            where = api.loc_of(f"arg_alias.{name}.{other}")
            if other in names:
                message = f"arg_alias: '{other}' is already an argument of the function"
            elif other in taken:
                message = f"arg_alias: '{other}' is already an alias of '{taken[other]}'"
            else:
                taken[other] = name
                continue
            found.append(Diagnostic(where, api.name, message, subject="api"))
    return found
