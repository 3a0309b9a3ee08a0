"""Parity of the frame24 framework ops with PaddlePaddle 3.3.1, without PaddlePaddle: results
(dtype, shape and values; dtype and shape alone for empty/empty_like), trans_layout's gradients
and the kind of error of every case tests/tools/make_frame24_fixtures.py recorded into
tests/data/frame24/paddle_3_3_1.json, through the op, the paddle.* functions and
paddle.vision.ops, for every dtype PaddlePaddle registers on CPU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiops
from tests.ops.test_losscum_paddle import close
from tests.tools.make_frame24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "frame24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())


def assert_matches(got: dict, want: dict, inputs: list) -> None:
    assert got.get("error") == want.get("error")
    if "error" in want:
        return
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"])
        assert (mine["values"] is None) == (theirs["values"] is None)
        if theirs["values"] is not None:
            close(mine["values"], theirs["values"], theirs["dtype"])
    assert got["grads"].keys() == want["grads"].keys()
    dtypes = {name: dtype for name, _, _, dtype, _ in inputs}
    for name, expected in want["grads"].items():
        close(got["grads"][name], expected, dtypes[name])


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    assert_matches(run(phiops, case), case, case["inputs"])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
