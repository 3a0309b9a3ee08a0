"""Writes tests/data/vision/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
vision ops (pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold, affine_grid) for
each dtype PaddlePaddle
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
    values = RNG.uniform(-2, 2, size=shape)
    if dtype.startswith("complex"):
        values = values + 1j * RNG.uniform(-2, 2, size=shape)
    return values.astype(dtype)


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
    ("k2x2", "unfold", [(2, 3, 4, 5)], [[2, 2], [1, 1], [0, 0, 0, 0], [1, 1]]),
    ("k2x3-s1x2-p1,0,2,1-d1x2", "unfold", [(1, 2, 5, 7)], [[2, 3], [1, 2], [1, 0, 2, 1], [1, 2]]),
    ("k3x3-s2x2-p1", "unfold", [(2, 1, 6, 6)], [[3, 3], [2, 2], [1, 1, 1, 1], [1, 1]]),
    ("o4x5-k2x2", "fold", [(2, 12, 12)], [[4, 5], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1]]),
    (
        "o5x6-k2x3-s1x2-p1-d2x1",
        "fold",
        [(1, 12, 15)],
        [[5, 6], [2, 3], [1, 2], [1, 1, 1, 1], [2, 1]],
    ),
    ("o6x6-k3x3-s2x2-p1,0", "fold", [(2, 9, 6)], [[6, 6], [3, 3], [2, 2], [1, 0, 1, 0], [1, 1]]),
    ("2d-aligned", "affine_grid", [(2, 2, 3)], [[2, 3, 4, 5], True]),
    ("2d-not_aligned", "affine_grid", [(2, 2, 3)], [[2, 1, 3, 2], False]),
    ("3d-aligned", "affine_grid", [(1, 3, 4)], [[1, 1, 2, 3, 4], True]),
    ("3d-not_aligned", "affine_grid", [(2, 3, 4)], [[2, 2, 3, 2, 2], False]),
]


def encode(array: np.ndarray) -> dict:
    flat = array.reshape(-1)
    if flat.dtype.kind == "c":
        data = [[float(v.real), float(v.imag)] for v in flat]
    else:
        data = flat.tolist()
    return {"shape": list(array.shape), "dtype": str(array.dtype), "data": data}


def run(op: str, arrays: list[np.ndarray], attrs: list, grad: bool) -> dict:
    inputs = [paddle.to_tensor(a, stop_gradient=not grad) for a in arrays]
    out = getattr(paddle._C_ops, op)(*inputs, *attrs)
    entry: dict = {"op": op, "attrs": attrs, "inputs": [encode(a) for a in arrays]}
    entry["out"] = encode(out.numpy())
    if grad:
        out_grad = uniform(tuple(out.shape), str(arrays[0].dtype))
        grads = paddle.grad(out, inputs, paddle.to_tensor(out_grad), allow_unused=True)
        entry["out_grad"] = encode(out_grad)
        entry["grads"] = [None if g is None else encode(g.numpy()) for g in grads]
    return entry


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
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
