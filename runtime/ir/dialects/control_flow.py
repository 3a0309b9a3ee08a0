"""`pd_op.if` and `pd_op.while`: their custom text (GRAMMAR.md §7), printed and parsed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from phiops.runtime.ir.core import Operation
from phiops.runtime.ir.dialect import OpDef
from phiops.runtime.ir.printer import format_attributes

if TYPE_CHECKING:
    from phiops.runtime.ir.parser import Parser
    from phiops.runtime.ir.printer import Printer

__all__ = ["print_if", "print_while", "parse_if", "parse_while"]

_BLOCK_ARGUMENT = OpDef("block argument", attributes={"stop_gradient": "bool"})


def print_if(printer: Printer, op: Operation, indent: int) -> None:
    pad = " " * indent
    namer = printer.namer
    results = ", ".join(namer.name_results(op))
    rtypes = ", ".join(str(v.type) for v in op.results)
    printer.lines.append(
        f'{pad}({results}) = "pd_op.if"{printer.op_id(op)} ({namer.name(op.operands[0])}) '
        f"{{{format_attributes(op.attributes)}}} -> {rtypes} {{"
    )
    printer.print_ops(op.regions[0].blocks[0], indent + 4)
    printer.lines.append(pad + "} else {")
    printer.print_ops(op.regions[1].blocks[0], indent + 4)
    printer.lines.append(pad + "}")


def print_while(printer: Printer, op: Operation, indent: int) -> None:
    pad = " " * indent
    namer = printer.namer
    results = ", ".join(namer.name_results(op))
    cond = namer.name(op.operands[0])
    inputs = ", ".join(namer.name(v) for v in op.operands[1:])
    body = op.regions[0].blocks[0]
    printer.lines.append(f'{pad}({results}) = "pd_op.while" (cond={cond}, inputs={inputs}) {{ ')
    args = ", ".join(
        f"{namer.name_arg(a)} {{{format_attributes(a.attributes)}}}" for a in body.args
    )
    printer.lines.append(f"{pad}^{args}")
    printer.print_ops(body, indent + 4)
    printer.lines.append(pad + "}")


def parse_if(parser: Parser, results: list, name_pos: int, opdef: OpDef | None) -> Operation:
    op_id = parser.parse_op_id()
    parser.expect("(", "to open the condition of pd_op.if")
    cond_pos = parser.i
    cond = parser.parse_value_ref()
    if cond is None:
        raise parser.error("the condition of pd_op.if cannot be <<NULL VALUE>>", cond_pos)
    parser.expect(")", "after the condition of pd_op.if")
    attributes = parser.parse_attributes(opdef, "pd_op.if")
    parser.expect("->", "after the attributes of pd_op.if")
    types = parser.parse_result_types(len(results), "pd_op.if")
    parser.expect("{", "to open the true branch of pd_op.if")
    op = Operation("pd_op.if", [cond], types, attributes, num_regions=2, id=op_id)
    parser.parse_ops(op.regions[0].add_block(), "true branch of pd_op.if")
    parser.expect("else", "after the true branch of pd_op.if")
    parser.expect("{", "to open the false branch of pd_op.if")
    parser.parse_ops(op.regions[1].add_block(), "false branch of pd_op.if")
    parser.define_results(op, results)
    return op


def parse_while(parser: Parser, results: list, name_pos: int, opdef: OpDef | None) -> Operation:
    parser.expect("(", "to open the operands of pd_op.while")
    parser.expect("cond", "in pd_op.while (cond=..., inputs=...)")
    parser.expect("=", "after 'cond'")
    cond_pos = parser.i
    cond = parser.parse_value_ref()
    if cond is None:
        raise parser.error("the condition of pd_op.while cannot be <<NULL VALUE>>", cond_pos)
    parser.expect(",", "after the condition of pd_op.while")
    parser.expect("inputs", "in pd_op.while (cond=..., inputs=...)")
    parser.expect("=", "after 'inputs'")
    inputs = []
    if not parser.accept(")"):
        while True:
            input_pos = parser.i
            value = parser.parse_value_ref()
            if value is None:
                raise parser.error("an input of pd_op.while cannot be <<NULL VALUE>>", input_pos)
            inputs.append(value)
            if parser.accept(")"):
                break
            parser.expect(",", "or ')' between the inputs of pd_op.while")
    if len(results) != len(inputs):
        raise parser.error(
            f"pd_op.while has {len(inputs)} input(s) but {len(results)} result(s)", name_pos
        )
    parser.expect("{", "to open the body of pd_op.while")
    caret = parser.expect("^", "before the block arguments of pd_op.while")
    op = Operation("pd_op.while", [cond, *inputs], [v.type for v in inputs], num_regions=1)
    body = op.regions[0].add_block()
    parser.scopes.append([])
    while parser.kinds[parser.i] == "value" and parser.texts[parser.i + 1] == "{":
        name, pos = parser.texts[parser.i], parser.i
        if len(body.args) == len(inputs):
            raise parser.error(f"pd_op.while has {len(inputs)} input(s), more block arguments", pos)
        parser.i += 1
        arg = body.add_arg(inputs[len(body.args)].type)
        arg.attributes = parser.parse_attributes(_BLOCK_ARGUMENT, "a block argument")
        parser.define(name, pos, arg)
        if not parser.accept(","):
            break
    if len(body.args) != len(inputs):
        raise parser.error(
            f"pd_op.while has {len(inputs)} input(s) but {len(body.args)} block argument(s)", caret
        )
    parser.parse_ops(body, "body of pd_op.while")
    for name in parser.scopes.pop():
        del parser.values[name]
    parser.define_results(op, results)
    return op
