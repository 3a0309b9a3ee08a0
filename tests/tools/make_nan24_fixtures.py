"""Writes tests/data/nan24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the nan24 ops of
issue 24 (numerics checks, reduce_as and buffer ops), through ``paddle._C_ops``, on inputs with
their edges: check_numerics's stats and values for each floating dtype, with zeros, NaN first
or later, infinities of both signs, float32 values beyond float16's range, 0-D and empty
tensors and a long float32 vector whose in-order mean shows the summation order;
enable_check_model_nan_inf and disable_check_model_nan_inf's outputs, gradients and the value
of FLAGS_check_nan_inf after the forward and after the backward call; reduce_as for every
registered dtype (bool and int32 into int64, int8 wrapping) over leading axes, size-1 axes, to
0-D and from empty tensors, with gradients for the floating ones; coalesce_tensor's views and
buffer for each dtype, packed, aligned to the default 4096 bytes, to align_size and with a
size_of_dtype of its own, copying the inputs or setting a constant (3.3.1 leaves the padding
as allocated: of a buffer with padding that no constant fills, only dtype and dims are
recorded).

A case is tests/tools/make_quant24_fixtures.py's (``case`` is reused): the op, its tensor
inputs, its arguments (``"$x"`` for input ``x``), the outputs to record and whether to record
x's gradient through output 0. tests/ops/test_nan24_paddle.py compares phiops with the
recording and tests/parity/test_nan24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_nan24_fixtures.py``.
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

OUT = Path(__file__).resolve().parents[1] / "data" / "nan24" / "paddle_3_3_1.json"

__all__ = ["cases", "run", "FLAG_OPS"]

INF = math.inf
NAN = math.nan
FLAG_OPS = ("enable_check_model_nan_inf", "disable_check_model_nan_inf")


def _values(n: int, seed: int, sd: float = 3.0) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, sd, n), 3).tolist()


def check_numerics_cases() -> dict[str, dict[str, Any]]:
    """Level 1 (report, never raise) so that tensors with NaN and Inf give their stats too."""
    inputs = {
        "plain": (_values(6, 1), [2, 3]),
        "zeros": ([0.0, 1.5, -0.0, 0.0, -2.25], [5]),
        "nan-later": ([1.0, NAN, 3.0, -4.0], [4]),
        "nan-first": ([NAN, 2.0, -1.0], [3]),
        "infs": ([1.0, INF, -INF, 0.0, 2.0, INF], [2, 3]),
        "0d": ([-7.5], []),
        "empty": ([], [0, 3]),
    }
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for label, (values, shape) in inputs.items():
            x = tensor("x", values, shape, dtype, False)
            out[f"check_numerics-{dtype}-{label}"] = case(
                "check_numerics", [x], ["$x", "op", "x", 1, -1, ""], [0, 1]
            )
    for dtype in ("float32", "float64"):
        x = tensor("x", _values(1000, 7, 100.0), [1000], dtype, False)
        out[f"check_numerics-{dtype}-long"] = case(
            "check_numerics", [x], ["$x", "op", "x", 1, -1, ""], [0, 1]
        )
    big = tensor("x", [70000.0, -1.0, 2.0], [3], "float32", False)
    out["check_numerics-float32-beyond-float16-level2"] = case(
        "check_numerics", [big], ["$x", "op", "x", 2, -1, ""], [0, 1]
    )
    out["check_numerics-float32-level3"] = case(
        "check_numerics", [tensor("x", [1.0, 2.0], [2], "float32", False)],
        ["$x", "op", "x", 3, -1, ""], [0, 1],
    )  # fmt: skip
    return out


def check_model_nan_inf_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for fn in FLAG_OPS:
        for dtype in ("float32", "float64", "int32", "bool"):
            values = [True, False, True] if dtype == "bool" else [1.0, -2.0, 3.0]
            grad = dtype.startswith("float")
            x = tensor("x", values, [3], dtype, grad)
            default = 1 if fn.startswith("enable") else 0  # 3.3.1's _C_ops needs the flag
            out[f"{fn}-{dtype}"] = case(fn, [x], ["$x", default], [0], grad=grad)
        x = tensor("x", [4.0, 5.0], [2], "float32", True)
        for flag in (0, 1, 7):
            out[f"{fn}-float32-flag{flag}"] = case(fn, [x], ["$x", flag], [0], grad=True)
    return out


REDUCE_AS_SHAPES = {
    "lead-and-ones": ([2, 3, 4], [3, 1]),
    "lead": ([2, 3, 4], [4]),
    "first-one": ([2, 3, 4], [1, 3, 4]),
    "to-ones": ([2, 3, 4], [2, 1, 1]),
    "to-0d": ([2, 3], []),
    "same": ([2, 3], [2, 3]),
    "ones-kept": ([1, 3], [1, 1]),
    "empty": ([0, 3], [3]),
}


def reduce_as_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    dtypes = (
        "float32", "float64", "float16", "bfloat16", "complex64", "complex128", "int8", "uint8",
        "int16", "int32", "int64", "bool",
    )  # fmt: skip
    for dtype in dtypes:
        for label, (shape, target_shape) in REDUCE_AS_SHAPES.items():
            if dtype not in ("float32", "float64") and label not in ("lead-and-ones", "to-0d"):
                continue
            count = int(np.prod(shape))
            if dtype == "bool":
                values: list = [bool(i % 3) for i in range(count)]
            elif dtype.startswith("complex"):
                values = [[float(i % 5), float(-i % 3)] for i in range(count)]
            else:
                values = [float(i % 7) for i in range(count)]
            grad = dtype in ("float32", "float64")
            x = tensor("x", values, shape, dtype, grad)
            target = tensor("target", [0.0] * int(np.prod(target_shape)), target_shape,
                            "float32", False)  # fmt: skip
            out[f"reduce_as-{dtype}-{label}"] = case(
                "reduce_as", [x, target], ["$x", "$target"], [0], grad=grad
            )
    wraps = tensor("x", [100.0, 100.0, 100.0, 100.0], [2, 2], "int8", False)
    target = tensor("target", [0, 0], [2], "int64", False)
    out["reduce_as-int8-wraps"] = case("reduce_as", [wraps, target], ["$x", "$target"], [0])
    return out


def coalesce_tensor_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    layouts = {
        "packed": (False, -1, -1),
        "default-align": (True, -1, -1),
        "align-64": (True, 64, -1),
        "align-16-size-2": (True, 16, 2),
        "align-8": (True, 8, -1),
    }
    for dtype in ("float32", "float64", "int32"):
        inputs = [
            tensor("a", [float(i) for i in range(6)], [2, 3], dtype, False),
            tensor("b", [10.0 + i for i in range(5)], [5], dtype, False),
            tensor("c", [-3.0], [], dtype, False),
        ]
        for label, (use_align, align_size, size_of_dtype) in layouts.items():
            for fill, (copy_data, set_constant, constant) in {
                "copy": (True, False, 0.0),
                "constant": (False, True, -2.7),
            }.items():
                args = [["$a", "$b", "$c"], dtype, copy_data, set_constant, False, constant,
                        use_align, align_size, size_of_dtype, [], []]  # fmt: skip
                key = f"coalesce_tensor-{dtype}-{label}-{fill}"
                padded = fill == "copy" and use_align
                out[key] = case("coalesce_tensor", inputs, args, [0, 1])
                if padded:
                    out[key]["shapes_only"] = [1]
    return out


def _flag(lib: ModuleType) -> bool:
    return bool(lib.get_flags(["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"])


def _numpy(value: Any) -> np.ndarray:
    """The values of ``value`` (bfloat16 through float32: PaddlePaddle's numpy() gives its bits)."""
    if dtype_name(value.dtype) == "bfloat16":
        return value.astype("float32").numpy()
    return value.numpy()


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's recorded outputs (dtype, shape, values), x's gradient, and for the flag ops
    FLAGS_check_nan_inf after the forward and the backward call (reset to false after)."""
    tensors = make_inputs(lib, case)
    flags_seen = []
    try:
        result = call(lib, case, tensors)
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        flags_seen.append(_flag(lib))
        recorded: dict[str, Any] = {
            "fn": case["fn"],
            "outs": [
                {
                    "dtype": dtype_name(out.dtype),
                    "shape": list(out.shape),
                    "values": None if i in case.get("shapes_only", ()) else to_json(_numpy(out)),
                }
                for i in case["record"]
                for out in (outs[i] if isinstance(outs[i], list) else [outs[i]])
            ],
            "grads": {},
        }
        if case["grad"]:
            target = outs[0]
            dtype = dtype_name(target.dtype)
            grad_output = lib.to_tensor(out_grad_for(list(target.shape), dtype), dtype=dtype)
            (grad,) = lib.grad([target], [tensors["x"]], grad_outputs=[grad_output])
            flags_seen.append(_flag(lib))
            recorded["grads"]["x"] = to_json(grad.numpy())
    finally:
        lib.set_flags({"FLAGS_check_nan_inf": False})
    if case["fn"] in FLAG_OPS:
        recorded["flags"] = flags_seen
    return recorded


def cases() -> dict[str, dict[str, Any]]:
    return {
        **check_numerics_cases(),
        **check_model_nan_inf_cases(),
        **reduce_as_cases(),
        **coalesce_tensor_cases(),
    }


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
