"""Writes runtime/kernels/paddle_3_3_1_cpu.json: what PaddlePaddle 3.3.1's CPU build runs, the data
behind ``phiops kernels --coverage``.

Two sources, both PaddlePaddle 3.3.1's own:

- its kernel factory (``core._get_registered_phi_kernels``), for the dtypes each PHI kernel is
  registered for on CPU (``kernels``);
- its ``ops.yaml`` and ``dygraph_ops.yaml`` (``add``, ``matmul``, ``softmax``... whose static
  definitions differ) with their backward files (the copies in ``ops/paddle/``), for the kernel
  functions each op calls (``ops``: op -> its file, its kernel functions and the chain of its
  backward ops) and those of each backward op (``backward_ops``; an op that ``invoke``s another or
  is composite has none).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_paddle_coverage.py``.
phiops.runtime.kernels.coverage reads the file; tests/ops/test_kernel_coverage.py checks the report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import paddle
import yaml
from paddle.base import core

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "runtime" / "kernels" / "paddle_3_3_1_cpu.json"


def kernel_functions(entry: dict) -> list[str]:
    """``kernel: func:`` as a list of names: "a {dense -> dense}, b {selected_rows -> ...}" -> [a, b]
    (the entries are separated by commas or by line breaks alone)."""
    text = (entry.get("kernel") or {}).get("func")
    if not text:
        return []
    outside, depth = "", 0
    for ch in text:  # drop the {...} argument kinds
        if ch in "{}":
            depth += 1 if ch == "{" else -1
        elif depth == 0:
            outside += ch
    return [name for name in re.split(r"[,\s]+", outside) if name]


def _dump(data: dict) -> str:
    """JSON with one line per entry of each table (diffs stay readable)."""
    parts = [f'"paddle": {json.dumps(data["paddle"])}']
    for table in ("kernels", "ops", "backward_ops"):
        rows = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data[table].items())
        parts.append(f'"{table}": {{\n{rows}\n}}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    assert paddle.__version__ == "3.3.1", paddle.__version__
    kernels = {}
    for name, keys in sorted(core._get_registered_phi_kernels("all").items()):
        # keys read "(CPU, Undefined(AnyLayout), float32)"
        dtypes = sorted(
            {key.rsplit(", ", 1)[1].rstrip(")") for key in keys if key.startswith("(CPU,")}
        )
        if dtypes:
            kernels[name] = dtypes

    def read(name: str) -> list[dict]:
        return yaml.safe_load((REPO / "ops" / "paddle" / name).read_text())

    backward_by_name = {}
    for name in ("backward.yaml", "dygraph_backward.yaml"):
        for entry in read(name):
            backward_by_name.setdefault(entry["backward_op"], entry)
    backward_ops = {name: kernel_functions(entry) for name, entry in backward_by_name.items()}
    ops = {}
    for name in ("ops.yaml", "dygraph_ops.yaml"):
        for entry in read(name):
            if entry["op"] in ops:
                continue
            chain, next_name = [], entry.get("backward")
            while next_name and next_name in backward_by_name and next_name not in chain:
                chain.append(next_name)
                next_name = backward_by_name[next_name].get("backward")
            ops[entry["op"]] = {"file": name, "kernels": kernel_functions(entry), "backward": chain}
    data = {
        "paddle": paddle.__version__,
        "kernels": kernels,
        "ops": ops,
        "backward_ops": dict(sorted(backward_ops.items())),
    }
    OUT.write_text(_dump(data))
    print(
        f"wrote {len(ops)} ops, {len(backward_ops)} backward ops, {len(kernels)} kernels to {OUT}"
    )


if __name__ == "__main__":
    main()
