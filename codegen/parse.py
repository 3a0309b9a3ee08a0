"""String mini-languages of the op specs -> model objects.

Every parser here works on the token stream of `phiops.codegen.lexer` (never on `str.split`) and ends
by checking that the object it built prints back to the same token texts
(`lexer.normalise(str(obj)) == lexer.normalise(source)`; for candidates, less the separators of
dropped empty items).  Errors raise `ParseError` with the character offset inside the value;
`parse_entry` (at the end) turns that into file:line:col.  An empty kernel candidate (`place>`)
is not an error: it is dropped and reported as an inconsistency.

Grammars (after tokenizing):

    args     := "(" [arg ("," arg)*] ")"
    arg      := type NAME ["=" default]
    type     := NAME ["(" NAME ")"] ["[" "]"]          # Scalar(int64_t), int64_t[], Tensor[]
    outputs  := [output ("," output)*]
    output   := type ["(" NAME ["@" NAME] ")"] ["{" size_expr "}"]
    forward  := NAME args "->" outputs
    pairs    := "(" NAME "->" NAME ")" ("," "(" NAME "->" NAME ")")*
    call     := NAME "(" [call_arg ("," call_arg)*] ")"
    call_arg := NAME | NAME "." NAME "(" ")" | "!" NAME | literal | NAME "=" literal
    names    := NAME ("," NAME)*
    qualified:= NAME ("::" NAME)*
    candidates := [candidate] (">" [candidate])* | [candidate] ("," [candidate])*
    candidate:= NAME | "complex" "(" NAME ")" | "DataType" "::" NAME
    kernels  := kernel ([","] kernel)*
    kernel   := NAME ["{" kinds "->" kinds "}"]
    default  := literal | "{" [literal ("," literal)*] "}" | "DataType" "::" NAME
              | "DataLayout" "::" NAME | ("CPUPlace" | "GPUPlace" | "Place") "(" [INT] ")"
    literal  := STRING | "true" | "false" | const_expr
    const_expr := numbers, INT64_MAX/INT64_MIN/INT32_MAX/INT32_MIN, + - * / << >>, parentheses
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import math
import re
from typing import Callable

from . import lexer
from .errors import INCONSISTENCY, Diagnostic
from .lexer import EOF, NAME, NUMBER, PUNCT, STRING, Token
from .limits import MAX_BRACKET_DEPTH, MAX_CONSTANT_BITS
from .loader import YMap, YNode, YScalar, YSeq
from .model import (
    DATA_LAYOUTS,
    DATA_TYPES,
    KERNEL_KINDS,
    LIST_BASES,
    SCALAR,
    SCALAR_TYPES,
    TENSOR,
    TYPE_BASES,
    Arg,
    ArgList,
    Call,
    CallArg,
    Candidate,
    Candidates,
    DataTransform,
    DataTypeConst,
    Default,
    ForwardSig,
    InferMetaSpec,
    KernelFunc,
    KernelSpec,
    Location,
    OpSpec,
    Output,
    OutputList,
    Pair,
    SizeExpr,
    Type,
)

Locate = Callable[[int], Location]

NAMED_CONSTANTS = {
    "INT64_MAX": 2**63 - 1,
    "INT64_MIN": -(2**63),
    "INT32_MAX": 2**31 - 1,
    "INT32_MIN": -(2**31),
}
INT_RANGES = {"int": (-(2**31), 2**31 - 1), "int64_t": (-(2**63), 2**63 - 1)}
# The smallest magnitude that rounds to inf in float32 (FLT_MAX plus half an ulp), as the
# runtime's FLOAT32_OVERFLOW: a `float` default must be below it, or be inf or nan.
FLOAT32_OVERFLOW = float(2**128 - 2**103)
FLOAT32_MAX = float(2**128 - 2**104)
PLACE_CONSTRUCTORS = {"CPUPlace": "cpu", "GPUPlace": "gpu", "Place": "undefined"}


class ParseError(ValueError):
    """A malformed value; `pos` is the character offset in it (None: the whole value)."""

    def __init__(self, message: str, pos: int | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.hint = hint


def _describe(tok: Token) -> str:
    if tok.kind == EOF:
        return "end of text"
    return repr(tok.text)


class Tokens:
    """A cursor over the tokens of one value."""

    def __init__(self, text: str) -> None:
        self.text = text
        try:
            self.tokens = lexer.tokenize(text)
        except lexer.LexError as exc:
            raise ParseError(exc.message, exc.pos) from None
        self.i = 0

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def next(self) -> Token:
        tok = self.peek()
        if tok.kind != EOF:
            self.i += 1
        return tok

    def at(self, text: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok.kind == PUNCT and tok.text == text

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str, what: str | None = None) -> Token:
        tok = self.peek()
        if tok.kind == PUNCT and tok.text == text:
            self.i += 1
            return tok
        raise ParseError(f"expected {what or repr(text)}, found {_describe(tok)}", tok.pos)

    def name(self, what: str) -> Token:
        tok = self.peek()
        if tok.kind != NAME:
            raise ParseError(f"expected {what}, found {_describe(tok)}", tok.pos)
        self.i += 1
        return tok

    def end(self, what: str = "end of text") -> None:
        tok = self.peek()
        if tok.kind != EOF:
            raise ParseError(f"expected {what}, found {_describe(tok)}", tok.pos)

    def balanced_until(self, stops: set[str]) -> list[Token]:
        """Tokens up to (not including) a top-level stop punctuation or EOF."""
        depth = 0
        run: list[Token] = []
        opens = {"(": ")", "[": "]", "{": "}"}
        stack: list[Token] = []
        while True:
            tok = self.peek()
            if tok.kind == EOF:
                if stack:
                    raise ParseError(f"unbalanced {stack[-1].text!r}", stack[-1].pos)
                return run
            if tok.kind == PUNCT:
                if depth == 0 and tok.text in stops:
                    return run
                if tok.text in opens:
                    stack.append(tok)
                    depth += 1
                elif tok.text in (")", "]", "}"):
                    if not stack or opens[stack[-1].text] != tok.text:
                        if depth == 0:
                            return run
                        raise ParseError(f"unbalanced {tok.text!r}", tok.pos)
                    stack.pop()
                    depth -= 1
            run.append(tok)
            self.i += 1


def _check_round_trip(obj: object, tokens: Tokens, want: list[str] | None = None) -> None:
    """Printing `obj` must give back the token texts it was parsed from (or `want`)."""
    if want is None:
        want = [t.text for t in tokens.tokens if t.kind != EOF]
    got = [t.text for t in lexer.tokenize(str(obj)) if t.kind != EOF]
    if want != got:
        raise ParseError(f"internal error: {tokens.text!r} prints back as {str(obj)!r}")


def suggest(word: str, choices) -> str | None:
    """`did you mean 'x'?` for the closest of `choices`, or None."""
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else None


# ---------------------------------------------------------------------------------- types


def parse_type_at(toks: Tokens, *, for_output: bool = False) -> Type:
    tok = toks.name("a type")
    base = tok.text
    if base not in TYPE_BASES:
        raise ParseError(
            f"unknown type '{base}'",
            tok.pos,
            suggest(base, TYPE_BASES) or f"types are: {', '.join(TYPE_BASES)}",
        )
    if for_output and base != TENSOR:
        raise ParseError(f"output type must be Tensor or Tensor[], not '{base}'", tok.pos)
    scalar_type = None
    if base == SCALAR and toks.at("(") and toks.peek(1).kind == NAME and toks.at(")", 2):
        toks.next()
        inner = toks.next()
        toks.next()
        if inner.text not in SCALAR_TYPES:
            raise ParseError(
                f"unknown Scalar type 'Scalar({inner.text})'",
                inner.pos,
                f"use one of {', '.join(f'Scalar({t})' for t in SCALAR_TYPES)}",
            )
        scalar_type = inner.text
    is_list = False
    if toks.at("["):
        bracket = toks.next()
        toks.expect("]", "']' after '['")
        if base not in LIST_BASES or scalar_type is not None:
            raise ParseError(f"type '{base}' cannot be a list", bracket.pos)
        is_list = True
    return Type(base, is_list, scalar_type)


def parse_type(text: str) -> Type:
    toks = Tokens(text)
    result = parse_type_at(toks)
    toks.end()
    _check_round_trip(result, toks)
    return result


# ------------------------------------------------------------------------------ defaults


def _number_value(tok: Token) -> int | float:
    text = tok.text.rstrip("fFlL")
    is_float = tok.text[-1] in "fF" or any(c in text for c in ".eE")
    if tok.text[-1] in "lL" and is_float:
        raise ParseError(f"malformed number {tok.text!r}", tok.pos)
    return float(text) if is_float else int(text)


def _bounded(value: int | float) -> int | float:
    """``value`` if it is an int of at most MAX_CONSTANT_BITS bits or a float."""
    if isinstance(value, int) and value.bit_length() > MAX_CONSTANT_BITS:
        raise _NotConst(
            f"an intermediate value exceeds {MAX_CONSTANT_BITS} bits "
            f"(codegen.limits.MAX_CONSTANT_BITS)"
        )
    return value


class _ConstEval:
    """Folds a C++ constant expression over tokens to a Python int or float."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def op(self, *texts: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok.kind == PUNCT and tok.text in texts:
            self.i += 1
            return tok.text
        return None

    def run(self) -> int | float:
        value = self.shift()
        if self.peek() is not None:
            raise _NotConst()
        return value

    def shift(self) -> int | float:
        value = self.additive()
        while (op := self.op("<<", ">>")) is not None:
            rhs = self.additive()
            if not isinstance(value, int) or not isinstance(rhs, int) or rhs < 0:
                raise _NotConst()
            if op == "<<" and rhs > MAX_CONSTANT_BITS:
                raise _NotConst(
                    f"shift by {rhs} exceeds {MAX_CONSTANT_BITS} bits "
                    f"(codegen.limits.MAX_CONSTANT_BITS)"
                )
            value = _bounded(value << rhs if op == "<<" else value >> rhs)
        return value

    def additive(self) -> int | float:
        value = self.term()
        while (op := self.op("+", "-")) is not None:
            rhs = self.term()
            value = _bounded(value + rhs if op == "+" else value - rhs)
        return value

    def term(self) -> int | float:
        value = self.unary()
        while (op := self.op("*", "/")) is not None:
            rhs = self.unary()
            if op == "*":
                value = _bounded(value * rhs)
            elif rhs == 0:
                raise _NotConst("division by zero")
            elif isinstance(value, int) and isinstance(rhs, int):
                quotient = abs(value) // abs(rhs)  # C++ truncates towards zero
                value = quotient if (value >= 0) == (rhs >= 0) else -quotient
            else:
                try:
                    value = value / rhs
                except OverflowError:
                    raise _NotConst("the quotient is too large for a float") from None
        return value

    def unary(self) -> int | float:
        negate = False
        depth = 0
        while (op := self.op("-", "+")) is not None:  # a loop, not recursion
            negate ^= op == "-"
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                raise _NotConst(
                    f"unary operators nest deeper than {MAX_BRACKET_DEPTH} levels "
                    f"(codegen.limits.MAX_BRACKET_DEPTH)"
                )
        value = self.primary()
        return -value if negate else value

    def primary(self) -> int | float:
        tok = self.peek()
        if tok is None:
            raise _NotConst()
        self.i += 1
        if tok.kind == NUMBER:
            return _number_value(tok)
        if tok.kind == NAME and tok.text in NAMED_CONSTANTS:
            return NAMED_CONSTANTS[tok.text]
        if tok.kind == PUNCT and tok.text == "(":
            value = self.shift()
            if self.op(")") is None:
                raise _NotConst()
            return value
        raise _NotConst()


class _NotConst(Exception):
    def __init__(self, reason: str = "") -> None:
        super().__init__(reason)
        self.reason = reason


def _literal(tokens: list[Token]) -> tuple[str, object]:
    """(kind, value) of a scalar literal: str, bool, int or float; raises _NotConst."""
    if len(tokens) == 1 and tokens[0].kind == STRING:
        if not tokens[0].text.startswith('"'):
            raise _NotConst("string literals use double quotes")
        try:
            return "str", ast.literal_eval(tokens[0].text)
        except (SyntaxError, ValueError):  # a bad escape, or a NUL that no source may hold
            raise _NotConst("malformed string literal") from None
    if len(tokens) == 1 and tokens[0].kind == NAME and tokens[0].text in ("true", "false"):
        return "bool", tokens[0].text == "true"
    value = _ConstEval(tokens).run()
    return ("float" if isinstance(value, float) else "int"), value


def _split_top_level(tokens: list[Token]) -> list[list[Token]]:
    items: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == PUNCT and tok.text in "([{":
            depth += 1
        elif tok.kind == PUNCT and tok.text in ")]}":
            depth -= 1
        if depth == 0 and tok.kind == PUNCT and tok.text == ",":
            items.append([])
        else:
            items[-1].append(tok)
    return items


def parse_default_tokens(tokens: list[Token], type_: Type, arg: str) -> Default:
    """The default of argument `arg` of type `type_`, checked and coerced to the type."""
    text = lexer.canonical(tokens)
    pos = tokens[0].pos if tokens else None
    shown = text if len(text) <= 60 else f"{text[:40]}...{text[-12:]}"
    where = f"default {shown} of argument '{arg}'"
    if not tokens:
        raise ParseError(f"missing default value of argument '{arg}' after '='", pos)

    def misfit() -> ParseError:
        return ParseError(f"{where} does not fit type {type_}", pos)

    if type_.base == TENSOR:
        raise ParseError(
            f"Tensor argument '{arg}' cannot have a default",
            pos,
            "list it in 'optional' to make it optional",
        )
    first = tokens[0]
    # `{...}`: a list, or the undefined Place/DataType/DataLayout.
    if first.is_punct("{"):
        if not _encloses(tokens):
            raise _not_literal(where, pos)
        inner = tokens[1:-1]
        if type_.base in ("Place", "DataType", "DataLayout") and not type_.is_list:
            if inner:
                raise misfit()
            value = ("undefined", None) if type_.base == "Place" else "UNDEFINED"
            return Default("undefined", value, text)
        if not (type_.is_list or type_.base == "IntArray"):
            raise misfit()
        item_type = Type("int64_t") if type_.base == "IntArray" else Type(type_.base)
        items = []
        if inner:
            for item_tokens in _split_top_level(inner):
                if not item_tokens:
                    raise ParseError(f"{where} has an empty list item", pos)
                items.append(_coerce_scalar(item_tokens, item_type, where, misfit).value)
        return Default("list", tuple(items), text)
    if type_.is_list or type_.base == "IntArray":
        raise misfit()
    if type_.base in ("DataType", "DataLayout"):
        if (
            len(tokens) == 3
            and first.kind == NAME
            and tokens[1].is_punct("::")
            and tokens[2].kind == NAME
        ):
            if first.text != type_.base:
                raise misfit()
            members = DATA_TYPES if type_.base == "DataType" else DATA_LAYOUTS
            if tokens[2].text not in members:
                raise ParseError(
                    f"unknown {type_.base} '{tokens[2].text}' in {where}",
                    tokens[2].pos,
                    suggest(tokens[2].text, members),
                )
            kind = "datatype" if type_.base == "DataType" else "layout"
            return Default(kind, tokens[2].text, text)
        raise misfit() if _is_literal(tokens) else _not_literal(where, pos)
    if type_.base == "Place":
        if (
            first.kind == NAME
            and first.text in PLACE_CONSTRUCTORS
            and len(tokens) >= 3
            and tokens[1].is_punct("(")
            and tokens[-1].is_punct(")")
        ):
            inner = tokens[2:-1]
            device = PLACE_CONSTRUCTORS[first.text]
            if not inner:
                return Default("place", (device, 0 if device == "gpu" else None), text)
            if (
                device == "gpu"
                and len(inner) == 1
                and inner[0].kind == NUMBER
                and inner[0].text.isdigit()
            ):
                return Default("place", ("gpu", int(inner[0].text)), text)
            raise ParseError(
                f"{where} is not a valid place", pos, "use CPUPlace(), GPUPlace(id) or {}"
            )
        raise misfit() if _is_literal(tokens) else _not_literal(where, pos)
    return _coerce_scalar(tokens, type_, where, misfit)


def _encloses(tokens: list[Token]) -> bool:
    """Whether the first token's bracket closes at the last token."""
    depth = 0
    for index, tok in enumerate(tokens):
        if tok.kind == PUNCT and tok.text in "([{":
            depth += 1
        elif tok.kind == PUNCT and tok.text in ")]}":
            depth -= 1
            if depth == 0:
                return index == len(tokens) - 1
    return False


def _is_literal(tokens: list[Token]) -> bool:
    try:
        _literal(tokens)
    except (_NotConst, ParseError):
        return False
    return True


def _not_literal(where: str, pos: int | None) -> ParseError:
    return ParseError(
        f"{where} is not a literal or constant expression",
        pos,
        'defaults are literals: numbers, true/false, "strings", {lists}, '
        "DataType::X, CPUPlace()",
    )


def _coerce_scalar(tokens: list[Token], type_: Type, where: str, misfit) -> Default:
    text = lexer.canonical(tokens)
    pos = tokens[0].pos
    try:
        kind, value = _literal(tokens)
    except _NotConst as exc:
        if exc.reason:
            raise ParseError(f"{where} is not a literal ({exc.reason})", pos) from None
        raise _not_literal(where, pos) from None
    base = type_.base
    target = type_.scalar_type if base == SCALAR else base
    if target is None:  # bare Scalar: any number or bool
        if kind == "str":
            raise misfit()
        return Default(kind, value, text)
    if target in ("int", "int64_t"):
        if kind == "bool":
            value, kind = int(value), "int"
        if kind != "int":
            raise misfit()
        low, high = INT_RANGES[target]
        if not low <= value <= high:
            raise ParseError(f"{where} is out of range for {type_}", pos)
        return Default("int", value, text)
    if target in ("float", "double"):
        if kind not in ("int", "float"):
            raise misfit()
        try:
            number = float(value)
        except OverflowError:
            raise ParseError(f"{where} is too large for {type_}", pos) from None
        if target == "float" and FLOAT32_OVERFLOW <= abs(number) < math.inf:
            # the runtime refuses such a value for every call (dispatch/attributes.py)
            raise ParseError(
                f"{where} is out of range for {type_} (float32: largest finite value "
                f"{FLOAT32_MAX:.8g}; inf and nan are allowed)",
                pos,
            )
        return Default("float", number, text)
    if target == "bool":
        if kind != "bool":
            raise misfit()
        return Default("bool", value, text)
    if target == "str":
        if kind != "str":
            raise misfit()
        return Default("str", value, text)
    raise misfit()


# ---------------------------------------------------------------------------------- args


def _parse_arg(toks: Tokens, locate: Locate) -> Arg:
    start = toks.peek()
    type_ = parse_type_at(toks)
    name = toks.name("an argument name after the type")
    _check_name(name)
    default = None
    if toks.accept("="):
        default_tokens = toks.balanced_until({",", ")"})
        default = parse_default_tokens(default_tokens, type_, name.text)
    return Arg(type_, name.text, default, locate(start.pos))


def _parse_args_at(toks: Tokens, locate: Locate) -> ArgList:
    toks.expect("(", "'(' to open the argument list")
    args: list[Arg] = []
    if not toks.accept(")"):
        while True:
            args.append(_parse_arg(toks, locate))
            if toks.accept(")"):
                break
            tok = toks.peek()
            if tok.kind == EOF:
                raise ParseError("unbalanced '(': the argument list is not closed", tok.pos)
            toks.expect(",", "',' or ')' after an argument")
    return ArgList(tuple(args))


def parse_args(text: str, locate: Locate) -> ArgList:
    toks = Tokens(text)
    result = _parse_args_at(toks, locate)
    toks.end("end of the argument list")
    _check_round_trip(result, toks)
    return result


# ------------------------------------------------------------------------------- outputs


def _parse_output(toks: Tokens, locate: Locate) -> Output:
    start = toks.peek()
    type_ = parse_type_at(toks, for_output=True)
    name, name_given, tensor_kind = "out", False, None
    if toks.accept("("):
        name = toks.name("an output name").text
        _check_name(toks.tokens[toks.i - 1])
        name_given = True
        if toks.accept("@"):
            tensor_kind = toks.name("a tensor kind after '@'").text
        toks.expect(")", "')' after the output name")
    size_expr = None
    if toks.at("{"):
        brace = toks.next()
        body = toks.balanced_until({"}"})
        toks.expect("}", "'}' to close the size expression")
        if not type_.is_list:
            raise ParseError(
                f"a size expression {{{lexer.canonical(body)}}} is only allowed on "
                f"a Tensor[] output",
                brace.pos,
            )
        if not body:
            raise ParseError("empty size expression '{}'", brace.pos)
        size_expr = SizeExpr(lexer.canonical(body), tuple(body))
    return Output(type_, name, name_given, size_expr, tensor_kind, locate(start.pos))


def _parse_outputs_at(toks: Tokens, locate: Locate) -> OutputList:
    outputs = [_parse_output(toks, locate)]
    while toks.accept(","):
        outputs.append(_parse_output(toks, locate))
    if len(outputs) > 1:  # several unnamed outputs: out_0, out_1, ... by position
        outputs = [
            o if o.name_given else dataclasses.replace(o, name=f"out_{i}")
            for i, o in enumerate(outputs)
        ]
    return OutputList(tuple(outputs))


def parse_outputs(text: str, locate: Locate) -> OutputList:
    toks = Tokens(text)
    if toks.peek().kind == EOF:
        return OutputList(())
    result = _parse_outputs_at(toks, locate)
    toks.end("',' or the end of the outputs")
    _check_round_trip(result, toks)
    return result


def parse_forward(text: str, locate: Locate) -> ForwardSig:
    toks = Tokens(text)
    name = toks.name("the forward op name")
    _check_name(name)
    args = _parse_args_at(toks, locate)
    toks.expect("->", "'->' between the forward arguments and outputs")
    outputs = _parse_outputs_at(toks, locate)
    toks.end("',' or the end of the outputs")
    result = ForwardSig(name.text, args, outputs, locate(name.pos))
    _check_round_trip(result, toks)
    return result


# ----------------------------------------------------------------------- names and pairs


def _check_name(tok: Token) -> None:
    if tok.text in ("true", "false"):
        raise ParseError(f"'{tok.text}' is a literal, not a name", tok.pos)


def parse_names(text: str) -> tuple[tuple[str, int], ...]:
    """`a, b, c` -> ((name, offset), ...)."""
    toks = Tokens(text)
    names = []
    while True:
        tok = toks.name("a name")
        _check_name(tok)
        names.append((tok.text, tok.pos))
        if not toks.accept(","):
            break
    toks.end("',' or the end of the list")
    return tuple(names)


def parse_qualified_names(text: str) -> tuple[str, ...]:
    """`a::B, c::d::E` (C++ class names of traits/interfaces)."""
    toks = Tokens(text)
    names = [_qualified(toks)]
    while toks.accept(","):
        names.append(_qualified(toks))
    toks.end("',' or the end of the list")
    return tuple(names)


def parse_qualified_name(text: str) -> str:
    toks = Tokens(text)
    result = _qualified(toks)
    toks.end("the end of the name")
    return result


def _qualified(toks: Tokens) -> str:
    parts = [toks.name("a name").text]
    while toks.accept("::"):
        parts.append(toks.name("a name after '::'").text)
    return "::".join(parts)


def parse_name(text: str) -> str:
    toks = Tokens(text)
    tok = toks.name("a name")
    _check_name(tok)
    toks.end("the end of the name")
    return tok.text


def parse_pairs(text: str, locate: Locate) -> tuple[Pair, ...]:
    """`(a -> b), (c -> d)`; the grouped spelling `(a -> b, c -> d)` (in PaddlePaddle's static
    ops) is read too and prints back one pair per parentheses."""
    toks = Tokens(text)
    pairs = []
    while True:
        toks.expect("(", "'(' to open an 'input -> output' pair")
        while True:
            src = toks.name("an input name")
            _check_name(src)
            toks.expect("->", "'->' between input and output")
            dst = toks.name("an output name")
            _check_name(dst)
            pairs.append(Pair(src.text, dst.text, locate(src.pos)))
            if not toks.accept(","):
                break
        toks.expect(")", "')' to close the pair")
        if not toks.accept(","):
            break
    toks.end("',' or the end of the pairs")
    return tuple(pairs)


# ------------------------------------------------------------------------------- calls


def _parse_call_arg(toks: Tokens) -> CallArg:
    run = toks.balanced_until({",", ")"})
    if not run:
        raise ParseError("empty call argument", toks.peek().pos)
    text = lexer.canonical(run)
    kinds = [(t.kind, t.text if t.kind == PUNCT else "") for t in run]
    if kinds == [(NAME, "")] and run[0].text not in ("true", "false"):
        return CallArg("name", text, name=run[0].text)
    if kinds == [(PUNCT, "!"), (NAME, "")]:
        return CallArg("not", text, name=run[1].text)
    if kinds == [(NAME, ""), (PUNCT, "."), (NAME, ""), (PUNCT, "("), (PUNCT, ")")]:
        return CallArg("method", text, name=run[0].text, method=run[2].text)
    if len(run) >= 3 and kinds[:2] == [(NAME, ""), (PUNCT, "=")]:
        literal = _call_literal(run[2:], text)
        return CallArg("keyword", text, name=run[0].text, literal=literal)
    return CallArg("literal", text, literal=_call_literal(run, text))


def _call_literal(run: list[Token], text: str) -> Default:
    try:
        kind, value = _literal(run)
    except _NotConst:
        raise ParseError(
            f"call argument '{text}' is not a name, literal, method call "
            f"(x.dtype()) or negation (!x)",
            run[0].pos,
        ) from None
    return Default(kind, value, lexer.canonical(run))


def parse_call(text: str, locate: Locate) -> Call:
    toks = Tokens(text)
    name = toks.name("the name of the called op")
    _check_name(name)
    toks.expect("(", "'(' after the called op's name")
    args = []
    if not toks.accept(")"):
        while True:
            args.append(_parse_call_arg(toks))
            if toks.accept(")"):
                break
            tok = toks.peek()
            if tok.kind == EOF:
                raise ParseError("unbalanced '(': the call is not closed", tok.pos)
            toks.expect(",", "',' or ')' after a call argument")
    toks.end("the end of the call")
    result = Call(name.text, tuple(args), locate(name.pos))
    _check_round_trip(result, toks)
    return result


# -------------------------------------------------------------------- kernel selectors


def parse_candidates(text: str, locate: Locate) -> tuple[Candidates, tuple[str, ...]]:
    """The candidates, and a note for each empty one (`place>`), which is dropped.

    As in PaddlePaddle's generator, the list is ordered when it has a `>` anywhere, and it is
    split on that separator; the caller reports each note as an inconsistency.
    """
    toks = Tokens(text)
    ordered = any(t.is_punct(">") for t in toks.tokens)
    separator = ">" if ordered else ","
    items: list[Candidate | DataTypeConst] = []
    kept: list[list[str]] = []  # the token texts of each non-empty item, for the round trip
    notes: list[str] = []
    while True:
        if toks.at(separator) or toks.peek().kind == EOF:
            side = "after" if kept or notes else "before"
            notes.append(f"empty candidate {side} '{separator}' in '{text}'")
        else:
            start = toks.i
            items.append(_candidate(toks))
            kept.append([t.text for t in toks.tokens[start : toks.i]])
        if not toks.accept(separator):
            break
    toks.end(f"'{separator}' or the end of the candidates")
    if not items:
        first = toks.tokens[0]
        raise ParseError(f"expected an argument name, found {_describe(first)}", first.pos)
    result = Candidates(tuple(items), ordered, locate(0))
    want: list[str] = []
    for item_texts in kept:
        want += ([separator] if want else []) + item_texts
    _check_round_trip(result, toks, want)
    return result, tuple(notes)


def _candidate(toks: Tokens) -> Candidate | DataTypeConst:
    tok = toks.name("an argument name")
    if tok.text == "DataType" and toks.accept("::"):
        member = toks.name("a DataType member after '::'")
        if member.text not in DATA_TYPES:
            raise ParseError(
                f"unknown DataType '{member.text}'", member.pos, suggest(member.text, DATA_TYPES)
            )
        return DataTypeConst(member.text)
    if tok.text == "complex" and toks.accept("("):
        inner = toks.name("an argument name in complex(...)")
        toks.expect(")", "')' to close complex(...)")
        return Candidate(inner.text, complex_of=True)
    _check_name(tok)
    return Candidate(tok.text)


def parse_kernel_funcs(text: str) -> tuple[KernelFunc, ...]:
    toks = Tokens(text)
    funcs = []
    while True:
        name = toks.name("a kernel name")
        _check_name(name)
        if toks.accept("{"):
            inputs = _kinds(toks)
            toks.expect("->", "'->' between input and output kinds")
            outputs = _kinds(toks)
            toks.expect("}", "'}' to close the kernel's kinds")
            funcs.append(KernelFunc(name.text, inputs, outputs))
        else:
            funcs.append(KernelFunc(name.text))
        toks.accept(",")
        if toks.peek().kind == EOF:
            break
    return tuple(funcs)


def _kinds(toks: Tokens) -> tuple[str, ...]:
    kinds = []
    while True:
        tok = toks.name("a tensor kind")
        if tok.text not in KERNEL_KINDS:
            raise ParseError(
                f"unknown tensor kind '{tok.text}'",
                tok.pos,
                suggest(tok.text, KERNEL_KINDS) or f"kinds are: {', '.join(KERNEL_KINDS)}",
            )
        kinds.append(tok.text)
        if not toks.accept(","):
            return tuple(kinds)


def parse_param_item(value: object) -> tuple[str, Default | None]:
    """A `param` list item: an argument name, or a literal YAML already turned into a value."""
    if isinstance(value, bool):
        text = "true" if value else "false"
        return text, Default("bool", value, text)
    if isinstance(value, (int, float)):
        return str(value), Default(
            "float" if isinstance(value, float) else "int", value, str(value)
        )
    if isinstance(value, str):
        return parse_name(value), None
    raise ParseError(f"param items are argument names, got {value!r}")


# ------------------------------------------------------------------------------- entries

NAME_KEYS = {"op": False, "api": False, "backward_op": True, "backward_api": True}
ENTRY_KEYS = tuple(NAME_KEYS) + (
    "forward",
    "args",
    "output",
    "infer_meta",
    "kernel",
    "backward",
    "invoke",
    "composite",
    "inplace",
    "view",
    "optional",
    "intermediate",
    "no_need_buffer",
    "data_transform",
    "traits",
    "interfaces",
    "support_dygraph_mode",
    "support_tensor",
)
INFER_META_KEYS = ("func", "param", "spmd_rule", "local_shape", "global_shape", "dtype")
KERNEL_KEYS = (
    "func",
    "param",
    "data_type",
    "backend",
    "layout",
    "force_backend",
    "use_gpudnn",
    "dtype",
)
DATA_TRANSFORM_KEYS = ("skip_transform", "support_trans_dtype")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _kind_phrase(node: YNode) -> str:
    kind = node.kind
    return "null" if kind == "null" else f"a {kind}"


class _EntryParser:
    """Consumes one entry's keys one by one into an OpSpec, collecting diagnostics."""

    def __init__(self, entry: YMap, diagnostics: list[Diagnostic]) -> None:
        self.entry = entry
        self.diagnostics = diagnostics
        self.op: str | None = None
        self.key_locs: list[tuple[str, Location]] = []
        # Set when args, output or forward is unusable: later checks would only repeat that.
        self.broken = False

    def error(self, loc: Location, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(loc, self.op, message, hint))

    def inconsistency(self, loc: Location, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(loc, self.op, message, hint, INCONSISTENCY))

    # -- key consumption

    def consume(self, mapping: YMap, allowed: tuple[str, ...], prefix: str = "") -> dict:
        """Every key of `mapping` by name, or an error for each unknown or duplicate one."""
        for key, loc, first in mapping.duplicates:
            self.error(
                loc,
                f"duplicate key '{prefix}{key}' (first given at line {first.line})",
                "YAML would silently keep only one of them; merge or remove one",
            )
        for key_node in mapping.bad_keys:
            self.error(key_node.loc, f"keys must be strings, got {_kind_phrase(key_node)}")
        values = {}
        for key, (key_node, value) in mapping.items.items():
            if key not in allowed:
                self.error(
                    key_node.loc,
                    f"unknown key '{prefix}{key}'",
                    suggest(key, allowed) or f"known keys: {', '.join(allowed)}",
                )
                continue
            values[key] = value
            self.key_locs.append((prefix + key, value.loc))
        return values

    def string(self, key: str, node: YNode | None, *, allow_null: bool = False) -> YScalar | None:
        if node is None:
            return None
        if isinstance(node, YScalar) and isinstance(node.value, str):
            return node
        if allow_null and isinstance(node, YScalar) and node.value is None:
            return None
        self.error(node.loc, f"'{key}' must be a string, not {_kind_phrase(node)}")
        return None

    def parse(
        self,
        key: str,
        node: YNode | None,
        parser,
        *,
        allow_null: bool = False,
        with_locate: bool = True,
    ):
        scalar = self.string(key, node, allow_null=allow_null)
        if scalar is None:
            return None
        try:
            if with_locate:
                return parser(scalar.value, scalar.loc_at)
            return parser(scalar.value)
        except ParseError as exc:
            loc = scalar.loc_at(exc.pos) if exc.pos is not None else scalar.loc
            self.error(loc, f"{key}: {exc.message}", exc.hint)
            return None

    def names(self, key: str, node: YNode | None) -> tuple[str, ...]:
        scalar = self.string(key, node)
        if scalar is None:
            return ()
        try:
            found = parse_names(scalar.value)
        except ParseError as exc:
            loc = scalar.loc_at(exc.pos) if exc.pos is not None else scalar.loc
            self.error(loc, f"{key}: {exc.message}", exc.hint)
            return ()
        for index, (_, pos) in enumerate(found):
            self.key_locs.append((f"{key}.{index}", scalar.loc_at(pos)))
        return tuple(name for name, _ in found)

    def name_list(self, key: str, node: YNode | None):
        """A YAML list `[a, b]` of names or literals -> (names, literals or None)."""
        if node is None:
            return None, None
        if not isinstance(node, YSeq):
            self.error(node.loc, f"'{key}' must be a list like [x, y], not {_kind_phrase(node)}")
            return None, None
        items, literals = [], []
        for index, item in enumerate(node.items):
            self.key_locs.append((f"{key}.{index}", item.loc))
            if not isinstance(item, YScalar):
                self.error(item.loc, f"{key}: items must be names, not {_kind_phrase(item)}")
                return None, None
            try:
                text, literal = parse_param_item(item.value)
            except ParseError as exc:
                self.error(item.loc, f"{key}: {exc.message}", exc.hint)
                return None, None
            items.append(text)
            literals.append(literal)
        has_literal = any(lit is not None for lit in literals)
        return tuple(items), (tuple(literals) if has_literal else None)

    def candidates(self, key: str, node: YNode | None) -> Candidates | None:
        parsed = self.parse(key, node, parse_candidates)
        if parsed is None:
            return None
        candidates, notes = parsed
        for note in notes:
            self.inconsistency(candidates.loc, f"{key}: {note}", "remove the stray separator")
        return candidates

    def mapping(self, key: str, node: YNode | None) -> YMap | None:
        if node is None:
            return None
        if not isinstance(node, YMap):
            self.error(node.loc, f"'{key}' must be a mapping, not {_kind_phrase(node)}")
            return None
        return node

    # -- the entry

    def run(self) -> OpSpec | None:
        entry = self.entry
        name_keys = [k for k in entry.items if k in NAME_KEYS]
        if not name_keys:
            self.error(
                entry.loc,
                "entry has no 'op' key",
                "start the entry with '- op : name' (or 'backward_op' in a backward file)",
            )
            self.consume(entry, ENTRY_KEYS)
            return None
        key = name_keys[0]
        key_node, name_node = entry.items[key]
        name = None
        if isinstance(name_node, YScalar) and isinstance(name_node.value, str):
            if _IDENTIFIER.match(name_node.value):
                name = name_node.value
            else:
                self.error(
                    name_node.loc,
                    f"op name '{name_node.value}' is not an identifier " f"[A-Za-z_][A-Za-z0-9_]*",
                )
        else:
            self.error(name_node.loc, f"'{key}' must be a string, not {_kind_phrase(name_node)}")
        self.op = (
            name
            if name is not None
            else (
                name_node.value
                if isinstance(name_node, YScalar) and isinstance(name_node.value, str)
                else None
            )
        )
        for other in name_keys[1:]:
            self.error(
                entry.items[other][0].loc,
                f"entry has both '{key}' and '{other}'; an entry defines one op",
            )
        is_backward = NAME_KEYS[key]
        values = self.consume(entry, ENTRY_KEYS)

        args = ArgList(())
        if "args" not in values:
            self.error(entry.loc, "missing required key 'args'", "write 'args : ()' for none")
        else:
            parsed_args = self.parse("args", values["args"], parse_args)
            self.broken |= parsed_args is None
            args = parsed_args or ArgList(())
        outputs = OutputList(())
        if "output" not in values:
            self.error(entry.loc, "missing required key 'output'", "e.g. 'output : Tensor(out)'")
        else:
            node = values["output"]
            parsed_outputs = self.parse("output", node, parse_outputs, allow_null=True)
            is_null = isinstance(node, YScalar) and node.value is None
            self.broken |= parsed_outputs is None and not is_null
            outputs = parsed_outputs or OutputList(())
        forward = None
        if is_backward:
            if "forward" not in values:
                self.error(
                    entry.loc,
                    "missing required key 'forward' of a backward op",
                    "e.g. 'forward : abs (Tensor x) -> Tensor(out)'",
                )
            else:
                forward = self.parse("forward", values["forward"], parse_forward)
                self.broken |= forward is None
        elif "forward" in values:
            self.error(
                values["forward"].loc,
                "'forward' is only allowed on backward ops ('backward_op' entries)",
            )

        infer_meta = self.infer_meta(values.get("infer_meta"))
        kernel = self.kernel(values.get("kernel"))
        invoke = self.parse("invoke", values.get("invoke"), parse_call)
        composite = self.parse("composite", values.get("composite"), parse_call)
        if "composite" in values and not is_backward:
            self.error(values["composite"].loc, "'composite' is only allowed on backward ops")
        if "invoke" in values and "kernel" in values:
            self.error(
                values["invoke"].loc,
                "an op has either 'invoke' or 'kernel', not both",
                "'invoke' implements the op by calling another op",
            )
        backward = self.parse("backward", values.get("backward"), parse_name, with_locate=False)
        inplace = self.parse("inplace", values.get("inplace"), parse_pairs) or ()
        view = self.parse("view", values.get("view"), parse_pairs) or ()
        data_transform = None
        transform_map = self.mapping("data_transform", values.get("data_transform"))
        if transform_map is not None:
            sub = self.consume(transform_map, DATA_TRANSFORM_KEYS, "data_transform.")
            data_transform = DataTransform(
                self.names("data_transform.skip_transform", sub.get("skip_transform")),
                self.names("data_transform.support_trans_dtype", sub.get("support_trans_dtype")),
            )
        traits = (
            self.parse("traits", values.get("traits"), parse_qualified_names, with_locate=False)
            or ()
        )
        interfaces = (
            self.parse(
                "interfaces", values.get("interfaces"), parse_qualified_names, with_locate=False
            )
            or ()
        )
        support_dygraph_mode = False
        node = values.get("support_dygraph_mode")
        if node is not None:
            if isinstance(node, YScalar) and isinstance(node.value, bool):
                support_dygraph_mode = node.value
            else:
                self.error(
                    node.loc,
                    f"'support_dygraph_mode' must be true or false, not " f"{_kind_phrase(node)}",
                )
        support_tensor, literals = self.name_list("support_tensor", values.get("support_tensor"))
        if literals is not None:
            self.error(values["support_tensor"].loc, "support_tensor: items must be names")
        if name is None:
            return None
        return OpSpec(
            name=name,
            is_backward=is_backward,
            key=key,
            args=args,
            outputs=outputs,
            infer_meta=infer_meta,
            kernel=kernel,
            invoke=invoke,
            composite=composite,
            forward=forward,
            backward=backward,
            inplace=inplace,
            view=view,
            optional=self.names("optional", values.get("optional")),
            intermediate=self.names("intermediate", values.get("intermediate")),
            no_need_buffer=self.names("no_need_buffer", values.get("no_need_buffer")),
            data_transform=data_transform,
            traits=traits,
            interfaces=interfaces,
            support_dygraph_mode=support_dygraph_mode,
            support_tensor=support_tensor or (),
            loc=name_node.loc,
            key_locs=tuple(self.key_locs),
        )

    def infer_meta(self, node: YNode | None) -> InferMetaSpec | None:
        mapping = self.mapping("infer_meta", node)
        if mapping is None:
            return None
        sub = self.consume(mapping, INFER_META_KEYS, "infer_meta.")
        if "func" not in sub:
            self.error(
                mapping.loc,
                "missing required key 'infer_meta.func'",
                "name the InferMeta function, e.g. 'func : UnchangedInferMeta'",
            )
            return None
        func = self.parse("infer_meta.func", sub["func"], parse_qualified_name, with_locate=False)
        param, literals = self.name_list("infer_meta.param", sub.get("param"))
        opt = {
            k: self.parse(f"infer_meta.{k}", sub.get(k), parse_name, with_locate=False)
            for k in ("local_shape", "global_shape", "dtype")
        }
        spmd_rule = self.parse(
            "infer_meta.spmd_rule", sub.get("spmd_rule"), parse_qualified_name, with_locate=False
        )
        if func is None:
            return None
        return InferMetaSpec(
            func,
            param,
            spmd_rule,
            opt["local_shape"],
            opt["global_shape"],
            mapping.loc,
            literals,
            opt["dtype"],
        )

    def kernel(self, node: YNode | None) -> KernelSpec | None:
        mapping = self.mapping("kernel", node)
        if mapping is None:
            return None
        sub = self.consume(mapping, KERNEL_KEYS, "kernel.")
        if "func" not in sub:
            self.error(
                mapping.loc,
                "missing required key 'kernel.func'",
                "name the kernel, e.g. 'func : abs'",
            )
            return None
        funcs = self.parse("kernel.func", sub["func"], parse_kernel_funcs, with_locate=False)
        param, literals = self.name_list("kernel.param", sub.get("param"))
        data_type = self.candidates("kernel.data_type", sub.get("data_type"))
        if data_type is None and "dtype" in sub:  # 2022 misspelling of data_type, kept as it
            data_type = self.candidates("kernel.dtype", sub.get("dtype"))
        backend = self.candidates("kernel.backend", sub.get("backend"))
        layout = self.candidates("kernel.layout", sub.get("layout"))
        force_backend = self.parse(
            "kernel.force_backend", sub.get("force_backend"), parse_name, with_locate=False
        )
        use_gpudnn = None
        node = sub.get("use_gpudnn")
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            use_gpudnn = "true" if node.value else "false"
        else:
            use_gpudnn = self.parse("kernel.use_gpudnn", node, parse_name, with_locate=False)
        if funcs is None:
            return None
        return KernelSpec(
            funcs,
            param,
            data_type,
            backend,
            layout,
            force_backend,
            use_gpudnn,
            mapping.loc,
            literals,
        )


def parse_entry(entry: YMap, diagnostics: list[Diagnostic]) -> tuple[OpSpec | None, bool]:
    """One entry -> (OpSpec, or None when it has no valid name; whether it is broken).

    Broken: its args, output or forward did not parse, so the spec holds empty stand-ins and
    must not be compared with other ops.
    """
    parser = _EntryParser(entry, diagnostics)
    spec = parser.run()
    return spec, parser.broken
