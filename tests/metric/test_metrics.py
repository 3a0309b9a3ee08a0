"""``phiops.metric`` gives PaddlePaddle 3.3.1's results (tests/data/metric/metrics.npz, from
tests/tools/make_metric_fixtures.py) for the same inputs: Accuracy's compute / update /
accumulate / name, Precision, Recall, Auc and the ``accuracy`` function; then the base class
and bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops import metric
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "metric" / "metrics.npz")
BATCHES = range(3)


def test_the_module_holds_paddles_names() -> None:
    assert sorted(metric.__all__) == sorted(
        ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
    )


def test_accuracy_compute_marks_the_label_among_the_top_k_as_paddle() -> None:
    acc = metric.Accuracy(topk=(1, 3))
    for b in BATCHES:
        pred = phi.to_tensor(DATA[f"acc_pred_{b}"])
        for key, label in (
            ("acc_compute", DATA[f"acc_label_{b}"]),
            ("acc_compute_1d", DATA[f"acc_label_{b}"][:, 0]),
            ("acc_compute_onehot", DATA[f"acc_onehot_{b}"]),
        ):
            got = acc.compute(pred, phi.to_tensor(label))
            assert got.dtype == phi.float32
            np.testing.assert_array_equal(got.numpy(), DATA[f"{key}_{b}"], err_msg=key)


def test_accuracy_update_and_accumulate_equal_paddles() -> None:
    acc = metric.Accuracy(topk=(1, 3))
    top1 = metric.Accuracy()
    for b in BATCHES:
        pred = phi.to_tensor(DATA[f"acc_pred_{b}"])
        label = phi.to_tensor(DATA[f"acc_label_{b}"])
        np.testing.assert_allclose(acc.update(acc.compute(pred, label)), DATA[f"acc_update_{b}"])
        top1.update(top1.compute(pred, label).numpy())
    np.testing.assert_allclose(acc.accumulate(), DATA["acc_accumulate"])
    assert top1.accumulate() == pytest.approx(float(DATA["acc_top1_accumulate"]))
    acc.reset()
    assert acc.accumulate() == [0.0, 0.0]


def test_accuracy_names_follow_topk() -> None:
    assert metric.Accuracy().name() == ["acc"]
    assert metric.Accuracy(topk=(1, 5), name="a").name() == ["a_top1", "a_top5"]
    assert metric.Accuracy(topk=(2,)).name() == ["acc_top2"]


def test_precision_and_recall_equal_paddles_over_batches() -> None:
    precision, recall = metric.Precision(), metric.Recall()
    for b in BATCHES:
        pred, label = DATA[f"pr_pred_{b}"], DATA[f"pr_label_{b}"]
        precision.update(pred, label)
        recall.update(phi.to_tensor(pred), phi.to_tensor(label))
        assert precision.accumulate() == pytest.approx(float(DATA[f"precision_{b}"]), rel=1e-15)
        assert recall.accumulate() == pytest.approx(float(DATA[f"recall_{b}"]), rel=1e-15)
    assert (precision.name(), recall.name()) == ("precision", "recall")
    precision.reset()
    recall.reset()
    assert (precision.accumulate(), recall.accumulate()) == (0.0, 0.0)


def test_precision_and_recall_take_one_dimensional_predictions() -> None:
    precision, recall = metric.Precision(), metric.Recall()
    precision.update(np.array([0.9, 0.6, 0.2, 0.7]), np.array([1, 0, 1, 1]))
    recall.update(np.array([0.9, 0.6, 0.2, 0.7]), np.array([1, 0, 1, 1]))
    assert precision.accumulate() == pytest.approx(2 / 3)
    assert recall.accumulate() == pytest.approx(2 / 3)


@pytest.mark.parametrize("thresholds, key", [(4095, "auc"), (200, "auc200")])
def test_auc_equals_paddles_bucketed_roc_area(thresholds: int, key: str) -> None:
    auc = metric.Auc() if thresholds == 4095 else metric.Auc(num_thresholds=thresholds)
    for b in BATCHES:
        auc.update(phi.to_tensor(DATA[f"auc_pred_{b}"]), DATA[f"auc_label_{b}"])
        assert auc.accumulate() == pytest.approx(float(DATA[f"{key}_{b}"]), rel=1e-14)
    assert auc.name() == "auc"
    auc.reset()
    assert auc.accumulate() == 0.0


def test_auc_of_one_class_only_is_zero() -> None:
    auc = metric.Auc()
    auc.update(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([[1], [1]]))
    assert auc.accumulate() == 0.0


@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_accuracy_function_equals_paddles(k: int) -> None:
    correct = phi.zeros([1], "int32")
    total = phi.zeros([1], "int32")
    got = metric.accuracy(
        phi.to_tensor(DATA["fn_input"]),
        phi.to_tensor(DATA["fn_label"]),
        k=k,
        correct=correct,
        total=total,
    )
    assert got.dtype == phi.float32 and got.shape == []
    np.testing.assert_array_equal(got.numpy(), DATA[f"fn_k{k}"])
    assert correct.item() == DATA[f"fn_correct_k{k}"]
    assert total.item() == DATA[f"fn_total_k{k}"]


def test_accuracy_function_takes_int32_labels() -> None:
    got = metric.accuracy(
        phi.to_tensor(DATA["fn_input"]), phi.to_tensor(DATA["fn_label"].astype("int32")), k=2
    )
    np.testing.assert_array_equal(got.numpy(), DATA["fn_k2"])


def test_a_metric_subclass_must_define_the_abstract_methods() -> None:
    with pytest.raises(TypeError):
        metric.Metric()

    class Mean(metric.Metric):
        def reset(self) -> None:
            self.values: list[float] = []

        def update(self, value: float) -> None:
            self.values.append(value)

        def accumulate(self) -> float:
            return sum(self.values) / len(self.values)

        def name(self) -> str:
            return "mean"

    mean = Mean()
    mean.reset()
    mean.update(1.0)
    mean.update(2.0)
    assert (mean.accumulate(), mean.name(), mean.compute(1, 2)) == (1.5, "mean", (1, 2))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: metric.Accuracy(topk=1), InvalidArgumentError, "topk must be a non-empty"),
        (lambda: metric.Accuracy(topk=(0,)), InvalidArgumentError, "positive int"),
        (
            lambda: metric.Accuracy(topk=(1, 9)).compute(phi.ones([2, 4]), phi.ones([2, 1])),
            InvalidArgumentError,
            "at least max.topk. = 9 classes",
        ),
        (lambda: metric.Accuracy().update([1.0]), InvalidArgumentError, "numpy ndarray or"),
        (lambda: metric.Precision().update([1.0], [1]), InvalidArgumentError, "preds must be"),
        (
            lambda: metric.Recall().update(np.ones(3), [1, 0, 1]),
            InvalidArgumentError,
            "labels must be",
        ),
        (
            lambda: metric.Precision().update(np.ones((3, 2)), np.ones((3, 1))),
            InvalidArgumentError,
            "one value per sample",
        ),
        (lambda: metric.Auc(curve="PR"), UnimplementedError, "curve='PR'"),
        (lambda: metric.Auc(curve="roc"), InvalidArgumentError, "curve must be"),
        (lambda: metric.Auc(num_thresholds=0), InvalidArgumentError, "num_thresholds"),
        (
            lambda: metric.Auc().update(np.ones((3, 1)), np.ones((3, 1))),
            InvalidArgumentError,
            r"shape \[N, 2\]",
        ),
        (
            lambda: metric.Auc().update(np.full((2, 2), 1.5), np.ones((2, 1))),
            InvalidArgumentError,
            r"probabilities in \[0, 1\]",
        ),
        (
            lambda: metric.accuracy(phi.ones([3, 4]), phi.to_tensor([1, 2, 0])),
            InvalidArgumentError,
            r"label must have shape \[N, 1\]",
        ),
        (
            lambda: metric.accuracy(phi.ones([3, 4]), phi.ones([3, 1])),
            InvalidArgumentError,
            "label must be int32 or int64",
        ),
        (
            lambda: metric.accuracy(phi.ones([3, 4]), phi.zeros([3, 1], "int64"), k=5),
            InvalidArgumentError,
            r"k must be an int in \[1, 4\]",
        ),
        (
            lambda: metric.accuracy(phi.ones([3, 4]), phi.zeros([2, 1], "int64")),
            InvalidArgumentError,
            "3 samples, label 2",
        ),
        (
            lambda: metric.accuracy(
                phi.ones([3, 4]), phi.zeros([3, 1], "int64"), correct=phi.zeros([2], "int32")
            ),
            InvalidArgumentError,
            "correct must be a Tensor of one element",
        ),
    ],
)
def test_bad_input_is_named(call, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_accuracy_function_builds_the_accuracy_op_in_static_mode() -> None:
    """In a static program ``accuracy`` is ``topk`` then the ``accuracy`` op, and the program
    gives PaddlePaddle's value for a batch size known only at run time."""
    x, label = DATA["fn_input"], DATA["fn_label"]
    phi.enable_static()
    try:
        main, startup = phi.static.Program(), phi.static.Program()
        with phi.static.program_guard(main, startup):
            scores = phi.static.data("scores", [-1, x.shape[1]], "float32")
            labels = phi.static.data("labels", [-1, 1], "int64")
            rate = metric.accuracy(scores, labels, k=2)
        names = [op.name for op in main.global_block().ops]
        assert "pd_op.topk" in names and "pd_op.accuracy" in names
        (got,) = phi.static.Executor().run(
            main, feed={"scores": x, "labels": label}, fetch_list=[rate]
        )
    finally:
        phi.disable_static()
    np.testing.assert_array_equal(got, DATA["fn_k2"])
