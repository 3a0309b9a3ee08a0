"""Checks the generated pd_op definitions against PaddlePaddle 3.3.1's registered ops.

Run: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/check_pd_op_defs.py``.
Builds every fixture program of make_ir_fixtures.py with PaddlePaddle, and for each op compares
its operand and result counts and its typed attributes (PaddlePaddle's
``get_attrs_map_json``) with the table codegen writes (ops/paddle/ + pd_op_corrections.yaml).
Prints each difference; exit status 1 when there is one or when an op of
ops/paddle/registered_ops_3_3_1.json (every op 3.3.1 registers) has no row. Also lists the
functions of paddle._pir_ops whose names are not pd_op op names.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import paddle  # noqa: E402
from paddle.base import libpaddle  # noqa: E402

import make_ir_fixtures  # noqa: E402
from phiops.codegen.pd_op import pd_op_rows  # noqa: E402

TAGS = {
    "0.a_bool": "bool",
    "0.a_i32": "int32",
    "0.a_i64": "int64",
    "0.a_f32": "float",
    "0.a_f64": "double",
    "0.a_str": "str",
    "1.a_intarray": "intarray",
    "1.a_dtype": "dtype",
    "1.a_place": "place",
    "1.a_layout": "layout",
}
FRAMEWORK = {"op_callstack", "stop_gradient", "persistable", "struct_name"}


def kind_of(typed: dict) -> str | None:
    tag = typed["#"]
    if tag == "0.a_array":
        if not typed["D"]:
            return None  # an empty array says nothing of its element kind
        return f"array<{kind_of(typed['D'][0])}>"
    return TAGS.get(tag, tag)


def compatible(ours: str, theirs: str | None) -> bool:
    if theirs is None:
        return ours.startswith("array<")
    if ours == "scalar":
        return theirs in ("int32", "int64", "float", "double", "bool")
    if ours == "array<scalar>":
        return theirs.startswith("array<")
    return ours == theirs


def main() -> int:
    rows = pd_op_rows(ROOT)
    problems: dict[str, set[str]] = {}
    seen: set[str] = set()

    def check(op) -> None:
        name = op.name()
        for block in op.blocks():
            for inner in block.ops:
                check(inner)
        if not name.startswith("pd_op."):
            return
        short = name[6:]
        seen.add(short)
        found = problems.setdefault(short, set())
        row = rows.get(short)
        if row is None:
            found.add(
                f"missing: {op.num_operands()} operand(s), {op.num_results()} result(s), "
                f"attributes {sorted(i['N'] for i in json.loads(libpaddle.pir.get_attrs_map_json(op)))}"
            )
            return
        operands, attributes, results = row
        if "..." not in operands and len(operands.split()) != op.num_operands():
            found.add(f"operands: ours {operands!r}, 3.3.1 has {op.num_operands()}")
        if "..." not in results and len(results.split()) != op.num_results():
            found.add(f"results: ours {results!r}, 3.3.1 has {op.num_results()}")
        kinds = dict(item.split(":", 1) for item in attributes.split())
        for item in json.loads(libpaddle.pir.get_attrs_map_json(op)):
            key = item["N"]
            if key in FRAMEWORK:
                continue
            theirs = kind_of(item["AT"])
            if key not in kinds:
                found.add(f"attribute {key}: not in ours, 3.3.1 has {theirs}")
            elif not compatible(kinds[key], theirs):
                found.add(f"attribute {key}: ours {kinds[key]}, 3.3.1 has {theirs}")

    paddle.enable_static()
    for _, build, _ in make_ir_fixtures.PROGRAMS:
        main_program, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_program, startup):
            build()
        for program in (main_program, startup):
            for op in program.global_block().ops:
                check(op)
    bad = {name: found for name, found in sorted(problems.items()) if found}
    for name, found in bad.items():
        for line in sorted(found):
            print(f"pd_op.{name}: {line}")
    print(f"checked {len(seen)} ops built by PaddlePaddle 3.3.1: {len(bad)} differ")
    registered = json.loads((ROOT / "ops" / "paddle" / "registered_ops_3_3_1.json").read_text())
    lacking = sorted(set(registered) - set(rows))
    print(f"ops PaddlePaddle 3.3.1 registers without a pd_op definition here: {len(lacking)}")
    if lacking:
        print("  " + " ".join(lacking))
    # paddle._pir_ops also holds functions that build no pd_op op of that name: builtin and
    # distributed helpers, and sparse_<op> wrappers of the <kernel>_sp ops
    python_ops = {n for n in dir(paddle._pir_ops) if not n.startswith("_")}
    other = sorted(n for n in python_ops if n not in rows)
    print(f"paddle._pir_ops functions that are not pd_op op names: {len(other)}")
    print("  " + " ".join(other))
    return 1 if bad or lacking else 0


if __name__ == "__main__":
    sys.exit(main())
