"""The random24 random ops against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_random24_fixtures.py records, run live on both (decided results exactly, draws
by their moments, zero gradients), and the recording in tests/data/random24/ checked against a
fresh run. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_random24_paddle import RECORDED, assert_matches  # noqa: E402
from tests.tools.make_random24_fixtures import cases, run  # noqa: E402

CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    assert_matches(run(phiops, CASES[key]), run(paddle, CASES[key]))


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    assert_matches(run(paddle, CASES[key]), RECORDED[key])


def test_random_routing_is_paddles_gpu_rule_where_its_cpu_kernel_raises() -> None:
    """PaddlePaddle 3.3.1's CPU random_routing raises; phiops gives its GPU kernel's rule."""
    import numpy as np

    prob = np.array([0.3, 0.5], np.float32)
    value = np.array([[0.6, 0.1], [0.9, 0.3]], np.float32)
    index = np.array([[1, 2], [3, 4]], np.int64)
    with pytest.raises(Exception, match="Do not support expert count op for cpu kernel"):
        paddle._C_ops.random_routing(
            paddle.to_tensor(prob), paddle.to_tensor(value), paddle.to_tensor(index)
        )
    got = phiops._C_ops.random_routing(
        phiops.to_tensor(prob), phiops.to_tensor(value), phiops.to_tensor(index)
    )
    assert got.numpy().tolist() == [[1, -1], [3, 4]]
