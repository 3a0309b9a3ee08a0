"""phiops.regularizer with phiops' optimizers against PaddlePaddle 3.3.1 directly: each training
run of tests/optimizer/regularizer_cases.py, by both libraries. Runs only where PaddlePaddle is
installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.optimizer.regularizer_cases import CASES, train  # noqa: E402


@pytest.mark.parametrize("case", sorted(CASES))
def test_training_as_paddles(case: str) -> None:
    ours = train(phiops, case)
    theirs = train(paddle, case)
    for got, expected in zip(ours, theirs):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
