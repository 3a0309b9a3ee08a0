"""The spec files read beside the op specs (op_compat.yaml, python_api.yaml, docs.yaml,
op_traits.yaml): each is a YAML list of mappings, read within the loader's limits
(`codegen.loader`) and parsed entry by entry, every problem a located diagnostic."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Generic, TypeVar

from .errors import Diagnostic
from .loader import YMap, read_entries, read_spec_file

T = TypeVar("T")

__all__ = ["EntryFile", "read_entry_file"]


@dataclass
class EntryFile(Generic[T]):
    """One file's entries as parsed, and what was said while reading them."""

    display: str  # the file as messages name it
    nodes: list[YMap]  # the entry mappings, parsed or not
    entries: list[T]  # the entries that parsed
    diagnostics: list[Diagnostic]
    is_entry_list: bool  # False: not a readable list of entries, and a diagnostic says so


def read_entry_file(
    path: str | os.PathLike[str],
    base: str | os.PathLike[str] | None,
    parse_entry: Callable[[YMap, list[Diagnostic]], T | None],
) -> EntryFile[T]:
    """Read ``path`` (named relative to ``base`` in messages) and parse each entry mapping with
    ``parse_entry``, which adds its diagnostics to the list it is given and returns None for an
    entry it cannot use. Never raises for bad input."""
    from . import _display_name

    display = _display_name(Path(path), base)
    text, diagnostics = read_spec_file(Path(path), display)
    if text is None:
        return EntryFile(display, [], [], diagnostics, False)
    nodes, found = read_entries(text, display)
    diagnostics.extend(found)
    entries = []
    for node in nodes:
        entry = parse_entry(node, diagnostics)
        if entry is not None:
            entries.append(entry)
    return EntryFile(display, nodes, entries, diagnostics, bool(nodes) or not found)
