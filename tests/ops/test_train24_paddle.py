"""Parity of the train24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: the outputs (dtype,
shape, values) and recorded gradients of every case tests/tools/make_train24_fixtures.py
recorded into tests/data/train24/paddle_3_3_1.json, to their dtype's last bit (NaN where
PaddlePaddle has NaN). The exception is norm in float32: PaddlePaddle 3.3.1's Eigen takes the
square roots of whole packets with its fast approximation (a hardware reciprocal square root and
one Newton step, EIGEN_FAST_MATH), a few units in the last place from the correctly rounded
root that numpy gives, and which elements fall in packets depends on the shape; so norm's
float32 results compare within 4 units in the last place."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.tools.make_losscum_fixtures import as_numpy
from tests.tools.make_train24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "train24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())

RTOL = {"float32": 1.2e-7, "float64": 2.3e-16}
FAST_SQRT_RTOL = 4.8e-7  # 4 units in the last place of float32


def assert_matches(got: dict, want: dict) -> None:
    fast_sqrt = want["fn"] == "norm"
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert mine["dtype"] == theirs["dtype"]
        assert mine["shape"] == theirs["shape"]
        rtol = RTOL.get(theirs["dtype"], 0)
        if fast_sqrt and theirs["dtype"] == "float32":
            rtol = FAST_SQRT_RTOL
        np.testing.assert_allclose(
            as_numpy(mine["values"], theirs["dtype"]),
            as_numpy(theirs["values"], theirs["dtype"]),
            rtol=rtol,
            atol=0,
        )
    assert sorted(got["grads"]) == sorted(want["grads"])
    dtype = want["outs"][0]["dtype"]
    for name, values in want["grads"].items():
        rtol = FAST_SQRT_RTOL * 4 if dtype == "float32" else 1e-15
        np.testing.assert_allclose(got["grads"][name], values, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    assert_matches(run(phiops, RECORDED[key]), RECORDED[key])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
