"""Writes runtime/amp/paddle_amp_lists_3_3_1.json (PaddlePaddle's paddle.amp op lists, which
phiops.amp returns) and tests/data/amp/paddle_3_3_1.json: what PaddlePaddle 3.3.1 (CPU) does with paddle.amp:
its op lists (``white_list()``/``black_list()``), the warnings auto_cast and GradScaler give on the
CPU (where both have no effect), the dtypes ops inside auto_cast give there, a GradScaler's
disabled behaviour (``scale`` returns the loss, ``step`` updates as the optimizer alone, empty
``state_dict``), and ``decorate(level='O2')`` leaving parameters float32 on the CPU.
tests/amp/test_amp_paddle.py compares phiops with them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_amp_fixtures.py``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "amp" / "paddle_3_3_1.json"
# the lists phiops.amp.white_list()/black_list() return, shipped with the runtime
LISTS = Path(__file__).resolve().parents[2] / "runtime" / "amp" / "paddle_amp_lists_3_3_1.json"


def _messages(record: list) -> list[str]:
    return [str(w.message) for w in record]


def main() -> None:
    paddle.set_device("cpu")
    data: dict = {
        "white_list": {
            d: {lvl: sorted(ops) for lvl, ops in levels.items()}
            for d, levels in paddle.amp.white_list().items()
        },
        "black_list": {
            d: {lvl: sorted(ops) for lvl, ops in levels.items()}
            for d, levels in paddle.amp.black_list().items()
        },
        "is_float16_supported": paddle.amp.is_float16_supported(),
        "is_bfloat16_supported": paddle.amp.is_bfloat16_supported(),
    }
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    w = paddle.to_tensor(np.linspace(0.5, -0.5, 8, dtype=np.float32).reshape(4, 2))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with paddle.amp.auto_cast(level="O1", dtype="float16"):
            out = paddle.matmul(x, w)
            soft = paddle.nn.functional.softmax(out)
    data["auto_cast_cpu"] = {
        "warnings": _messages(record),
        "matmul_dtype": str(out.dtype),
        "softmax_dtype": str(soft.dtype),
        "matmul": out.numpy().tolist(),
    }
    paddle.seed(7)
    layer = paddle.nn.Linear(4, 2)
    weight0 = layer.weight.numpy().copy()
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    loss = layer(x).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    data["grad_scaler_cpu"] = {
        "warnings": _messages(record),
        "is_enable": scaler.is_enable(),
        "scaled_equals_loss": bool(float(scaled) == float(loss)),
        "state_dict": {k: str(v) for k, v in scaler.state_dict().items()},
        "weight0": weight0.tolist(),
        "weight1": layer.weight.numpy().tolist(),
        "bias1": layer.bias.numpy().tolist(),
    }
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.LayerNorm(4))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        decorated = paddle.amp.decorate(model, level="O2")
    data["decorate_cpu"] = {
        "warnings": _messages(record),
        "dtypes": [str(p.dtype) for p in decorated.parameters()],
    }
    errors = {}
    for name, call in {
        "level": lambda: paddle.amp.auto_cast(level="O3").__enter__(),
        "dtype": lambda: paddle.amp.auto_cast(dtype="float64").__enter__(),
        "overlap": lambda: paddle.amp.auto_cast(
            custom_white_list={"relu"}, custom_black_list={"relu"}
        ).__enter__(),
    }.items():
        try:
            call()
            errors[name] = None
        except Exception as error:  # noqa: BLE001 - recording whatever PaddlePaddle raises
            errors[name] = [type(error).__name__, str(error)]
    data["errors"] = errors
    lists = {
        "source": "PaddlePaddle 3.3.1, paddle.amp.white_list() and paddle.amp.black_list() "
        "(written by tests/tools/make_amp_fixtures.py)",
        "white_list": data["white_list"],
        "black_list": data["black_list"],
    }
    LISTS.write_text(json.dumps(lists, indent=1, sort_keys=True) + "\n")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
