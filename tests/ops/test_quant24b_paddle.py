"""Parity of the quant24b ops with PaddlePaddle 3.3.1, without PaddlePaddle: the outputs (dtype,
shape, values) of every case tests/tools/make_quant24b_fixtures.py recorded into
tests/data/quant24b/paddle_3_3_1.json. Sums compare to their dtype's last bit, counters
exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from tests.tools.make_losscum_fixtures import as_numpy
from tests.tools.make_quant24b_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "quant24b" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())

RTOL = {"float32": 1.2e-7, "float64": 2.3e-16}


def assert_matches(got: dict, want: dict) -> None:
    assert len(got["outs"]) == len(want["outs"])
    for mine, theirs in zip(got["outs"], want["outs"]):
        assert mine["dtype"] == theirs["dtype"]
        assert mine["shape"] == theirs["shape"]
        np.testing.assert_allclose(
            as_numpy(mine["values"], theirs["dtype"]),
            as_numpy(theirs["values"], theirs["dtype"]),
            rtol=RTOL.get(theirs["dtype"], 0),
            atol=0,
        )


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    assert_matches(run(phiops, RECORDED[key]), RECORDED[key])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
