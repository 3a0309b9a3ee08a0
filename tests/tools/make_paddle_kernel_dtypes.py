"""Writes tests/data/paddle_cpu_kernel_dtypes.json: the dtypes PaddlePaddle 3.3.1's CPU build
registers for each PHI kernel, as its kernel factory reports them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_paddle_kernel_dtypes.py``.
tests/ops/test_paddle_dtypes.py compares phiops' CPU registrations with this file.
"""

from __future__ import annotations

import json
from pathlib import Path

from paddle.base import core

OUT = Path(__file__).resolve().parents[1] / "data" / "paddle_cpu_kernel_dtypes.json"


def main() -> None:
    kernels = core._get_registered_phi_kernels("all")
    table = {}
    for name, keys in sorted(kernels.items()):
        # keys read "(CPU, Undefined(AnyLayout), float32)"
        dtypes = sorted(
            {key.rsplit(", ", 1)[1].rstrip(")") for key in keys if key.startswith("(CPU,")}
        )
        if dtypes:
            table[name] = dtypes
    lines = [f"{json.dumps(name)}: {json.dumps(dtypes)}" for name, dtypes in table.items()]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {len(table)} kernels to {OUT}")


if __name__ == "__main__":
    main()
