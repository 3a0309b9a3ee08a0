"""Parity of the vision ops with PaddlePaddle 3.3.1: results and gradients recorded by
tests/tools/make_vision_fixtures.py into tests/data/vision/paddle_3_3_1.json (every dtype
PaddlePaddle registers on CPU; data formats, paddings, strides, dilations, align_corners), compared without PaddlePaddle.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi

DATA = Path(__file__).resolve().parents[1] / "data" / "vision" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())

TOLERANCE = {
    "float32": {"rtol": 1e-6, "atol": 1e-6},
    "float64": {"rtol": 1e-12, "atol": 1e-12},
    "complex64": {"rtol": 1e-6, "atol": 1e-6},
    "complex128": {"rtol": 1e-12, "atol": 1e-12},
}


def decode(record: dict) -> np.ndarray:
    data = record["data"]
    if record["dtype"].startswith("complex"):
        data = [complex(re, im) for re, im in data]
    return np.array(data, record["dtype"]).reshape(record["shape"])


def call(case: dict, stop_gradient: bool = True):
    inputs = [phi.to_tensor(decode(r), stop_gradient=stop_gradient) for r in case["inputs"]]
    return inputs, getattr(phi, case["op"])(*inputs, *case["attrs"])


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    _, out = call(case)
    expected = decode(case["out"])
    assert out.numpy().dtype == expected.dtype
    np.testing.assert_allclose(out.numpy(), expected, **TOLERANCE[case["out"]["dtype"]])


GRAD_CASES = sorted(key for key, case in CASES.items() if "grads" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradient_matches_paddle(key: str) -> None:
    case = CASES[key]
    inputs, out = call(case, stop_gradient=False)
    grads = phi.grad(out, inputs, grad_outputs=phi.to_tensor(decode(case["out_grad"])))
    for grad, expected in zip(grads, case["grads"]):
        np.testing.assert_allclose(grad.numpy(), decode(expected), **TOLERANCE[expected["dtype"]])


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    ops = {case["op"] for case in CASES.values()}
    assert ops == {
        "pixel_shuffle",
        "pixel_unshuffle",
        "channel_shuffle",
        "unfold",
        "fold",
        "affine_grid",
    }
    assert len(CASES) == 46
