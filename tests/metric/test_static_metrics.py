"""``paddle.static.auc`` and ``paddle.static.accuracy`` give PaddlePaddle 3.3.1's results
(tests/data/metric/static_metrics.npz, from tests/tools/make_static_metric_fixtures.py) in static
programs, built on the ``auc`` and ``accuracy`` ops; and name bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "metric" / "static_metrics.npz")
CASES = range(4)


def _run_static(build, feed: dict[str, np.ndarray]) -> tuple[list[np.ndarray], list[str]]:
    phi.enable_static()
    try:
        main, startup = phi.static.Program(), phi.static.Program()
        with phi.static.program_guard(main, startup):
            fetch = build()
        exe = phi.static.Executor()
        exe.run(startup)
        names = [op.name for op in main.global_block().ops]
        return exe.run(main, feed=feed, fetch_list=list(fetch)), names
    finally:
        phi.disable_static()


@pytest.mark.parametrize("case", CASES)
def test_static_auc_equals_paddles(case: int) -> None:
    x, label = DATA[f"auc_input_{case}"], DATA[f"auc_label_{case}"]
    thresholds, curve = int(DATA[f"auc_thresholds_{case}"]), str(DATA[f"auc_curve_{case}"])

    def build():
        xs = phi.static.data("x", [-1, 2], "float32")
        ls = phi.static.data("label", [-1, 1], "int64")
        return phi.static.auc(xs, ls, curve=curve, num_thresholds=thresholds)

    (auc, pos, neg), names = _run_static(build, {"x": x, "label": label})
    assert "pd_op.auc" in names
    assert auc.dtype == np.float64 and auc.shape == ()
    np.testing.assert_allclose(auc, DATA[f"auc_{case}"], rtol=1e-12)
    np.testing.assert_array_equal(pos, DATA[f"auc_pos_{case}"])
    np.testing.assert_array_equal(neg, DATA[f"auc_neg_{case}"])


def test_auc_runs_eagerly_and_each_call_starts_from_zero() -> None:
    x, label = phi.to_tensor(DATA["auc_input_1"]), phi.to_tensor(DATA["auc_label_1"])
    for _ in range(2):  # no accumulation between calls: the statistics start at zero each time
        auc, pos, neg = phi.static.auc(x, label, num_thresholds=200)
        np.testing.assert_allclose(auc.numpy(), DATA["auc_1"], rtol=1e-12)
        assert int(pos.numpy().sum() + neg.numpy().sum()) == len(DATA["auc_label_1"])


@pytest.mark.parametrize("k", [1, 2, 4])
def test_static_accuracy_equals_paddles(k: int) -> None:
    def build():
        xs = phi.static.data("x", [-1, 4], "float32")
        ls = phi.static.data("label", [-1, 1], "int64")
        return [phi.static.accuracy(xs, ls, k=k)]

    (got,), names = _run_static(build, {"x": DATA["acc_input"], "label": DATA["acc_label"]})
    assert "pd_op.accuracy" in names
    np.testing.assert_array_equal(got, DATA[f"acc_k{k}"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"input": np.zeros((2, 2), "float32")}, "auc: input must be a Tensor"),
        ({"input": phi.zeros([2, 2], "int32")}, "auc: input must be float32 or float64"),
        ({"label": phi.zeros([2, 1], "float32")}, "auc: label must be int32 or int64"),
        ({"curve": "AP"}, "auc: curve must be 'ROC' or 'PR'"),
        ({"num_thresholds": 0}, "auc: num_thresholds must be a positive int"),
        ({"ins_tag_weight": phi.ones([1, 1], "int64")}, "auc: ins_tag_weight must be a float32"),
    ],
)
def test_auc_names_bad_input(kwargs: dict, message: str) -> None:
    args = {"input": phi.ones([2, 2], "float32"), "label": phi.zeros([2, 1], "int64")}
    args.update(kwargs)
    with pytest.raises(InvalidArgumentError, match=message):
        phi.static.auc(**args)
