"""docs/flags.md lists every flag the runtime defines, with its type, default and module: a flag
added to the runtime without a line in the table, or a line left after a flag is gone, fails
here."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from phiops import runtime
from phiops.runtime import flags
from phiops.runtime.flags.listing import display_value

REPO = Path(__file__).resolve().parents[2]
RUNTIME_DIR = Path(runtime.__file__).resolve().parent
ROW = re.compile(r"^\| `(\w+)` \| (\w+) \| ([^|]+) \| `([^`]+)` \| (.+) \|$")


def _documented() -> dict[str, tuple[str, str, str]]:
    text = (REPO / "docs" / "flags.md").read_text(encoding="utf-8")
    section = text.split("## Flags the runtime defines", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            name, flag_type, default, module, _ = match.groups()
            assert name not in rows, f"{name} is documented twice"
            rows[name] = (flag_type, default.strip(), module)
    return rows


def _defined_by_the_runtime() -> dict[str, tuple[str, str, str]]:
    """Every flag a runtime module defines, with every module imported (CLIs excepted)."""
    for module in pkgutil.walk_packages(runtime.__path__, "phiops.runtime."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    defined = {}
    for flag in flags.DEFAULT_REGISTRY.all_flags():
        path = Path(flag.location.file).resolve()
        if RUNTIME_DIR in path.parents:
            module = "runtime/" + path.relative_to(RUNTIME_DIR).as_posix()
            defined[flag.name] = (flag.type.value, display_value(flag.type, flag.default), module)
    return defined


def test_the_flags_table_lists_every_runtime_flag_with_its_type_default_and_module() -> None:
    defined = _defined_by_the_runtime()
    assert "max_alloc_bytes" in defined  # the walk found the runtime's flags
    assert _documented() == defined
