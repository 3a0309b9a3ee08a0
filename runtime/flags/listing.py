"""How flags are shown: the table and JSON of ``phiops flags``, and --help entries."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from phiops.runtime.flags.values import FlagType, FlagValue

if TYPE_CHECKING:
    from phiops.runtime.flags.registry import Flag

__all__ = ["display_value", "format_help_entries", "format_json", "format_table"]

_TABLE_HEADER = ("NAME", "TYPE", "DEFAULT", "CURRENT", "DEFINED AT", "HELP")


def display_value(flag_type: FlagType, value: FlagValue) -> str:
    """A value's canonical text, with a string in double quotes so an empty one still shows."""
    if flag_type is FlagType.STRING:
        return json.dumps(value, ensure_ascii=False)
    return flag_type.format(value)


def format_table(flags: Sequence[Flag]) -> str:
    """One aligned row per flag; help comes last because its length varies most."""
    if not flags:
        return "No flags are defined.\n"
    rows = [_TABLE_HEADER] + [
        (
            flag.name,
            flag.type.value,
            display_value(flag.type, flag.default),
            display_value(flag.type, flag.value),
            flag.defined_at,
            " ".join(flag.help.split()),
        )
        for flag in flags
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_TABLE_HEADER) - 1)]
    lines = [
        "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths)), row[-1]]).rstrip()
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def format_json(flags: Sequence[Flag]) -> str:
    """A JSON list with one object per flag.

    default and current are canonical text, the spelling FLAGS_<name> and --<name>= accept:
    this keeps every value exact (uint64 beyond 2**53, inf and nan) in strict JSON.
    """
    records = [
        {
            "name": flag.name,
            "type": flag.type.value,
            "default": flag.type.format(flag.default),
            "current": flag.type.format(flag.value),
            "help": flag.help,
            "defined_at": flag.defined_at,
        }
        for flag in flags
    ]
    return json.dumps(records, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def format_help_entries(flags: Sequence[Flag]) -> str:
    """--help text for some flags: a line with type, default and current value, then the help."""
    entries = []
    for flag in flags:
        entries.append(
            f"  --{flag.name} ({flag.type.value})  default: "
            f"{display_value(flag.type, flag.default)}  current: "
            f"{display_value(flag.type, flag.value)}"
        )
        entries.extend(f"      {line}" for line in flag.help.splitlines())
    return "\n".join(entries) + "\n"
