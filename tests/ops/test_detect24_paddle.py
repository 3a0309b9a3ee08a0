"""Parity of the detect24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: results (dtype, shape,
values) and gradients of every case tests/tools/make_detect24_fixtures.py recorded into
tests/data/detect24/paddle_3_3_1.json, through the op and paddle.vision.ops, for every dtype
PaddlePaddle registers on CPU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiops
from tests.ops.test_losscum_paddle import close
from tests.tools.make_detect24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "detect24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())


def assert_matches(got: dict, want: dict, inputs: list) -> None:
    """Outputs (a None output as None) and gradients equal within the dtype's tolerance."""
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert (mine is None) == (theirs is None)
        if theirs is not None:
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


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
