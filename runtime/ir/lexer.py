"""The lexer: one compiled pattern turns the text into parallel lists of kinds, texts and offsets.

Token kinds: str (one line: a string holding a raw newline is reported as unterminated), type (`tensor<...>`, `pd_op.tensor_array<f32>`), value (`%3`, `%arg_0`), arrow,
num, ident, punct, null (`<<NULL VALUE>>`, `<<NULL TYPE>>`, `<#AttrNull>`), eof. Positions are
character offsets; `Source.locate` turns one into line and column only when an error needs it.
"""

from __future__ import annotations

import bisect
import re

from runtime.errors import InvalidArgumentError

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


_TOKEN = re.compile(
    r"""
     (?P<ws>[ \t\r\n]+)
    |(?P<null><<NULL\ VALUE>>|<<NULL\ TYPE>>|<\#AttrNull>)
    |(?P<str>"(?:[^"\\\n]|\\[^\n])*")
    |(?P<badstr>")
    |(?P<type>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?<[^<>\s]*>)
    |(?P<value>%[A-Za-z0-9_]+)
    |(?P<arrow>->)
    |(?P<num>-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|inf|nan)(?![A-Za-z0-9_.]))
    |(?P<badnum>-?\d[A-Za-z0-9_.]*(?:[eE][+-][A-Za-z0-9_.]*)?)
    |(?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
    |(?P<punct>[(){}\[\],:=^<>])
    |(?P<err>[\s\S])
    """,
    re.VERBOSE,
)


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


def tokenize(source: Source) -> tuple[list[str], list[str], list[int]]:
    kinds: list[str] = []
    texts: list[str] = []
    starts: list[int] = []
    add_kind, add_text, add_start = kinds.append, texts.append, starts.append
    for match in _TOKEN.finditer(source.text):
        kind = match.lastgroup
        if kind == "ws":
            continue
        if kind == "badstr":
            raise source.error("unterminated string", match.start())
        if kind == "badnum":
            raise source.error(f"malformed number '{match.group()}'", match.start())
        if kind == "err":
            raise source.error(f"stray character {match.group()!r}", match.start())
        add_kind(kind)  # type: ignore[arg-type]
        add_text(match.group())
        add_start(match.start())
    kinds.append("eof")
    texts.append("")
    starts.append(len(source.text))
    return kinds, texts, starts
