"""Parity of the detection ops with PaddlePaddle 3.3.1: results and gradients recorded by
tests/tools/make_detect_fixtures.py into tests/data/detect/paddle_3_3_1.json (every dtype
PaddlePaddle registers on CPU; modes, padding modes, align_corners, positions outside the input
and at exact halves), compared without PaddlePaddle.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi

DATA = Path(__file__).resolve().parents[1] / "data" / "detect" / "paddle_3_3_1.json"
CASES: dict[str, dict] = json.loads(DATA.read_text())

TOLERANCE = {
    "float32": {"rtol": 1e-5, "atol": 1e-5},
    "float64": {"rtol": 1e-12, "atol": 1e-12},
    "int32": {"rtol": 0, "atol": 0},
    "int64": {"rtol": 0, "atol": 0},
}


def decode(record: dict) -> np.ndarray:
    return np.array(record["data"], record["dtype"]).reshape(record["shape"])


def call(case: dict, stop_gradient: bool = True):
    inputs = [
        (
            None
            if r is None
            else phi.to_tensor(decode(r), stop_gradient=stop_gradient or r["dtype"][0] != "f")
        )
        for r in case["inputs"]
    ]
    outs = getattr(phi, case["op"])(*inputs, *case["attrs"])
    return inputs, list(outs) if isinstance(outs, (list, tuple)) else [outs]


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    _, outs = call(case)
    for out, record in zip(outs, case["outs"]):
        expected = decode(record)
        assert out.numpy().dtype == expected.dtype
        np.testing.assert_allclose(out.numpy(), expected, **TOLERANCE[record["dtype"]])


GRAD_CASES = sorted(key for key, case in CASES.items() if "grads" in case)


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradient_matches_paddle(key: str) -> None:
    case = CASES[key]
    inputs, outs = call(case, stop_gradient=False)
    wanted = [(t, g) for t, g in zip(inputs, case["grads"]) if g is not None]
    grads = phi.grad(
        outs[0], [t for t, _ in wanted], grad_outputs=phi.to_tensor(decode(case["out_grad"]))
    )
    for grad, (_, expected) in zip(grads, wanted):
        np.testing.assert_allclose(grad.numpy(), decode(expected), **TOLERANCE[expected["dtype"]])


def test_the_recording_covers_every_op_and_registered_dtype() -> None:
    ops = {case["op"] for case in CASES.values()}
    assert ops == {
        *("grid_sample", "roi_align", "roi_pool", "nms", "multiclass_nms3"),
        *("yolo_box", "prior_box", "box_coder"),
    }
    assert len(CASES) == 129
