"""The train24 ops against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_train24_fixtures.py records, run live on both (outputs, dtypes, shapes), and
the recording in tests/data/train24/ checked against a fresh run, and accuracy_check's failures
(the index its error names). Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import re

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_train24_paddle import RECORDED, assert_matches  # noqa: E402
from tests.tools.make_train24_fixtures import cases, run  # noqa: E402

CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    assert_matches(run(phiops, case), run(paddle, case))


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    case = CASES[key]
    assert_matches(run(paddle, case), RECORDED[key])


FAILING_CHECKS = {
    "outside-rtol": ([1.0, 2.0, 3.0], [1.0, 2.1, 3.0], "float32", 1e-5, 1e-8, False),
    "nan-not-equal": ([1.0, np.nan], [1.0, np.nan], "float64", 1e-5, 1e-8, False),
    "int-differs": ([1, 2, 3], [1, 2, 4], "int32", 1e-5, 1e-8, False),
    "complex-nan-last": ([1 + 1j, np.nan], [1 + 1j, 1], "complex64", 1e-5, 1e-8, False),
}


@pytest.mark.parametrize("key", sorted(FAILING_CHECKS))
def test_accuracy_check_fails_at_paddles_index(key: str) -> None:
    x, y, dtype, rtol, atol, equal_nan = FAILING_CHECKS[key]
    messages = []
    for lib in (phiops, paddle):
        a, b = (lib.to_tensor(np.array(v, dtype)) for v in (x, y))
        with pytest.raises(Exception) as caught:
            lib._C_ops.accuracy_check(a, b, "fn", rtol, atol, equal_nan)
        messages.append(re.search(r"kernel name fn, res index -?\d+", str(caught.value)).group())
    assert messages[0] == messages[1]
