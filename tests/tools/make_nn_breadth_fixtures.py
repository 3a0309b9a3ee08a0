"""Writes tests/data/nn_breadth/paddle_3_3_1.json: PaddlePaddle 3.3.1's results (and input
gradients) of the paddle.nn.functional activations and padding functions and of their layers, on
fixed inputs; tests/nn/test_nn_breadth.py compares phiops with them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_nn_breadth_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

from nn_breadth_cases import cases  # tests/tools/, beside this script

OUT = Path(__file__).resolve().parents[1] / "data" / "nn_breadth" / "paddle_3_3_1.json"
F = paddle.nn.functional

X, FUNCTIONS, LAYERS = cases(paddle)


def run(fn, array) -> dict:
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    out = fn(x)
    weights = paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(out.numpy().dtype).reshape(out.shape)
    )
    (out * weights).sum().backward()
    return {
        "out": out.numpy().tolist(),
        "dtype": str(out.dtype).split(".")[-1],
        "grad": x.grad.numpy().tolist(),
    }


def main() -> None:
    paddle.set_device("cpu")
    data = {
        "X": X.tolist(),
        "functions": {name: run(fn, x) for name, (fn, x) in FUNCTIONS.items()},
        "layers": {name: run(make(), x) for name, (make, x) in LAYERS.items()},
        "one_hot": F.one_hot(paddle.to_tensor(np.array([[0, 3], [2, 1]], np.int64)), 4)
        .numpy()
        .tolist(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
