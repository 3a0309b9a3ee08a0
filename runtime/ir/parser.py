"""A recursive-descent parser for PIR text (design: shared/seeds/003, grammar: GRAMMAR.md).

The text carries no attribute types, so each attribute gets the kind its op's definition declares;
attributes no definition names get a kind inferred from their spelling. Types, ops and custom op
syntax come from the registered dialects.
"""

from __future__ import annotations

import re

from phiops.runtime.ir.attributes import DTYPE_NAMES, Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.dialect import OpDef, get_dialect, registered_dialects
from phiops.runtime.ir.plugins import find_dialect
from phiops.runtime.ir.lexer import IRParseError, Source, tokenize
from phiops.runtime.ir.types import (
    ELEMENT_TYPES,
    NULL_TYPE,
    DenseTensorType,
    SimpleDialectType,
    Type,
    VectorType,
)
from phiops.runtime.ir.verify import ProgramVerifyError, operand_problems, verify

__all__ = ["parse_program", "Parser", "IRParseError", "MAX_NESTING"]

MAX_NESTING = 64
_DENSE = re.compile(r"((?:-?\d+x)*)([A-Za-z][A-Za-z0-9_]*)\Z")
_INT = re.compile(r"-?\d+\Z")
_INT32 = (-(2**31), 2**31 - 1)
_LAYOUTS = frozenset(("NCHW", "NHWC", "NCDHW", "NDHWC", "ANY", "UNDEFINED", "ALL_LAYOUT"))
# bare words an attribute value may be (besides the data types)
_KNOWN_WORDS = frozenset(("true", "false", "Place", *_LAYOUTS))


def parse_program(
    text: str, source_name: str = "<string>", *, allow_unregistered: bool = False
) -> Program:
    """Parse the text of `str(program)` into a Program; `IRParseError` says what and where."""
    import phiops.runtime.ir.dialects  # noqa: F401  (registers builtin, pd_op, cf)

    return Parser(text, source_name, allow_unregistered).parse_program()


def parse_dense(parser: Parser, inner: str, pos: int, make=DenseTensorType) -> Type:
    match = _DENSE.match(inner)
    if match is None:
        raise parser.error(
            f"malformed tensor type '{parser.texts[pos]}': expected dims and an element type "
            "joined by 'x', like tensor<2x3xf32>",
            pos,
        )
    element = match.group(2)
    if element not in ELEMENT_TYPES:
        raise parser.error(
            f"unknown element type '{element}' in '{parser.texts[pos]}' "
            f"(element types: {' '.join(ELEMENT_TYPES)})",
            pos,
        )
    dims = tuple(int(d) for d in match.group(1).split("x")[:-1])
    return make(dims, element)


class Parser:
    """Holds the token lists and the values in scope; dialects' custom op parsers call its
    ``expect``/``parse_*`` methods."""

    def __init__(self, text: str, source_name: str, allow_unregistered: bool = False) -> None:
        self.source = Source(text, source_name)
        self.allow_unregistered = allow_unregistered
        self.kinds, self.texts, self.offsets = tokenize(self.source)
        self.i = 0
        self.depth = 0
        self.values: dict[str, Value] = {}
        self.defined_at: dict[str, int] = {}
        self.scopes: list[list[str]] = []
        # block keyword arguments are printed without a type: each takes the type its first
        # use prints
        self.untyped: set[Value] = set()
        # types and typed attribute values repeat; both are immutable, so equal texts share one
        self.type_cache: dict[str, Type] = {}
        self.attribute_cache: dict[tuple, Attribute] = {}
        # where each op was read (its name's token, its operands' tokens), so that what the
        # verifier refuses after parsing is reported at its place in the text
        self.op_positions: dict[Operation, tuple[int, list[int]]] = {}

    # -- tokens -------------------------------------------------------------------------------
    def error(self, message: str, pos: int | None = None) -> IRParseError:
        """The located error at token ``pos`` (token indices are the parser's positions)."""
        return self.source.error(message, self.offsets[self.i if pos is None else pos])

    def describe(self, i: int | None = None) -> str:
        i = self.i if i is None else i
        if self.kinds[i] == "eof":
            return "end of input"
        return repr(self.texts[i])

    def peek(self) -> str:
        return self.texts[self.i]

    def expect(self, text: str, what: str = "") -> int:
        i = self.i
        if self.texts[i] != text or self.kinds[i] in ("str", "eof"):
            context = f" {what}" if what else ""
            raise self.error(f"expected '{text}'{context}, found {self.describe()}")
        self.i = i + 1
        return i

    def accept(self, text: str) -> bool:
        if self.texts[self.i] == text and self.kinds[self.i] in ("punct", "ident", "arrow"):
            self.i += 1
            return True
        return False

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"nesting deeper than {MAX_NESTING} levels")

    # -- program and blocks ----------------------------------------------------------------------
    def parse_program(self) -> Program:
        if self.kinds[0] == "eof":
            raise self.error("empty input: expected '{' to open the program's block")
        program = Program()
        self.expect("{", "to open the program's block")
        self.parse_ops(program.block, "program")
        if self.kinds[self.i] != "eof":
            raise self.error(
                f"expected end of input after the program's block, found {self.describe()}"
            )
        try:
            verify(program, allow_unregistered=self.allow_unregistered)
        except ProgramVerifyError as error:
            name_pos, operand_pos = self.op_positions.get(error.op, (0, []))
            index = error.operand
            pos = operand_pos[index] if index is not None and index < len(operand_pos) else name_pos
            raise self.error(str(error), pos) from None
        return program

    def parse_ops(self, block: Block, what: str) -> None:
        """Operations up to and including the closing '}' of ``block``."""
        self.scopes.append([])
        kinds, texts = self.kinds, self.texts
        if texts[self.i] == "^" and kinds[self.i] == "punct" and texts[self.i + 1] == "kw":
            self.parse_kwargs(block)
        while True:
            kind, text = kinds[self.i], texts[self.i]
            if text == "}" and kind == "punct":
                self.i += 1
                break
            if kind == "eof":
                raise self.error(f"unclosed {what}: expected '}}' before end of input")
            block.append(self.parse_op())
        for name in self.scopes.pop():
            del self.values[name]

    def parse_kwargs(self, block: Block) -> None:
        """`^kw:` and the block's keyword arguments, `%kwarg_<name>` each (GRAMMAR.md §1)."""
        self.i += 2
        self.expect(":", "after '^kw' (a block's keyword arguments start with '^kw:')")
        if self.kinds[self.i] != "value":
            raise self.error(
                f"expected a keyword argument like '%kwarg_x' after '^kw:', found {self.describe()}"
            )
        while self.kinds[self.i] == "value":
            text, pos = self.texts[self.i], self.i
            name = text[len("%kwarg_") :]
            if not text.startswith("%kwarg_") or not name:
                raise self.error(
                    f"block keyword argument {text} must be named like '%kwarg_x'", pos
                )
            if name in block.kwargs:
                self.define(text, pos, block.kwargs[name])
            value = block.add_kwarg(name, NULL_TYPE)
            self.define(text, pos, value)
            self.untyped.add(value)
            self.i += 1

    # -- operations ------------------------------------------------------------------------------
    def parse_op(self) -> Operation:
        start = self.i
        self.expect("(", "to start an operation's results")
        results: list[tuple[str, int]] = []
        if not self.accept(")"):
            while True:
                if self.kinds[self.i] != "value":
                    raise self.error(f"expected a result value like '%0', found {self.describe()}")
                results.append((self.texts[self.i], self.i))
                self.i += 1
                if self.accept(")"):
                    break
                self.expect(",", "or ')' between results")
        self.expect("=", "after the results")
        if self.kinds[self.i] != "str":
            raise self.error(f'expected an op name like "pd_op.add", found {self.describe()}')
        name_pos = self.i
        name = self.texts[self.i][1:-1]
        self.i += 1
        opdef, dialect = self.lookup_op(name, name_pos)
        if dialect is not None and name in dialect.op_parsers:
            self.enter()
            op = dialect.op_parsers[name](self, results, name_pos, opdef)
            self.depth -= 1
            self.op_positions[op] = (name_pos, [])
            return op
        op_id = self.parse_op_id()
        operands, operand_pos = self.parse_operand_list()
        attributes = self.parse_attributes(opdef, name)
        self.expect(":", "before the operand types")
        types_pos = self.i
        self.expect("(", "to open the operand types")
        operand_types = self.parse_types_until(")")
        if len(operand_types) != len(operands):
            raise self.error(
                f"'{name}' has {len(operands)} operand(s) but {len(operand_types)} operand type(s)",
                types_pos,
            )
        self.expect("->", "after the operand types")
        result_types = self.parse_result_types(len(results), name)
        self.check_operands(name, opdef, operands, operand_pos or [name_pos], operand_types)
        self.check_result_count(name, opdef, len(results), start)
        op = Operation(name, operands, result_types, attributes, id=op_id)
        self.op_positions[op] = (name_pos, operand_pos)
        self.define_results(op, results)
        if self.texts[self.i] == "{" and self.kinds[self.i] == "punct":
            self.enter()
            while self.texts[self.i] == "{" and self.kinds[self.i] == "punct":
                self.i += 1
                self.parse_ops(self.add_region_block(op), "region")
            self.depth -= 1
        return op

    def add_region_block(self, op: Operation) -> Block:
        from phiops.runtime.ir.core import Region

        region = Region(op)
        op.regions.append(region)
        return region.add_block()

    def lookup_op(self, name: str, pos: int) -> tuple[OpDef | None, object]:
        dialect_name, dot, op_name = name.partition(".")
        if not dot or not dialect_name or not op_name:
            raise self.error(
                f'malformed op name "{name}": expected "<dialect>.<op>", like "pd_op.matmul"', pos
            )
        dialect = find_dialect(dialect_name)  # imports the op package that provides it
        if dialect is None:
            if self.allow_unregistered:
                return None, None
            raise self.error(
                f"unknown dialect '{dialect_name}' in op \"{name}\" "
                f"(registered dialects: {', '.join(registered_dialects())})",
                pos,
            )
        opdef = dialect.lookup(name)
        if opdef is None and not self.allow_unregistered:
            raise self.error(
                f"unknown op \"{name}\": dialect '{dialect_name}' defines no such op "
                "(allow_unregistered=True keeps it as a generic op)",
                pos,
            )
        return opdef, dialect

    def parse_op_id(self) -> int | None:
        if self.texts[self.i] != "[" or self.kinds[self.i] != "punct":
            return None
        self.i += 1
        if self.texts[self.i] != "id":
            raise self.error(f"expected 'id' in an op id like [id:3], found {self.describe()}")
        self.i += 1
        self.expect(":", "in the op id")
        if self.kinds[self.i] != "num" or not _INT.match(self.texts[self.i]):
            raise self.error(f"expected an integer op id, found {self.describe()}")
        op_id = int(self.texts[self.i])
        self.i += 1
        self.expect("]", "to close the op id")
        return op_id

    def parse_operand_list(self) -> tuple[list[Value | None], list[int]]:
        self.expect("(", "to open the operands")
        operands: list[Value | None] = []
        positions: list[int] = []
        if self.accept(")"):
            return operands, positions
        while True:
            positions.append(self.i)
            operands.append(self.parse_value_ref())
            if self.accept(")"):
                return operands, positions
            self.expect(",", "or ')' between operands")

    def parse_value_ref(self) -> Value | None:
        kind, text, pos = self.kinds[self.i], self.texts[self.i], self.i
        if kind == "null" and text == "<<NULL VALUE>>":
            self.i += 1
            return None
        if kind != "value":
            raise self.error(
                f"expected a value like '%0' or <<NULL VALUE>>, found {self.describe()}"
            )
        self.i += 1
        value = self.values.get(text)
        if value is None:
            if text in self.defined_at:
                raise self.error(
                    f"value {text} is not visible here (defined in another block)", pos
                )
            later = re.search(
                r"\((?:[^()\n]*, )?" + re.escape(text) + r"(?:, [^()\n]*)?\) = ",
                self.source.text[self.offsets[pos] :],
            )
            if later is not None:
                line, _ = self.source.locate(self.offsets[pos] + later.start())
                raise self.error(f"value {text} is used before its definition (line {line})", pos)
            raise self.error(f"undefined value {text}", pos)
        return value

    def define(self, name: str, pos: int, value: Value) -> None:
        if name in self.defined_at:
            line, col = self.source.locate(self.offsets[self.defined_at[name]])
            raise self.error(f"value {name} is defined twice (first at {line}:{col})", pos)
        self.values[name] = value
        self.defined_at[name] = pos
        self.scopes[-1].append(name)

    def define_results(self, op: Operation, results: list[tuple[str, int]]) -> None:
        for value, (name, pos) in zip(op.results, results):
            self.define(name, pos, value)

    def check_operands(
        self,
        name: str,
        opdef: OpDef | None,
        operands: list,
        positions: list[int],
        types: list[Type],
    ) -> None:
        for index, (value, type_) in enumerate(zip(operands, types)):
            if self.untyped and value in self.untyped:
                value.type = type_
                self.untyped.discard(value)
                continue
            want = NULL_TYPE if value is None else value.type
            if type_ != want:
                raise self.error(
                    f"operand {index} of '{name}' is printed with type {type_} but "
                    f"{'<<NULL VALUE>>' if value is None else self.texts_at(positions[index])} "
                    f"has type {want}",
                    positions[index],
                )
        if opdef is None:
            return
        for index, message in operand_problems(opdef, operands):
            pos = positions[index] if index < len(positions) else positions[-1]
            raise self.error(message, pos)

    def texts_at(self, pos: int) -> str:
        return self.texts[pos]

    def check_result_count(self, name: str, opdef: OpDef | None, count: int, pos: int) -> None:
        if opdef is None or opdef.variadic_results:
            return
        if count != len(opdef.results):
            raise self.error(f"'{name}' has {len(opdef.results)} result(s), got {count}", pos)

    # -- attributes ------------------------------------------------------------------------------
    def parse_attributes(self, opdef: OpDef | None, op_name: str) -> dict[str, Attribute]:
        self.expect("{", "to open the attributes")
        attributes: dict[str, Attribute] = {}
        if self.accept("}"):
            return attributes
        while True:
            if self.kinds[self.i] != "ident":
                raise self.error(f"expected an attribute name, found {self.describe()}")
            key, key_pos = self.texts[self.i], self.i
            self.i += 1
            self.expect(":", f"after attribute name '{key}'")
            value_pos = self.i
            kind = opdef.attribute_kind(key) if opdef is not None else None
            if kind == "dtype" and self.kinds[self.i] == "ident" and self.peek() not in DTYPE_NAMES:
                raise self.error(
                    f"attribute '{key}' of '{op_name}': unknown data type {self.peek()!r} "
                    f"(data types: {' '.join(sorted(DTYPE_NAMES))})"
                )
            if (
                self.kinds[self.i] == "ident"
                and kind is not None
                and "." not in kind
                and self.texts[self.i] not in _KNOWN_WORDS
                and self.texts[self.i] not in DTYPE_NAMES
            ):
                raise self.error(
                    f"attribute '{key}' of '{op_name}' must be {_describe_kind(kind)}, "
                    f"got {self.texts[self.i]}"
                )
            if kind is not None and "." in kind:
                value = self.dialect_attribute(kind, value_pos)
            else:
                value = self.parse_attribute_value()
                if kind is not None:
                    cache_key = (kind, *self.texts[value_pos : self.i])
                    cached = self.attribute_cache.get(cache_key)
                    if cached is None:
                        where = f"attribute '{key}' of '{op_name}'"
                        cached = self.attribute_cache[cache_key] = self.coerce(
                            value, kind, where, value_pos
                        )
                    value = cached
            if key in attributes:
                raise self.error(f"attribute '{key}' of '{op_name}' is given twice", key_pos)
            attributes[key] = value
            if self.accept("}"):
                return attributes
            self.expect(",", "or '}' between attributes")

    def parse_attribute_value(self) -> Attribute:
        kind, text = self.kinds[self.i], self.texts[self.i]
        if kind == "num":
            self.i += 1
            if _INT.match(text):
                number = int(text)
                return Attribute("int32" if _INT32[0] <= number <= _INT32[1] else "int64", number)
            return Attribute("double", float(text))
        if kind == "str":
            self.i += 1
            return Attribute("str", text[1:-1].replace('\\"', '"'))
        if kind == "ident":
            self.i += 1
            if text == "true" or text == "false":
                return Attribute("bool", text == "true")
            if text == "Place":
                return Attribute("place", self.parse_place())
            if text in DTYPE_NAMES:
                return Attribute("dtype", text)
            if text in _LAYOUTS:
                return Attribute("layout", text)
            self.i -= 1
            raise self.error(f"unknown attribute value {text!r}")
        if kind == "null" and text == "<#AttrNull>":
            self.i += 1
            return Attribute("null", None)
        if text == "[" and kind == "punct":
            self.enter()
            self.i += 1
            items: list[Attribute] = []
            if not self.accept("]"):
                while True:
                    items.append(self.parse_attribute_value())
                    if self.accept("]"):
                        break
                    self.expect(",", "or ']' in an array attribute")
            self.depth -= 1
            return Attribute("array", tuple(items))
        raise self.error(f"expected an attribute value, found {self.describe()}")

    def dialect_attribute(self, kind: str, pos: int) -> Attribute:
        """An attribute of a dialect's own kind ("dialect.kind"), parsed by that dialect."""
        dialect = get_dialect(kind.split(".", 1)[0])
        if dialect is None:
            raise self.error(f"unknown dialect in attribute kind '{kind}'", pos)
        return Attribute(kind, dialect.parse_attribute(self, kind, pos))

    def parse_place(self) -> str:
        self.expect("(", "after 'Place'")
        parts = []
        while not self.accept(")"):
            if self.kinds[self.i] not in ("ident", "num") and self.texts[self.i] != ":":
                raise self.error(f"malformed Place: unexpected {self.describe()}")
            parts.append(self.texts[self.i])
            self.i += 1
        return "".join(parts)

    def coerce(self, value: Attribute, kind: str, where: str, pos: int) -> Attribute:
        got = value.kind
        if kind == got:
            return value
        if kind in ("float", "double"):
            if got in ("int32", "int64", "double", "float"):
                return Attribute(kind, float(value.value))
        elif kind in ("int32", "int64"):
            if got in ("int32", "int64"):
                if kind == "int32" and not _INT32[0] <= value.value <= _INT32[1]:
                    raise self.error(f"{where} is an int32 and {value.value} does not fit", pos)
                return Attribute(kind, value.value)
        elif kind == "intarray":
            if got == "array" and all(v.kind in ("int32", "int64") for v in value.value):
                return Attribute("intarray", tuple(v.value for v in value.value))
        elif kind.startswith("array<"):
            if got == "array":
                element = kind[6:-1]
                return Attribute(
                    "array", tuple(self.coerce(v, element, where, pos) for v in value.value)
                )
        elif kind == "scalar" and got in ("int32", "int64", "double", "bool"):
            return value
        raise self.error(f"{where} must be {_describe_kind(kind)}, got {value}", pos)

    # -- types -----------------------------------------------------------------------------------
    def parse_types_until(self, close: str) -> list[Type]:
        types: list[Type] = []
        if self.accept(close):
            return types
        while True:
            types.append(self.parse_type())
            if self.accept(close):
                return types
            self.expect(",", f"or '{close}' between types")

    def parse_result_types(self, count: int, op_name: str) -> list[Type]:
        types = []
        for index in range(count):
            if index:
                if not self.accept(","):
                    raise self.error(
                        f"'{op_name}' has {count} result(s) but {index} result type(s)",
                        self.i - 1,
                    )
            types.append(self.parse_type())
        if self.texts[self.i] == "," and self.kinds[self.i] == "punct":
            first_extra, extra = self.i + 1, 0
            while self.accept(","):
                self.parse_type()
                extra += 1
            raise self.error(
                f"'{op_name}' has {count} result(s) but {count + extra} result type(s)", first_extra
            )
        return types

    def parse_type(self) -> Type:
        kind, text, pos = self.kinds[self.i], self.texts[self.i], self.i
        if kind == "null" and text == "<<NULL TYPE>>":
            self.i += 1
            return NULL_TYPE
        if kind == "type":
            self.i += 1
            cached = self.type_cache.get(text)
            if cached is not None:
                return cached
            head, _, rest = text.partition("<")
            if head == "tensor":
                cached = self.type_cache[text] = parse_dense(self, rest[:-1], pos)
                return cached
            if head == "tensor":
                return parse_dense(self, rest[:-1], pos)
            return self.dialect_type(head, text, pos)
        if kind == "ident":
            self.i += 1
            if text == "vec" and self.texts[self.i] == "[":
                self.enter()
                self.i += 1
                types = tuple(self.parse_types_until("]"))
                self.depth -= 1
                return VectorType(types)
            if "." in text:
                return self.dialect_type(text.split(".", 1)[0], text, pos)
            if text in ELEMENT_TYPES or text == "tensor":
                raise self.error(
                    f"malformed type '{text}': expected tensor<...>, vec[...], <<NULL TYPE>> or "
                    "a dialect type",
                    pos,
                )
        raise self.error(
            f"expected a type, found {self.describe(self.i if kind != 'ident' else self.i - 1)}",
            pos,
        )

    def dialect_type(self, prefix: str, text: str, pos: int) -> Type:
        dialect_name = prefix.split(".", 1)[0]
        dialect = get_dialect(dialect_name)
        if dialect is None:
            if self.allow_unregistered:
                return SimpleDialectType(text)
            raise self.error(f"unknown dialect '{dialect_name}' in type '{text}'", pos)
        return dialect.parse_type(self, text, pos)


def _describe_kind(kind: str) -> str:
    words = {
        "bool": "a bool (true/false)",
        "int32": "an int32",
        "int64": "an int64",
        "float": "a float",
        "double": "a double",
        "str": "a string",
        "intarray": "an IntArray like [2,3]",
        "dtype": "a data type",
        "place": "a Place(...)",
        "layout": "a data layout",
    }
    if kind.startswith("array<"):
        return f"an array of {kind[6:-1]}"
    return words.get(kind, kind)
