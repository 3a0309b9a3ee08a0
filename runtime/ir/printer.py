"""The printer: the text PaddlePaddle 3.3.1 writes for `str(program)` (shared/pir/GRAMMAR.md)."""

from __future__ import annotations

from typing import Iterator

from phiops.runtime import flags
from phiops.runtime.ir.core import Block, Operation, Program, Value
from phiops.runtime.ir.dialect import get_dialect

__all__ = ["Namer", "Printer", "print_program", "print_block", "print_operation", "structural_key"]

flags.define_bool(
    "print_ir",
    False,
    "Print each operation's id as ` [id:N]` after its name, as PaddlePaddle's FLAGS_print_ir does.",
)

# attributes PaddlePaddle's printer never shows
HIDDEN_ATTRIBUTES = frozenset(("op_callstack", "sym_shape_str"))
NULL_VALUE = "<<NULL VALUE>>"


class Namer:
    """Names values in the order the printer reaches them: `%N` for results, `%arg_N` for block
    arguments, `%kwarg_<name>` for block keyword arguments, dialect aliases (`%stack_N`) where
    the dialect names its results."""

    __slots__ = ("names", "counter", "arg_counter", "alias_counters")

    def __init__(self) -> None:
        self.names: dict[Value, str] = {}
        self.counter = 0
        self.arg_counter = 0
        self.alias_counters: dict[str, int] = {}

    def name(self, value: Value | None) -> str:
        if value is None:
            return NULL_VALUE
        name = self.names.get(value)
        if name is None:
            name = self.names[value] = f"%{self.counter}"
            self.counter += 1
        return name

    def name_results(self, op: Operation) -> list[str]:
        results = op.results
        if not results:
            return []
        dialect = get_dialect(op.dialect)
        aliases = dialect.result_names(op) if dialect is not None else None
        if aliases is None:
            return [self.name(v) for v in results]
        names = []
        for value, alias in zip(results, aliases):
            count = self.alias_counters.get(alias, 0)
            self.alias_counters[alias] = count + 1
            names.append(f"%{alias}_{count}")
            self.names[value] = names[-1]
        return names

    def name_arg(self, value: Value) -> str:
        name = self.names.get(value)
        if name is None:
            name = self.names[value] = f"%arg_{self.arg_counter}"
            self.arg_counter += 1
        return name

    def name_kwarg(self, name: str, value: Value) -> str:
        printed = self.names[value] = f"%kwarg_{name}"
        return printed

    def name_block(self, block: Block) -> None:
        """Name every value of ``block`` as printing it would."""
        Printer(self).print_block(block, 0)


def format_attributes(attributes: dict) -> str:
    return ",".join(
        f"{key}:{attributes[key]}" for key in sorted(attributes) if key not in HIDDEN_ATTRIBUTES
    )


class Printer:
    """Appends lines to ``lines``; ops of dialects with a custom printer go through it."""

    __slots__ = ("namer", "lines", "print_ids")

    def __init__(self, namer: Namer | None = None, print_ids: bool | None = None) -> None:
        self.namer = namer if namer is not None else Namer()
        self.lines: list[str] = []
        self.print_ids = flags.flag_value("print_ir") if print_ids is None else print_ids

    def op_id(self, op: Operation) -> str:
        return f" [id:{op.id}]" if self.print_ids and op.id is not None else ""

    def print_block(self, block: Block, indent: int) -> None:
        pad = " " * indent
        self.lines.append(pad + "{")
        self.print_ops(block, indent + 4)
        self.lines.append(pad + "}")

    def print_ops(self, block: Block, indent: int) -> None:
        """The block's keyword arguments, if it has any, then its ops, at ``indent``."""
        if block.kwargs:
            self.print_kwargs(block, indent)
        for op in block.ops:
            self.print_op(op, indent)

    def print_kwargs(self, block: Block, indent: int) -> None:
        """`^kw:`, then one `%kwarg_<name>` per line, indented once more (GRAMMAR.md §1)."""
        pad = " " * indent
        self.lines.append(pad + "^kw:")
        for name, value in block.kwargs.items():
            self.lines.append(f"{pad}    {self.namer.name_kwarg(name, value)}")

    def print_op(self, op: Operation, indent: int) -> None:
        dialect = get_dialect(op.dialect)
        custom = dialect.op_printers.get(op.name) if dialect is not None else None
        if custom is not None:
            custom(self, op, indent)
            return
        self.lines.append(self.op_line(op, indent))
        for region in op.regions:
            for block in region.blocks:
                self.print_block(block, indent)

    def op_line(self, op: Operation, indent: int) -> str:
        namer = self.namer
        results = ", ".join(namer.name_results(op))
        operands = ", ".join([namer.name(v) for v in op.operands])
        types = ", ".join([str(t) for t in op.operand_types()])
        rtypes = ", ".join([str(v.type) for v in op.results])
        return (
            f'{" " * indent}({results}) = "{op.name}"{self.op_id(op)} ({operands}) '
            f"{{{format_attributes(op.attributes)}}} : ({types}) -> {rtypes}"
        )


def print_program(program: Program, print_ids: bool | None = None) -> str:
    return print_block(program.block, print_ids)


def print_block(block: Block, print_ids: bool | None = None) -> str:
    printer = Printer(print_ids=print_ids)
    printer.print_block(block, 0)
    printer.lines.append("")
    return "\n".join(printer.lines)


def print_operation(op: Operation) -> str:
    """One op as `str(op)` shows it: local numbering, results first, no indent."""
    printer = Printer()
    printer.print_op(op, 0)
    return "\n".join(printer.lines)


def structural_key(program: Program) -> tuple:
    """Everything that makes two programs equal: ops in order, names, ids, typed attributes,
    full types (layout, LoD), block arguments."""
    namer = Namer()
    printer = Printer(namer, print_ids=True)
    printer.print_block(program.block, 0)
    ops = []
    for op in program.walk():
        attrs = tuple(sorted((k, a._key()) for k, a in op.attributes.items()))
        regions = tuple(
            tuple((namer.names.get(a), a.type, tuple(sorted(a.attributes.items()))) for a in b.args)
            for r in op.regions
            for b in r.blocks
        )
        ops.append(
            (
                op.name,
                op.id,
                tuple(namer.names.get(v) for v in op.operands if v is not None),
                tuple(v.type for v in op.results),
                attrs,
                regions,
            )
        )
    kwargs = tuple(
        tuple((name, value.type) for name, value in block.kwargs.items())
        for block in _blocks(program.block)
    )
    return ("\n".join(printer.lines), tuple(ops), kwargs)


def _blocks(block: Block) -> Iterator[Block]:
    yield block
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                yield from _blocks(inner)
