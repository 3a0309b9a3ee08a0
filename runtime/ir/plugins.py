"""Dialects defined outside the runtime plug in through package entry points.

A package that defines a dialect (or a dialect's op table) declares a module in the
``phiops.ir.dialects`` entry-point group; importing that module registers it (with
`register_dialect`, or `register_op_table` for pd_op). phiops declares its own generated pd_op
table there (pyproject.toml: ``pd_op = "generated.pd_op_dialect"``), so `python -m runtime.ir`
gets PaddlePaddle's op definitions without the runtime importing `generated`:

    [project.entry-points."phiops.ir.dialects"]
    my_dialect = "my_package.my_dialect"

`import generated` registers the pd_op table itself; this is for code that does not import it.
"""

from __future__ import annotations

from importlib.metadata import entry_points

__all__ = ["ENTRY_POINT_GROUP", "load_dialect_plugins"]

ENTRY_POINT_GROUP = "phiops.ir.dialects"


def load_dialect_plugins() -> list[str]:
    """Import every module of the ``phiops.ir.dialects`` entry points (sorted by entry name);
    returns the names loaded."""
    loaded = []
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        entry.load()
        loaded.append(entry.name)
    return loaded
