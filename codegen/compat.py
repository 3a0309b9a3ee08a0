"""op_compat.yaml: how PaddlePaddle's legacy (OpMaker) ops name the arguments of phiops' ops.

Its own model and parser, to the standards of the op specs: every value located, keys consumed one
by one (a leftover key is an error with a "did you mean"), every diagnostic collected before
stopping, mini-language values parsed by the token parsers of `phiops.codegen.parse`.

An entry (SCHEMA.md §9)::

    - op : reshape (reshape2)                 # phiops name (legacy name)
      backward : reshape_grad (reshape2_grad), reshape_double_grad
      inputs : {x : X}                        # phiops name : legacy name
      outputs : {out : Out, xshape : XShape}
      attrs : {shape : shape}
      int_array :                             # or scalar: an attribute that may come as a tensor
        shape : {data_type : int, tensor_name : Shape, tensors_name : ShapeTensor}
      extra :                                 # what only the legacy op has: dropped by mapping
        attrs : [bool use_mkldnn = false]
        outputs : [xshape]
      manual_signature : [reshape]            # mapping function written by hand (runtime/compat/)
      drop_empty_grad : [x_grad]
      get_expected_kernel_type : {reshape : GetReshapeExpectedKernelType}
      complex_promote : [X]

`check_compat(path, specs)` checks an entry against phiops' op specs when it is given them: an
input, output or attribute the op does not have is an inconsistency (so `phiops.codegen.load`-strict
generation and lint reject it), as is an entry for an op phiops does not have.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .errors import INCONSISTENCY, Diagnostic, sort_diagnostics
from .lexer import NAME
from .loader import YScalar, YSeq
from .model import INT_ARRAY, SCALAR, Arg, Default, Location, OpSpec
from .parse import (
    ParseError,
    Tokens,
    _check_name,
    _EntryParser,
    _kind_phrase,
    parse_default_tokens,
    parse_type_at,
    suggest,
)

__all__ = [
    "COMPAT_FILE_NAME",
    "COMPAT_KEYS",
    "OpName",
    "NameMap",
    "MutableAttr",
    "CompatExtra",
    "CompatEntry",
    "CompatSet",
    "parse_op_names",
    "parse_extra_attr",
    "check_compat",
    "is_compat_file",
]

COMPAT_FILE_NAME = "op_compat.yaml"
COMPAT_KEYS = (
    "op",
    "backward",
    "inputs",
    "outputs",
    "attrs",
    "scalar",
    "int_array",
    "extra",
    "drop_empty_grad",
    "manual_signature",
    "get_expected_kernel_type",
    "complex_promote",
)
MUTABLE_KEYS = ("data_type", "tensor_name", "tensors_name", "support_tensor")
EXTRA_KEYS = ("attrs", "inputs", "outputs")
# the C++ types op_compat.yaml stores a Scalar / IntArray attribute as in the legacy op
_LEGACY_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_@.-]*\Z")
SCALAR_DATA_TYPES = ("bool", "int", "int64_t", "float", "double", "std::string")
INT_ARRAY_DATA_TYPES = ("int", "int64_t")


@dataclass(frozen=True)
class OpName:
    """``name`` or ``name (legacy)``."""

    name: str
    legacy: str | None
    loc: Location = field(compare=False)

    @property
    def legacy_name(self) -> str:
        """The legacy op type: the name in parentheses, else the phiops name."""
        return self.legacy or self.name

    def __str__(self) -> str:
        return self.name if self.legacy is None else f"{self.name} ({self.legacy})"


@dataclass(frozen=True)
class NameMap:
    """One ``phiops_name : legacy_name`` pair of `inputs`, `outputs`, `attrs` or
    `get_expected_kernel_type`."""

    name: str
    legacy: str
    loc: Location = field(compare=False)


@dataclass(frozen=True)
class MutableAttr:
    """A `scalar` or `int_array` attribute: how the legacy op may receive it as a tensor.

    ``tensor_name``: a legacy tensor input holding the value; ``tensors_name``: a legacy tensor list
    (one element per int); ``support_tensor``: the attribute itself may hold a variable."""

    name: str
    kind: str  # "scalar" or "int_array"
    data_type: str | None
    tensor_name: str | None
    tensors_name: str | None
    support_tensor: bool | None
    loc: Location = field(compare=False)


@dataclass(frozen=True)
class CompatExtra:
    """What only the legacy op has; mapping functions drop it."""

    attrs: tuple[Arg, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass(frozen=True)
class CompatEntry:
    op: OpName
    backward: tuple[OpName, ...]
    inputs: tuple[NameMap, ...]
    outputs: tuple[NameMap, ...]
    attrs: tuple[NameMap, ...]
    scalars: tuple[MutableAttr, ...]
    int_arrays: tuple[MutableAttr, ...]
    extra: CompatExtra
    drop_empty_grad: tuple[str, ...]
    manual_signature: tuple[str, ...]
    get_expected_kernel_type: tuple[NameMap, ...]
    complex_promote: tuple[str, ...]
    loc: Location = field(compare=False)
    key_locs: tuple[tuple[str, Location], ...] = field(default=(), compare=False)

    def loc_of(self, key: str) -> Location:
        """Where ``key`` (``inputs``, ``inputs.x``, ``scalar.axis`` ...) is given, else the op's."""
        for name, loc in self.key_locs:
            if name == key:
                return loc
        prefix = key.split(".")[0]
        for name, loc in self.key_locs:
            if name == prefix:
                return loc
        return self.loc

    @property
    def mutable(self) -> tuple[MutableAttr, ...]:
        return self.scalars + self.int_arrays

    def legacy_input(self, name: str) -> str:
        return _lookup(self.inputs, name)

    def legacy_output(self, name: str) -> str:
        return _lookup(self.outputs, name)

    def legacy_attr(self, name: str) -> str:
        return _lookup(self.attrs, name)

    def mutable_attr(self, name: str) -> MutableAttr | None:
        for item in self.mutable:
            if item.name == name:
                return item
        return None


def _lookup(pairs: tuple[NameMap, ...], name: str) -> str:
    for pair in pairs:
        if pair.name == name:
            return pair.legacy
    return name


@dataclass(frozen=True)
class CompatSet:
    entries: tuple[CompatEntry, ...]
    file: str

    def find(self, name: str) -> CompatEntry | None:
        """The entry of phiops op ``name`` (forward, or one of its backward ops)."""
        for entry in self.entries:
            if entry.op.name == name or any(b.name == name for b in entry.backward):
                return entry
        return None


# ------------------------------------------------------------------------------- parsers


def _op_name_at(toks: Tokens, locate) -> OpName:
    start = toks.peek()
    tok = toks.name("an op name")
    _check_name(tok)
    legacy = None
    if toks.accept("("):
        inner = toks.name("the legacy op name inside '(...)'")
        _check_name(inner)
        legacy = inner.text
        toks.expect(")", "')' after the legacy op name")
    return OpName(tok.text, legacy, locate(start.pos))


def parse_op_names(text: str, locate) -> tuple[OpName, ...]:
    """``a (legacy_a), b, c (legacy_c)`` -> OpNames."""
    toks = Tokens(text)
    names = [_op_name_at(toks, locate)]
    while toks.accept(","):
        names.append(_op_name_at(toks, locate))
    toks.end("',' or the end of the list")
    printed = ", ".join(str(n) for n in names)
    if [t.text for t in Tokens(printed).tokens] != [t.text for t in toks.tokens]:
        raise ParseError(f"internal error: {text!r} prints back as {printed!r}")
    return tuple(names)


def parse_op_name(text: str, locate) -> OpName:
    names = parse_op_names(text, locate)
    if len(names) != 1:
        raise ParseError("expected one op name, found a list", None, "write 'op : name (legacy)'")
    return names[0]


def parse_extra_attr(text: str, locate) -> Arg:
    """One `extra.attrs` item, ``type name [= default]``. A default may also be a C++ call
    (``phi::backends::gpu::GetDefaultConvWorkspaceSizeLimitMB()``), kept as its text (kind
    ``cpp``): these defaults belong to the legacy op and never reach generated code."""
    toks = Tokens(text)
    start = toks.peek()
    type_ = parse_type_at(toks)
    name = toks.name("an attribute name after the type")
    _check_name(name)
    default = None
    if toks.accept("="):
        tokens = toks.balanced_until(set())
        if not tokens:
            raise ParseError("expected a default after '='", toks.peek().pos)
        call = _cpp_call(tokens)
        default = (
            Default("cpp", call, call)
            if call is not None
            else parse_default_tokens(tokens, type_, name.text)
        )
    toks.end("the end of the attribute")
    return Arg(type_, name.text, default, locate(start.pos))


def _cpp_call(tokens: list) -> str | None:
    """``a::b::f()`` as text, or None."""
    texts = [t.text for t in tokens]
    if len(texts) < 3 or texts[-2:] != ["(", ")"] or tokens[0].kind != NAME:
        return None
    body = tokens[:-2]
    for index, tok in enumerate(body):
        if index % 2 == 0 and tok.kind != NAME:
            return None
        if index % 2 == 1 and tok.text != "::":
            return None
    if len(body) % 2 == 0 or len(body) < 3:
        return None  # a bare f() is not a C++ qualified call
    return "".join(texts)


class _CompatParser(_EntryParser):
    """Consumes one op_compat.yaml entry's keys into a CompatEntry."""

    def run_compat(self) -> CompatEntry | None:
        entry = self.entry
        if "op" not in entry.items:
            self.error(entry.loc, "entry has no 'op' key", "start the entry with '- op : name'")
            self.consume(entry, COMPAT_KEYS)
            return None
        op = self.parse("op", entry.items["op"][1], parse_op_name)
        if op is not None:
            self.op = op.name
        values = self.consume(entry, COMPAT_KEYS)
        backward = self.parse("backward", values.get("backward"), parse_op_names) or ()
        inputs = self.name_map("inputs", values.get("inputs"))
        outputs = self.name_map("outputs", values.get("outputs"))
        attrs = self.name_map("attrs", values.get("attrs"))
        scalars = self.mutable_attrs("scalar", values.get("scalar"), SCALAR_DATA_TYPES)
        int_arrays = self.mutable_attrs("int_array", values.get("int_array"), INT_ARRAY_DATA_TYPES)
        extra = self.extra(values.get("extra"))
        kernel_types = self.name_map(
            "get_expected_kernel_type", values.get("get_expected_kernel_type")
        )
        lists = {
            key: self.identifier_list(key, values.get(key))
            for key in ("drop_empty_grad", "manual_signature", "complex_promote")
        }
        if op is None:
            return None
        return CompatEntry(
            op=op,
            backward=backward,
            inputs=inputs,
            outputs=outputs,
            attrs=attrs,
            scalars=scalars,
            int_arrays=int_arrays,
            extra=extra,
            drop_empty_grad=lists["drop_empty_grad"],
            manual_signature=lists["manual_signature"],
            get_expected_kernel_type=kernel_types,
            complex_promote=lists["complex_promote"],
            loc=op.loc,
            key_locs=tuple(self.key_locs),
        )

    def identifier(self, key: str, node) -> str | None:
        scalar = self.string(key, node)
        if scalar is None:
            return None
        try:
            toks = Tokens(scalar.value)
            tok = toks.name("a name")
            _check_name(tok)
            toks.end("the end of the name")
        except ParseError as exc:
            loc = scalar.loc_at(exc.pos) if exc.pos is not None else scalar.loc
            self.error(loc, f"{key}: {exc.message}", exc.hint)
            return None
        return tok.text

    def legacy_name(self, key: str, node) -> str | None:
        """A legacy argument name: OpMaker names may hold '-', '@' or '.' (``F1-Score``)."""
        scalar = self.string(key, node)
        if scalar is None:
            return None
        if not _LEGACY_NAME.match(scalar.value):
            self.error(
                scalar.loc,
                f"{key}: '{scalar.value}' is not a legacy argument name "
                "[A-Za-z0-9_][A-Za-z0-9_@.-]*",
            )
            return None
        return scalar.value

    def name_map(self, key: str, node) -> tuple[NameMap, ...]:
        mapping = self.mapping(key, node)
        if mapping is None:
            return ()
        self.duplicates(mapping, key)
        pairs = []
        for name, (key_node, value) in mapping.items.items():
            where = f"{key}.{name}"
            if self.identifier(f"{key} key", key_node) is None:
                continue
            legacy = self.legacy_name(where, value)
            if legacy is not None:
                self.key_locs.append((where, key_node.loc))
                pairs.append(NameMap(name, legacy, key_node.loc))
        return tuple(pairs)

    def duplicates(self, mapping, key: str) -> None:
        for name, loc, first in mapping.duplicates:
            self.error(
                loc,
                f"duplicate key '{key}.{name}' (first given at line {first.line})",
                "YAML would silently keep only one of them; merge or remove one",
            )
        for key_node in mapping.bad_keys:
            self.error(key_node.loc, f"{key}: keys must be strings, got {_kind_phrase(key_node)}")

    def mutable_attrs(self, key: str, node, data_types: tuple[str, ...]):
        mapping = self.mapping(key, node)
        if mapping is None:
            return ()
        self.duplicates(mapping, key)
        found = []
        for name, (key_node, value) in mapping.items.items():
            where = f"{key}.{name}"
            if self.identifier(f"{key} key", key_node) is None:
                continue
            self.key_locs.append((where, key_node.loc))
            sub_map = self.mapping(where, value)
            if sub_map is None:
                continue
            sub = self.consume(sub_map, MUTABLE_KEYS, f"{where}.")
            data_type = None
            if "data_type" in sub:
                scalar = self.string(f"{where}.data_type", sub["data_type"])
                if scalar is not None:
                    text = " ".join(scalar.value.split())
                    if text in data_types:
                        data_type = text
                    else:
                        self.error(
                            scalar.loc,
                            f"{where}.data_type: unknown type '{text}'",
                            suggest(text, data_types) or f"one of: {', '.join(data_types)}",
                        )
            support = None
            if "support_tensor" in sub:
                flag = sub["support_tensor"]
                if isinstance(flag, YScalar) and isinstance(flag.value, bool):
                    support = flag.value
                else:
                    self.error(
                        flag.loc,
                        f"'{where}.support_tensor' must be true or false, not {_kind_phrase(flag)}",
                    )
            tensor_name = self.identifier(f"{where}.tensor_name", sub.get("tensor_name"))
            tensors_name = self.identifier(f"{where}.tensors_name", sub.get("tensors_name"))
            found.append(
                MutableAttr(name, key, data_type, tensor_name, tensors_name, support, key_node.loc)
            )
        return tuple(found)

    def identifier_list(self, key: str, node) -> tuple[str, ...]:
        if node is None:
            return ()
        if not isinstance(node, YSeq):
            self.error(node.loc, f"'{key}' must be a list like [a, b], not {_kind_phrase(node)}")
            return ()
        names = []
        for index, item in enumerate(node.items):
            name = self.identifier(f"{key}", item)
            if name is not None:
                self.key_locs.append((f"{key}.{name}", item.loc))
                names.append(name)
        return tuple(names)

    def extra(self, node) -> CompatExtra:
        mapping = self.mapping("extra", node)
        if mapping is None:
            return CompatExtra((), (), ())
        sub = self.consume(mapping, EXTRA_KEYS, "extra.")
        attrs = []
        attrs_node = sub.get("attrs")
        if attrs_node is not None:
            if not isinstance(attrs_node, YSeq):
                self.error(
                    attrs_node.loc,
                    f"'extra.attrs' must be a list like [bool use_mkldnn = false], not "
                    f"{_kind_phrase(attrs_node)}",
                )
            else:
                for item in attrs_node.items:
                    scalar = self.string("extra.attrs item", item)
                    if scalar is None:
                        continue
                    try:
                        arg = parse_extra_attr(" ".join(scalar.value.split()), scalar.loc_at)
                    except ParseError as exc:
                        loc = scalar.loc_at(exc.pos) if exc.pos is not None else scalar.loc
                        self.error(loc, f"extra.attrs: {exc.message}", exc.hint)
                        continue
                    self.key_locs.append((f"extra.attrs.{arg.name}", scalar.loc))
                    attrs.append(arg)
        names = [a.name for a in attrs]
        for name in sorted({n for n in names if names.count(n) > 1}):
            self.error(mapping.loc, f"extra.attrs: attribute '{name}' is given twice")
        return CompatExtra(
            tuple(attrs),
            self.identifier_list("extra.inputs", sub.get("inputs")),
            self.identifier_list("extra.outputs", sub.get("outputs")),
        )


# ---------------------------------------------------------------------------- the file


def is_compat_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an op_compat.yaml file (by its name), not an op-spec file."""
    return Path(path).name == COMPAT_FILE_NAME


def check_compat(
    path: str | os.PathLike[str],
    specs: Mapping[str, OpSpec] | None = None,
    *,
    base: str | os.PathLike[str] | None = None,
) -> tuple[CompatSet | None, list[Diagnostic]]:
    """Read and check op_compat.yaml ``path``; with ``specs`` (phiops' ops by name), check each
    entry against its op. Returns the set (None when there is a schema error) and every
    diagnostic, sorted. Never raises for bad input."""
    from .entry_files import read_entry_file

    read = read_entry_file(path, base, lambda node, said: _CompatParser(node, said).run_compat())
    display, entries, diagnostics = read.display, read.entries, read.diagnostics
    diagnostics.extend(_check_names(entries))
    if specs is not None:
        for entry in entries:
            diagnostics.extend(_check_against_spec(entry, specs))
    diagnostics = sort_diagnostics(diagnostics)
    if any(d.is_error for d in diagnostics):
        return None, diagnostics
    return CompatSet(tuple(entries), display), diagnostics


def _check_names(entries: list[CompatEntry]) -> list[Diagnostic]:
    """The same op or legacy op named by two entries."""
    found: list[Diagnostic] = []
    seen: dict[str, CompatEntry] = {}
    legacy_seen: dict[str, CompatEntry] = {}
    for entry in entries:
        first = seen.setdefault(entry.op.name, entry)
        if first is not entry:
            found.append(
                Diagnostic(
                    entry.loc,
                    entry.op.name,
                    f"a second entry for op '{entry.op.name}' (the first is at line "
                    f"{first.loc.line})",
                    "merge the two entries",
                    INCONSISTENCY,
                )
            )
        if first is not entry:
            continue
        for name in (entry.op, *entry.backward):
            other = legacy_seen.setdefault(name.legacy_name, entry)
            if other is not entry:
                found.append(
                    Diagnostic(
                        name.loc,
                        entry.op.name,
                        f"legacy op '{name.legacy_name}' is also named by op '{other.op.name}' "
                        f"(line {other.loc.line})",
                        severity=INCONSISTENCY,
                    )
                )
    return found


def _check_against_spec(entry: CompatEntry, specs: Mapping[str, OpSpec]) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def say(key: str, message: str, hint: str | None = None) -> None:
        found.append(Diagnostic(entry.loc_of(key), entry.op.name, message, hint, INCONSISTENCY))

    op = specs.get(entry.op.name)
    if op is None:
        say(
            "op",
            f"phiops has no op '{entry.op.name}'",
            suggest(entry.op.name, sorted(specs)) or "remove the entry or add the op to ops/",
        )
        return found
    inputs = [a.name for a in op.inputs]
    outputs = [o.name for o in op.outputs]
    attrs = [a.name for a in op.attrs]
    extra_attrs = [a.name for a in entry.extra.attrs]
    checks = (
        ("inputs", entry.inputs, inputs + list(entry.extra.inputs), "an input"),
        ("outputs", entry.outputs, outputs + list(entry.extra.outputs), "an output"),
        ("attrs", entry.attrs, attrs, "an attribute"),
    )
    for key, pairs, known, what in checks:
        for pair in pairs:
            if key == "attrs" and pair.legacy in extra_attrs:
                continue  # renames an attribute only the legacy op has (Scale_x)
            if pair.name not in known:
                say(
                    f"{key}.{pair.name}",
                    f"{key}: '{pair.name}' is not {what} of op '{op.name}'",
                    suggest(pair.name, known)
                    or f"{what[3:] if what.startswith('an ') else what}s "
                    f"of '{op.name}': {', '.join(known) or 'none'}",
                )
    for key, names, known, what in (
        ("extra.inputs", entry.extra.inputs, inputs, "input"),
        ("extra.outputs", entry.extra.outputs, outputs, "output"),
    ):
        for name in names:
            if name in known:
                say(
                    f"{key}.{name}",
                    f"{key}: '{name}' is an {what} of op '{op.name}', not an extra one",
                )
    for item in entry.mutable:
        where = f"{item.kind}.{item.name}"
        arg = op.args.get(item.name)
        if arg is None or arg.type.is_tensor_like:
            say(
                where,
                f"{item.kind}: '{item.name}' is not an attribute of op '{op.name}'",
                suggest(item.name, attrs),
            )
            continue
        want = SCALAR if item.kind == "scalar" else INT_ARRAY
        if arg.type.base != want:
            say(
                where,
                f"{item.kind}: attribute '{item.name}' of op '{op.name}' is {arg.type}, not {want}",
            )
    backward_names = {b.name for b in entry.backward}
    for name in entry.manual_signature:
        if name != op.name and name not in backward_names:
            say(
                f"manual_signature.{name}",
                f"manual_signature: '{name}' is neither op '{op.name}' nor one of its backward ops",
                suggest(name, [op.name, *sorted(backward_names)]),
            )
    for back in entry.backward:
        spec = specs.get(back.name)
        if spec is not None and not spec.is_backward:
            say("backward", f"backward: '{back.name}' is not a backward op")
    return found
