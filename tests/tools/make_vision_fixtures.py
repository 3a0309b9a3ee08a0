"""Writes tests/data/vision/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
vision ops (pixel_shuffle, pixel_unshuffle, channel_shuffle) for each dtype PaddlePaddle
registers on CPU, both data formats, factors and group counts; tests/ops/test_vision_paddle.py
compares phiops with them (no PaddlePaddle needed there).

Each case calls ``paddle._C_ops.<op>(*inputs, *attrs)`` (the op-level function phiops generates
with the same arguments) and records the gradient of ``sum(out * out_grad)`` for every input.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_vision_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "vision" / "paddle_3_3_1.json"
RNG = np.random.default_rng(2024)


def uniform(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return RNG.uniform(-2, 2, size=shape).astype(dtype)


# (case name, op, input shapes, attributes)
SPECS: list[tuple[str, str, list[tuple[int, ...]], list]] = [
    ("r2", "pixel_shuffle", [(2, 8, 3, 4)], [2, "NCHW"]),
    ("r3", "pixel_shuffle", [(1, 18, 2, 3)], [3, "NCHW"]),
    ("r2-NHWC", "pixel_shuffle", [(2, 3, 4, 8)], [2, "NHWC"]),
    ("r1", "pixel_shuffle", [(1, 3, 2, 2)], [1, "NCHW"]),
    ("r2", "pixel_unshuffle", [(2, 2, 4, 6)], [2, "NCHW"]),
    ("r3", "pixel_unshuffle", [(1, 1, 6, 3)], [3, "NCHW"]),
    ("r2-NHWC", "pixel_unshuffle", [(2, 4, 6, 3)], [2, "NHWC"]),
    ("g2", "channel_shuffle", [(2, 8, 3, 2)], [2, "NCHW"]),
    ("g3", "channel_shuffle", [(1, 6, 2, 2)], [3, "NCHW"]),
    ("g4-NHWC", "channel_shuffle", [(2, 3, 2, 8)], [4, "NHWC"]),
]


def encode(array: np.ndarray) -> dict:
    return {
        "shape": list(array.shape),
        "dtype": str(array.dtype),
        "data": array.reshape(-1).tolist(),
    }


def run(op: str, arrays: list[np.ndarray], attrs: list, grad: bool) -> dict:
    inputs = [paddle.to_tensor(a, stop_gradient=not grad) for a in arrays]
    out = getattr(paddle._C_ops, op)(*inputs, *attrs)
    entry: dict = {"op": op, "attrs": attrs, "inputs": [encode(a) for a in arrays]}
    entry["out"] = encode(out.numpy())
    if grad:
        out_grad = uniform(tuple(out.shape), arrays[0].dtype)
        grads = paddle.grad(out, inputs, paddle.to_tensor(out_grad), allow_unused=True)
        entry["out_grad"] = encode(out_grad)
        entry["grads"] = [None if g is None else encode(g.numpy()) for g in grads]
    return entry


def main() -> None:
    kernel_dtypes = json.loads((OUT.parents[1] / "paddle_cpu_kernel_dtypes.json").read_text())
    cases: dict[str, dict] = {}
    for name, op, shapes, attrs in SPECS:
        for dtype in kernel_dtypes[op]:
            arrays = [uniform(shape, dtype) for shape in shapes]
            grad = dtype in kernel_dtypes.get(f"{op}_grad", [])
            cases[f"{op}-{name}-{dtype}"] = run(op, arrays, attrs, grad)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(cases.items()))
    OUT.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
