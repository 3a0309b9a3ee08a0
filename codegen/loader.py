"""YAML files -> op entries whose every value knows its file:line:col.

`SpecLoader` is a `yaml.SafeLoader` (libyaml's CSafeLoader when available, for speed): it
constructs only plain data, never Python objects.  Instead of dicts it yields `YMap`/`YSeq`/
`YScalar` nodes carrying 1-based `Location`s; a duplicate key in a mapping is recorded on the
`YMap` (the first value wins) so that the caller reports it with the op's name and goes on.
File-level problems (YAML syntax, empty file, top level not a list, an entry not a mapping)
come back as diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from .errors import Diagnostic
from .model import Location

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class SpecLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader whose `load_nodes()` returns located `Y*` nodes instead of plain data."""

    def __init__(self, stream: str, file: str) -> None:
        super().__init__(stream)
        self.file = file

    def location(self, mark: yaml.Mark) -> Location:
        return Location(self.file, mark.line + 1, mark.column + 1)

    def load_nodes(self) -> YNode | None:
        """The single document of the stream as Y* nodes, None for an empty stream."""
        try:
            node = self.get_single_node()
            return None if node is None else self._convert(node)
        finally:
            self.dispose()

    def _convert(self, node: yaml.Node) -> YNode:
        loc = self.location(node.start_mark)
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_TAGS:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"could not determine a constructor for the tag {node.tag!r}",
                node.start_mark,
            )
        if isinstance(node, yaml.MappingNode):
            result = YMap(loc)
            for key_node, value_node in node.value:
                key = self._convert(key_node)
                value = self._convert(value_node)
                result.add(key, value)
            return result
        if isinstance(node, yaml.SequenceNode):
            return YSeq(tuple(self._convert(item) for item in node.value), loc)
        value = self.construct_object(node, deep=True)
        single_line = node.start_mark.line == node.end_mark.line
        return YScalar(value, loc, node.style, single_line)


@dataclass
class YScalar:
    value: object  # str, int, float, bool or None
    loc: Location
    style: str | None = None  # None: plain; '"' / "'": quoted; '|' / '>': block
    single_line: bool = True

    def loc_at(self, offset: int) -> Location:
        """Location of character `offset` of the value's text (exact on one-line scalars)."""
        if not self.single_line or self.style in ("|", ">"):
            return self.loc
        if self.style in ('"', "'"):
            return self.loc.shifted(offset + 1)
        return self.loc.shifted(offset)

    @property
    def kind(self) -> str:
        return _kind_name(self.value)


@dataclass
class YSeq:
    items: tuple[YNode, ...]
    loc: Location
    kind = "list"


@dataclass
class YMap:
    loc: Location
    items: dict[str, tuple[YScalar, YNode]] = field(default_factory=dict)
    duplicates: list[tuple[str, Location, Location]] = field(default_factory=list)
    bad_keys: list[YNode] = field(default_factory=list)
    kind = "mapping"

    def add(self, key: YNode, value: YNode) -> None:
        if not isinstance(key, YScalar) or not isinstance(key.value, str):
            self.bad_keys.append(key)
            return
        if key.value in self.items:
            first = self.items[key.value][0].loc
            self.duplicates.append((key.value, key.loc, first))
            return
        self.items[key.value] = (key, value)


YNode = YScalar | YSeq | YMap


def _kind_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


def node_kind(node: YNode) -> str:
    """`mapping`, `list`, `string`, `number`, `bool` or `null`, for messages."""
    return node.kind


def read_entries(text: str, file: str) -> tuple[list[YMap], list[Diagnostic]]:
    """Parse one spec file's text into its entry mappings plus file-level diagnostics."""
    try:
        root = SpecLoader(text, file).load_nodes()
    except yaml.MarkedYAMLError as exc:
        return [], [_syntax_error(text, file, exc)]
    except yaml.YAMLError as exc:
        return [], [Diagnostic(Location(file, 1, 1), None, f"invalid YAML: {exc}")]
    if root is None:
        return [], [
            Diagnostic(
                Location(file, 1, 1), None, "the file is empty; expected a list of op entries"
            )
        ]
    if not isinstance(root, YSeq):
        return [], [
            Diagnostic(
                root.loc,
                None,
                f"expected a list of op entries at the top level, " f"got a {node_kind(root)}",
                hint="start each entry with '- op : name'",
            )
        ]
    entries: list[YMap] = []
    diagnostics: list[Diagnostic] = []
    for index, item in enumerate(root.items, 1):
        if isinstance(item, YMap):
            entries.append(item)
        else:
            diagnostics.append(
                Diagnostic(
                    item.loc,
                    None,
                    f"entry {index} is a {node_kind(item)}, expected a mapping with an 'op' key",
                )
            )
    return entries, diagnostics


def _syntax_error(text: str, file: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    # libyaml words its errors differently; re-parse with the pure-Python parser so that the
    # message is the same on every machine.
    if _BaseLoader is not yaml.SafeLoader:
        try:
            yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.MarkedYAMLError as pure_exc:
            exc = pure_exc
    mark = exc.problem_mark or exc.context_mark
    loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file, 1, 1)
    problem = exc.problem or "malformed YAML"
    if exc.context:
        problem = f"{problem} ({exc.context})"
    return Diagnostic(loc, None, f"invalid YAML: {problem}")
