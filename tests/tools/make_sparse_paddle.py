"""Writes tests/data/sparse/paddle.json: PaddlePaddle 3.3.1's results and gradients for each case
of tests/sparse/sparse_cases.py (or the error its CPU build raises), which
tests/sparse/test_sparse_paddle.py compares phiops with.

Some of PaddlePaddle 3.3.1's CPU sparse grad kernels corrupt the heap (glibc aborts the
process, or it hangs): the cases run in a worker process that prints one JSON line per case;
when it dies or stalls, the case it was running is recorded as such and a new worker goes on
with the next one.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_sparse_paddle.py``.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "sparse"))

import sparse_cases  # noqa: E402

OUT = ROOT / "tests" / "data" / "sparse" / "paddle.json"
STALL_SECONDS = 40


def worker(start: int) -> None:
    """Run the cases from index ``start`` on, one JSON line each: [name, result]."""
    import paddle

    paddle.set_device("cpu")
    print(json.dumps(["<version>", paddle.__version__]), flush=True)
    for name in list(sparse_cases.CASES)[start:]:
        print(json.dumps(["<start>", name]), flush=True)
        print(json.dumps([name, sparse_cases.run(paddle, name)]), flush=True)


def main() -> None:
    names = list(sparse_cases.CASES)
    results: dict[str, dict] = {}
    version = None
    while len(results) < len(names):
        start = len(results)
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        running = None
        # A line per case start and end; a worker silent for STALL_SECONDS has hung.
        reader = selectors.DefaultSelector()
        reader.register(process.stdout, selectors.EVENT_READ)
        while True:
            if not reader.select(timeout=STALL_SECONDS):
                process.kill()
                break
            line = process.stdout.readline()
            if not line:
                break
            if not line.startswith('["'):
                continue  # something PaddlePaddle printed
            key, value = json.loads(line)
            if key == "<version>":
                version = value
            elif key == "<start>":
                running = value
            else:
                results[key] = value
                running = None
        process.kill()
        process.wait()
        if running is not None and running not in results:
            results[running] = {"error": "PaddlePaddle's process died running it (heap corruption)"}
        elif len(results) == start:
            raise SystemExit("the worker made no progress")
    record = {"paddle": version, "cases": {name: results[name] for name in names}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    failed = [name for name, result in record["cases"].items() if "error" in result]
    print(f"wrote {OUT}: {len(names)} cases, {len(failed)} PaddlePaddle cannot run")
    for name in failed:
        print(f"  {name}: {record['cases'][name]['error']}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
