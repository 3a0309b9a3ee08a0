"""Write tests/data/metric/metrics.npz: inputs and PaddlePaddle 3.3.1's results for
``paddle.metric``, for tests/metric/test_metrics.py (no paddle).

Keys (``b`` a batch number 0..2):
- ``acc_pred_b`` / ``acc_label_b`` / ``acc_onehot_b``: scores [8, 5] and labels [8, 1] / one-hot
  [8, 5]; ``acc_compute_b`` / ``acc_compute_1d_b`` / ``acc_compute_onehot_b``:
  ``Accuracy(topk=(1, 3)).compute`` with the labels as [8, 1], as [8] and one-hot;
  ``acc_update_b``: its ``update`` results; ``acc_accumulate``; ``acc_top1_accumulate`` (topk=(1,));
- ``pr_pred_b`` / ``pr_label_b``: probabilities [N, 1] and 0/1 labels [N, 1];
  ``precision_b`` / ``recall_b``: ``accumulate()`` after batch b;
- ``auc_pred_b`` / ``auc_label_b``: [N, 2] probabilities and labels [N, 1]; ``auc_b`` /
  ``auc200_b``: ``accumulate()`` after batch b of ``Auc()`` / ``Auc(num_thresholds=200)``;
- ``fn_input`` / ``fn_label``: scores [10, 6] and int64 labels [10, 1]; ``fn_k{k}``,
  ``fn_correct_k{k}``, ``fn_total_k{k}``: ``paddle.metric.accuracy(..., k)`` and its counts.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_metric_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "metric" / "metrics.npz"


def main() -> None:
    rng = np.random.default_rng(25)
    out: dict[str, np.ndarray] = {}
    top13 = paddle.metric.Accuracy(topk=(1, 3))
    top1 = paddle.metric.Accuracy()
    precision, recall = paddle.metric.Precision(), paddle.metric.Recall()
    auc, auc200 = paddle.metric.Auc(), paddle.metric.Auc(num_thresholds=200)
    for b in range(3):
        pred = rng.random((8, 5)).astype("float32")
        label = rng.integers(0, 5, (8, 1)).astype("int64")
        onehot = np.eye(5, dtype="float32")[label[:, 0]]
        out[f"acc_pred_{b}"], out[f"acc_label_{b}"], out[f"acc_onehot_{b}"] = pred, label, onehot
        p = paddle.to_tensor(pred)
        correct = top13.compute(p, paddle.to_tensor(label))
        out[f"acc_compute_{b}"] = correct.numpy()
        out[f"acc_compute_1d_{b}"] = top13.compute(p, paddle.to_tensor(label[:, 0])).numpy()
        out[f"acc_compute_onehot_{b}"] = top13.compute(p, paddle.to_tensor(onehot)).numpy()
        out[f"acc_update_{b}"] = np.array(top13.update(correct))
        top1.update(top1.compute(p, paddle.to_tensor(label)))

        size = 20 + 5 * b
        pr_pred = rng.random((size, 1)).astype("float32")
        pr_label = rng.integers(0, 2, (size, 1)).astype("int64")
        out[f"pr_pred_{b}"], out[f"pr_label_{b}"] = pr_pred, pr_label
        precision.update(pr_pred, pr_label)
        recall.update(paddle.to_tensor(pr_pred), paddle.to_tensor(pr_label))
        out[f"precision_{b}"] = np.array(precision.accumulate())
        out[f"recall_{b}"] = np.array(recall.accumulate())

        positive = rng.random((size * 3,)).astype("float32")
        auc_pred = np.stack([1 - positive, positive], axis=1)
        auc_label = (rng.random((size * 3, 1)) < positive[:, None] * 0.8 + 0.1).astype("int64")
        out[f"auc_pred_{b}"], out[f"auc_label_{b}"] = auc_pred, auc_label
        auc.update(auc_pred, auc_label)
        auc200.update(paddle.to_tensor(auc_pred), paddle.to_tensor(auc_label))
        out[f"auc_{b}"] = np.array(auc.accumulate())
        out[f"auc200_{b}"] = np.array(auc200.accumulate())
    out["acc_accumulate"] = np.array(top13.accumulate())
    out["acc_top1_accumulate"] = np.array(top1.accumulate())

    fn_input = rng.random((10, 6)).astype("float32")
    fn_label = rng.integers(0, 6, (10, 1)).astype("int64")
    out["fn_input"], out["fn_label"] = fn_input, fn_label
    for k in (1, 2, 3, 6):
        correct = paddle.zeros([1], "int32")
        total = paddle.zeros([1], "int32")
        acc = paddle.metric.accuracy(
            paddle.to_tensor(fn_input),
            paddle.to_tensor(fn_label),
            k=k,
            correct=correct,
            total=total,
        )
        out[f"fn_k{k}"] = acc.numpy()
        out[f"fn_correct_k{k}"] = correct.numpy()
        out[f"fn_total_k{k}"] = total.numpy()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **out)
    print(f"wrote {OUT} ({len(out)} arrays)")


if __name__ == "__main__":
    main()
