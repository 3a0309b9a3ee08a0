"""Parity of the sample24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: results (dtype,
shape, values) of every case tests/tools/make_sample24_fixtures.py recorded into
tests/data/sample24/paddle_3_3_1.json (the samplers' deterministic cases, tdm_sampler's seeded
draws), through the op, paddle.geometric and paddle.incubate, for every id dtype PaddlePaddle
registers on CPU."""

from __future__ import annotations

import json

import pytest

import phiops
from tests.ops.test_losscum_paddle import assert_matches
from tests.tools.make_sample24_fixtures import OUT, cases, run

RECORDED: dict[str, dict] = json.loads(OUT.read_text())


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    assert_matches(run(phiops, case), case, case["inputs"])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
