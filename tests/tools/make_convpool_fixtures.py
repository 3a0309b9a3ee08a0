"""Writes tests/data/convpool/paddle_3_3_1.json: PaddlePaddle 3.3.1's results, masks and
gradients (of the input and of each parameter) of the 1-D/3-D convolutions and pools and the
adaptive pools of paddle.nn.functional and paddle.nn, on the fixed inputs and weights of
tests/tools/convpool_cases.py, plus the layers' state_dict keys, shapes and dtypes and their
default initializers' statistics; tests/nn/test_convpool.py compares phiops with them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_convpool_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

from convpool_cases import INIT_LAYERS, cases, fill  # tests/tools/, beside this script

OUT = Path(__file__).resolve().parents[1] / "data" / "convpool" / "paddle_3_3_1.json"

INPUTS, FUNCTIONS, LAYERS = cases(paddle)


def plain(array) -> list:
    """``array`` as nested lists, floats at 9 significant digits (float32 exactly, in less
    space than the doubles' 17)."""
    array = np.asarray(array)
    if array.dtype.kind in "iub":
        return array.tolist()
    rounded = [float(f"{value:.9g}") for value in array.astype(np.float64).ravel()]
    return np.array(rounded).reshape(array.shape).tolist()


def run(fn, array, layer=None) -> dict:
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    result = fn(x)
    out, mask = result if isinstance(result, (tuple, list)) else (result, None)
    weights = paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape)
    )
    (out * weights).sum().backward()
    record = {
        "out": plain(out.numpy()),
        "shape": list(out.shape),
        "dtype": str(out.dtype).split(".")[-1],
        "grad": plain(x.grad.numpy()),
    }
    if mask is not None:
        record["mask"] = mask.numpy().tolist()
        record["mask_dtype"] = str(mask.dtype).split(".")[-1]
    if layer is not None:
        record["state"] = {
            key: {"shape": list(value.shape), "dtype": str(value.dtype).split(".")[-1]}
            for key, value in layer.state_dict().items()
        }
        record["param_grads"] = {
            key: plain(param.grad.numpy()) for key, param in layer.named_parameters()
        }
    return record


def layer_case(make, name):
    layer = make()
    fill(layer)
    return run(layer, INPUTS[name], layer)


def init_stats(make) -> dict:
    paddle.seed(2024)
    layer = make(paddle.nn)
    stats = {}
    for key, value in layer.state_dict().items():
        array = value.numpy().astype(np.float64)
        stats[key] = {
            "shape": list(array.shape),
            "mean": float(array.mean()),
            "std": float(array.std()),
            "min": float(array.min()),
            "max": float(array.max()),
        }
    return stats


def main() -> None:
    paddle.set_device("cpu")
    data = {
        "inputs": {name: plain(array) for name, array in INPUTS.items()},
        "functions": {name: run(fn, INPUTS[x]) for name, (fn, x) in FUNCTIONS.items()},
        "layers": {name: layer_case(make, x) for name, (make, x) in LAYERS.items()},
        "init": {name: init_stats(make) for name, make in INIT_LAYERS.items()},
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
