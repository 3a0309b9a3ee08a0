"""YAML files -> op entries whose every value knows its file:line:col.

The YAML is read as a stream of events from libyaml's parser (the pure-Python one where
libyaml is missing); both are iterative, so no input can exhaust the C or Python stack.  A small
composer here builds `YMap`/`YSeq`/`YScalar` nodes carrying 1-based `Location`s from those
events, instead of PyYAML's recursive composer (libyaml's segfaults on a 50,000-deep flow
sequence, the Python one raises RecursionError at 1,000).  Scalars are resolved and constructed
by `yaml.SafeLoader`'s rules: YAML never constructs Python objects.  A duplicate key in a
mapping is recorded on the `YMap` (the first value wins) so that the caller reports it with the
op's name and goes on.

Hostile input is bounded by the limits of `phiops.codegen.limits`, each reported as a located diagnostic: nesting
depth, the number of nodes the document expands to through aliases (a "billion laughs" bomb
expands exponentially), the digits of a number, and the size of a file (which must be a regular
file: not a FIFO, a device or a directory).
"""

from __future__ import annotations

import gc
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import yaml

from .errors import Diagnostic
from .yaml_errors import syntax_error, text_offset
from .limits import MAX_NUMBER_DIGITS, MAX_SPEC_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES
from .model import Location

_ParserLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# libyaml 0.2.6 (bundled with PyYAML 6.0.4 on) refuses to nest deeper than 1,000 levels; it may
# say so while scanning ahead, before the composer has seen the events past MAX_YAML_DEPTH
_LIBYAML_DEPTH_PROBLEM = "exceeded maximum nesting depth"
_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_PLAIN_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class _Reject(Exception):
    """Input past a limit, or YAML that the composer refuses; carries its location."""

    def __init__(self, loc: Location, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(loc, None, message, hint)


class _Frame:
    """A mapping or list being composed: a list's items, or a mapping's pending key."""

    __slots__ = ("node", "anchor", "items", "key", "size")

    def __init__(self, node: YMap | YSeq, anchor: str | None) -> None:
        self.node = node
        self.anchor = anchor
        self.items: list[YNode] | None = [] if isinstance(node, YSeq) else None
        self.key: YNode | None = None
        self.size = 1


class _Composer:
    """Builds Y* nodes from parser events without recursion, within the limits above."""

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        self.parser = _ParserLoader(text)  # read at each call: tests swap in the pure-Python one
        self.loader = yaml.SafeLoader("")
        self.anchors: dict[str, tuple[YNode, int]] = {}
        self.expanded = 0
        self.resolved: dict[tuple[str, object], str] = {}  # (value, implicit) -> tag

    def location(self, mark: yaml.Mark) -> Location:
        return Location(self.file, mark.line + 1, mark.column + 1)

    def compose(self) -> YNode | None:
        """The single document of the stream, None for an empty stream."""
        # the nodes form a tree (an alias only refers to a finished node), so no cycle is made
        # for the garbage collector to find; its passes over the growing tree would double the
        # cost of composing a large file
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._compose(iter(self.parser.get_event, None))
        finally:
            if collecting:
                gc.enable()
            self.parser.dispose()

    def _compose(self, events: Iterator[yaml.Event]) -> YNode | None:
        # one pass over the events, dispatched on their exact class: this loop is the loader's
        # cost per node (a few microseconds), so it avoids calls it does not need
        root: YNode | None = None
        stack: list[_Frame] = []
        documents = 0
        file = self.file
        for event in events:
            kind = event.__class__
            if kind is yaml.ScalarEvent:
                finished, size = self.scalar(event), 1
                self.expanded += 1
                if self.expanded > MAX_YAML_NODES:
                    self.too_many_nodes(finished.loc)
                if event.anchor is not None:
                    self.anchors[event.anchor] = (finished, size)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                mark = event.start_mark
                loc = Location(file, mark.line + 1, mark.column + 1)
                if event.tag not in _PLAIN_TAGS:
                    raise _Reject(
                        loc,
                        f"invalid YAML: could not determine a constructor for the tag "
                        f"{event.tag!r}",
                    )
                if len(stack) >= MAX_YAML_DEPTH:
                    raise _Reject(loc, _depth_message(), _DEPTH_HINT)
                node = YMap(loc) if kind is yaml.MappingStartEvent else YSeq((), loc)
                self.count(1, loc)
                stack.append(_Frame(node, event.anchor))
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                frame = stack.pop()
                node = frame.node
                if kind is yaml.SequenceEndEvent:
                    node.items = tuple(frame.items)
                finished, size = node, frame.size
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (finished, size)
            elif kind is yaml.AliasEvent:
                loc = self.location(event.start_mark)
                if event.anchor not in self.anchors:
                    raise _Reject(loc, f"invalid YAML: found undefined alias {event.anchor!r}")
                finished, size = self.anchors[event.anchor]
                self.count(size, loc)
            elif kind is yaml.StreamEndEvent:
                break
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _Reject(
                        self.location(event.start_mark),
                        "invalid YAML: expected a single document, found a second one",
                        "remove the '---' line",
                    )
                continue
            else:
                continue
            if not stack:
                root = finished
                continue
            parent = stack[-1]
            parent.size += size
            if parent.items is not None:
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
            self.too_many_nodes(loc)

    def too_many_nodes(self, loc: Location) -> None:
        if self.anchors:
            hint = "aliases (*name) repeat what they refer to; write the values out instead"
        else:
            hint = "PaddlePaddle's largest spec file has about 12,000; split the file"
        raise _Reject(
            loc,
            f"the YAML expands to more than {MAX_YAML_NODES:,} nodes "
            f"(codegen.limits.MAX_YAML_NODES)",
            hint,
        )

    def scalar(self, event: yaml.ScalarEvent) -> YScalar:
        loc = self.location(event.start_mark)
        single_line = event.start_mark.line == event.end_mark.line
        style = event.style or None  # libyaml says '' for plain, PyYAML None
        tag = event.tag
        if tag is None or tag == "!":
            if style is not None:  # quoted or block: a string, as YAML says
                return YScalar(event.value, loc, style, single_line)
            resolved = (event.value, event.implicit)
            tag = self.resolved.get(resolved)
            if tag is None:
                tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                self.resolved[resolved] = tag
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
        root = _compose(text, file)
    except _Reject as exc:
        return [], [exc.diagnostic]
    except yaml.MarkedYAMLError as exc:
        return [], [syntax_error(text, file, exc)]
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


def read_data(text: str, file: str) -> tuple[object, list[Diagnostic]]:
    """Plain Python data (lists, dicts, scalars) of a YAML file, within the limits of
    `phiops.codegen.limits`, or the located diagnostic that says why not. For YAML files that are read
    as data rather than as op entries (the pd_op dialect's copies of PaddlePaddle's files)."""
    try:
        root = _compose(text, file)
    except _Reject as exc:
        return None, [exc.diagnostic]
    except yaml.MarkedYAMLError as exc:
        return None, [syntax_error(text, file, exc)]
    except (yaml.YAMLError, ValueError, TypeError) as exc:
        return None, [Diagnostic(Location(file, 1, 1), None, f"invalid YAML: {exc}")]
    return (None if root is None else _plain(root)), []


def _plain(node: YNode) -> object:
    # recursion is bounded by MAX_YAML_DEPTH
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [_plain(item) for item in node.items]
    return {key: _plain(value) for key, (_, value) in node.items.items()}


def _compose(text: str, file: str) -> YNode | None:
    """The document, or _Reject / yaml.MarkedYAMLError for the first problem in it.

    Where libyaml's own nesting limit fires, the nesting past MAX_YAML_DEPTH lies before the
    place it names, and so do the events that lead there: composing the text up to that place
    (with libyaml again, in time linear in its length) finds the same first problem, at the same
    location, as a parser without such a limit."""
    try:
        return _Composer(text, file).compose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        if exc.problem != _LIBYAML_DEPTH_PROBLEM or mark is None:
            raise
    cut = text_offset(text, mark.line, mark.column)
    prefix = text[:cut]
    try:
        _Composer(prefix, file).compose()
    except yaml.MarkedYAMLError as earlier:
        # an error before the cut is a real one; one at the cut is the cut's own doing
        end = earlier.problem_mark
        if end is not None and text_offset(prefix, end.line, end.column) < len(prefix):
            raise
    raise _Reject(Location(file, mark.line + 1, mark.column + 1), _depth_message(), _DEPTH_HINT)


_DEPTH_HINT = "op entries need at most 4 levels of lists and mappings"


def _depth_message() -> str:
    return f"the YAML nests deeper than {MAX_YAML_DEPTH} levels (codegen.limits.MAX_YAML_DEPTH)"
