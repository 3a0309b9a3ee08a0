"""Writes tests/data/unary_math2/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the unary math ops (log1p, log2, log10, expm1, round, trunc, asin, acos, atan, sinh,
cosh, asinh, acosh, atanh, tan, reciprocal, celu, hardshrink, softshrink, tanh_shrink,
thresholded_relu, erfinv) on inputs with their edges (nan, +-inf, +-0, poles, thresholds, halves), for
every dtype PaddlePaddle registers on CPU; tests/ops/test_unary_math2_paddle.py compares phiops
with them (no PaddlePaddle needed there).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_unary_math2_fixtures.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "unary_math2" / "paddle_3_3_1.json"

F = paddle.nn.functional
NAN, INF = math.nan, math.inf
SPECIAL = [NAN, INF, -INF, 0.0, -0.0]

# op -> (paddle function taking (x, *attrs), [attribute lists], real inputs, complex dtypes too)
LOGS = SPECIAL + [-1.0, -0.5, 1e-7, 0.25, 1.0, 2.0, 10.0, 1e30, -3.0]
UNIT = SPECIAL + [-1.0, 1.0, -0.999, 0.5, -0.3, 1e-8, 2.0, -1.5]
WIDE = SPECIAL + [-100.0, -3.0, -0.7, 1e-9, 0.5, 2.0, 30.0, 100.0, 1000.0]
HALVES = SPECIAL + [0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 2.675, -2.5, 0.49999997, 15.0, 25.0, 1234.5678]
SHRINK = SPECIAL + [0.5, -0.5, 0.6, -0.6, 0.59, 0.61, 0.3, -0.29, 1.0, -2.0, 0.4, 1e-3]
COMPLEX = [0j, 0.5 + 0.5j, -0.3 + 1.2j, 2 - 1j, -1.5 - 0.25j, 0.1j, 3 + 0j, -2 + 0j, 0.7 - 2j]

OPS = {
    "log1p": (paddle.log1p, [[]], LOGS, True),
    "log2": (paddle.log2, [[]], LOGS, True),
    "log10": (paddle.log10, [[]], LOGS, True),
    "expm1": (paddle.expm1, [[]], WIDE, True),
    "round": (paddle.round, [[0], [1], [2], [-1]], HALVES, True),
    "trunc": (paddle.trunc, [[]], HALVES, False),
    "asin": (paddle.asin, [[]], UNIT, True),
    "acos": (paddle.acos, [[]], UNIT, True),
    "atan": (paddle.atan, [[]], WIDE, True),
    "sinh": (paddle.sinh, [[]], WIDE, True),
    "cosh": (paddle.cosh, [[]], WIDE, True),
    "asinh": (paddle.asinh, [[]], WIDE, True),
    "acosh": (paddle.acosh, [[]], SPECIAL + [1.0, 1.0001, 2.0, 10.0, 0.5, -2.0, 1e10], True),
    "atanh": (paddle.atanh, [[]], UNIT, True),
    "tan": (paddle.tan, [[]], SPECIAL + [0.5, -1.0, 1.5, -1.57, 3.0, 100.0], True),
    "reciprocal": (paddle.reciprocal, [[]], WIDE, True),
    "celu": (F.celu, [[1.0], [0.5], [2.5]], WIDE, False),
    "hardshrink": (F.hardshrink, [[0.5], [0.6], [0.0]], SHRINK, False),
    "softshrink": (F.softshrink, [[0.5], [0.6], [0.0]], SHRINK, False),
    "tanh_shrink": (F.tanhshrink, [[]], WIDE, False),
    "erfinv": (paddle.erfinv, [[]], UNIT + [0.9999999, -0.999999, 0.2, 0.7, 0.99, 1e-300], False),
    "thresholded_relu": (F.thresholded_relu, [[1.0, 0.0], [0.6, 3.0], [-0.5, -1.0]], SHRINK, False),
}

# float_math ops: PaddlePaddle's API computes integer inputs in float32
INTEGER_INPUTS = [-3, -1, 0, 1, 2, 7]
INTEGER_OPS = {
    "log1p": ("int32", "int64"),
    "log2": ("int32", "int64"),
    "log10": ("int32", "int64"),
    "expm1": ("int32", "int64"),
    "round": ("int32", "int64"),
    "trunc": ("int32", "int64"),
    "asin": ("uint8", "int8", "int16", "int32", "int64"),
    "tan": ("uint8", "int8", "int16", "int32", "int64"),
    "reciprocal": ("int32", "int64"),
    "sinh": ("int32", "int64"),
    "erfinv": ("int32", "int64"),
}


def encode(array: np.ndarray) -> list:
    flat = array.reshape(-1)
    if flat.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if flat.dtype.kind in "iub":
        return [int(v) for v in flat]
    return [float(v) for v in flat.astype(np.float64)]


def run(fn, x_np: np.ndarray, dtype: str, attrs: list, grad: bool) -> dict:
    x = paddle.to_tensor(x_np).astype(dtype) if dtype == "bfloat16" else paddle.to_tensor(x_np)
    entry: dict = {"x": encode(x_np)}
    if grad:
        x.stop_gradient = False
    out = fn(x, *attrs)
    entry["out_dtype"] = str(out.dtype).replace("paddle.", "")
    entry["out"] = encode(out.astype("float32").numpy() if dtype == "bfloat16" else out.numpy())
    if grad:
        out_grad = np.linspace(0.5, 1.5, x_np.size).astype(x_np.dtype).reshape(x_np.shape)
        if x_np.dtype.kind == "c":
            out_grad = (out_grad + 0.25j * out_grad[::-1]).astype(x_np.dtype)
        (x_grad,) = paddle.grad(out, x, paddle.to_tensor(out_grad))
        entry["out_grad"] = encode(out_grad)
        entry["x_grad"] = encode(x_grad.numpy())
    return entry


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
    cases: dict[str, dict] = {}
    for op, (fn, attr_lists, reals, has_complex) in OPS.items():
        kernel = "hard_shrink" if op == "hardshrink" else op
        grad_dtypes = set(kernel_dtypes[f"{kernel}_grad"])
        for attrs in attr_lists:
            for dtype in kernel_dtypes[kernel]:
                if dtype.startswith("int"):
                    continue
                if dtype.startswith("complex"):
                    if not has_complex:
                        continue
                    x_np = np.array(COMPLEX, dtype)
                elif dtype == "bfloat16":
                    x_np = np.array(reals, np.float32)
                else:
                    x_np = np.array(reals, dtype)
                key = f"{op}-{dtype}-{'_'.join(map(str, attrs)) or 'default'}"
                grad = dtype in grad_dtypes and dtype not in ("float16", "bfloat16")
                cases[key] = {"op": op, "dtype": dtype, "attrs": attrs}
                cases[key].update(run(fn, x_np, dtype, attrs, grad))
    for op, dtypes in INTEGER_OPS.items():
        fn = OPS[op][0]
        for dtype in dtypes:
            values = [v for v in INTEGER_INPUTS if v >= 0] if dtype == "uint8" else INTEGER_INPUTS
            x_np = np.array(values, dtype)
            cases[f"{op}-{dtype}-integer"] = {"op": op, "dtype": dtype, "attrs": []}
            cases[f"{op}-{dtype}-integer"].update(run(fn, x_np, dtype, [], False))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(cases.items()))
    OUT.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
