"""The pd_op dialect: PaddlePaddle's ops. Their definitions are a generated table
(generated/pd_op_dialect.py, from ops/paddle/) that registers itself with `register_op_table`;
`pd_op.if` and `pd_op.while` have their own printers and parsers."""

from __future__ import annotations

from typing import Mapping

from phiops.runtime.ir.dialect import Dialect, OpDef
from phiops.runtime.ir.dialects.control_flow import (
    parse_if,
    parse_while,
    print_if,
    print_while,
)
from phiops.runtime.ir.dialects.table import op_def_from_row
from phiops.runtime.ir.types import (
    ELEMENT_TYPES,
    SelectedRowsType,
    SparseCooTensorType,
    SparseCsrTensorType,
    TensorArrayType,
    Type,
)

__all__ = ["PaddleDialect", "register_op_table", "has_op_table", "scalar_operand_dtype"]

_TABLE: dict[str, tuple[str, str, str]] = {}
_SCALAR_OPERAND_DTYPES: dict[str, Mapping[str, str]] = {}


def register_op_table(
    table: Mapping[str, tuple[str, str, str]],
    scalar_operand_dtypes: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Add op definitions (name without "pd_op." -> row, see runtime/ir/dialects/table.py) and,
    per op, the dtype of the `full` a number given as each of its Scalar operands becomes."""
    _TABLE.update(table)
    _SCALAR_OPERAND_DTYPES.update(scalar_operand_dtypes or {})


def scalar_operand_dtype(op: str, operand: str) -> str:
    """The dtype name ("float32", "int32", ...) of the `full` that PaddlePaddle builds for a
    number passed as Scalar operand ``operand`` of pd_op ``op`` (name without "pd_op.")."""
    return _SCALAR_OPERAND_DTYPES.get(op, {}).get(operand, "float32")


def has_op_table() -> bool:
    """Whether an op table has been registered (by `import phiops.generated` or a dialect
    plugin)."""
    return bool(_TABLE)


_loaded_own_table = False


def _load_own_table() -> None:
    """Import phiops's generated op table (and other packages' dialect plugins) the first time a
    pd_op op is looked up with no table registered, so that building or parsing a program needs
    no import beforehand."""
    global _loaded_own_table
    if not _loaded_own_table:
        _loaded_own_table = True
        from phiops.runtime.ir.plugins import load_dialect_plugins

        load_dialect_plugins()


class PaddleDialect(Dialect):
    name = "pd_op"

    def __init__(self) -> None:
        super().__init__()
        self.op_printers.update({"pd_op.if": print_if, "pd_op.while": print_while})
        self.op_parsers.update({"pd_op.if": parse_if, "pd_op.while": parse_while})

    def lookup(self, name: str) -> OpDef | None:
        found = self.ops.get(name)
        if found is None:
            if not _TABLE:
                _load_own_table()
            row = _TABLE.get(name[6:]) if name.startswith("pd_op.") else None
            if row is None:
                return None
            found = self.ops[name] = op_def_from_row(name, row)
        return found

    def parse_type(self, parser, text: str, pos: int) -> Type:
        from phiops.runtime.ir.parser import parse_dense

        head, _, rest = text.partition("<")
        inner = rest[:-1]
        if head == "pd_op.tensor_array" and rest:
            if inner not in ELEMENT_TYPES:
                raise parser.error(f"unknown dtype '{inner}' in tensor array type", pos)
            return TensorArrayType(inner)
        if head == "pd_op.selectedrows" and rest:
            return parse_dense(parser, inner, pos, SelectedRowsType)
        if head == "pd_op.sparsecootensor" and rest:
            return parse_dense(parser, inner, pos, SparseCooTensorType)
        if head == "pd_op.sparsecsrtensor" and rest:
            return parse_dense(parser, inner, pos, SparseCsrTensorType)
        raise parser.error(f"dialect 'pd_op' has no type '{text}'", pos)
