"""Writes tests/data/sparse_conv/paddle.json: PaddlePaddle 3.3.1's outputs (shape, indices,
values), gradients and running statistics for each case of tests/sparse/sparse_conv_cases.py
(or the error it raises), which tests/sparse/test_sparse_conv_paddle.py compares phiops with.

Each case runs in its own process (some of PaddlePaddle's CPU sparse grad kernels corrupt the
heap; a case whose process dies is recorded with its exit status).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_sparse_conv_fixtures.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "sparse"))

import sparse_conv_cases  # noqa: E402

OUT = ROOT / "tests" / "data" / "sparse_conv" / "paddle.json"


def worker(name: str) -> None:
    import warnings

    warnings.filterwarnings("ignore")
    import paddle

    paddle.set_device("cpu")
    print(
        json.dumps({"version": paddle.__version__, "result": sparse_conv_cases.run(paddle, name)})
    )


def main() -> None:
    results: dict[str, dict] = {}
    version = None
    for name in sparse_conv_cases.CASES:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", name],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            results[name] = {"error": f"the process died with status {done.returncode}"}
            continue
        line = json.loads(done.stdout.strip().splitlines()[-1])
        version = line["version"]
        results[name] = line["result"]
        print(name, "error" in line["result"] and line["result"]["error"] or "ok", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"paddle": version, "cases": results}, indent=0) + "\n", "utf-8")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
