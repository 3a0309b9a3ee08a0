"""Write tests/data/metric/static_metrics.npz: PaddlePaddle 3.3.1's ``paddle.static.auc`` and
``paddle.static.accuracy`` run in static (PIR) programs, for tests/metric/test_static_metrics.py
(no paddle).

Keys (``c`` a case number):
- ``auc_input_c`` [N, 2] float32 probabilities, ``auc_label_c`` [N, 1] int64 0/1 labels;
  ``auc_thresholds_c``, ``auc_curve_c``: the arguments; ``auc_c``, ``auc_pos_c``, ``auc_neg_c``:
  the three results of ``paddle.static.auc`` (the AUC and the batch's positive and negative
  statistics, [1, num_thresholds + 1]);
- ``acc_input`` [6, 4] float32, ``acc_label`` [6, 1] int64; ``acc_k{k}``:
  ``paddle.static.accuracy(input, label, k)``.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_static_metric_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "metric" / "static_metrics.npz"

# (rows, num_thresholds, curve)
AUC_CASES = [(8, 4095, "ROC"), (12, 200, "ROC"), (10, 50, "PR"), (1, 4095, "ROC")]


def run(build, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetch = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=list(fetch))


def main() -> None:
    paddle.enable_static()
    rng = np.random.default_rng(2501)
    out: dict[str, np.ndarray] = {}
    for c, (rows, thresholds, curve) in enumerate(AUC_CASES):
        p = rng.random((rows, 1)).astype("float32")
        x = np.concatenate([1 - p, p], axis=1)
        label = rng.integers(0, 2, (rows, 1)).astype("int64")

        def build(thresholds=thresholds, curve=curve):
            xs = paddle.static.data("x", [-1, 2], "float32")
            ls = paddle.static.data("label", [-1, 1], "int64")
            return paddle.static.auc(xs, ls, curve=curve, num_thresholds=thresholds)

        auc, pos, neg = run(build, {"x": x, "label": label})
        out[f"auc_input_{c}"], out[f"auc_label_{c}"] = x, label
        out[f"auc_thresholds_{c}"], out[f"auc_curve_{c}"] = np.array(thresholds), np.array(curve)
        out[f"auc_{c}"], out[f"auc_pos_{c}"], out[f"auc_neg_{c}"] = auc, pos, neg
    x = rng.random((6, 4)).astype("float32")
    label = rng.integers(0, 4, (6, 1)).astype("int64")
    out["acc_input"], out["acc_label"] = x, label
    for k in (1, 2, 4):

        def build(k=k):
            xs = paddle.static.data("x", [-1, 4], "float32")
            ls = paddle.static.data("label", [-1, 1], "int64")
            return [paddle.static.accuracy(xs, ls, k=k)]

        (out[f"acc_k{k}"],) = run(build, {"x": x, "label": label})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **out)
    print(f"wrote {OUT} ({len(out)} arrays)")


if __name__ == "__main__":
    main()
