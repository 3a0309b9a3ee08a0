"""The corr24 op, ``correlation``, against PaddlePaddle 3.3.1 itself: every static case
tests/tools/make_corr24_fixtures.py records (output shape and dtype from 3.3.1's InferMeta while
a program is built, the kind of error for an input that is not 4-D) built live in both, the
eager refusal of 3.3.1's CPU kernel confirmed, and the recording checked against a fresh run.
3.3.1 computes no correlation on the CPU, so no values are compared here (see
tests/ops/test_corr24.py). Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_corr24_paddle import EAGER, RECORDED, STATIC, assert_matches  # noqa: E402
from tests.tools.make_corr24_fixtures import SIGNATURE_KEY, cases, run, signature  # noqa: E402


@pytest.mark.parametrize("key", STATIC)
def test_phiops_builds_what_paddle_builds_live(key: str) -> None:
    case = cases()[key]
    assert_matches(run(phiops, case), run(paddle, case))


@pytest.mark.parametrize("key", STATIC + EAGER)
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    assert_matches(run(paddle, cases()[key]), RECORDED[key])


def test_the_recorded_signature_is_paddles_and_phiops_keeps_it() -> None:
    assert signature(paddle) == RECORDED[SIGNATURE_KEY] == signature(phiops)
