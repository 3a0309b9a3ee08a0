"""Writes ops/paddle/registered_ops_3_3_1.json: every pd_op op PaddlePaddle 3.3.1 registers, as
its C++ headers declare it.

Run: ``/work/paddle-venv/bin/python tests/tools/dump_pd_op_signatures.py``.
The installed wheel ships the headers of its generated dialect (``pd_op.h``) and of the
hand-written ops (``manual_op.h``, ``control_flow_op.h``, ...). For each op class they give its
name, its operands and results (the ``operand_source(i)``/``result(i)`` accessors, in order),
its number of attributes and, in the first ``Build`` overload, each attribute's name and C++
type. The JSON keeps, per op name (without ``pd_op.``): ``operands``, ``results``,
``attributes_num`` and ``attributes`` (name -> C++ type; absent when no ``Build`` spells them
out). codegen/pd_op.py defines the ops the YAML specs lack from it, and
tests/ir/test_pd_op_coverage.py checks the generated dialect against it without paddle.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ops" / "paddle" / "registered_ops_3_3_1.json"
HEADERS = (
    "pd_op.h",
    "manual_op.h",
    "control_flow_op.h",
    "manual_pylayer_op.h",
    "tensorrt_op.h",
)
_CLASS = re.compile(r"^class\s+(?:\w+_API\s+)?\w+\s*:\s*public\s+pir::Op<", re.M)
_NAME = re.compile(r'static const char \*name\(\) \{ return "pd_op\.([A-Za-z0-9_]+)"; \}')
_ATTRIBUTES_NUM = re.compile(r"static constexpr uint32_t attributes_num = (\d+);")
_BUILD = re.compile(r"static void Build\((.*?)\);", re.S)
_ACCESSOR = re.compile(r"pir::Value (\w+)\(\) \{ return (operand_source|result)\((\d+)\); \}")
_PARAM = re.compile(r"^(?P<type>.+?)\s*&?\s*\b(?P<name>\w+)\s*(?:=.*)?$", re.S)


def _split_params(text: str) -> list[str]:
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "<({":
            depth += 1
        elif ch in ">)}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _attributes(body: str, operands: list[str]) -> dict[str, str] | None:
    """name -> C++ type from the first Build overload that spells the attributes out."""
    for match in _BUILD.finditer(body):
        params = _split_params(re.sub(r"//[^\n]*", "", match.group(1)))[2:]
        if any("AttributeMap" in p for p in params):
            continue
        found: dict[str, str] = {}
        for param in params:
            param = " ".join(param.split())
            typed = _PARAM.match(param)
            if typed is None:
                raise SystemExit(f"cannot read Build parameter {param!r}")
            name = typed.group("name").rstrip("_")
            cpp = typed.group("type").replace("const ", "").replace("&", "").strip()
            if re.search(r"pir::(Value|Type|Block|Region)", cpp) or name in operands:
                continue
            found[name] = cpp
        return found
    return None


def ops_of(text: str) -> dict[str, dict]:
    starts = [m.start() for m in _CLASS.finditer(text)] + [len(text)]
    ops: dict[str, dict] = {}
    for begin, end in zip(starts, starts[1:]):
        body = text[begin:end]
        name = _NAME.search(body)
        if name is None:
            continue
        operands: list[str] = []
        results: list[str] = []
        for accessor, kind, index in _ACCESSOR.findall(body):
            target = operands if kind == "operand_source" else results
            if int(index) == len(target):
                target.append(accessor)
        entry: dict[str, object] = {"operands": operands, "results": results}
        count = _ATTRIBUTES_NUM.search(body)
        entry["attributes_num"] = int(count.group(1)) if count else 0
        attributes = _attributes(body, operands)
        if attributes is not None:
            entry["attributes"] = attributes
        ops[name.group(1)] = entry
    return ops


def main() -> int:
    spec = importlib.util.find_spec("paddle")
    if spec is None or not spec.submodule_search_locations:
        print("paddle is not installed", file=sys.stderr)
        return 1
    base = Path(next(iter(spec.submodule_search_locations)))
    include = base / "include" / "paddle" / "fluid" / "pir" / "dialect" / "operator" / "ir"
    ops: dict[str, dict] = {}
    for header in HEADERS:
        ops.update(ops_of((include / header).read_text(encoding="utf-8")))
    lines = [
        f"{json.dumps(name)}: {json.dumps(op, sort_keys=True)}" for name, op in sorted(ops.items())
    ]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(ops)} ops")
    return 0


if __name__ == "__main__":
    sys.exit(main())
