"""The one tokenizer behind every string mini-language of the op specs.

`args`, `output`, `forward`, `inplace`/`view`, `invoke`/`composite`, size expressions,
kernel candidates and default values are all C++-flavoured token streams.  This module turns
such a string into `Token`s; `phiops.codegen.parse` gives them structure.

Normalisation: two spellings of a value are equivalent when they lex to the same sequence of
token texts, i.e. whitespace between tokens is insignificant and nothing else is.
`normalise(s)` is that sequence joined by single spaces; `canonical(tokens)` is the pretty
spelling the printers use (`Tensor[](x_grad){x.size()}`, `(2 << 12) - 1`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .limits import MAX_BRACKET_DEPTH, MAX_NUMBER_DIGITS

NAME = "name"
NUMBER = "number"
STRING = "string"
PUNCT = "punct"
EOF = "eof"

_NUMBER_RE = r"(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[fFlL]?"
_STRING_RE = r'"(?:[^"\\\n]|\\.)*"' + r"|'(?:[^'\\\n]|\\.)*'"
_PUNCT = (
    "->",
    "::",
    "<<",
    ">>",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    "=",
    ">",
    "<",
    ".",
    "!",
    "+",
    "-",
    "*",
    "/",
    "?",
    ":",
    "@",
)
_TOKEN_RE = re.compile(
    r"\s*(?:(?P<number>%s)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<string>%s)|(?P<punct>%s))"
    % (_NUMBER_RE, _STRING_RE, "|".join(re.escape(p) for p in _PUNCT))
)
_SPACE_RE = re.compile(r"\s*")
_OPENING = ("(", "[", "{")
_CLOSING = (")", "]", "}")


class LexError(ValueError):
    """A character that no token starts with; `pos` is its offset in the text."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int

    def is_punct(self, text: str) -> bool:
        return self.kind == PUNCT and self.text == text


def tokenize(text: str) -> tuple[Token, ...]:
    """Split `text` into tokens, ending with an EOF token at the end of the text."""
    tokens: list[Token] = []
    pos = 0
    depth = 0
    end = len(text)
    while True:
        pos = _SPACE_RE.match(text, pos).end()
        if pos >= end:
            break
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            char = text[pos]
            if char in "\"'":
                raise LexError("unterminated string literal", pos)
            raise LexError(f"unexpected character {char!r}", pos)
        kind = m.lastgroup
        assert kind is not None
        if kind == NUMBER and m.end() < end and (text[m.end()].isalnum() or text[m.end()] == "_"):
            raise LexError(f"malformed number {text[m.start(kind):m.end() + 1]!r}", m.start(kind))
        text_of = m.group(kind)
        if kind == NUMBER and sum(c.isdigit() for c in text_of) > MAX_NUMBER_DIGITS:
            raise LexError(
                f"a number with {sum(c.isdigit() for c in text_of)} digits; at most "
                f"{MAX_NUMBER_DIGITS} are allowed (codegen.limits.MAX_NUMBER_DIGITS)",
                m.start(kind),
            )
        if kind == PUNCT and text_of in _OPENING:
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                raise LexError(
                    f"brackets nest deeper than {MAX_BRACKET_DEPTH} levels "
                    f"(codegen.limits.MAX_BRACKET_DEPTH)",
                    m.start(kind),
                )
        elif kind == PUNCT and text_of in _CLOSING:
            depth = max(depth - 1, 0)
        tokens.append(Token(kind, text_of, m.start(kind)))
        pos = m.end()
    tokens.append(Token(EOF, "", end))
    return tuple(tokens)


def normalise(text: str) -> str:
    """The token texts of `text` joined by single spaces: the equivalence used for round trips."""
    return " ".join(t.text for t in tokenize(text) if t.kind != EOF)


_BINARY = {"+", "-", "*", "/", "<<", ">>", "=", "->", ">", "<", "?", ":"}
_NO_SPACE_AFTER = {"(", "[", "{", "::", ".", "!", "@"}
_NO_SPACE_BEFORE = {")", "]", "}", ",", "::", ".", "(", "[", "@"}


def canonical(tokens: tuple[Token, ...] | list[Token]) -> str:
    """Pretty spelling of a token run: `f(a, b)`, `{1, 2}`, `a > b`, `-1`, `x.size() - 1`."""
    out: list[str] = []
    prev: Token | None = None
    prev_unary = False
    for tok in tokens:
        if tok.kind == EOF:
            break
        unary = (
            tok.kind == PUNCT
            and tok.text in ("-", "+")
            and (prev is None or (prev.kind == PUNCT and prev.text not in (")", "]", "}")))
        )
        if prev is not None:
            space = True
            if prev.kind == PUNCT and (prev.text in _NO_SPACE_AFTER or prev_unary):
                space = False
            elif tok.kind == PUNCT and tok.text in _NO_SPACE_BEFORE:
                space = False
                if tok.text in ("(", "[") and prev.kind == PUNCT and prev.text in _BINARY | {","}:
                    space = True
            if prev.kind == PUNCT and prev.text == ",":
                space = True
            out.append(" " if space else "")
        out.append(tok.text)
        prev = tok
        prev_unary = unary
    return "".join(out)
