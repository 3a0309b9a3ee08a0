"""PIR for phiops: the IR core, its dialects, PaddlePaddle 3.3.1's text form. Its `.json` form
and the translation of legacy `.pdmodel` programs are file formats (`phiops.runtime.formats`);
``phi.ir`` (phiops/ir.py) puts them beside these.

`pd_op`'s op definitions are registered by the generated package (`import generated`), or by
`phiops.runtime.ir.plugins.load_dialect_plugins()` through the ``phiops.ir.dialects`` entry points
without the runtime importing `generated`; builtin and cf are complete here.
"""

from __future__ import annotations

from phiops.runtime.ir import dialects
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Block, BlockArgument, Operation, OpResult, Program, Region, Value
from phiops.runtime.ir.dialect import (
    Dialect,
    OpDef,
    OperandDef,
    ResultDef,
    get_dialect,
    register_dialect,
)
from phiops.runtime.ir.lexer import IRParseError
from phiops.runtime.ir.parser import parse_program
from phiops.runtime.ir.printer import print_program
from phiops.runtime.ir.types import (
    NULL_TYPE,
    DenseTensorType,
    SelectedRowsType,
    SparseCooTensorType,
    SparseCsrTensorType,
    SimpleDialectType,
    TensorArrayType,
    Type,
    VectorType,
)
from phiops.runtime.ir.verify import verify

__all__ = [
    "parse_program",
    "IRParseError",
    "print_program",
    "verify",
    "Program",
    "Block",
    "Region",
    "Operation",
    "Value",
    "OpResult",
    "BlockArgument",
    "Attribute",
    "Builder",
    "Type",
    "DenseTensorType",
    "VectorType",
    "SelectedRowsType",
    "SparseCooTensorType",
    "SparseCsrTensorType",
    "TensorArrayType",
    "SimpleDialectType",
    "NULL_TYPE",
    "Dialect",
    "OpDef",
    "OperandDef",
    "ResultDef",
    "register_dialect",
    "get_dialect",
    "dialects",
]
