"""Parity of the nan24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: the outputs (dtype,
shape, values), recorded gradients and, for the flag ops, FLAGS_check_nan_inf after the forward
and the backward call, of every case tests/tools/make_nan24_fixtures.py recorded into
tests/data/nan24/paddle_3_3_1.json, exactly (NaN where PaddlePaddle has NaN; dtype and dims only
for a coalesce_tensor buffer with unfilled padding)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.tools.make_losscum_fixtures import as_numpy
from tests.tools.make_nan24_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "nan24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())


def assert_matches(got: dict, want: dict) -> None:
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"])
        if theirs["values"] is None:  # a buffer whose padding 3.3.1 leaves as allocated
            continue
        np.testing.assert_array_equal(
            as_numpy(mine["values"], theirs["dtype"]), as_numpy(theirs["values"], theirs["dtype"])
        )
    assert sorted(got["grads"]) == sorted(want["grads"])
    for name, values in want["grads"].items():
        np.testing.assert_array_equal(got["grads"][name], values)
    assert got.get("flags") == want.get("flags")


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    assert_matches(run(phiops, RECORDED[key]), RECORDED[key])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
