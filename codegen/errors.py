"""Diagnostics and the one exception type of the spec loader.

A diagnostic prints as `ops/api.yaml:12:5: op 'matmul': <message>` (without `op '...': ` when it
concerns no op), then `  hint: <hint>` on its own line when there is one.  Inconsistencies
print with an `inconsistency: ` prefix before the message.  Two severities:

- `error`: the file is malformed, so what it means is unknown: YAML syntax, duplicate or unknown
  keys, missing required keys, values of the wrong YAML type, mini-language strings that do not
  parse (bad type names, defaults that do not fit their type, names that are not identifiers,
  injection attempts), a DataType constant outside `kernel.data_type`, a Tensor argument after
  an attribute, an attribute without default after one with a default, the same argument,
  output or op name twice.
- `inconsistency`: every entry is well formed, but entries or keys disagree: a name in one key
  that does not resolve to an argument, output or op (`param`, kernel candidates, size
  expressions, `optional`, `inplace`, `invoke` arguments, `backward:` targets, ...), an empty
  kernel candidate (`place>`, dropped), a backward op that does not match its forward op.

`phiops.codegen.load(strict=True)` and `phiops lint` reject both (lint with
`--no-fail-on-inconsistency`: only errors).
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
    # what `op` names: an op of the op specs, or a function of ops/python_api.yaml ("api")
    subject: str = "op"

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
            parts.append(f"{self.subject} '{self.op}': ")
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
