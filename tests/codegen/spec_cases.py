"""Helpers for table-driven spec-error tests: write a few YAML files, load them, compare.

A `Case` names the files to write under a temporary directory (relative paths such as
`ops/api.yaml`) and the diagnostics expected from `phiops.codegen.load(..., strict=True)`, in sorted
order.  An expected string without a `hint:` line is compared with the first line of the
diagnostic only; one with `\\n  hint: ...` is compared with the whole diagnostic.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from phiops import codegen


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str]
    expected: list[str] = field(default_factory=list)

    def __str__(self) -> str:  # pytest ids
        return self.name


def write_files(root: Path, files: dict[str, str]) -> list[Path]:
    """Write `files` (dedented) under `root`; return their paths in the given order."""
    paths = []
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        paths.append(path)
    return paths


def load_case(tmp_path: Path, files: dict[str, str], *, strict: bool = True) -> list[str]:
    """Load `files` written under `tmp_path` as one set; the diagnostics raised, as strings.

    Returns [] when the files load cleanly.  File names in the messages are relative to
    `tmp_path` (`ops/api.yaml:3:10: op 'foo': ...`).
    """
    paths = write_files(tmp_path, files)
    try:
        codegen.load(paths, strict=strict, base=tmp_path)
    except codegen.SpecError as exc:
        return [str(d) for d in exc.diagnostics]
    return []


def compare(actual: list[str], expected: list[str]) -> list[str]:
    """`actual` trimmed to what each expected string specifies (hint or not), for asserts."""
    trimmed = []
    for index, message in enumerate(actual):
        wants_hint = index < len(expected) and "\n  hint:" in expected[index]
        trimmed.append(message if wants_hint else message.split("\n", 1)[0])
    return trimmed
