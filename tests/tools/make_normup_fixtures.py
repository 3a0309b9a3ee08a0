"""Writes tests/data/normup/paddle_3_3_1.json: PaddlePaddle 3.3.1's results, input gradients,
parameter names, shapes, initial values, gradients and updated running statistics of the
normalization, upsampling and rearranging functions and layers of paddle.nn on fixed inputs and
weights (tests/tools/normup_cases.py); tests/nn/test_normup.py compares phiops with them.

Run with the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_normup_fixtures.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parent))
from normup_cases import cases, inputs  # noqa: E402  (tests/tools/, beside this script)

OUT = Path(__file__).resolve().parents[1] / "data" / "normup" / "paddle_3_3_1.json"


def output_weights(out: paddle.Tensor) -> paddle.Tensor:
    return paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(out.numpy().dtype).reshape(out.shape)
    )


def run_function(fn, array: np.ndarray) -> dict:
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    out = fn(x)
    (out * output_weights(out)).sum().backward()
    return {
        "out": out.numpy().tolist(),
        "dtype": str(out.dtype).split(".")[-1],
        "grad": x.grad.numpy().tolist(),
    }


def run_layer(make, array: np.ndarray, training: bool) -> dict:
    with paddle.utils.unique_name.guard():
        layer = make()
    initial = {k: v.numpy().tolist() for k, v in layer.state_dict().items()}
    names = {k: v.name for k, v in layer.state_dict().items()}
    forward = layer
    if isinstance(layer, paddle.nn.SyncBatchNorm):
        # PaddlePaddle's CPU build has no sync_batch_norm kernel; with one process the layer
        # is the BatchNorm of its data format, run here on the same state (3-D inputs as 4-D)
        channels_last = layer._data_format in ("NLC", "NHWC", "NDHWC")
        with paddle.utils.unique_name.guard():
            forward = paddle.nn.BatchNorm2D(
                layer._num_features,
                layer._momentum,
                layer._epsilon,
                data_format="NHWC" if channels_last else "NCHW",
            )
        forward.set_state_dict(layer.state_dict())
        for key, value in forward.state_dict().items():
            value.stop_gradient = layer.state_dict()[key].stop_gradient
    forward.train() if training else forward.eval()
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    if forward is not layer and array.ndim == 3:
        out = forward(x.unsqueeze(-1)).squeeze(-1)
    else:
        out = forward(x)
    (out * output_weights(out)).sum().backward()
    return {
        "out": out.numpy().tolist(),
        "dtype": str(out.dtype).split(".")[-1],
        "grad": x.grad.numpy().tolist(),
        "state_names": names,
        "state_keys": list(layer.state_dict()),
        "state_shapes": [list(v.shape) for v in layer.state_dict().values()],
        "state_before": initial,
        "state_after": {k: v.numpy().tolist() for k, v in forward.state_dict().items()},
        "parameter_grads": {
            key: value.grad.numpy().tolist()
            for key, value in forward.state_dict().items()
            if not value.stop_gradient and value.grad is not None
        },
    }


def defaults() -> dict:
    """A default-constructed layer's state (the initializers: constants for these layers)."""
    result = {}
    for name, make in {
        "InstanceNorm2D": lambda: paddle.nn.InstanceNorm2D(4),
        "BatchNorm3D": lambda: paddle.nn.BatchNorm3D(3),
        "SyncBatchNorm": lambda: paddle.nn.SyncBatchNorm(4),
        "SyncBatchNorm_no_affine": lambda: paddle.nn.SyncBatchNorm(
            4, weight_attr=False, bias_attr=False
        ),
    }.items():
        with paddle.utils.unique_name.guard():
            layer = make()
        result[name] = {
            "state": {k: v.numpy().tolist() for k, v in layer.state_dict().items()},
            "trainable": {k: not v.stop_gradient for k, v in layer.state_dict().items()},
            "names": {k: v.name for k, v in layer.state_dict().items()},
        }
    return result


def main() -> None:
    paddle.set_device("cpu")
    arrays = inputs()
    functions, layers = cases(paddle)
    data = {
        "inputs": {k: v.tolist() for k, v in arrays.items()},
        "functions": {name: run_function(fn, arrays[x]) for name, (fn, x) in functions.items()},
        "layers": {
            name: run_layer(make, arrays[x], training)
            for name, (make, x, training) in layers.items()
        },
        "defaults": defaults(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
