"""Write tests/data/nn/transformer/: PaddlePaddle 3.3.1's attention and Transformer layers on the
cases of tests/nn/transformer_cases.py, for tests/nn/test_transformer.py (no paddle).

For each case, ``<case>.npz`` holds ``state/<key>`` (the layer's state_dict as PaddlePaddle
initialises it with ``paddle.seed``), ``input/<name>``, ``output/<name>`` (eval mode) and, for
the cases that backpropagate sum(output * probe), ``grad_input/<name>`` and
``grad_param/<key>``. ``classifier.npz`` holds the tutorial classifier's initial state, its
training data, PaddlePaddle's losses over a few Adam steps and its logits after them.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_transformer_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.nn import transformer_cases as cases  # noqa: E402  (the repository root is on the path)

OUT = Path(__file__).resolve().parents[1] / "data" / "nn" / "transformer"


def write_case(index: int, name: str) -> None:
    paddle.seed(2024 + index)
    arrays = cases.make_inputs(name, np.random.default_rng(100 + index))
    layer, inputs, outputs, _ = cases.run(paddle, name, arrays)
    data = {f"input/{key}": value for key, value in arrays.items()}
    data.update({f"output/{key}": value.numpy() for key, value in outputs.items()})
    if layer is not None:
        data.update({f"state/{key}": value.numpy() for key, value in layer.state_dict().items()})
    if cases.CASES[name].grads:
        for key, tensor in inputs.items():
            if not tensor.stop_gradient:
                data[f"grad_input/{key}"] = tensor.grad.numpy()
        if layer is not None:
            for key, parameter in layer.named_parameters():
                data[f"grad_param/{key}"] = parameter.grad.numpy()
    np.savez_compressed(OUT / f"{name}.npz", **data)


def write_classifier() -> None:
    paddle.seed(7)
    model = cases.classifier(paddle)()
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, cases.SEQ, cases.D)).astype(np.float32)
    y = rng.integers(0, cases.CLASSES, (8,)).astype(np.int64)
    data = {f"state/{key}": value.numpy() for key, value in model.state_dict().items()}
    losses = cases.train_classifier(paddle, model, x, y, steps=4)
    model.eval()
    data.update(x=x, y=y, losses=np.array(losses, np.float32))
    data["logits"] = model(paddle.to_tensor(x)).numpy()
    np.savez_compressed(OUT / "classifier.npz", **data)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for index, name in enumerate(cases.CASES):
        write_case(index, name)
    write_classifier()
    print(f"wrote {len(cases.CASES) + 1} files to {OUT}")


if __name__ == "__main__":
    main()
