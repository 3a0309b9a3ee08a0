"""MultiHeadAttention, the Transformer layers and F.scaled_dot_product_attention against
PaddlePaddle 3.3.1 (tests/data/nn/transformer, written by tests/tools/make_transformer_fixtures.py
from the cases of tests/nn/transformer_cases.py): PaddlePaddle's state dict loads with the same
keys and shapes, and the eval-mode outputs and the gradients w.r.t. the inputs and every
parameter agree (rtol 1e-5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from tests.nn import transformer_cases as cases

DATA = Path(__file__).resolve().parents[1] / "data" / "nn" / "transformer"
RTOL = 1e-5


def _load(name: str) -> dict[str, dict[str, np.ndarray]]:
    groups: dict[str, dict[str, np.ndarray]] = {}
    with np.load(DATA / f"{name}.npz") as data:
        for key in data.files:
            group, _, rest = key.partition("/")
            groups.setdefault(group, {})[rest] = data[key]
    return groups


def _close(got: np.ndarray, expected: np.ndarray, what: str) -> None:
    """rtol 1e-5, with an absolute floor of 1e-6 of the array's largest magnitude (for entries
    near zero that come from cancellation, where float32 sums in another order differ)."""
    finite = np.abs(expected[np.isfinite(expected)])
    floor = 1e-6 * max(1.0, float(finite.max()) if finite.size else 1.0)
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=floor, err_msg=what)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_outputs_are_paddles(name: str) -> None:
    data = _load(name)
    _, _, outputs, _ = cases.run(paddle, name, data["input"], data.get("state"))
    assert sorted(outputs) == sorted(data["output"])
    for key, expected in data["output"].items():
        assert outputs[key].shape == list(expected.shape), key
        _close(outputs[key].numpy(), expected, key)


@pytest.mark.parametrize("name", [name for name, case in cases.CASES.items() if case.grads])
def test_gradients_are_paddles(name: str) -> None:
    data = _load(name)
    layer, inputs, _, _ = cases.run(paddle, name, data["input"], data.get("state"))
    for key, expected in data["grad_input"].items():
        _close(inputs[key].grad.numpy(), expected, f"d/d{key}")
    if layer is not None:
        parameters = dict(layer.named_parameters())
        assert sorted(parameters) == sorted(data["grad_param"])
        for key, expected in data["grad_param"].items():
            _close(parameters[key].grad.numpy(), expected, f"d/d{key}")


@pytest.mark.parametrize("name", [name for name, case in cases.CASES.items() if case.build])
def test_state_dict_keys_and_shapes_are_paddles(name: str) -> None:
    state = _load(name)["state"]
    layer = cases.CASES[name].build(paddle)
    assert [(k, v.shape) for k, v in layer.state_dict().items()] == [
        (k, list(v.shape)) for k, v in state.items()
    ]


def test_the_classifier_trains_as_paddles() -> None:
    """The tutorial classifier from PaddlePaddle's initial weights: the same losses over four
    Adam steps and the same logits after them."""
    with np.load(DATA / "classifier.npz") as data:
        arrays = {key: data[key] for key in data.files}
    model = cases.classifier(paddle)()
    model.set_state_dict(
        {k[len("state/") :]: v for k, v in arrays.items() if k.startswith("state/")}
    )
    losses = cases.train_classifier(paddle, model, arrays["x"], arrays["y"], steps=4)
    np.testing.assert_allclose(losses, arrays["losses"], rtol=1e-4)
    model.eval()
    np.testing.assert_allclose(
        model(paddle.to_tensor(arrays["x"])).numpy(), arrays["logits"], rtol=1e-4, atol=1e-5
    )
