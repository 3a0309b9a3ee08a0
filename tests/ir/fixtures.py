"""The PIR fixtures written by tests/tools/make_ir_fixtures.py with PaddlePaddle 3.3.1."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

from phiops.runtime import flags

DATA = Path(__file__).resolve().parents[1] / "data" / "ir"
TEXTS = sorted(p for p in DATA.glob("*.txt") if not p.name.endswith(".from_json.txt"))
JSONS = sorted(p for p in DATA.glob("[0-9]*.json"))
# printed with FLAGS_print_ir: ops carry ` [id:N]`
PRINT_IR = {"31_print_ir_ids.txt"}


@contextlib.contextmanager
def print_ir(on: bool) -> Iterator[None]:
    old = flags.flag_value("print_ir")
    flags.set_flags({"print_ir": on})
    try:
        yield
    finally:
        flags.set_flags({"print_ir": old})
