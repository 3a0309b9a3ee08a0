"""ops/docs.yaml: the prose of the generated functions' docstrings, one entry per op.

PaddlePaddle's op specs carry no prose and ops/api.yaml keeps their schema, so what an op
computes is said here, beside them. Its own model and parser, to the standards of the op specs:
every value located, keys consumed one by one (a leftover key is an error with a "did you
mean"), every diagnostic collected before stopping. An entry::

    - op : flatten
      summary : Merges the consecutive axes start_axis to stop_axis of x into one axis.
      args :
        x : The tensor to flatten.
        start_axis : The first axis merged; negative counts from the last.
        stop_axis : The last axis merged; negative counts from the last.
      returns : A tensor holding x's elements in the same order, with the merged axes replaced
        by one.

Each value is one paragraph of plain text (YAML may fold it over several lines), ending in
``.``. `check_docs(path, specs)` checks the entries against phiops' op specs when it is given
them: the op exists, each argument named is one of the op's and each of its arguments has a
sentence, and every forward op has an entry (backward ops may have one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .errors import INCONSISTENCY, Diagnostic, SpecError, sort_diagnostics
from .loader import YMap, YScalar
from .model import Location, OpSpec, SpecSet
from .parse import _EntryParser, _kind_phrase, suggest

__all__ = [
    "DOCS_FILE_NAME",
    "DOCS_KEYS",
    "OpDoc",
    "DocSet",
    "check_docs",
    "docs_by_op",
    "is_docs_file",
]

DOCS_FILE_NAME = "docs.yaml"
DOCS_KEYS = ("op", "summary", "args", "returns")


@dataclass(frozen=True)
class OpDoc:
    """The prose of one op: a summary, a sentence per argument (in the file's order) and what
    it returns, each normalised to one line (runs of whitespace become one space)."""

    op: str
    summary: str
    args: tuple[tuple[str, str], ...]
    returns: str
    loc: Location = field(compare=False)
    key_locs: tuple[tuple[str, Location], ...] = field(default=(), compare=False)

    def arg(self, name: str) -> str | None:
        """The sentence of argument ``name``, or None."""
        for arg_name, sentence in self.args:
            if arg_name == name:
                return sentence
        return None

    def loc_of(self, key: str) -> Location:
        """Where ``key`` (``summary``, ``args``, ``args.x`` ...) is given, else the entry's."""
        for name, loc in self.key_locs:
            if name == key:
                return loc
        return self.loc


@dataclass(frozen=True)
class DocSet:
    """Every entry of one docs.yaml, in the file's order."""

    entries: tuple[OpDoc, ...]
    file: str

    def find(self, name: str) -> OpDoc | None:
        """The entry of op ``name``, or None."""
        for entry in self.entries:
            if entry.op == name:
                return entry
        return None


class _DocsParser(_EntryParser):
    """Consumes one ops/docs.yaml entry's keys into an OpDoc."""

    def run_docs(self) -> OpDoc | None:
        entry = self.entry
        if "op" not in entry.items:
            self.error(entry.loc, "entry has no 'op' key", "start the entry with '- op : name'")
            self.consume(entry, DOCS_KEYS)
            return None
        name_key, name_node = entry.items["op"]
        name = self.string("op", name_node)
        if name is not None and not name.value.isidentifier():
            self.error(name.loc, f"op: '{name.value}' is not an op name")
            name = None
        if name is not None:
            self.op = name.value
        values = self.consume(entry, DOCS_KEYS)
        # a missing sentence is reported at the 'args' key, not at its first sentence
        self.key_locs = [
            (key, entry.items[key][0].loc if key == "args" else loc) for key, loc in self.key_locs
        ]
        missing = [k for k in ("summary", "returns") if k not in values]
        for key in missing:
            self.error(name_key.loc, f"missing required key '{key}'")
        summary = self.sentence("summary", values.get("summary"))
        returns = self.sentence("returns", values.get("returns"))
        args = self.arg_sentences(values.get("args"))
        if name is None or summary is None or returns is None or args is None:
            return None
        return OpDoc(
            op=name.value,
            summary=summary,
            args=args,
            returns=returns,
            loc=name_key.loc,
            key_locs=tuple(self.key_locs),
        )

    def sentence(self, key: str, node) -> str | None:
        """One paragraph of printable text ending in '.', on one line."""
        scalar = self.string(key, node)
        if scalar is None:
            return None
        text = scalar.value.strip()
        if not text:
            self.error(scalar.loc, f"'{key}' is empty", "write a sentence")
            return None
        # a line break that YAML keeps is a blank line in the source, except in a literal block
        lines = [line.strip() for line in text.splitlines()]
        if "" in lines if scalar.style == "|" else len(lines) > 1:
            self.error(
                scalar.loc,
                f"'{key}' has more than one paragraph",
                "a docstring line takes one paragraph: remove the blank line",
            )
            return None
        text = " ".join(text.split())
        bad = next((c for c in text if not c.isprintable()), None)
        if bad is not None:
            self.error(scalar.loc, f"'{key}' holds the control character {bad!r}")
            return None
        if not text.endswith("."):
            self.error(scalar.loc, f"'{key}' must end with '.'", "write whole sentences")
            return None
        return text

    def arg_sentences(self, node) -> tuple[tuple[str, str], ...] | None:
        """``args``: (argument, sentence) pairs in the file's order; None when one is bad."""
        if node is None:
            return ()
        mapping = self.mapping("args", node)
        if mapping is None:
            return None
        found = []
        ok = True
        for arg_name, loc, first in mapping.duplicates:
            self.error(
                loc,
                f"duplicate key 'args.{arg_name}' (first given at line {first.line})",
                "YAML would silently keep only one of them; merge or remove one",
            )
        for key_node in mapping.bad_keys:
            self.error(key_node.loc, f"args: keys must be strings, got {_kind_phrase(key_node)}")
            ok = False
        for arg_name, (key_node, value) in mapping.items.items():
            if not arg_name.isidentifier():
                self.error(key_node.loc, f"args: '{arg_name}' is not an argument name")
                ok = False
                continue
            self.key_locs.append((f"args.{arg_name}", key_node.loc))
            sentence = self.sentence(f"args.{arg_name}", value)
            if sentence is None:
                ok = False
                continue
            found.append((arg_name, sentence))
        return tuple(found) if ok else None


def is_docs_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a docs.yaml file (by its name), not an op-spec file."""
    return Path(path).name == DOCS_FILE_NAME


def check_docs(
    path: str | os.PathLike[str],
    specs: Mapping[str, OpSpec] | None = None,
    *,
    base: str | os.PathLike[str] | None = None,
) -> tuple[DocSet | None, list[Diagnostic]]:
    """Read and check docs.yaml ``path``; with ``specs`` (phiops' ops by name, forward and
    backward), check each entry against its op and that every forward op has an entry.
    Returns the set (None when there is a schema error) and every diagnostic, sorted. Never
    raises for bad input."""
    from .entry_files import read_entry_file

    read = read_entry_file(path, base, lambda node, said: _DocsParser(node, said).run_docs())
    if read.diagnostics and not read.is_entry_list and not read.nodes:
        return None, read.diagnostics  # unreadable, or not a list of entries: said so already
    display, nodes, entries, diagnostics = read.display, read.nodes, read.entries, read.diagnostics
    diagnostics.extend(_duplicates(nodes))
    if specs is not None:
        for entry in entries:
            diagnostics.extend(_check_against_spec(entry, specs))
        diagnostics.extend(_undocumented(entries, nodes, specs, display))
    diagnostics = sort_diagnostics(diagnostics)
    if any(d.is_error for d in diagnostics):
        return None, diagnostics
    return DocSet(tuple(entries), display), diagnostics


def docs_by_op(
    path: Path, specs: SpecSet, *, base: str | os.PathLike[str] | None = None
) -> dict[str, OpDoc]:
    """For generation: each documented op's OpDoc, by op name, from docs.yaml ``path`` checked
    against ``specs``; SpecError on any diagnostic. A project without the file (a test's
    throwaway project) gets docstrings without prose: {}."""
    if not path.exists():
        return {}
    by_name = {op.name: op for op in (*specs.ops, *specs.backward_ops)}
    docs, diagnostics = check_docs(path, by_name, base=base)
    if docs is None or diagnostics:
        raise SpecError(diagnostics)
    return {entry.op: entry for entry in docs.entries}


def _entry_name(node: YMap) -> tuple[str, Location] | None:
    item = node.items.get("op")
    if item is None or not isinstance(item[1], YScalar) or not isinstance(item[1].value, str):
        return None
    return item[1].value, item[0].loc


def _duplicates(nodes: list[YMap]) -> list[Diagnostic]:
    """A second entry for the same op, whatever else is wrong with either."""
    found = []
    first: dict[str, Location] = {}
    for node in nodes:
        named = _entry_name(node)
        if named is None:
            continue
        name, loc = named
        if name in first:
            found.append(
                Diagnostic(
                    loc,
                    name,
                    f"a second entry for op '{name}' (the first is at line {first[name].line})",
                    "merge the two entries",
                )
            )
        else:
            first[name] = loc
    return found


def _check_against_spec(entry: OpDoc, specs: Mapping[str, OpSpec]) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def say(key: str, message: str, hint: str | None = None) -> None:
        found.append(Diagnostic(entry.loc_of(key), entry.op, message, hint, INCONSISTENCY))

    op = specs.get(entry.op)
    if op is None:
        say(
            "op",
            f"phiops has no op '{entry.op}'",
            suggest(entry.op, sorted(specs)) or "remove the entry or add the op to ops/",
        )
        return found
    names = [a.name for a in op.args]
    for arg_name, _ in entry.args:
        if arg_name not in names:
            say(
                f"args.{arg_name}",
                f"args: '{arg_name}' is not an argument of op '{op.name}'",
                suggest(arg_name, names) or f"its arguments: {', '.join(names) or 'none'}",
            )
    documented = {arg_name for arg_name, _ in entry.args}
    for arg_name in names:
        if arg_name not in documented:
            say(
                "args",
                f"args: no sentence for argument '{arg_name}'",
                f"add '{arg_name} : <what it means>.' under 'args'",
            )
    return found


def _undocumented(
    entries: list[OpDoc], nodes: list[YMap], specs: Mapping[str, OpSpec], file: str
) -> list[Diagnostic]:
    """Every forward op without an entry, located at the op in its spec file. An entry that
    names the op but failed to parse has already been reported, so it counts as an entry."""
    named = {name for name, _ in filter(None, (_entry_name(n) for n in nodes))}
    named |= {e.op for e in entries}
    return [
        Diagnostic(
            op.loc,
            op.name,
            f"no entry in {file}",
            f"add '- op : {op.name}' with a summary, a sentence for each argument "
            f"({', '.join(a.name for a in op.args) or 'none'}) and returns",
            INCONSISTENCY,
        )
        for op in specs.values()
        if not op.is_backward and op.name not in named
    ]
