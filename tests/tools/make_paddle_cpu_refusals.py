"""Writes runtime/kernels/paddle_3_3_1_cpu_refusals.json: the ops PaddlePaddle 3.3.1 registers a
CPU kernel for that refuse to run on the CPU, each with the error 3.3.1 raises.

``phiops kernels --coverage`` counts an op as in scope when 3.3.1 registers a CPU kernel for it.
Some of those kernels are placeholders: their body raises ("only supports GPU now", "Do not support
... for cpu kernel now"), so there is no CPU result to match. This script calls each candidate op
through ``paddle._C_ops`` on small valid inputs, each in a subprocess of its own (a crash in one
cannot hide another), and records the op only when 3.3.1 raises; an op that runs is reported and
left out of the file, so it stays in scope.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_paddle_cpu_refusals.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "runtime" / "kernels" / "paddle_3_3_1_cpu_refusals.json"

# op -> a _C_ops call on small valid inputs (names: C = paddle._C_ops, i64/i32/f32 builders)
CALLS = {
    "number_count": "C.number_count(i64([0, 1, 1, 3]), 4)",
    "assign_pos": "C.assign_pos(i64([0, 1, 1, 3]), i64([1, 3, 3, 4]), i64([4]))",
    "limit_by_capacity": "C.limit_by_capacity(i64([1, 2, 3, 4]), i64([2, 2, 2, 2]), 1)",
    "prune_gate_by_capacity": "C.prune_gate_by_capacity(i64([0, 1, 1, 3]), i64([1, 1, 1, 1]), 4, 1)",
    "batch_fc": "C.batch_fc(f32(2, 3, 4), f32(2, 4, 5), f32(2, 5))",
    "rank_attention": "C.rank_attention(f32(2, 4), i32(np.zeros((2, 7))), f32(12, 3), 3, 0)",
    "margin_cross_entropy": (
        "C.margin_cross_entropy(f32(4, 5), i64([[0], [1], [2], [3]]), False, 0, 0, 1, 1.0, 0.5, "
        "0.0, 64.0)"
    ),
    "decode_jpeg": "C.decode_jpeg(paddle.to_tensor(np.zeros([16], np.uint8)), 'unchanged', paddle.CPUPlace())",
    "cudnn_lstm": (
        "C.cudnn_lstm(f32(3, 2, 4), f32(1, 2, 5), f32(1, 2, 5), None, "
        "[f32(20, 4), f32(20, 5), f32(20), f32(20)], None, 0.0, False, 5, 1, True, 0)"
    ),
}

PRELUDE = """
import json, numpy as np, paddle
paddle.set_device("cpu")
C = paddle._C_ops
i64 = lambda a: paddle.to_tensor(np.asarray(a, dtype=np.int64))
i32 = lambda a: paddle.to_tensor(np.asarray(a, dtype=np.int32))
f32 = lambda *s: paddle.to_tensor(np.random.default_rng(0).random(s, dtype=np.float32))
try:
    out = {call}
except Exception as e:
    print("REFUSES", json.dumps([type(e).__name__, str(e)]))
else:
    print("RUNS")
"""

_WHERE = re.compile(r"\(at (/paddle/)?(?P<where>paddle/phi/[^)]+)\)")


def probe(op: str, call: str) -> dict | None:
    proc = subprocess.run(
        [sys.executable, "-c", PRELUDE.format(call=call)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = next((l for l in proc.stdout.splitlines() if l.startswith(("REFUSES", "RUNS"))), None)
    if line is None:
        raise SystemExit(f"{op}: no result (exit {proc.returncode}): {proc.stderr[-2000:]}")
    if line == "RUNS":
        print(f"{op}: runs on CPU in 3.3.1, stays in scope")
        return None
    kind, message = json.loads(line.split(" ", 1)[1])
    where = _WHERE.search(message)
    text = _WHERE.sub("", message.strip().splitlines()[0] if message.strip() else "").strip()
    return {
        "call": call,
        "error": kind,
        "message": text,
        "where": where.group("where") if where else "",
    }


def main() -> None:
    import paddle

    ops = {}
    for op, call in CALLS.items():
        found = probe(op, call)
        if found is not None:
            ops[op] = found
            print(f"{op}: {found['error']}: {found['message']}")
    OUT.write_text(json.dumps({"paddle": paddle.__version__, "ops": ops}, indent=1) + "\n")
    print(f"wrote {OUT} ({len(ops)} ops)")


if __name__ == "__main__":
    main()
