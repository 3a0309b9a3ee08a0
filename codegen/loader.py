"""YAML files -> op entries whose every value knows its file:line:col.

The YAML is read as a stream of events from libyaml's parser (the pure-Python one where
libyaml is missing); both are iterative, so no input can exhaust the C or Python stack.  A small
composer here builds `YMap`/`YSeq`/`YScalar` nodes carrying 1-based `Location`s from those
events, instead of PyYAML's recursive composer (libyaml's segfaults on a 50,000-deep flow
sequence, the Python one raises RecursionError at 1,000).  Scalars are resolved and constructed
by `yaml.SafeLoader`'s rules: YAML never constructs Python objects.  A duplicate key in a
mapping is recorded on the `YMap` (the first value wins) so that the caller reports it with the
op's name and goes on.

Hostile input is bounded by the limits of `codegen.limits`, each reported as a located diagnostic: nesting
depth, the number of nodes the document expands to through aliases (a "billion laughs" bomb
expands exponentially), the digits of a number, and the size of a file (which must be a regular
file: not a FIFO, a device or a directory).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import yaml

from .errors import Diagnostic
from .limits import MAX_NUMBER_DIGITS, MAX_SPEC_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES
from .model import Location

_ParserLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_PLAIN_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class _Reject(Exception):
    """Input past a limit, or YAML that the composer refuses; carries its location."""

    def __init__(self, loc: Location, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(loc, None, message, hint)


@dataclass
class _Frame:
    node: YMap | YSeq
    anchor: str | None
    items: list[YNode] = field(default_factory=list)
    key: YNode | None = None
    size: int = 1


class _Composer:
    """Builds Y* nodes from parser events without recursion, within the limits above."""

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        self.parser = _ParserLoader(text)
        self.loader = yaml.SafeLoader("")
        self.anchors: dict[str, tuple[YNode, int]] = {}
        self.expanded = 0

    def location(self, mark: yaml.Mark) -> Location:
        return Location(self.file, mark.line + 1, mark.column + 1)

    def compose(self) -> YNode | None:
        """The single document of the stream, None for an empty stream."""
        try:
            return self._compose(iter(self.parser.get_event, None))
        finally:
            self.parser.dispose()

    def _compose(self, events: Iterator[yaml.Event]) -> YNode | None:
        root: YNode | None = None
        stack: list[_Frame] = []
        documents = 0
        for event in events:
            if isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise _Reject(
                        self.location(event.start_mark),
                        "invalid YAML: expected a single document, found a second one",
                        "remove the '---' line",
                    )
                continue
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                loc = self.location(event.start_mark)
                if event.tag not in _PLAIN_TAGS:
                    raise _Reject(
                        loc,
                        f"invalid YAML: could not determine a constructor for the tag "
                        f"{event.tag!r}",
                    )
                if len(stack) >= MAX_YAML_DEPTH:
                    raise _Reject(
                        loc,
                        f"the YAML nests deeper than {MAX_YAML_DEPTH} levels "
                        f"(codegen.limits.MAX_YAML_DEPTH)",
                        "op entries need at most 4 levels of lists and mappings",
                    )
                node = YMap(loc) if isinstance(event, yaml.MappingStartEvent) else YSeq((), loc)
                self.count(1, loc)
                stack.append(_Frame(node, event.anchor))
                continue
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = stack.pop()
                node = frame.node
                if isinstance(node, YSeq):
                    node.items = tuple(frame.items)
                finished, size = node, frame.size
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (finished, size)
            elif isinstance(event, yaml.ScalarEvent):
                finished, size = self.scalar(event), 1
                self.count(1, finished.loc)
                if event.anchor is not None:
                    self.anchors[event.anchor] = (finished, size)
            elif isinstance(event, yaml.AliasEvent):
                loc = self.location(event.start_mark)
                if event.anchor not in self.anchors:
                    raise _Reject(loc, f"invalid YAML: found undefined alias {event.anchor!r}")
                finished, size = self.anchors[event.anchor]
                self.count(size, loc)
            else:
                continue
            if not stack:
                root = finished
                continue
            parent = stack[-1]
            parent.size += size
            if isinstance(parent.node, YSeq):
                parent.items.append(finished)
            elif parent.key is None:
                parent.key = finished
            else:
                parent.node.add(parent.key, finished)
                parent.key = None
        return root

    def count(self, nodes: int, loc: Location) -> None:
        self.expanded += nodes
        if self.expanded > MAX_YAML_NODES:
            raise _Reject(
                loc,
                f"the YAML expands to more than {MAX_YAML_NODES:,} nodes "
                f"(codegen.limits.MAX_YAML_NODES)",
                "aliases (*name) repeat what they refer to; write the values out instead",
            )

    def scalar(self, event: yaml.ScalarEvent) -> YScalar:
        loc = self.location(event.start_mark)
        single_line = event.start_mark.line == event.end_mark.line
        style = event.style or None  # libyaml says '' for plain, PyYAML None
        tag = event.tag
        if tag is None or tag == "!":
            if style is not None:  # quoted or block: a string, as YAML says
                return YScalar(event.value, loc, style, single_line)
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == _STR_TAG:
            return YScalar(event.value, loc, style, single_line)
        if tag in _NUMBER_TAGS:
            digits = sum(c.isdigit() for c in event.value)
            if digits > MAX_NUMBER_DIGITS:
                raise _Reject(
                    loc,
                    f"a number with {digits} digits; at most {MAX_NUMBER_DIGITS} are allowed "
                    f"(codegen.limits.MAX_NUMBER_DIGITS)",
                )
        construct = yaml.SafeLoader.yaml_constructors.get(tag)
        if construct is None:
            raise _Reject(
                loc, f"invalid YAML: could not determine a constructor for the tag {tag!r}"
            )
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style)
        try:
            value = construct(self.loader, node)
        except (ValueError, TypeError) as exc:
            raise _Reject(loc, f"invalid YAML: {tag.rsplit(':', 1)[-1]} {event.value!r}: {exc}")
        return YScalar(value, loc, style, single_line)


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


def read_spec_file(path: Path, display: str) -> tuple[str | None, list[Diagnostic]]:
    """The text of spec file ``path`` (named ``display`` in messages), or why it cannot be read.

    Only regular files are read (a FIFO would block, ``/dev/zero`` never ends), at most
    MAX_SPEC_FILE_BYTES of them."""
    where = Location(display, 1, 1)

    def refuse(message: str) -> tuple[None, list[Diagnostic]]:
        return None, [Diagnostic(where, None, message)]

    try:
        info = path.stat()
    except OSError as exc:
        return refuse(f"cannot read the file: {exc.strerror or exc}")
    if stat.S_ISDIR(info.st_mode):
        return refuse("cannot read the file: it is a directory, not a spec file")
    if not stat.S_ISREG(info.st_mode):
        return refuse("cannot read the file: it is not a regular file (a device, FIFO or socket)")
    if info.st_size > MAX_SPEC_FILE_BYTES:
        return refuse(_too_big(info.st_size))
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SPEC_FILE_BYTES + 1)
    except OSError as exc:
        return refuse(f"cannot read the file: {exc.strerror or exc}")
    if len(data) > MAX_SPEC_FILE_BYTES:
        return refuse(_too_big(len(data)))
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        return refuse(f"cannot read the file: it is not UTF-8 ({exc.reason} at byte {exc.start})")


def _too_big(size: int) -> str:
    return (
        f"the file has {size:,} bytes; spec files are at most {MAX_SPEC_FILE_BYTES:,} "
        f"(codegen.limits.MAX_SPEC_FILE_BYTES)"
    )


def read_entries(text: str, file: str) -> tuple[list[YMap], list[Diagnostic]]:
    """Parse one spec file's text into its entry mappings plus file-level diagnostics."""
    try:
        root = _Composer(text, file).compose()
    except _Reject as exc:
        return [], [exc.diagnostic]
    except yaml.MarkedYAMLError as exc:
        return [], [_syntax_error(text, file, exc)]
    except (yaml.YAMLError, ValueError, TypeError) as exc:
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
    if _ParserLoader is not yaml.SafeLoader:
        try:
            for _ in yaml.parse(text, Loader=yaml.SafeLoader):
                pass
        except yaml.MarkedYAMLError as pure_exc:
            exc = pure_exc
    mark = exc.problem_mark or exc.context_mark
    loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file, 1, 1)
    problem = exc.problem or "malformed YAML"
    if exc.context:
        problem = f"{problem} ({exc.context})"
    return Diagnostic(loc, None, f"invalid YAML: {problem}")
