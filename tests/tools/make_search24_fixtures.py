"""Writes tests/data/search24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
search24 ops of issue 24 (kthvalue, mode, nanmedian, searchsorted, bincount, histogram,
index_sample, repeat_interleave, repeat_interleave_with_tensor_index, unstack, amax, amin,
reverse) through
the op (``paddle._C_ops``) and the ``paddle.*`` functions, for every dtype PaddlePaddle registers
on CPU, on inputs with their edges (NaN, ties in rows of up to 16 elements, 0-D and 1-D inputs,
rows of NaN only, values past either end, empty inputs).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``) and its ``run``, on ``paddle`` or ``phiops`` alike:
tests/ops/test_search24_paddle.py compares phiops with the recording (no PaddlePaddle needed)
and tests/parity/test_search24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_search24_fixtures.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import case, run, tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "search24" / "paddle_3_3_1.json"

NAN = math.nan
DTYPES = ("float32", "float64", "int32", "int64")


def _distinct(n: int, seed: int) -> list[float]:
    """n distinct values (whole numbers, so every dtype holds them), shuffled."""
    return (np.random.default_rng(seed).permutation(n) * 3 - n).astype(float).tolist()


def _floaty(dtype: str) -> bool:
    return dtype.startswith("float")


def select_cases() -> dict[str, dict[str, Any]]:
    """kthvalue and mode."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        x = tensor("x", _distinct(15, 1), [3, 5], dtype)
        for k, axis, keepdim in ((1, -1, False), (3, 1, True), (2, 0, False), (5, 1, False)):
            out[f"kthvalue-{dtype}-k{k}-axis{axis}-{keepdim}"] = case(
                "op", "kthvalue", [x], ["$x", k, axis, keepdim]
            )
        out[f"kthvalue-api-{dtype}"] = case("api", "kthvalue", [x], ["$x", 2])
        out[f"kthvalue-0d-{dtype}"] = case(
            "op", "kthvalue", [tensor("x", [4.0], [], dtype)], ["$x", 1, -1, False]
        )
        ties = tensor("x", [3, 1, 2, 1, 3, 3, 0, 2], [2, 4], dtype)
        out[f"kthvalue-ties-{dtype}"] = case("op", "kthvalue", [ties], ["$x", 2, 1, False])
        out[f"mode-{dtype}"] = case(
            "op",
            "mode",
            [tensor("x", [1, 2, 2, 3, 3, 0, 5, 5, 4, 4, 4, 1], [2, 6], dtype)],
            ["$x", -1, False],
        )
        out[f"mode-axis0-{dtype}"] = case(
            "api",
            "mode",
            [tensor("x", [1, 2, 2, 1, 1, 0, 2, 5, 1], [3, 3], dtype)],
            ["$x", 0, True],
        )
        out[f"mode-0d-{dtype}"] = case(
            "op", "mode", [tensor("x", [7.0], [], dtype)], ["$x", -1, False]
        )
        out[f"mode-3d-{dtype}"] = case(
            "op", "mode", [tensor("x", _distinct(24, 2), [2, 3, 4], dtype)], ["$x", 1, False]
        )
        if _floaty(dtype):
            nan_x = tensor("x", [NAN, 1.0, 3.0, 2.0, 5.0, NAN, NAN, 4.0], [2, 4], dtype)
            out[f"kthvalue-nan-{dtype}"] = case("op", "kthvalue", [nan_x], ["$x", 3, 1, False])
            out[f"mode-nan-{dtype}"] = case(
                "op",
                "mode",
                [tensor("x", [NAN, NAN, 1.0, 2.0, 2.0, NAN, 3.0, 1.0], [2, 4], dtype)],
                ["$x", 1, False],
            )
    return out


def median_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        x = tensor("x", _distinct(12, 3), [3, 4], dtype)
        for axis in ([1], [0], [], [-1, 0]):
            for keepdim in (False, True):
                for mode in ("avg", "min"):
                    out[f"nanmedian-{dtype}-{axis}-{keepdim}-{mode}"] = case(
                        "op", "nanmedian", [x], ["$x", axis, keepdim, mode]
                    )
        cube = tensor("x", _distinct(24, 4), [2, 3, 4], dtype)
        out[f"nanmedian-3d-{dtype}"] = case("op", "nanmedian", [cube], ["$x", [2, 0], False, "avg"])
        out[f"nanmedian-3d-min-{dtype}"] = case("op", "nanmedian", [cube], ["$x", [1], True, "min"])
        out[f"nanmedian-api-{dtype}"] = case("api", "nanmedian", [x], ["$x"])
        out[f"nanmedian-api-min-{dtype}"] = case(
            "api", "nanmedian", [x], ["$x"], {"axis": 1, "mode": "min"}
        )
        out[f"nanmedian-0d-{dtype}"] = case(
            "op", "nanmedian", [tensor("x", [2.0], [], dtype)], ["$x", [], False, "avg"]
        )
        out[f"nanmedian-negative-{dtype}"] = case(
            "op",
            "nanmedian",
            [tensor("x", [3, 1, -2, -1, -5, 2], [2, 3], dtype)],
            ["$x", [0], False, "avg"],
        )
        if _floaty(dtype):
            nan_x = tensor(
                "x", [NAN, 1.0, 3.0, 2.0, NAN, NAN, NAN, NAN, 4.0, NAN, 6.0, 5.0], [3, 4], dtype
            )
            for mode in ("avg", "min"):
                out[f"nanmedian-nan-{dtype}-{mode}"] = case(
                    "op", "nanmedian", [nan_x], ["$x", [1], False, mode]
                )
            out[f"nanmedian-allnan-{dtype}"] = case(
                "op",
                "nanmedian",
                [tensor("x", [NAN] * 4, [2, 2], dtype)],
                ["$x", [1], False, "avg"],
            )
    return out


def search_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        seq = tensor("sorted_sequence", [-3, -1, 0, 0, 2, 5, 9], [7], dtype, False)
        values = tensor("values", [-5, 0, 1, 9, 12, 2], [2, 3], dtype, False)
        for out_int32 in (False, True):
            for right in (False, True):
                out[f"searchsorted-{dtype}-{out_int32}-{right}"] = case(
                    "op",
                    "searchsorted",
                    [seq, values],
                    ["$sorted_sequence", "$values", out_int32, right],
                )
        rows = tensor("sorted_sequence", [1, 2, 2, 3, 0, 4, 4, 4], [2, 4], dtype, False)
        row_values = tensor("values", [2, 0, 4, 4, 5, -1], [2, 3], dtype, False)
        out[f"searchsorted-rows-{dtype}"] = case(
            "op", "searchsorted", [rows, row_values], ["$sorted_sequence", "$values", False, True]
        )
        out[f"searchsorted-api-{dtype}"] = case(
            "api",
            "searchsorted",
            [seq, values],
            ["$sorted_sequence", "$values"],
            {"side": "right"},
        )
        if _floaty(dtype):
            out[f"searchsorted-nan-{dtype}"] = case(
                "op",
                "searchsorted",
                [seq, tensor("values", [NAN, 0.5], [2], dtype, False)],
                ["$sorted_sequence", "$values", False, False],
            )
    return out


def count_cases() -> dict[str, dict[str, Any]]:
    """bincount and histogram."""
    out: dict[str, dict[str, Any]] = {}
    for index_dtype in ("int32", "int64"):
        x = tensor("x", [1, 3, 3, 0, 7, 3], [6], index_dtype, False)
        for minlength in (0, 10):
            out[f"bincount-{index_dtype}-{minlength}"] = case(
                "op", "bincount", [x], ["$x", None, minlength]
            )
        for weight_dtype in DTYPES:
            weights = tensor("weights", [0.5, 1, 2, 3, 4, 1.5], [6], weight_dtype, False)
            out[f"bincount-{index_dtype}-{weight_dtype}"] = case(
                "api", "bincount", [x, weights], ["$x", "$weights", 2]
            )
        out[f"bincount-empty-{index_dtype}"] = case(
            "op", "bincount", [tensor("x", [], [0], index_dtype, False)], ["$x", None, 3]
        )
    for dtype in DTYPES:
        values = [1, 3, 3, 0, 7, -2, 5, 2, 2, 4]
        data = tensor("input", values, [2, 5], dtype, False)
        for bins, low, high in ((4, 0.0, 0.0), (5, 0.0, 4.0), (3, -1.0, 2.0), (7, 1.5, 3.5)):
            out[f"histogram-{dtype}-{bins}-{low}-{high}"] = case(
                "op", "histogram", [data], ["$input", None, bins, low, high, False]
            )
            out[f"histogram-density-{dtype}-{bins}-{low}-{high}"] = case(
                "op", "histogram", [data], ["$input", None, bins, low, high, True]
            )
        weight = tensor("weight", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [2, 5], dtype, False)
        out[f"histogram-weight-{dtype}"] = case(
            "api", "histogram", [data, weight], ["$input", 4], {"weight": "$weight"}
        )
        out[f"histogram-weight-density-{dtype}"] = case(
            "op", "histogram", [data, weight], ["$input", "$weight", 3, 0.0, 6.0, True]
        )
        out[f"histogram-one-value-{dtype}"] = case(
            "op",
            "histogram",
            [tensor("input", [2, 2, 2], [3], dtype, False)],
            ["$input", None, 4, 0.0, 0.0, False],
        )
        out[f"histogram-api-{dtype}"] = case("api", "histogram", [data], ["$input", 6, 0, 5])
    return out


def index_cases() -> dict[str, dict[str, Any]]:
    """index_sample, repeat_interleave (both ops) and unstack."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64", "complex64", "complex128"):
        values = (
            [[v, -v / 2] for v in _distinct(12, 5)]
            if dtype.startswith("complex")
            else (_distinct(12, 5))
        )
        x = tensor("x", values, [3, 4], dtype)
        for index_dtype in ("int32", "int64"):
            index = tensor("index", [3, 0, 0, 1, 1, 2, 2, 2, 0], [3, 3], index_dtype, False)
            out[f"index_sample-{dtype}-{index_dtype}"] = case(
                "op", "index_sample", [x, index], ["$x", "$index"]
            )
        out[f"index_sample-api-{dtype}"] = case(
            "api",
            "index_sample",
            [x, tensor("index", [1, 3, 0], [3, 1], "int64", False)],
            ["$x", "$index"],
        )
        for axis in (0, -1):
            out[f"unstack-{dtype}-{axis}"] = case(
                "op", "unstack", [x], ["$x", axis, 3 if axis == 0 else 4]
            )
        out[f"unstack-api-{dtype}"] = case("api", "unstack", [x], ["$x"], {"axis": 1})
    for dtype in ("bfloat16", "float32", "float64", "int32", "int64"):
        # phiops takes no gradients through bfloat16 tensors: their forward only
        x = tensor("x", _distinct(6, 6), [2, 3], dtype, dtype != "bfloat16")
        for repeats, axis, size in ((2, 1, -1), (3, 0, -1), (2, -1, 6), (1, 0, -1)):
            out[f"repeat_interleave-{dtype}-{repeats}-{axis}-{size}"] = case(
                "op", "repeat_interleave", [x], ["$x", repeats, axis, size]
            )
        for index_dtype in ("int32", "int64"):
            counts = tensor("repeats", [1, 0, 2], [3], index_dtype, False)
            out[f"repeat_interleave_with_tensor_index-{dtype}-{index_dtype}"] = case(
                "op",
                "repeat_interleave_with_tensor_index",
                [x, counts],
                ["$x", "$repeats", 1, -1],
            )
        out[f"repeat_interleave-api-{dtype}"] = case("api", "repeat_interleave", [x], ["$x", 2])
        out[f"repeat_interleave-api-tensor-{dtype}"] = case(
            "api",
            "repeat_interleave",
            [x, tensor("repeats", [2, 1], [2], "int64", False)],
            ["$x", "$repeats", 0],
            {"output_size": 3},
        )
    return out


def reduce_cases() -> dict[str, dict[str, Any]]:
    """amax, amin (ties share the gradient) and reverse."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        x = tensor("x", [1, 3, 3, -2, 5, 5, 0, 4, -2, 7, 7, 7], [3, 4], dtype)
        for op in ("amax", "amin"):
            for axis, keepdim in (([1], False), ([0], True), ([], False), ([-1, 0], True)):
                out[f"{op}-{dtype}-{axis}-{keepdim}"] = case("op", op, [x], ["$x", axis, keepdim])
            out[f"{op}-api-{dtype}"] = case("api", op, [x], ["$x"], {"axis": 1})
            if _floaty(dtype):
                out[f"{op}-nan-{dtype}"] = case(
                    "op",
                    op,
                    [tensor("x", [1.0, NAN, 2.0, 3.0, 3.0, 0.0], [2, 3], dtype)],
                    ["$x", [1], False],
                )
    for dtype in ("bool", "uint8", "int32", "int64", "float32", "float64"):
        values = [v % 2 == 0 for v in range(6)] if dtype == "bool" else list(range(6))
        x = tensor("x", values, [2, 3], dtype)
        for axis in ([0], [1], [0, -1], [1, 1]):
            out[f"reverse-{dtype}-{axis}"] = case("op", "reverse", [x], ["$x", axis])
        if dtype != "uint8":  # paddle.reverse is paddle.flip, which has no uint8 kernel
            out[f"reverse-api-{dtype}"] = case("api", "reverse", [x], ["$x", 1])
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **reduce_cases(),
        **select_cases(),
        **median_cases(),
        **search_cases(),
        **count_cases(),
        **index_cases(),
    }


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
