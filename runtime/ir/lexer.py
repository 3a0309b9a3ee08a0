"""The lexer: one compiled pattern turns the text into parallel lists of kinds, texts and offsets.

Token kinds: str (one line: a string holding a raw newline is reported as unterminated), type (`tensor<...>`, `pd_op.tensor_array<f32>`), value (`%3`, `%arg_0`), arrow,
num, ident, punct, null (`<<NULL VALUE>>`, `<<NULL TYPE>>`, `<#AttrNull>`), eof. Positions are
character offsets; `Source.locate` turns one into line and column only when an error needs it.
"""

from __future__ import annotations

import bisect
import re

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.file_limits import MAX_NUMBER_DIGITS

__all__ = ["IRParseError", "Source", "tokenize"]


class IRParseError(InvalidArgumentError):
    """Malformed IR text: ``source:line:col: message``, then the line and a caret."""

    def __init__(self, source: str, line: int, col: int, message: str, line_text: str) -> None:
        self.source = source
        self.line = line
        self.col = col
        self.message = message
        caret = " " * (col - 1) + "^"
        super().__init__(f"{source}:{line}:{col}: {message}\n{line_text}\n{caret}")


# One group: the token's text (whitespace before it skipped). Kinds come from the text.
_TOKEN = re.compile(
    r"""[ \t\r\n]*(
     %[A-Za-z0-9_]+
    |<<NULL\ VALUE>>|<<NULL\ TYPE>>|<\#AttrNull>
    |[(){}\[\],:=^<>]
    |[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?<[^<>\s]*>
    |[A-Za-z_][A-Za-z0-9_.]*
    |"(?:[^"\\\n]|\\[^\n])*"
    |->
    |-?\d(?:[A-Za-z0-9_.]|(?<=[eE])[+-])*
    |-(?:inf|nan)(?![A-Za-z0-9_.])
    |[^ \t\r\n]
    )""",
    re.VERBOSE,
)
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|inf|nan)\Z")
_BAD = frozenset(("badstr", "badnum", "longnum", "err"))
# a number, or a run of digits in a type such as tensor<2x3xf32>, longer than this is refused
# before Python's int() (which refuses over 4,300 digits) sees it
_LONG_DIGITS = re.compile(r"\d{%d}" % (MAX_NUMBER_DIGITS + 1))
_KNOWN: dict[str, str] = {c: "punct" for c in "(){}[],:=^<>"}
_KNOWN.update(
    {
        "->": "arrow",
        "<<NULL VALUE>>": "null",
        "<<NULL TYPE>>": "null",
        "<#AttrNull>": "null",
        "inf": "num",
        "nan": "num",
        '"': "badstr",
    }
)


def _kind(text: str) -> str:
    first = text[0]
    if first == "%":
        return "value" if len(text) > 1 else "err"
    if first.isalpha() or first == "_":
        if text[-1] != ">":
            return "ident"
        return "longnum" if _LONG_DIGITS.search(text) else "type"
    if first == '"':
        return "str"
    if first.isdigit() or first == "-":
        if _LONG_DIGITS.search(text):
            return "longnum"
        return "num" if _NUMBER.match(text) else "badnum"
    return "err"


class Source:
    """The text being parsed and its name, for located errors."""

    __slots__ = ("text", "name", "_line_starts")

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self._line_starts: list[int] | None = None

    def locate(self, pos: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._line_starts, pos)
        return line, pos - self._line_starts[line - 1] + 1

    def error(self, message: str, pos: int) -> IRParseError:
        line, col = self.locate(pos)
        start = self._line_starts[line - 1]  # type: ignore[index]
        end = self.text.find("\n", start)
        line_text = self.text[start : end if end >= 0 else len(self.text)]
        return IRParseError(self.name, line, col, message, line_text)


class _Offsets:
    """Token index -> character offset, computed (by matching again) only when an error asks."""

    __slots__ = ("text", "offsets")

    def __init__(self, text: str) -> None:
        self.text = text
        self.offsets: list[int] | None = None

    def __getitem__(self, index: int) -> int:
        if self.offsets is None:
            self.offsets = [m.start(1) for m in _TOKEN.finditer(self.text)]
            self.offsets.append(len(self.text))
        return self.offsets[min(index, len(self.offsets) - 1)]


def tokenize(source: Source) -> tuple[list[str], list[str], _Offsets]:
    """Token kinds and texts (ending with an "eof" token), and the offsets of tokens by index."""
    texts = _TOKEN.findall(source.text)
    seen = dict(_KNOWN)  # most tokens repeat: classify each distinct text once
    known = seen.get
    kinds = [
        known(t) or ("value" if t[0] == "%" and len(t) > 1 else seen.setdefault(t, _kind(t)))
        for t in texts
    ]
    offsets = _Offsets(source.text)
    if not _BAD.isdisjoint(kinds):
        first = next(i for i, kind in enumerate(kinds) if kind in _BAD)
        bad, text = kinds[first], texts[first]
        if bad == "badnum":
            message = f"malformed number '{text}'"
        elif bad == "longnum":
            message = (
                f"a number of more than {MAX_NUMBER_DIGITS} digits ('{text[:20]}...'; "
                "phiops.runtime.file_limits.MAX_NUMBER_DIGITS)"
            )
        elif bad == "err":
            message = f"stray character {text!r}"
        else:
            message = "unterminated string"
        raise source.error(message, offsets[first])
    kinds.append("eof")
    texts.append("")
    return kinds, texts, offsets
