"""Parity of deformable_conv (and its grad) with PaddlePaddle 3.3.1, without PaddlePaddle:
results and gradients (x, offset, filter, mask, bias) of every case
tests/tools/make_deform24_fixtures.py recorded into tests/data/deform24/paddle_3_3_1.json,
through the op and paddle.vision.ops.deform_conv2d, for float32 and float64."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.tools.make_detect24_fixtures import run
from tests.tools.make_losscum_fixtures import as_numpy

DATA = Path(__file__).resolve().parents[1] / "data" / "deform24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())

# sums of a few dozen products in another order than PHI's GEMM
TOLERANCE = {"float32": {"rtol": 1e-5, "atol": 1e-5}, "float64": {"rtol": 1e-12, "atol": 1e-12}}


def close(actual: list, expected: list, dtype: str) -> None:
    np.testing.assert_allclose(
        as_numpy(actual, dtype), as_numpy(expected, dtype), **TOLERANCE[dtype]
    )


def assert_matches(got: dict, want: dict, inputs: list) -> None:
    """Outputs and gradients equal within the dtype's tolerance."""
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"])
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
