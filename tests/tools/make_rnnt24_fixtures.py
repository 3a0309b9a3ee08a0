"""Writes tests/data/rnnt24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
rnnt24 op warprnnt (the RNN-T loss), through ``nn.functional.rnnt_loss`` (each reduction) and
``_C_ops.warprnnt``, for both dtypes PaddlePaddle registers on CPU (float32, float64), on small
inputs with their edges: log-softmaxed and unnormalised inputs, sequences shorter than the
padding, an empty label sequence in a padded batch (3.3.1 refuses a label tensor with no
columns: warp-transducer's workspace query fails), one frame, a nonzero blank, a label equal to the blank and
several FastEmit weights.

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``): tests/ops/test_rnnt24_paddle.py compares phiops with the
recording (no PaddlePaddle needed) and tests/parity/test_rnnt24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_rnnt24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import case, run as losscum_run, tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "rnnt24" / "paddle_3_3_1.json"


def log_probs(shape: tuple[int, ...], seed: int, normalise: bool = True) -> list[float]:
    """Values of ``shape`` rounded to 4 places; log-softmaxed over the last axis when
    ``normalise`` (the rounding keeps them within 1e-4 of a distribution)."""
    values = np.random.default_rng(seed).uniform(-2.0, 2.0, shape)
    if normalise:
        values = values - np.log(np.exp(values).sum(-1, keepdims=True))
    return np.round(values, 4).reshape(-1).tolist()


# (key, [B, T, U + 1, D], labels [B, U], input lengths, label lengths, blank, normalise)
SHAPES = (
    ("b2-padded", (2, 4, 3, 5), [[1, 2], [3, 0]], [4, 3], [2, 1], 0, True),
    ("b3-blank2", (3, 3, 4, 4), [[0, 1, 3], [1, 1, 0], [3, 0, 0]], [3, 2, 1], [3, 2, 1], 2, True),
    ("b2-empty-label", (2, 3, 3, 3), [[0, 0], [1, 2]], [3, 2], [0, 2], 0, True),
    ("b2-unnormalised", (2, 3, 3, 4), [[1, 3], [2, 2]], [3, 3], [2, 2], 0, False),
    ("b2-label-is-blank", (2, 3, 3, 3), [[0, 2], [1, 0]], [3, 2], [2, 2], 0, True),
    ("b1-one-frame", (1, 1, 3, 4), [[2, 1]], [1], [2], 3, True),
)


def rnnt_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for seed, (key, shape, labels, times, sizes, blank, normalise) in enumerate(SHAPES):
            batch, _, width, _ = shape
            inputs = [
                tensor("input", log_probs(shape, 100 + seed, normalise), list(shape), dtype),
                tensor("label", sum(labels, []), [batch, width - 1], "int32", grad=False),
                tensor("input_lengths", times, [batch], "int32", grad=False),
                tensor("label_lengths", sizes, [batch], "int32", grad=False),
            ]
            for reduction, lam in (("none", 0.0), ("sum", 0.001), ("mean", 0.5)):
                out[f"rnnt_loss-{dtype}-{key}-{reduction}-l{lam}"] = case(
                    "F", "rnnt_loss", inputs,
                    ["$input", "$label", "$input_lengths", "$label_lengths"],
                    {"blank": blank, "fastemit_lambda": lam, "reduction": reduction},
                )  # fmt: skip
        out[f"warprnnt-op-{dtype}"] = case(
            "op", "warprnnt", [
                tensor("input", log_probs((2, 3, 3, 4), 7), [2, 3, 3, 4], dtype),
                tensor("label", [1, 2, 3, 0], [2, 2], "int32", grad=False),
                tensor("input_lengths", [3, 2], [2], "int32", grad=False),
                tensor("label_lengths", [2, 1], [2], "int32", grad=False),
            ],
            ["$input", "$label", "$input_lengths", "$label_lengths", 0, 0.25],
        )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return rnnt_cases()


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
