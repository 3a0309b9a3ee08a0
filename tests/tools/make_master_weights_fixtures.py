"""Record PaddlePaddle 3.3.1's SGD with float32 master weights of bfloat16 parameters on CPU
(the one of SGD/Momentum/Adam/AdamW whose CPU kernel has bfloat16; the others raise NotFound for
bfloat16 on CPU) for tests/amp/test_master_weights.py: 20 steps of ``SGD(multi_precision=True)``
on a bfloat16 Linear(3, 2) whose gradients are fixed float32 values cast to bfloat16.

PaddlePaddle's CPU sgd kernel ignores ``master_param``: it creates the masters (named
``<param>_fp32_master_0``) but steps the bfloat16 parameters directly and leaves the masters at
their first values. The recording keeps what it does; the test compares phiops's masters with
numpy (GPU kernels' semantics) and phiops's plain bfloat16 SGD with this recording.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_master_weights_fixtures.py``; writes tests/data/master_weights/sgd_bf16.npz.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "master_weights" / "sgd_bf16.npz"
STEPS = 20


def inputs() -> dict[str, np.ndarray]:
    """The initial float32 weights and the per-step float32 gradient factors (the test makes the
    same ones)."""
    rng = np.random.default_rng(25)
    return {
        "weight0": rng.standard_normal((3, 2)).astype(np.float32),
        "bias0": rng.standard_normal((2,)).astype(np.float32),
        "coef_w": rng.standard_normal((STEPS, 3, 2)).astype(np.float32),
        "coef_b": rng.standard_normal((STEPS, 2)).astype(np.float32),
    }


def main() -> None:
    paddle.set_device("cpu")
    data = inputs()
    layer = paddle.nn.Linear(3, 2)
    layer.weight.set_value(data["weight0"])
    layer.bias.set_value(data["bias0"])
    layer.to(dtype="bfloat16")
    opt = paddle.optimizer.SGD(0.05, parameters=layer.parameters(), multi_precision=True)
    for step in range(STEPS):
        loss = (layer.weight.astype("float32") * paddle.to_tensor(data["coef_w"][step])).sum()
        loss = loss + (layer.bias.astype("float32") * paddle.to_tensor(data["coef_b"][step])).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
    masters = opt.state_dict()["master_weights"]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        OUT,
        **data,
        master_weight=masters["linear_0.w_0"].numpy(),
        master_bias=masters["linear_0.b_0"].numpy(),
        master_names=np.array([masters["linear_0.w_0"].name, masters["linear_0.b_0"].name]),
        weight=layer.weight.astype("float32").numpy(),
        bias=layer.bias.astype("float32").numpy(),
    )
    print("wrote", OUT)


if __name__ == "__main__":
    main()
