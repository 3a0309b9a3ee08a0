"""F.cross_entropy's mean as PaddlePaddle 3.3.1 computes it (python/paddle/nn/functional/loss.py):
with ignore_index >= 0 the sum over the count of labels that are not ignored (1 when all are);
with a negative ignore_index (the default -100) the plain mean, an ignored entry counting as a zero
loss; and without reading the labels' values, so that it builds into static programs."""

from __future__ import annotations

import numpy as np

import phiops as paddle

LOGITS = np.array([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [0.0, 0.1, 0.2], [2.0, 1.0, 0.0]], np.float32)


def losses(labels: np.ndarray) -> np.ndarray:
    shifted = LOGITS - LOGITS.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return np.array([-log_softmax[i, c] if 0 <= c < 3 else 0.0 for i, c in enumerate(labels)])


def ce(labels: list[int], **kwargs: object) -> float:
    x = paddle.to_tensor(LOGITS)
    y = paddle.to_tensor(np.array(labels, np.int64))
    return float(paddle.nn.functional.cross_entropy(x, y, **kwargs))


def test_a_non_negative_ignore_index_divides_by_the_labels_kept() -> None:
    labels = np.array([0, 1, 2, 1])
    expected = losses(np.where(labels == 1, -1, labels)).sum() / 2
    np.testing.assert_allclose(ce(list(labels), ignore_index=1), expected, rtol=1e-6)


def test_every_label_ignored_gives_zero_not_nan() -> None:
    assert ce([1, 1, 1, 1], ignore_index=1) == 0.0


def test_the_default_ignore_index_takes_the_plain_mean() -> None:
    labels = np.array([0, -100, 2, 1])
    np.testing.assert_allclose(ce(list(labels)), losses(labels).sum() / 4, rtol=1e-6)


def test_it_builds_into_a_static_program() -> None:
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [4, 3], "float32")
            y = paddle.static.data("y", [4], "int64")
            loss = paddle.nn.functional.cross_entropy(x, y, ignore_index=1)
        exe = paddle.static.Executor()
        (value,) = exe.run(
            main,
            feed={"x": LOGITS, "y": np.array([0, 1, 2, 1], np.int64)},
            fetch_list=[loss],
        )
    finally:
        paddle.disable_static()
    expected = losses(np.array([0, -1, 2, -1])).sum() / 2
    np.testing.assert_allclose(value, expected, rtol=1e-6)
