"""Writes tests/data/legacy24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the legacy24 ops of issue 24 (gru_unit, im2sequence, yolo_loss) through the op (``paddle._C_ops``), for every dtype
PaddlePaddle registers on CPU, on small inputs with their edges (each activation, origin_mode,
no bias, one row).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``): tests/ops/test_legacy24_paddle.py compares phiops with the
recording (no PaddlePaddle needed) and tests/parity/test_legacy24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_legacy24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import case, run as losscum_run, tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "legacy24" / "paddle_3_3_1.json"


def _uniform(n: int, seed: int, low: float = -1.0, high: float = 1.0) -> list[float]:
    return np.round(np.random.default_rng(seed).uniform(low, high, n), 4).tolist()


def gru_unit_cases() -> dict[str, dict[str, Any]]:
    """gru_unit for float32 and float64: each activation pair, origin_mode, no bias, one row."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for rows, frame in ((3, 2), (1, 3)):
            inputs = [
                tensor("input", _uniform(rows * 3 * frame, 1), [rows, 3 * frame], dtype),
                tensor("hidden_prev", _uniform(rows * frame, 2), [rows, frame], dtype),
                tensor("weight", _uniform(3 * frame * frame, 3), [frame, 3 * frame], dtype),
                tensor("bias", _uniform(3 * frame, 4), [1, 3 * frame], dtype),
            ]
            for act, gate_act, origin in ((2, 1, False), (2, 1, True), (3, 0, False), (1, 2, True)):
                key = f"gru_unit-{dtype}-{rows}x{frame}-act{act}-gate{gate_act}-origin{int(origin)}"
                out[key] = case(
                    "op", "gru_unit", inputs,
                    ["$input", "$hidden_prev", "$weight", "$bias", act, gate_act, origin],
                )  # fmt: skip
        out[f"gru_unit-{dtype}-nobias"] = case(
            "op", "gru_unit", [
                tensor("input", _uniform(12, 5), [2, 6], dtype),
                tensor("hidden_prev", _uniform(4, 6), [2, 2], dtype),
                tensor("weight", _uniform(12, 7), [2, 6], dtype),
            ],
            ["$input", "$hidden_prev", "$weight", None, 2, 1, False],
        )  # fmt: skip
    return out


def im2sequence_cases() -> dict[str, dict[str, Any]]:
    """im2sequence (float32 only): strides, paddings, real sizes with out_stride (no gradient
    there: PaddlePaddle's fails), one image with y."""
    out: dict[str, dict[str, Any]] = {}
    x = tensor("x", _uniform(2 * 2 * 5 * 4, 8), [2, 2, 5, 4], "float32")
    for kernels, strides, paddings in (
        ([2, 2], [1, 1], [0, 0, 0, 0]), ([2, 3], [2, 1], [1, 0, 0, 1]), ([3, 3], [2, 2], [1, 2, 2, 1]),
    ):  # fmt: skip
        key = f"im2sequence-k{kernels}-s{strides}-p{paddings}".replace(" ", "")
        out[key] = case("op", "im2sequence", [x], ["$x", None, kernels, strides, paddings, [1, 1]])
    no_grad = tensor("x", _uniform(2 * 2 * 5 * 4, 8), [2, 2, 5, 4], "float32", grad=False)
    sizes = tensor("y", [3, 4, 5, 2], [2, 2], "float32", grad=False)
    for out_stride in ([1, 1], [2, 2]):
        out[f"im2sequence-y-out_stride{out_stride}".replace(" ", "")] = case(
            "op", "im2sequence", [no_grad, sizes],
            ["$x", "$y", [2, 2], [1, 2], [1, 0, 0, 1], out_stride],
        )  # fmt: skip
    one = tensor("x", _uniform(2 * 5 * 4, 9), [1, 2, 5, 4], "float32")
    out["im2sequence-one-image-y"] = case(
        "op", "im2sequence", [one, tensor("y", [2, 2], [1, 2], "float32", grad=False)],
        ["$x", "$y", [2, 2], [1, 1], [0, 0, 0, 0], [1, 1]],
    )  # fmt: skip
    return out


def yolo_loss_cases() -> dict[str, dict[str, Any]]:
    """yolo_loss for float32 and float64 (gradients for x only: PaddlePaddle's kernel writes
    none for the boxes and scores): a box of zero size, two boxes at one cell, a box whose best
    anchor the head does not predict, scores, label smoothing off, a low ignore_thresh and
    scale_x_y."""
    out: dict[str, dict[str, Any]] = {}
    boxes = [0.3, 0.4, 0.2, 0.3, 0.7, 0.2, 0.05, 0.05, 0.5, 0.5, 0.0, 0.2,
             0.1, 0.9, 0.3, 0.5, 0.12, 0.88, 0.25, 0.45, 0.6, 0.6, 0.1, 0.15]  # fmt: skip
    anchors = [10, 13, 16, 30, 33, 23, 30, 61]
    for dtype in ("float32", "float64"):
        inputs = [
            tensor("x", _uniform(2 * 24 * 16, 10, -2.0, 2.0), [2, 24, 4, 4], dtype),
            tensor("gt_box", boxes, [2, 3, 4], dtype, grad=False),
            tensor("gt_label", [0, 2, 1, 1, 1, 0], [2, 3], "int32", grad=False),
            tensor("gt_score", _uniform(6, 11, 0.2, 1.0), [2, 3], dtype, grad=False),
        ]
        for mask, score, smooth, thresh, scale in (
            ([3, 0, 1], False, True, 0.7, 1.0),
            ([3, 0, 1], True, False, 0.1, 1.2),
            ([1, 2, 0], True, True, 0.3, 1.0),
        ):
            key = f"yolo_loss-{dtype}-mask{mask}-score{int(score)}-smooth{int(smooth)}-t{thresh}-s{scale}"
            out[key.replace(" ", "")] = case(
                "op", "yolo_loss", inputs,
                ["$x", "$gt_box", "$gt_label", "$gt_score" if score else None, anchors, mask, 3,
                 thresh, 32, smooth, scale],
            )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**gru_unit_cases(), **im2sequence_cases(), **yolo_loss_cases()}


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``, as
    make_losscum_fixtures.run records them."""
    return losscum_run(lib, case)


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
