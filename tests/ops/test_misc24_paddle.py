"""Parity of the misc24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: results (dtype, shape,
values) and gradients of every case tests/tools/make_misc24_fixtures.py recorded into
tests/data/misc24/paddle_3_3_1.json, through the op, paddle.nn.SpectralNorm,
paddle.vision.ops and paddle.incubate, for every dtype PaddlePaddle registers on CPU."""

from __future__ import annotations

import json

import pytest

import phiops
from tests.ops.test_losscum_paddle import assert_matches
from tests.tools.make_misc24_fixtures import OUT, cases, run

RECORDED: dict[str, dict] = json.loads(OUT.read_text())


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    assert_matches(run(phiops, case), case, case["inputs"])


def test_the_recording_holds_every_case() -> None:
    assert sorted(RECORDED) == sorted(cases())
