"""phiops.optimizer.lr against PaddlePaddle 3.3.1's paddle.optimizer.lr directly: each case of
tests/optimizer/lr_cases.py stepped side by side, rates and state dicts equal. Runs only where
PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

from phiops.optimizer import lr  # noqa: E402
from tests.optimizer.lr_cases import (  # noqa: E402
    CASES,
    JUMPS,
    PLATEAU_CASES,
    PLATEAU_METRICS,
    STEPS,
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_scheduler_steps_as_paddles(case: str) -> None:
    ours, theirs = CASES[case](lr), CASES[case](paddle.optimizer.lr)
    for _ in range(STEPS):
        assert ours() == pytest.approx(theirs(), rel=1e-13)
        ours.step()
        theirs.step()
    assert ours.state_dict() == theirs.state_dict()
    for epoch in JUMPS.get(case, []):
        ours.step(epoch)
        theirs.step(epoch)
        assert ours() == pytest.approx(theirs(), rel=1e-13)


@pytest.mark.parametrize("case", sorted(PLATEAU_CASES))
def test_reduce_on_plateau_as_paddles(case: str) -> None:
    ours = lr.ReduceOnPlateau(**PLATEAU_CASES[case])
    theirs = paddle.optimizer.lr.ReduceOnPlateau(**PLATEAU_CASES[case])
    for metric in PLATEAU_METRICS:
        ours.step(metric)
        theirs.step(metric)
        assert ours() == pytest.approx(theirs(), rel=1e-13)
