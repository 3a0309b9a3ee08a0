"""Writes tests/data/quant24b/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the quant24b
ops of issue 24 (average_accumulates_, dpsgd, dgc_clip_by_norm), through ``paddle._C_ops``, on inputs with their edges:
an ordinary step, the 16384th update (sum_1 moves into sum_2), the window closing by
min_average_window, by average_window's fraction (truncated) and by max_average_window, both
at once; dpsgd's noise from fixed seeds (negative too) with a gradient inside and beyond
the clip norm; a 0-D parameter, float32 and float64.

A case is tests/tools/make_quant24_fixtures.py's (``case`` and ``run`` are reused): the op, its
tensor inputs, its arguments (``"$x"`` for input ``x``) and the outputs to record.
tests/ops/test_quant24b_paddle.py compares phiops with the recording and
tests/parity/test_quant24b_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_quant24b_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import tensor
from tests.tools.make_quant24_fixtures import case, run

OUT = Path(__file__).resolve().parents[1] / "data" / "quant24b" / "paddle_3_3_1.json"

__all__ = ["cases", "run"]


def _values(n: int, seed: int) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, 1.5, n), 4).tolist()


def average_accumulates_cases() -> dict[str, dict[str, Any]]:
    """average_accumulates_ with counters (num_accumulates, old_num_accumulates, num_updates)
    and windows (average_window, max_average_window, min_average_window) that reach each
    branch."""
    out: dict[str, dict[str, Any]] = {}
    counters = {
        "plain": ((3, 5, 20), (0.0, 2**63 - 1, 10000)),
        "move16384": ((3, 5, 16383), (0.0, 2**63 - 1, 10000)),
        "close_min": ((9, 5, 20), (0.0, 2**63 - 1, 10)),
        "close_fraction": ((4, 5, 20), (0.25, 2**63 - 1, 2)),  # 21 * 0.25 -> 5
        "open_fraction": ((3, 5, 20), (0.25, 2**63 - 1, 2)),
        "close_max": ((6, 5, 20), (1.0, 7, 2)),
        "both": ((9, 5, 16383), (0.0, 100, 10)),
    }
    for dtype in ("float32", "float64"):
        for shape in ([2, 3], []):
            n = int(np.prod(shape))
            for label, ((acc, old, updates), (window, max_window, min_window)) in counters.items():
                if shape == [] and label not in ("plain", "both"):
                    continue
                inputs = [
                    tensor("param", _values(n, 1), shape, dtype, False),
                    tensor("sum_1", _values(n, 2), shape, dtype, False),
                    tensor("sum_2", _values(n, 3), shape, dtype, False),
                    tensor("sum_3", _values(n, 4), shape, dtype, False),
                    tensor("num_acc", [acc], [1], "int64", False),
                    tensor("old_num_acc", [old], [1], "int64", False),
                    tensor("num_updates", [updates], [1], "int64", False),
                ]
                key = f"average_accumulates_-{dtype}-{len(shape)}d-{label}"
                out[key] = case(
                    "average_accumulates_",
                    inputs,
                    [
                        "$param", "$sum_1", "$sum_2", "$sum_3", "$num_acc", "$old_num_acc",
                        "$num_updates", window, max_window, min_window,
                    ],
                    [0, 1, 2, 3, 4, 5],
                )  # fmt: skip
    return out


def dpsgd_cases() -> dict[str, dict[str, Any]]:
    """dpsgd with fixed seeds (the noise is then PaddlePaddle's draw), a gradient inside and
    beyond the clip norm, a negative seed, a 0-D parameter, float32 and float64."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for shape in ([2, 3], []):
            n = int(np.prod(shape))
            param = tensor("param", _values(n, 5), shape, dtype, False)
            lr = tensor("lr", [0.1], [1], dtype, False)
            for grad_scale, clip in ((0.1, 10.0), (3.0, 1.0)):
                grad = tensor(
                    "grad", (np.array(_values(n, 6)) * grad_scale).tolist(), shape, dtype, False
                )
                for seed in (1, 12345, -3):
                    if shape == [] and seed != 1:
                        continue
                    key = f"dpsgd-{dtype}-{len(shape)}d-g{grad_scale}-s{seed}"
                    out[key] = case(
                        "dpsgd",
                        [param, grad, lr],
                        ["$param", "$grad", "$lr", clip, 4.0, 1.5, seed],
                        [0],
                    )
    return out


def dgc_clip_by_norm_cases() -> dict[str, dict[str, Any]]:
    """dgc_clip_by_norm once the ramp-up has begun (3.3.1 leaves out unset before it): a norm
    above max_norm, one below, a 0-D x, a step exactly at rampup_begin_step."""
    out: dict[str, dict[str, Any]] = {}
    for shape, max_norm, step, begin in (
        ([2, 3], 1.0, 5.0, 2.0),
        ([2, 3], 100.0, 5.0, 2.0),
        ([2, 3], 0.5, 2.0, 2.0),
        ([], 0.5, 3.7, 0.0),
        ([4], 2.0, 10.0, 9.9),
    ):
        n = int(np.prod(shape))
        inputs = [
            tensor("x", _values(n, 8), shape, "float32", False),
            tensor("step", [step], [1], "float32", False),
        ]
        key = f"dgc_clip_by_norm-{len(shape)}d-{max_norm}-{step}-{begin}"
        out[key] = case("dgc_clip_by_norm", inputs, ["$x", "$step", max_norm, begin], [0])
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**average_accumulates_cases(), **dpsgd_cases(), **dgc_clip_by_norm_cases()}


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
