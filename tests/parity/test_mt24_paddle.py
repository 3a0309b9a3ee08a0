"""PaddlePaddle's random numbers (issue 24) against PaddlePaddle 3.3.1 itself: the cases of
tests/tools/mt24_cases.py, and longer draws (float32 and float64 uniform and normal, randint,
dropout) after several seeds. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from tests.tools.mt24_cases import cases  # noqa: E402


def test_the_cases_match_paddle() -> None:
    theirs, ours = cases(paddle), cases(phi)
    assert sorted(theirs) == sorted(ours)
    for key in theirs:
        np.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)


@pytest.mark.parametrize("seed", [0, 3, 2**31 + 5, 123456789])
def test_long_draws_match_paddle(seed: int) -> None:
    def draws(module):  # noqa: ANN001, ANN202
        module.seed(seed)
        return [
            module.rand([20001]).numpy(),
            module.randn([20001], dtype="float64").numpy(),
            module.normal(-1.0, 0.5, [30000]).numpy(),
            module.uniform([5000], "float64", min=-1e3, max=1e-3).numpy(),
            module.randint(0, 97, [5000]).numpy(),
            module.nn.functional.dropout(module.ones([4000]), 0.25).numpy(),
        ]

    for ours, theirs in zip(draws(phi), draws(paddle)):
        np.testing.assert_array_equal(ours, theirs)
