"""Diagnostics and the one exception type of the spec loader.

A diagnostic prints as `ops/api.yaml:12:5: op 'matmul': <message>` (without `op '...': ` when it
concerns no op), then `  hint: <hint>` on its own line when there is one.  Severities:
`error` (the file is malformed) and `inconsistency` (entries disagree with each other, e.g. a
backward op's `forward:` and its forward op); inconsistencies print with an `inconsistency: `
prefix before the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .model import Location

ERROR = "error"
INCONSISTENCY = "inconsistency"


@dataclass(frozen=True)
class Diagnostic:
    loc: Location | None
    op: str | None
    message: str
    hint: str | None = None
    severity: str = ERROR

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def sort_key(self) -> tuple:
        loc = self.loc.sort_key() if self.loc is not None else ("", 0, 0)
        return (*loc, self.op or "", self.message)

    def __str__(self) -> str:
        parts = []
        if self.loc is not None:
            parts.append(f"{self.loc}: ")
        if self.op is not None:
            parts.append(f"op '{self.op}': ")
        if self.severity != ERROR:
            parts.append(f"{self.severity}: ")
        parts.append(self.message)
        if self.hint:
            parts.append(f"\n  hint: {self.hint}")
        return "".join(parts)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Stable order: by file, line, column (then op and message); duplicates dropped."""
    return sorted(set(diagnostics), key=Diagnostic.sort_key)


class SpecError(Exception):
    """One or more problems in the op specs; `str()` lists them one per line, sorted."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(sort_diagnostics(diagnostics))
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)
