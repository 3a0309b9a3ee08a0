"""Dialects and op tables: phiops's own generated pd_op table, and those defined by other packages.

phiops's pd_op table is generated (``phiops.generated.pd_op_dialect``); importing ``phiops``'s API
registers it, and `load_dialect_plugins` imports it by name where nothing has. A package that
defines a dialect (or a dialect's op table) declares a module in the ``phiops.ir.dialects``
entry-point group; importing that module registers it (with `register_dialect`, or
`register_op_table` for pd_op):

    [project.entry-points."phiops.ir.dialects"]
    my_dialect = "my_package.my_dialect"
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

__all__ = ["ENTRY_POINT_GROUP", "OWN_OP_TABLE", "load_dialect_plugins"]

ENTRY_POINT_GROUP = "phiops.ir.dialects"
OWN_OP_TABLE = "phiops.generated.pd_op_dialect"


def load_dialect_plugins() -> list[str]:
    """Import phiops's own pd_op table, then every module of the ``phiops.ir.dialects`` entry
    points (sorted by entry name); returns the entry names loaded."""
    try:
        importlib.import_module(OWN_OP_TABLE)
    except ModuleNotFoundError as error:
        if error.name is None or not OWN_OP_TABLE.startswith(error.name):
            raise  # a module the table imports is missing: not the same as no table
    loaded = []
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        entry.load()
        loaded.append(entry.name)
    return loaded
