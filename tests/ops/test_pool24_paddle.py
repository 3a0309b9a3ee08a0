"""Parity of the pool24 ops (lp_pool2d, fractional_max_pool2d/3d, their grads) with PaddlePaddle
3.3.1: every case tests/tools/make_pool24_fixtures.py records (results, masks and gradients, u
given and u drawn after seed) run on phiops and compared with the recording in
tests/data/pool24/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops
from tests.ops.op_testing import op_test
from tests.tools.make_pool24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "pool24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict[str, Any]] = json.loads(DATA.read_text())

# lp_pool2d takes its powers in float32 for every dtype (powf), as phiops does; the sums' order
# differs, so results agree to float32 rounding; maxima and masks are exact.
TOLERANCE = {"float16": 1e-3, "float32": 2e-5, "float64": 2e-5}


def assert_matches(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    assert sorted(actual) == sorted(expected)
    for name in ("out", "grad", "mask"):
        if name not in expected:
            continue
        dtype = expected[f"{name}_dtype"]
        assert actual[f"{name}_dtype"] == dtype, name
        got, want = np.asarray(actual[name], np.float64), np.asarray(expected[name], np.float64)
        assert got.shape == want.shape, name
        if name == "mask":
            np.testing.assert_array_equal(got, want)
        else:
            rtol = TOLERANCE[dtype]
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=name)


@op_test(
    "lp_pool2d",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    kind="edge",
)
@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    assert_matches(run(phiops, cases()[key]), RECORDED[key])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
