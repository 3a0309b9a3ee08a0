"""Record PaddlePaddle 3.3.1's ``paddle.vision.models`` weights and outputs for
tests/vision/test_models.py (run in the side venv:
``/work/paddle-venv/bin/python tests/tools/make_vision_models_fixtures.py``).

For each model in ``MODELS``, built right after ``paddle.seed(0)``: every parameter and buffer
of ``state_dict()`` in order (name, shape, sum, abs-sum, the first four values), then the
eval-mode output (each output, for GoogLeNet's three) for a fixed input drawn from numpy (seed 1)
after the model is built; and
``paddle.vision.models.__all__`` under ``"__all__"``. Writes tests/data/vision/models.json."""

from __future__ import annotations

import json
import os

import numpy as np
import paddle
from paddle.vision import models

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "vision", "models.json")

# name -> (constructor keyword arguments, input shape)
MODELS = {
    "LeNet": ({}, [2, 1, 28, 28]),
    "resnet18": ({"num_classes": 10}, [1, 3, 32, 32]),
    "mobilenet_v2": ({"num_classes": 10}, [1, 3, 32, 32]),
    "squeezenet1_1": ({"num_classes": 10}, [1, 3, 64, 64]),
    "shufflenet_v2_x0_25": ({"num_classes": 10}, [1, 3, 32, 32]),
    "mobilenet_v3_small": ({"num_classes": 10}, [1, 3, 32, 32]),
    "densenet121": ({"num_classes": 10}, [1, 3, 32, 32]),
    "googlenet": ({"num_classes": 10}, [1, 3, 224, 224]),
    "inception_v3": ({"num_classes": 10}, [1, 3, 75, 75]),
}


def record(name: str, kwargs: dict, shape: list[int]) -> dict:
    paddle.seed(0)
    model = getattr(models, name)(**kwargs)
    model.eval()
    params = []
    for key, value in model.state_dict().items():
        array = value.numpy().astype(np.float64)
        params.append(
            {
                "name": key,
                "shape": list(array.shape),
                "sum": float(array.sum()),
                "abs_sum": float(np.abs(array).sum()),
                "head": array.ravel()[:4].tolist(),
            }
        )
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    out = model(paddle.to_tensor(x))
    # GoogLeNet returns its auxiliary classifiers' outputs too: a list of outputs then
    output = [o.numpy().tolist() for o in out] if isinstance(out, tuple) else out.numpy().tolist()
    return {
        "kwargs": kwargs,
        "input_shape": shape,
        "params": params,
        "output": output,
        "outputs": len(out) if isinstance(out, tuple) else 1,
    }


def main() -> None:
    data: dict = {"__all__": sorted(models.__all__)}
    data.update({name: record(name, kwargs, shape) for name, (kwargs, shape) in MODELS.items()})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
