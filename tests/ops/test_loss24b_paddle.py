"""Parity of the loss24b ops with PaddlePaddle 3.3.1, without PaddlePaddle: results (dtype,
shape, values) and gradients of every case tests/tools/make_loss24b_fixtures.py recorded into
tests/data/loss24b/paddle_3_3_1.json, for every dtype PaddlePaddle registers on CPU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiops
from tests.ops.test_losscum_paddle import assert_matches
from tests.tools.make_loss24b_fixtures import cases, run

DATA = Path(__file__).resolve().parents[1] / "data" / "loss24b" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    assert_matches(run(phiops, case), case, case["inputs"])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
