"""Writes tests/data/loss24b/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the loss24b ops of issue 24 (hsigmoid_loss, class_center_sample), for every dtype PaddlePaddle
registers on CPU, on small inputs with their edges (default and custom trees, no bias, [N, 1]
labels, paths of several lengths, one sample; seeded draws of the class centers).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``): tests/ops/test_loss24b_paddle.py compares phiops with the
recording (no PaddlePaddle needed) and tests/parity/test_loss24b_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_loss24b_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import case, run as losscum_run, tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "loss24b" / "paddle_3_3_1.json"


def _uniform(n: int, seed: int, low: float = -1.0, high: float = 1.0) -> list[float]:
    return np.round(np.random.default_rng(seed).uniform(low, high, n), 4).tolist()


# a custom tree of 4 non-leaf nodes over 5 samples: paths of 3, 2, 1, 3 and 2 nodes
CUSTOM_PATH = [[0, 1, 3], [0, 2, -1], [2, -1, -1], [0, 1, 2], [3, 1, -1]]
CUSTOM_CODE = [[1, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 1, 1]]


def hsigmoid_loss_cases() -> dict[str, dict[str, Any]]:
    """F.hsigmoid_loss for float32 and float64: default trees of 2, 6 and 8 classes, with and
    without bias, [N] and [N, 1] labels, a custom tree, one sample; large weights (clipped)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for classes, batch, bias, column in ((6, 4, True, False), (8, 5, False, True), (2, 3, True, True)):
            labels = [int(v) for v in np.random.default_rng(classes).integers(0, classes, batch)]
            inputs = [
                tensor("input", _uniform(batch * 3, 1), [batch, 3], dtype),
                tensor("label", labels, [batch, 1] if column else [batch], "int64", grad=False),
                tensor("weight", _uniform((classes - 1) * 3, 2), [classes - 1, 3], dtype),
            ]
            if bias:
                inputs.append(tensor("bias", _uniform(classes - 1, 3), [classes - 1, 1], dtype))
            key = f"hsigmoid_loss-{dtype}-c{classes}-n{batch}-bias{int(bias)}-col{int(column)}"
            out[key] = case(
                "F", "hsigmoid_loss", inputs,
                ["$input", "$label", classes, "$weight", "$bias" if bias else None],
            )  # fmt: skip
        out[f"hsigmoid_loss-{dtype}-custom"] = case(
            "F", "hsigmoid_loss", [
                tensor("input", _uniform(5 * 3, 4), [5, 3], dtype),
                tensor("label", [0, 1, 2, 3, 4], [5], "int64", grad=False),
                tensor("weight", _uniform(4 * 3, 5), [4, 3], dtype),
                tensor("bias", _uniform(4, 6), [4, 1], dtype),
                tensor("path_table", sum(CUSTOM_PATH, []), [5, 3], "int64", grad=False),
                tensor("path_code", sum(CUSTOM_CODE, []), [5, 3], "int64", grad=False),
            ],
            ["$input", "$label", 5, "$weight", "$bias", "$path_table", "$path_code"],
        )  # fmt: skip
        out[f"hsigmoid_loss-{dtype}-clipped"] = case(
            "F", "hsigmoid_loss", [
                tensor("input", _uniform(2 * 2, 7, -30, 30), [2, 2], dtype),
                tensor("label", [1, 3], [2], "int64", grad=False),
                tensor("weight", _uniform(3 * 2, 8, -3, 3), [3, 2], dtype),
            ],
            ["$input", "$label", 4, "$weight"],
        )  # fmt: skip
        out[f"hsigmoid_loss-{dtype}-op-pre_out"] = case(
            "api", "hsigmoid_loss_op", [
                tensor("x", _uniform(3 * 2, 9), [3, 2], dtype),
                tensor("label", [4, 0, 2], [3], "int64", grad=False),
                tensor("w", _uniform(4 * 2, 10), [4, 2], dtype),
                tensor("bias", _uniform(4, 11), [4, 1], dtype),
            ],
            ["$x", "$label", "$w", "$bias", None, None, 5, False],
            grad_outputs=[0],
        )  # fmt: skip
    return out


def class_center_sample_cases() -> dict[str, dict[str, Any]]:
    """class_center_sample for int32 and int64 labels with a fixed nonzero seed (a new engine
    seeded with it): some labels repeated, more distinct labels than num_samples, every class
    sampled, a large num_classes; and seed 0 after paddle.seed (the process engine)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("int32", "int64"):
        for key, labels, classes, samples, seed in (
            ("repeats", [0, 3, 5, 3], 20, 8, 7),
            ("more-labels-than-samples", [1, 4, 9, 2, 7], 10, 3, 11),
            ("every-class", [2, 2, 0], 6, 6, 5),
            ("large", [17, 999_999, 3, 17], 1_000_003, 40, 123456),
        ):
            out[f"class_center_sample-{dtype}-{key}"] = case(
                "op", "class_center_sample",
                [tensor("label", labels, [len(labels)], dtype, grad=False)],
                ["$label", classes, samples, 0, 0, 1, True, seed],
            )  # fmt: skip
        out[f"class_center_sample-{dtype}-process-engine"] = case(
            "api", "class_center_sample_after_seed",
            [tensor("label", [4, 1, 4, 8], [4], dtype, grad=False)],
            ["$label", 50, 12, 2024],
        )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**hsigmoid_loss_cases(), **class_center_sample_cases()}


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``, as
    make_losscum_fixtures.run records them. ``via: api`` cases call the helpers of
    ``_WithOpOutputs`` (an op's outputs less the ones 3.3.1 leaves unset)."""
    return losscum_run(_WithOpOutputs(lib) if case["via"] == "api" else lib, case)


class _WithOpOutputs:
    """``lib`` plus ``hsigmoid_loss_op`` (the op's out and pre_out: 3.3.1 leaves w_out unset,
    with no values to read) and ``class_center_sample_after_seed``."""

    def __init__(self, lib: ModuleType) -> None:
        self._lib = lib
        self.__name__ = lib.__name__

    def __getattr__(self, name: str) -> Any:
        return getattr(self._lib, name)

    def class_center_sample_after_seed(
        self, label: Any, num_classes: int, num_samples: int, seed: int
    ) -> tuple[Any, Any]:
        """The op drawing from the process engine (fix_seed, seed 0) after ``seed(seed)``."""
        self._lib.seed(seed)
        ops = importlib.import_module(f"{self.__name__}._C_ops")
        return ops.class_center_sample(label, num_classes, num_samples, 0, 0, 1, True, 0)

    def hsigmoid_loss_op(self, *args: Any) -> tuple[Any, Any]:
        ops = importlib.import_module(f"{self.__name__}._C_ops")
        return tuple(ops.hsigmoid_loss(*args))[:2]


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
