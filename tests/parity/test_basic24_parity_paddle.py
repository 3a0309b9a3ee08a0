"""The basic24 ops against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_basic24_fixtures.py records, run live on both (results, dtypes, shapes, what
in-place calls leave in their inputs, gradients), and the recording in tests/data/basic24/
checked against a fresh run. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_basic24_paddle import RECORDED, assert_matches  # noqa: E402
from tests.tools.make_basic24_fixtures import cases, run  # noqa: E402

CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    assert_matches(run(phiops, case), run(paddle, case), case["inputs"])


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    case = CASES[key]
    assert_matches(run(paddle, case), RECORDED[key], case["inputs"])
