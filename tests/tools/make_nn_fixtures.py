"""Write tests/data/nn/: what PaddlePaddle 3.3.1's layers are made of, for tests/nn/ (no paddle).

- layers.json: for each layer (constructor arguments below), its state_dict keys with shapes,
  and the mean/std of each parameter as PaddlePaddle initialises it by default;
- model.pdparams + model_io.npz: ``paddle.save(model.state_dict())`` of tests/nn/small_net.py's
  CNN (every layer kind with parameters or buffers) after a few training steps, and its eval-mode
  forward output on a fixed input;
- lr.json: the rates of StepDecay and CosineAnnealingDecay over 12 steps.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_nn_fixtures.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle
import paddle.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.nn.small_net import small_net  # noqa: E402  (the repository root is on the path)

OUT = Path(__file__).resolve().parents[1] / "data" / "nn"

# name -> (class name, positional args, keyword args); large enough for initialisation statistics
LAYERS = {
    "linear": ("Linear", [256, 128], {}),
    "linear_no_bias": ("Linear", [16, 8], {"bias_attr": False}),
    "conv2d": ("Conv2D", [16, 32, 3], {}),
    "conv2d_groups": ("Conv2D", [8, 16, [3, 5]], {"groups": 2}),
    "conv2d_transpose": ("Conv2DTranspose", [16, 32, 3], {}),
    "batch_norm1d": ("BatchNorm1D", [64], {}),
    "batch_norm2d": ("BatchNorm2D", [64], {}),
    "layer_norm": ("LayerNorm", [[4, 16]], {}),
    "group_norm": ("GroupNorm", [4, 64], {}),
    "embedding": ("Embedding", [200, 64], {}),
}


SmallNet = small_net(nn)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.seed(2024)
    layers = {}
    for name, (kind, args, kwargs) in LAYERS.items():
        layer = getattr(nn, kind)(*args, **kwargs)
        layers[name] = {
            "class": kind,
            "args": args,
            "kwargs": kwargs,
            "state": [
                {
                    "key": key,
                    "shape": list(value.shape),
                    "mean": float(value.numpy().mean()),
                    "std": float(value.numpy().std()),
                    "min": float(value.numpy().min()),
                    "max": float(value.numpy().max()),
                }
                for key, value in layer.state_dict().items()
            ],
        }
    (OUT / "layers.json").write_text(json.dumps(layers, indent=1) + "\n")

    model = SmallNet()
    rng = np.random.default_rng(7)
    x = rng.random((6, 1, 8, 8)).astype(np.float32)
    y = rng.integers(0, 10, (6,)).astype(np.int64)
    optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    for _ in range(3):  # running statistics move away from their initial values
        loss = nn.functional.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    model.eval()
    out = model(paddle.to_tensor(x)).numpy()
    paddle.save(model.state_dict(), str(OUT / "model.pdparams"))
    np.savez(OUT / "model_io.npz", x=x, out=out, keys=np.array(list(model.state_dict())))

    schedules = {}
    for name, scheduler in {
        "step_decay": paddle.optimizer.lr.StepDecay(0.5, step_size=3, gamma=0.5),
        "cosine": paddle.optimizer.lr.CosineAnnealingDecay(0.5, T_max=5, eta_min=0.01),
    }.items():
        rates = []
        for _ in range(12):
            rates.append(scheduler())
            scheduler.step()
        schedules[name] = rates
    (OUT / "lr.json").write_text(json.dumps(schedules, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
