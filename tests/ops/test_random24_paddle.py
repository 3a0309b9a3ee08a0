"""Parity of the random24 random ops with PaddlePaddle 3.3.1, without PaddlePaddle: every case
tests/tools/make_random24_fixtures.py recorded into tests/data/random24/paddle_3_3_1.json, through
the op, the paddle.* functions and the Tensor methods, for every dtype PaddlePaddle registers on
CPU: decided results exactly, draws by their moments within sampling error (the generators
differ, so the numbers do), gradients (zero) exactly."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.ops.test_losscum_paddle import close
from tests.tools.make_random24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "random24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())
CASES = cases()


def _moments_agree(mine: dict, theirs: dict, size: int) -> None:
    """Means within six standard errors of their difference (plus float rounding), variances
    within 10%, and draws PaddlePaddle keeps nonnegative nonnegative."""
    assert mine.keys() == theirs.keys()
    for part, want in theirs.items():
        got = mine[part]
        spread = 6 * math.sqrt((got["var"] + want["var"]) / max(size, 1))
        assert abs(got["mean"] - want["mean"]) <= spread + 1e-6 * (1 + abs(want["mean"])), part
        assert abs(got["var"] - want["var"]) <= 0.1 * max(got["var"], want["var"]) + 1e-9, part
        if want["min"] >= 0:
            assert got["min"] >= 0, part


def assert_matches(got: dict, want: dict) -> None:
    assert got["dtype"] == want["dtype"]
    assert got["shape"] == want["shape"]
    if "values" in want:
        close(got["values"], want["values"], want["dtype"])
    else:
        _moments_agree(got["moments"], want["moments"], math.prod(want["shape"]))
    assert ("grad" in got) == ("grad" in want)
    if "grad" in want:
        np.testing.assert_array_equal(np.asarray(got["grad"]), np.asarray(want["grad"]))
    assert got.get("grad_max_abs") == want.get("grad_max_abs")


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    assert_matches(run(phiops, CASES[key]), RECORDED[key])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(CASES)
