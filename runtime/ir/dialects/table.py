"""Op definitions written compactly as three strings: operands, attributes, results.

Operands/results: space-separated names; a `?` suffix marks optional, `[]` a vector
(`vec[...]`/tensor array), `*` a value of any type (a tensor or a vector: the definition does
not say); a lone `...` makes the list variadic. Attributes: `name:kind` pairs.
Example: ``("x y", "transpose_x:bool transpose_y:bool", "out")``.
"""

from __future__ import annotations

from phiops.runtime.ir.dialect import OpDef, OperandDef, ResultDef

__all__ = ["op_def_from_row"]


def _items(text: str, make):
    items, variadic = [], False
    for word in text.split():
        if word == "...":
            variadic = True
            continue
        kind = "tensor"
        if word.endswith("[]"):
            word, kind = word[:-2], "vector"
        elif word.endswith("*"):
            word, kind = word[:-1], "any"
        optional = word.endswith("?")
        items.append(make(word.rstrip("?"), kind, optional))
    return tuple(items), variadic


def op_def_from_row(name: str, row: tuple[str, str, str]) -> OpDef:
    operands, variadic_operands = _items(row[0], OperandDef)
    results, variadic_results = _items(row[2], ResultDef)
    attributes = dict(item.split(":", 1) for item in row[1].split())
    return OpDef(
        name,
        operands,
        attributes,
        results,
        variadic_operands=variadic_operands,
        variadic_results=variadic_results,
    )
