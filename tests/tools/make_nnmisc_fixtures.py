"""Writes tests/data/nnmisc/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and input gradients
of the losses in tests/tools/nnmisc_cases.py, and, for the same weights, what its containers
(ParameterList, LayerDict: state_dict keys), ``paddle.nn.utils`` (weight_norm, spectral_norm,
clip_grad_norm_) give; tests/nn/test_nnmisc_*.py compare phiops with them.

Run with the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_nnmisc_fixtures.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nnmisc_cases import (  # noqa: E402  (tests/tools/, beside this script)
    AMP_CONFIGS,
    AMP_W,
    AMP_X,
    AMP_Y,
    B4,
    G1,
    G2,
    U3,
    U4,
    V3,
    V8,
    W34,
    WCONV,
    X23,
    XCONV,
    cases,
    inputs,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "nnmisc" / "paddle_3_3_1.json"
ARRAYS = inputs()
FUNCTIONS, LAYERS = cases(paddle)


def run(fn, names: list[str], n_grad: int) -> dict:
    tensors = []
    for index, name in enumerate(names):
        t = paddle.to_tensor(ARRAYS[name])
        t.stop_gradient = index >= n_grad
        tensors.append(t)
    out = fn(*tensors)
    if n_grad:
        weights = paddle.to_tensor(
            np.linspace(0.5, 1.5, max(out.size, 1)).astype(out.numpy().dtype).reshape(out.shape)
        )
        (out * weights).sum().backward()
    return {
        "out": out.numpy().tolist(),
        "shape": list(out.shape),
        "dtype": str(out.dtype).split(".")[-1],
        "grads": [t.grad.numpy().tolist() for t in tensors[:n_grad]],
    }


def linear() -> paddle.nn.Linear:
    layer = paddle.nn.Linear(3, 4)
    layer.weight.set_value(W34)
    layer.bias.set_value(B4)
    return layer


def conv() -> paddle.nn.Conv2D:
    layer = paddle.nn.Conv2D(2, 3, 2)
    layer.weight.set_value(WCONV)
    layer.bias.set_value(np.zeros(3, np.float32))
    return layer


def trained(layer, x: np.ndarray) -> dict:
    """Forward ``x``, backward of the weighted sum; the parameters' names, shapes, values and
    gradients."""
    out = layer(paddle.to_tensor(x))
    weights = np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape)
    (out * paddle.to_tensor(weights)).sum().backward()
    return {
        "out": out.numpy().tolist(),
        "params": {
            name: {
                "shape": list(p.shape),
                "value": p.numpy().tolist(),
                "grad": None if p.grad is None else p.grad.numpy().tolist(),
            }
            for name, p in layer.named_parameters()
        },
        "state_keys": list(layer.state_dict().keys()),
    }


def weight_norm_cases() -> dict:
    results = {}
    for label, make, dim, x in [
        ("linear_dim0", linear, 0, X23),
        ("linear_dim1", linear, 1, X23),
        ("linear_none", linear, None, X23),
        ("conv_dim0", conv, 0, XCONV),
        ("conv_dim2", conv, 2, XCONV),
        ("conv_dim_last", conv, -1, XCONV),
    ]:
        layer = paddle.nn.utils.weight_norm(make(), dim=dim)
        results[label] = trained(layer, x)
    layer = paddle.nn.utils.weight_norm(linear(), dim=1)
    with paddle.no_grad():
        layer.weight_g.set_value(layer.weight_g.numpy() * 2)
    paddle.nn.utils.remove_weight_norm(layer)
    results["removed"] = {
        "state_keys": list(layer.state_dict().keys()),
        "weight": layer.weight.numpy().tolist(),
    }
    return results


def spectral_norm_cases() -> dict:
    results = {}
    layer = paddle.nn.utils.spectral_norm(linear())
    layer.weight_u.set_value(U4)
    layer.weight_v.set_value(V3)
    result = trained(layer, X23)
    result["u"] = layer.weight_u.numpy().tolist()
    result["v"] = layer.weight_v.numpy().tolist()
    result["buffer_keys"] = [name for name, _ in layer.named_buffers()]
    layer.eval()
    result["eval_out"] = layer(paddle.to_tensor(X23)).numpy().tolist()
    results["linear"] = result

    layer = paddle.nn.utils.spectral_norm(conv(), n_power_iterations=2, eps=1e-6)
    layer.weight_u.set_value(U3)
    layer.weight_v.set_value(V8)
    result = trained(layer, XCONV)
    result["u"] = layer.weight_u.numpy().tolist()
    result["v"] = layer.weight_v.numpy().tolist()
    results["conv"] = result
    return results


def clip_cases() -> dict:
    results = {}
    for label, max_norm, norm_type in [
        ("l2", 1.0, 2.0),
        ("l1", 5.0, 1.0),
        ("inf", 0.5, float("inf")),
        ("zero", 4.0, 0),
        ("no_clip", 100.0, 2.0),
    ]:
        p1 = paddle.create_parameter([3, 4], "float32")
        p2 = paddle.create_parameter([5], "float32")
        ((p1 * paddle.to_tensor(G1)).sum() + (p2 * paddle.to_tensor(G2)).sum()).backward()
        total = paddle.nn.utils.clip_grad_norm_([p1, p2], max_norm, norm_type)
        results[label] = {
            "total": float(total),
            "grads": [p1.grad.numpy().tolist(), p2.grad.numpy().tolist()],
        }
    return results


class Holder(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.params = paddle.nn.ParameterList(
            [paddle.create_parameter([2, 3], "float32") for _ in range(2)]
        )
        self.params.append(paddle.create_parameter([4], "float32"))
        self.blocks = paddle.nn.LayerDict(
            [("fc", paddle.nn.Linear(3, 2)), ("act", paddle.nn.ReLU())]
        )
        self.blocks["bn"] = paddle.nn.BatchNorm1D(2)


def container_cases() -> dict:
    holder = Holder()
    return {
        "state_shapes": {k: list(v.shape) for k, v in holder.state_dict().items()},
        "parameter_names": [name for name, _ in holder.named_parameters()],
        "layer_dict_keys": list(holder.blocks.keys()),
    }


def amp_model_case() -> dict:
    """One Model.train_batch with amp_configs on the CPU: PaddlePaddle warns (scaler and
    auto_cast) and trains in float32."""
    import warnings

    net = paddle.nn.Linear(4, 3)
    net.weight.set_value(AMP_W)
    net.bias.set_value(np.zeros(3, np.float32))
    model = paddle.Model(net)
    model.prepare(
        paddle.optimizer.SGD(0.1, parameters=model.parameters()),
        paddle.nn.CrossEntropyLoss(),
        amp_configs=AMP_CONFIGS,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = model.train_batch([AMP_X], [AMP_Y])
    return {
        "loss": float(losses[0]),
        "weight": net.weight.numpy().tolist(),
        "bias": net.bias.numpy().tolist(),
        "scaler_enabled": model._scaler.is_enable(),
        "scaling": model._scaler.get_init_loss_scaling(),
        "warnings": sorted(
            str(w.message).split(",")[0] for w in caught if "CUDAPlace" in str(w.message)
        ),
    }


def main() -> None:
    paddle.set_device("cpu")
    data = {
        "inputs": {name: array.tolist() for name, array in ARRAYS.items()},
        "functions": {name: run(*case) for name, case in FUNCTIONS.items()},
        "layers": {name: run(make(), names, n) for name, (make, names, n) in LAYERS.items()},
        "weight_norm": weight_norm_cases(),
        "spectral_norm": spectral_norm_cases(),
        "clip_grad_norm": clip_cases(),
        "containers": container_cases(),
        "amp_model": amp_model_case(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
