"""phiops.metric against PaddlePaddle 3.3.1's paddle.metric directly, on random batches: Accuracy,
Precision, Recall, Auc and ``accuracy``. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from phiops import metric  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_accuracy_metric_as_paddles(seed: int) -> None:
    rng = np.random.default_rng(seed)
    ours, theirs = metric.Accuracy(topk=(1, 2, 4)), paddle.metric.Accuracy(topk=(1, 2, 4))
    for _ in range(3):
        pred = rng.random((16, 7)).astype("float32")
        label = rng.integers(0, 7, (16, 1))
        mine = ours.compute(phi.to_tensor(pred), phi.to_tensor(label))
        paddles = theirs.compute(paddle.to_tensor(pred), paddle.to_tensor(label))
        np.testing.assert_array_equal(mine.numpy(), paddles.numpy())
        assert ours.update(mine) == theirs.update(paddles)
    assert ours.accumulate() == theirs.accumulate()
    assert ours.name() == theirs.name()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_precision_recall_auc_as_paddles(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pairs = [
        (metric.Precision(), paddle.metric.Precision()),
        (metric.Recall(), paddle.metric.Recall()),
        (metric.Auc(), paddle.metric.Auc()),
        (metric.Auc(num_thresholds=31), paddle.metric.Auc(num_thresholds=31)),
    ]
    for _ in range(3):
        positive = rng.random(40)
        label = rng.integers(0, 2, (40, 1))
        for ours, theirs in pairs:
            pred = (
                positive[:, None]
                if ours.name() != "auc"
                else np.stack([1 - positive, positive], axis=1)
            )
            ours.update(pred, label)
            theirs.update(pred, label)
            assert ours.accumulate() == pytest.approx(theirs.accumulate(), rel=1e-14)


@pytest.mark.parametrize("k", [1, 3, 5])
def test_accuracy_function_as_paddles(k: int) -> None:
    rng = np.random.default_rng(k)
    scores = rng.random((32, 5)).astype("float32")
    label = rng.integers(0, 5, (32, 1))
    ours = metric.accuracy(phi.to_tensor(scores), phi.to_tensor(label), k=k)
    theirs = paddle.metric.accuracy(paddle.to_tensor(scores), paddle.to_tensor(label), k=k)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
