"""Parity of the rnnt24 op warprnnt with PaddlePaddle 3.3.1, without PaddlePaddle: results
(dtype, shape, values) and gradients of every case tests/tools/make_rnnt24_fixtures.py recorded
into tests/data/rnnt24/paddle_3_3_1.json (F.rnnt_loss with each reduction and _C_ops.warprnnt),
for both dtypes PaddlePaddle registers on CPU."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.tools.make_losscum_fixtures import as_numpy
from tests.tools.make_rnnt24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "rnnt24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())

# warp-transducer runs its float32 recursions in float32; phiops in float64, then rounds
TOLERANCE = {"float32": {"rtol": 2e-5, "atol": 2e-5}, "float64": {"rtol": 1e-12, "atol": 1e-12}}


def close(actual: list, expected: list, dtype: str) -> None:
    if dtype not in TOLERANCE:
        np.testing.assert_array_equal(as_numpy(actual, dtype), as_numpy(expected, dtype))
        return
    np.testing.assert_allclose(
        as_numpy(actual, dtype), as_numpy(expected, dtype), **TOLERANCE[dtype]
    )


def assert_matches(got: dict, want: dict, inputs: list) -> None:
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert mine["dtype"] == theirs["dtype"]
        assert mine["shape"] == theirs["shape"]
        close(mine["values"], theirs["values"], theirs["dtype"])
    assert got["grads"].keys() == want["grads"].keys()
    dtypes = {name: dtype for name, _, _, dtype, _ in inputs}
    for name, expected in want["grads"].items():
        assert (got["grads"][name] is None) == (expected is None), name
        if expected is not None:
            close(got["grads"][name], expected, dtypes[name])


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    assert_matches(run(phiops, case), case, case["inputs"])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
