"""Writes tests/data/train24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the train24 ops
of issue 24 (AMP, metrics and training-side ops), through ``paddle._C_ops``, on inputs with
their edges: check_finite_and_unscale_ with a NaN or an infinity in the first, a middle or no
tensor of the list, 0-D and empty tensors, a scale that is not a power of two and a zero
scale; update_loss_scaling_ on both sides of each counter's limit, the factor clamped at 1
and kept when its growth overflows, a ratio float32 cannot hold exactly, stop_update;
clip_by_norm above, below and at a zero norm, 0-D, empty, infinite; norm along each axis with
its gradient, a zero row, is_test; accuracy for top-1 and top-2 indices and no samples;
accuracy_check's passing checks for each dtype; auc's global and sliding histograms.

A case is tests/tools/make_quant24_fixtures.py's (``case`` is reused): the op, its tensor
inputs, its arguments (``"$x"`` for input ``x``, also inside a list), the outputs to record and
whether to record x's gradient through output 0 (with an upstream gradient of x's dtype). tests/ops/test_train24_paddle.py compares phiops with the recording and
tests/parity/test_train24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_train24_fixtures.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import (
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)
from tests.tools.make_quant24_fixtures import call, case

OUT = Path(__file__).resolve().parents[1] / "data" / "train24" / "paddle_3_3_1.json"

__all__ = ["cases", "run"]

INF = math.inf
NAN = math.nan


def _values(n: int, seed: int, sd: float = 1500.0) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, sd, n), 2).tolist()


def check_finite_and_unscale_cases() -> dict[str, dict[str, Any]]:
    """Three tensors ([2, 3], [4], 0-D); a non-finite value in none, the first or the middle
    one; an empty tensor; scales 1024, 3 and 0."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        plain = [_values(6, 1), _values(4, 2), _values(1, 3)]
        lists = {
            "finite": plain,
            "inf-middle": [plain[0], [1.0, INF, -2.0, 3.0], plain[2]],
            "nan-first": [[NAN] + plain[0][1:], plain[1], plain[2]],
            "neg-inf-last": [plain[0], plain[1], [-INF]],
        }
        shapes = ([2, 3], [4], [])
        for label, values in lists.items():
            for scale in (1024.0, 3.0):
                if label != "finite" and scale != 1024.0:
                    continue
                inputs = [
                    tensor(f"x{i}", v, s, dtype, False)
                    for i, (v, s) in enumerate(zip(values, shapes))
                ]
                inputs.append(tensor("scale", [scale], [1], dtype, False))
                out[f"check_finite_and_unscale_-{dtype}-{label}-{scale:g}"] = case(
                    "check_finite_and_unscale_", inputs, [["$x0", "$x1", "$x2"], "$scale"], [0, 1]
                )
        zero = [
            tensor("x0", plain[1] + [0.0, -1.5], [6], dtype, False),
            tensor("scale", [0.0], [1], dtype, False),
        ]
        out[f"check_finite_and_unscale_-{dtype}-zero-scale"] = case(
            "check_finite_and_unscale_", zero, [["$x0"], "$scale"], [0, 1]
        )
        empty = [
            tensor("x0", [], [0, 3], dtype, False),
            tensor("x1", plain[1], [4], dtype, False),
            tensor("scale", [8.0], [1], dtype, False),
        ]
        out[f"check_finite_and_unscale_-{dtype}-empty"] = case(
            "check_finite_and_unscale_", empty, [["$x0", "$x1"], "$scale"], [0, 1]
        )
    return out


def update_loss_scaling_cases() -> dict[str, dict[str, Any]]:
    """(found_infinite, prev, good, bad, incr_every_n_steps, decr_every_n_nan_or_inf,
    incr_ratio, decr_ratio, stop_update) reaching each branch."""
    settings = {
        "finite-counts": (False, 1024.0, 3, 1, 1000, 2, 2.0, 0.5, False),
        "finite-grows": (False, 1024.0, 999, 1, 1000, 2, 2.0, 0.5, False),
        "finite-grows-odd-ratio": (False, 1000.0, 4, 0, 5, 2, 1.1, 0.5, False),
        "finite-overflow-kept": (False, 3.0e38, 0, 0, 1, 2, 2.0, 0.5, False),
        "inf-counts": (True, 1024.0, 7, 0, 1000, 2, 2.0, 0.5, False),
        "inf-shrinks": (True, 1024.0, 7, 1, 1000, 2, 2.0, 0.5, False),
        "inf-shrinks-odd-ratio": (True, 1000.0, 7, 0, 1000, 1, 2.0, 0.3, False),
        "inf-clamped-at-1": (True, 1.5, 0, 0, 1000, 1, 2.0, 0.5, False),
        "inf-stop-update": (True, 1024.0, 7, 1, 1000, 2, 2.0, 0.5, True),
        "finite-stop-update": (False, 1024.0, 999, 1, 1000, 2, 2.0, 0.5, True),
    }
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for label, (found, prev, good, bad, incr_n, decr_n, incr, decr, stop) in settings.items():
            inputs = [
                tensor("x0", _values(6, 4, 2.0), [2, 3], dtype, False),
                tensor("x1", [2.5], [], dtype, False),
                tensor("found", [found], [1], "bool", False),
                tensor("prev", [prev], [1], dtype, False),
                tensor("good", [good], [1], "int32", False),
                tensor("bad", [bad], [1], "int32", False),
            ]
            args = [
                ["$x0", "$x1"],
                "$found",
                "$prev",
                "$good",
                "$bad",
                incr_n,
                decr_n,
                incr,
                decr,
                stop,
            ]
            out[f"update_loss_scaling_-{dtype}-{label}"] = case(
                "update_loss_scaling_", inputs, args, [0, 1, 2, 3]
            )
    return out


def clip_by_norm_cases() -> dict[str, dict[str, Any]]:
    """Norms above and below max_norm, all zeros (the 1e-6 epsilon), 0-D, empty, an infinity."""
    x = tensor("x", _values(6, 5, 2.0), [2, 3], "float32", False)
    inputs = {
        "above": (x, 1.0),
        "below": (x, 100.0),
        "zeros": (tensor("x", [0.0] * 4, [4], "float32", False), 1.0),
        "0d": (tensor("x", [-3.5], [], "float32", False), 2.0),
        "empty": (tensor("x", [], [0, 2], "float32", False), 1.0),
        "inf": (tensor("x", [1.0, INF, -2.0], [3], "float32", False), 1.0),
        "3d": (tensor("x", _values(24, 6, 2.0), [2, 3, 4], "float32", False), 0.5),
    }
    return {
        f"clip_by_norm-float32-{label}": case("clip_by_norm", [value], ["$x", max_norm], [0])
        for label, (value, max_norm) in inputs.items()
    }


def norm_cases() -> dict[str, dict[str, Any]]:
    """Each axis of a 3-D x (negative too), epsilon 1e-10 and 1, a zero row, the gradient of out;
    is_test (out only: 3.3.1 leaves norm unset)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        x = tensor("x", _values(24, 7, 2.0), [2, 3, 4], dtype)
        for axis in (0, 1, 2, -1):
            out[f"norm-{dtype}-axis{axis}"] = case(
                "norm", [x], ["$x", axis, 1e-10, False], [0, 1], True
            )
        out[f"norm-{dtype}-eps1"] = case("norm", [x], ["$x", 1, 1.0, False], [0, 1], True)
        zero_row = tensor("x", [0.0, 0.0, 0.0, 1.0, -2.0, 2.0], [2, 3], dtype)
        out[f"norm-{dtype}-zero-row"] = case(
            "norm", [zero_row], ["$x", 1, 1e-10, False], [0, 1], True
        )
        out[f"norm-{dtype}-1d"] = case(
            "norm", [tensor("x", [3.0, -4.0], [2], dtype)], ["$x", 0, 1e-10, False], [0, 1], True
        )
        out[f"norm-{dtype}-is-test"] = case("norm", [x], ["$x", -1, 1e-10, True], [0])
    return out


def accuracy_cases() -> dict[str, dict[str, Any]]:
    """Top-1 and top-2 indices with labels found, not found and repeated; N = 0 (accuracy only:
    3.3.1 leaves correct and total unset)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for k, indices in ((1, [[2], [0], [1], [3]]), (2, [[2, 0], [0, 3], [1, 1], [3, 2]])):
            inputs = [
                tensor("x", [0.5] * (4 * k), [4, k], dtype, False),
                tensor("indices", [i for row in indices for i in row], [4, k], "int64", False),
                tensor("label", [0, 3, 1, 1], [4, 1], "int64", False),
            ]
            out[f"accuracy-{dtype}-top{k}"] = case(
                "accuracy", inputs, ["$x", "$indices", "$label"], [0, 1, 2]
            )
        empty = [
            tensor("x", [], [0, 2], dtype, False),
            tensor("indices", [], [0, 2], "int64", False),
            tensor("label", [], [0, 1], "int64", False),
        ]
        out[f"accuracy-{dtype}-empty"] = case("accuracy", empty, ["$x", "$indices", "$label"], [0])
    return out


def accuracy_check_cases() -> dict[str, dict[str, Any]]:
    """Checks that pass: equal inputs of every dtype 3.3.1 registers on CPU, values within rtol
    or atol, NaNs under equal_nan, 0-D and empty inputs (a failing check raises; the parity
    test compares those messages live)."""
    out: dict[str, dict[str, Any]] = {}
    dtypes = (
        "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
        "float64", "complex64", "complex128",
    )  # fmt: skip
    for dtype in dtypes:
        if dtype.startswith("complex"):
            values = [[1.0, 0.5], [0.0, 0.0], [1.0, -2.0]]
        else:
            values = [1, 0, 1] if dtype == "bool" else [1, 0, 3]
        inputs = [tensor("x", values, [3], dtype, False), tensor("y", values, [3], dtype, False)]
        out[f"accuracy_check-{dtype}-equal"] = case(
            "accuracy_check", inputs, ["$x", "$y", "fn", 1e-5, 1e-8, False], [0]
        )
    within = [
        tensor("x", [1.0, 2.0, NAN, 1e-9], [2, 2], "float32", False),
        tensor("y", [1.0, 2.00001, NAN, 0.0], [2, 2], "float32", False),
    ]
    out["accuracy_check-float32-within-nan"] = case(
        "accuracy_check", within, ["$x", "$y", "fn", 1e-5, 1e-8, True], [0]
    )
    loose = [
        tensor("x", [100.0, -3.0], [2], "float64", False),
        tensor("y", [100.5, -3.05], [2], "float64", False),
    ]
    out["accuracy_check-float64-loose"] = case(
        "accuracy_check", loose, ["$x", "$y", "fn", 0.01, 0.1, False], [0]
    )
    zero_d = [tensor("x", [2.5], [], "float32", False), tensor("y", [2.5], [], "float32", False)]
    out["accuracy_check-float32-0d"] = case(
        "accuracy_check", zero_d, ["$x", "$y", "fn", 1e-5, 1e-8, False], [0]
    )
    empty = [tensor("x", [], [0, 2], "int32", False), tensor("y", [], [0, 2], "int32", False)]
    out["accuracy_check-int32-empty"] = case(
        "accuracy_check", empty, ["$x", "$y", "fn", 1e-5, 1e-8, False], [0]
    )
    return out


def auc_cases() -> dict[str, dict[str, Any]]:
    """A global histogram (slide_steps 0) and sliding windows of 1 and 2 steps at several step
    counters, [N, 2] and [N, 1] predictions, a skipped negative label, scores 0 and 1, fake data
    (ins_tag_weight 0) and real data (1), the default 8191 thresholds."""
    out: dict[str, dict[str, Any]] = {}
    scores = [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.1, 0.9], [0.0, 1.0], [1.0, 0.0]]
    labels = [1, 0, 1, 1, -1, 0]
    x2 = tensor("x", [v for row in scores for v in row], [6, 2], "float32", False)
    x1 = tensor("x", [row[1] for row in scores], [6, 1], "float32", False)
    label = tensor("label", labels, [6, 1], "int64", False)
    settings = {
        "global": (4, 0, None, 0),
        "global-fake": (4, 0, 0.0, 0),
        "global-tagged": (4, 0, 1.0, 0),
        "slide1": (4, 1, None, 10),
        "slide2-step3": (4, 2, None, 3),
        "slide2-fake": (4, 2, 0.0, 4),
        "default-thresholds": (8191, 0, None, 0),
    }
    for label_text, (thresholds, slide, weight, counter) in settings.items():
        buckets = thresholds + 1
        length = (1 + slide) * buckets + (1 if slide else 0)
        shape = [length] if slide else [1, buckets]
        pos = [(i * 7) % 5 for i in range(length)]
        neg = [(i * 3) % 4 for i in range(length)]
        if slide:
            pos[-1], neg[-1] = counter, counter
        for x in (x2, x1) if label_text == "global" else (x2,):
            inputs = [
                x, label, tensor("stat_pos", pos, shape, "int64", False),
                tensor("stat_neg", neg, shape, "int64", False),
            ]  # fmt: skip
            args = ["$x", "$label", "$stat_pos", "$stat_neg", None, "ROC", thresholds, slide]
            if weight is not None:
                inputs.append(tensor("weight", [weight], [1], "float32", False))
                args[4] = "$weight"
            key = f"auc-float32-{label_text}-{x[2][1]}col"
            out[key] = case(
                "auc", inputs, args, [1, 2] if weight == 0.0 and not slide else [0, 1, 2]
            )
    return out


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's recorded outputs (dtype, shape, values; each tensor of a list output) and x's
    gradient on ``lib``."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    picked = [outs[i] for i in case["record"]]
    recorded: dict[str, Any] = {
        "fn": case["fn"],
        "outs": [
            {
                "dtype": dtype_name(out.dtype),
                "shape": list(out.shape),
                "values": to_json(out.numpy()),
            }
            for value in picked
            for out in (value if isinstance(value, list) else [value])
        ],
        "grads": {},
    }
    if case["grad"]:
        target = outs[0]
        dtype = dtype_name(target.dtype)
        grad_output = lib.to_tensor(out_grad_for(list(target.shape), dtype), dtype=dtype)
        (grad,) = lib.grad([target], [tensors["x"]], grad_outputs=[grad_output])
        recorded["grads"]["x"] = to_json(grad.numpy())
    return recorded


def cases() -> dict[str, dict[str, Any]]:
    return {
        **check_finite_and_unscale_cases(),
        **update_loss_scaling_cases(),
        **clip_by_norm_cases(),
        **norm_cases(),
        **accuracy_cases(),
        **accuracy_check_cases(),
        **auc_cases(),
    }


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
