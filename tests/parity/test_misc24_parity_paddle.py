"""The misc24 ops against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_misc24_fixtures.py records, run live on both (results, dtypes, shapes and
gradients), the recording in tests/data/misc24/ checked against a fresh run, and
fused_softmax_mask_upper_triangle's CPU kernel raising in PaddlePaddle (phiops computes it).
Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_misc24_paddle import RECORDED, assert_matches  # noqa: E402
from tests.tools.make_misc24_fixtures import cases, run  # noqa: E402

CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    assert_matches(run(phiops, case), run(paddle, case), case["inputs"])


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    case = CASES[key]
    assert_matches(run(paddle, case), RECORDED[key], case["inputs"])


def test_paddles_cpu_kernel_of_the_causal_softmax_raises() -> None:
    """Why the causal cases compare with PaddlePaddle's own softmax rather than its op."""
    x = paddle.to_tensor(np.zeros((1, 1, 2, 2), "float32"))
    with pytest.raises(NotImplementedError, match="only supports GPU"):
        paddle.incubate.softmax_mask_fuse_upper_triangle(x)
