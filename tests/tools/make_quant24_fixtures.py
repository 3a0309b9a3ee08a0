"""Writes tests/data/quant24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results, and the gradients
of the quantize-dequantize ops, of the quant24 quantization ops of issue 24
(fake_quantize_abs_max, fake_quantize_dequantize_abs_max, fake_channel_wise_quantize_abs_max,
fake_channel_wise_quantize_dequantize_abs_max, fake_dequantize_max_abs,
fake_channel_wise_dequantize_max_abs, fake_quantize_range_abs_max,
fake_quantize_moving_average_abs_max, fake_quantize_dequantize_moving_average_abs_max,
dequantize_abs_max, dequantize_log), and of lookup_table_dequant, decayed_adagrad, ftrl and
fused_adam_, through
``paddle._C_ops``, on inputs with their edges
(ties at half a step for both round types, NaN first and later, a zero scale, 0-D inputs, both
channel axes, bit lengths from 2 to 16, the range window's slots, test mode).

A case names the op, its tensor inputs (tests/tools/make_losscum_fixtures.py's format), its
arguments (``"$x"`` for input ``x``, also inside a list) and which outputs to record: 3.3.1
leaves some outputs unset (the window of fake_quantize_range_abs_max beyond this step's slot,
the scales at test time), so those are not recorded. ``run(lib, case)`` runs it on ``paddle``
or ``phiops`` alike: tests/ops/test_quant24_paddle.py compares phiops with the recording and
tests/parity/test_quant24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_quant24_fixtures.py``.
"""

from __future__ import annotations

import importlib
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

OUT = Path(__file__).resolve().parents[1] / "data" / "quant24" / "paddle_3_3_1.json"

NAN = math.nan


def case(
    fn: str, inputs: list[list], args: list[Any], outs: list[int], grad: bool = False
) -> dict[str, Any]:
    """A recorded call of ``_C_ops.<fn>``: ``outs`` are the outputs recorded; with ``grad`` the
    gradient of input ``x`` through output 0 too."""
    return {"fn": fn, "inputs": inputs, "args": args, "record": outs, "grad": grad}


def _normal(n: int, seed: int, sd: float = 1.5) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, sd, n), 4).tolist()


def _ties(bins: int, scale: float) -> list[float]:
    """Values at half steps of bin_cnt / scale (exact in float32 for a power-of-two scale),
    positive and negative, with scale itself as the abs max."""
    steps = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, bins - 0.5]
    return [s * scale / bins for s in steps] + [scale]


def abs_max_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for fn in ("fake_quantize_abs_max", "fake_quantize_dequantize_abs_max"):
        grad = "dequantize" in fn
        for bits in (2, 4, 8, 16):
            for round_type in (0, 1):
                x = tensor("x", _normal(24, bits), [2, 3, 4], "float32")
                out[f"{fn}-{bits}-{round_type}"] = case(
                    fn, [x], ["$x", bits, round_type], [0, 1], grad
                )
        for round_type in (0, 1):
            ties = tensor("x", _ties(3, 4.0), [9], "float32")
            out[f"{fn}-ties-{round_type}"] = case(fn, [ties], ["$x", 3, round_type], [0, 1], grad)
            out[f"{fn}-0d-{round_type}"] = case(
                fn, [tensor("x", [-2.5], [], "float32")], ["$x", 8, round_type], [0, 1], grad
            )
            out[f"{fn}-zeros-{round_type}"] = case(
                fn, [tensor("x", [0.0] * 6, [2, 3], "float32")], ["$x", 8, round_type], [0, 1]
            )
            nan_later = tensor("x", [1.0, NAN, -3.0, 2.0], [4], "float32", False)
            out[f"{fn}-nan-later-{round_type}"] = case(
                fn, [nan_later], ["$x", 8, round_type], [0, 1]
            )
            nan_first = tensor("x", [NAN, 1.0, -3.0, 2.0], [4], "float32", False)
            out[f"{fn}-nan-first-{round_type}"] = case(
                fn, [nan_first], ["$x", 8, round_type], [0, 1]
            )
        out[f"{fn}-round-type-2"] = case(
            fn, [tensor("x", _ties(7, 2.0), [9], "float32")], ["$x", 4, 2], [0, 1]
        )
    return out


def channel_wise_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    shapes = {0: ([3, 4], [2, 3, 4], [4, 2, 2, 3], [5]), 1: ([3, 4], [2, 3, 4], [4, 2, 2, 3])}
    for fn in (
        "fake_channel_wise_quantize_abs_max",
        "fake_channel_wise_quantize_dequantize_abs_max",
    ):
        grad = "dequantize" in fn
        tail = [False] if fn == "fake_channel_wise_quantize_abs_max" else []
        for axis, axis_shapes in shapes.items():
            for shape in axis_shapes:
                n = int(np.prod(shape))
                for bits, round_type in ((8, 0), (8, 1), (3, 0), (3, 1)):
                    x = tensor("x", _normal(n, n + bits + axis), shape, "float32")
                    key = f"{fn}-axis{axis}-{'x'.join(map(str, shape))}-{bits}-{round_type}"
                    out[key] = case(fn, [x], ["$x", bits, round_type, axis, *tail], [0, 1], grad)
            for round_type in (0, 1):
                ties = _ties(3, 4.0)
                rows = tensor("x", ties + [-t for t in ties], [2, 9], "float32")
                cols = tensor("x", ties + [-t for t in ties], [9, 2], "float32")
                picked = rows if axis == 0 else cols
                out[f"{fn}-axis{axis}-ties-{round_type}"] = case(
                    fn, [picked], ["$x", 3, round_type, axis, *tail], [0, 1], grad
                )
            nan = tensor(
                "x", [NAN, 1.0, 2.0, -1.0, NAN, 4.0, 0.5, 3.0, NAN], [3, 3], "float32", False
            )
            out[f"{fn}-axis{axis}-nan"] = case(fn, [nan], ["$x", 8, 1, axis, *tail], [0, 1])
            zeros = tensor("x", [0.0, 0.0, 1.0, 0.0, 0.0, -2.0], [2, 3], "float32")
            out[f"{fn}-axis{axis}-zero-channel"] = case(
                fn, [zeros], ["$x", 8, 0, axis, *tail], [0, 1]
            )
    return out


def dequantize_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    codes = [-128.0, -127.0, -3.0, 0.0, 5.0, 64.0, 100.0, 127.0]
    for dtype in ("float32", "float64"):
        for max_range in (127.0, 7.0, 1.0):
            out[f"fake_dequantize_max_abs-{dtype}-{max_range}"] = case(
                "fake_dequantize_max_abs",
                [tensor("x", codes, [2, 4], dtype), tensor("scale", [2.37], [1], dtype)],
                ["$x", "$scale", max_range],
                [0],
            )
        x = tensor("x", (np.arange(24) * 11 % 255 - 127).astype(float).tolist(), [2, 3, 4], dtype)
        x2 = tensor("x", codes[:6], [2, 3], dtype)
        fn = "fake_channel_wise_dequantize_max_abs"
        for axis, shape_x, n in ((0, x2, 2), (1, x2, 3), (0, x, 2), (1, x, 3)):
            scale = tensor("s0", [0.5 + 0.37 * i for i in range(n)], [n], dtype)
            out[f"{fn}-{dtype}-one-axis{axis}-{len(shape_x[2])}d"] = case(
                fn, [shape_x, scale], ["$x", ["$s0"], [8], axis, 1], [0]
            )
        for x_num_col_dims, shape_x, n in ((1, x2, 3), (1, x, 3), (2, x, 4)):
            scales = [
                tensor("s0", [0.5 + 0.37 * i for i in range(n)], [n], dtype),
                tensor("s1", [2.7], [1], dtype),
            ]
            for bits in ([8, 8], [8, 4]):
                out[f"{fn}-{dtype}-two-{x_num_col_dims}-{len(shape_x[2])}d-{bits[1]}"] = case(
                    fn, [shape_x, *scales], ["$x", ["$s0", "$s1"], bits, 0, x_num_col_dims], [0]
                )
    for dtype, values in (
        ("int8", [-128, -127, -3, 0, 5, 64, 127, 1]),
        ("int16", [-32768, -300, -1, 0, 5, 32767, 1000, 7]),
    ):
        for max_range in (127.0, 32767.0):
            out[f"dequantize_abs_max-{dtype}-{max_range}"] = case(
                "dequantize_abs_max",
                [tensor("x", values, [2, 4], dtype), tensor("scale", [2.37], [1], "float32")],
                ["$x", "$scale", max_range],
                [0],
            )
    table = np.round(np.linspace(-3.0, 5.0, 128) ** 3 / 7.0, 4).tolist()
    out["dequantize_log-int8"] = case(
        "dequantize_log",
        [
            tensor("x", list(range(-128, 128, 3)) + [127, -1, 0], [89], "int8"),
            tensor("dict", table, [128], "float32"),
        ],
        ["$x", "$dict"],
        [0],
    )
    out["dequantize_log-int8-0d"] = case(
        "dequantize_log",
        [tensor("x", [-5], [], "int8"), tensor("dict", table, [128], "float32")],
        ["$x", "$dict"],
        [0],
    )
    return out


def range_and_moving_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    x = tensor("x", _normal(12, 7), [3, 4], "float32")
    fn = "fake_quantize_range_abs_max"
    for step in (0, 3, 12):
        for in_scale in (0.5, 40.0):
            for round_type in (0, 1):
                out[f"{fn}-{step}-{in_scale}-{round_type}"] = case(
                    fn,
                    [
                        x,
                        tensor("in_scale", [in_scale], [1], "float32", False),
                        tensor("iter", [step], [1], "int64", False),
                    ],
                    ["$x", "$in_scale", "$iter", 10, 8, False, round_type],
                    [0, 1],
                )
    for round_type in (0, 1):
        out[f"{fn}-test-{round_type}"] = case(
            fn,
            [
                x,
                tensor("in_scale", [1.25], [1], "float32", False),
                tensor("iter", [4], [1], "int64", False),
            ],
            ["$x", "$in_scale", "$iter", 10, 4, True, round_type],
            [0],
        )
    for fn in (
        "fake_quantize_moving_average_abs_max",
        "fake_quantize_dequantize_moving_average_abs_max",
    ):
        grad = "dequantize" in fn
        for rate, accum, state in ((0.9, 3.0, 2.0), (0.5, 0.0, 0.0), (0.99, 123.4, 61.0)):
            for bits, round_type in ((8, 0), (8, 1), (5, 1)):
                out[f"{fn}-{rate}-{bits}-{round_type}"] = case(
                    fn,
                    [
                        x,
                        tensor("in_scale", [4.0], [1], "float32", False),
                        tensor("in_accum", [accum], [1], "float32", False),
                        tensor("in_state", [state], [1], "float32", False),
                    ],
                    ["$x", "$in_scale", "$in_accum", "$in_state", rate, bits, False, round_type],
                    [0, 1, 2, 3],
                    grad,
                )
        for round_type in (0, 1):
            out[f"{fn}-test-{round_type}"] = case(
                fn,
                [
                    x,
                    tensor("in_scale", [1.25], [1], "float32", False),
                    tensor("in_accum", [3.0], [1], "float32", False),
                    tensor("in_state", [2.0], [1], "float32", False),
                ],
                ["$x", "$in_scale", "$in_accum", "$in_state", 0.9, 8, True, round_type],
                [0],
                grad,
            )
    return out


def _packed_table(rows: int, floats: int, seed: int) -> list[float]:
    """A lookup_table_dequant table: per row min, max, then codes packed four to a float32
    (codes below 0x40 in every fourth byte keep each float finite and not NaN)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 256, size=(rows, floats * 4)).astype(np.uint8)
    codes[:, 3::4] = rng.integers(0x01, 0x40, size=(rows, floats))
    table = np.empty((rows, 2 + floats), np.float32)
    table[:, 0] = np.round(rng.uniform(-2.0, 0.0, rows), 3)
    table[:, 1] = np.round(rng.uniform(0.5, 3.0, rows), 3)
    table[:, 2:] = codes.view(np.float32)
    return [float(v) for v in table.ravel()]


def embedding_and_optimizer_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    fn = "lookup_table_dequant"
    w = tensor("w", _packed_table(5, 2, 31), [5, 4], "float32", False)
    for ids, shape in (([0, 3, 4, 3], [4, 1]), ([1, 2, 0, 4, 4, 2], [2, 3, 1]), ([2], [1])):
        for padding_idx in (-1, 4):
            key = f"{fn}-{'x'.join(map(str, shape))}-pad{padding_idx}"
            out[key] = case(
                fn, [w, tensor("ids", ids, shape, "int64", False)], ["$w", "$ids", padding_idx], [0]
            )
    param = tensor("param", _normal(12, 41), [3, 4], "float32", False)
    grad = tensor("grad", _normal(12, 42), [3, 4], "float32", False)
    moment = tensor("moment", np.abs(_normal(12, 43)).tolist(), [3, 4], "float32", False)
    lr = tensor("learning_rate", [0.05], [1], "float32", False)
    for decay, epsilon in ((0.95, 1e-6), (0.5, 1e-3), (0.0, 1e-6)):
        out[f"decayed_adagrad-{decay}-{epsilon}"] = case(
            "decayed_adagrad",
            [param, grad, moment, lr],
            ["$param", "$grad", "$moment", "$learning_rate", decay, epsilon],
            [0, 1],
        )
    squared = tensor("squared", (np.abs(_normal(12, 44)) + 0.1).tolist(), [3, 4], "float32", False)
    linear = tensor("linear", _normal(12, 45, 0.3), [3, 4], "float32", False)
    for l1, l2, lr_power in (
        (0.0, 0.0, -0.5),
        (0.1, 0.2, -0.5),
        (0.05, 0.0, -0.3),
        (0.0, 0.5, -1.0),
    ):
        out[f"ftrl-{l1}-{l2}-{lr_power}"] = case(
            "ftrl",
            [param, squared, linear, grad, lr],
            ["$param", "$squared", "$linear", "$grad", "$learning_rate", l1, l2, lr_power],
            [0, 1, 2],
        )
    return out


def fused_adam_cases() -> dict[str, dict[str, Any]]:
    """fused_adam_ on two parameters ([2, 3] and [4]), Adam and AdamW, amsgrad, a skipped step,
    global beta powers."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        shapes = ([2, 3], [4])
        inputs, lists = [], {}
        for role, seed, positive in (
            ("p", 51, False),
            ("g", 52, False),
            ("ma", 53, False),
            ("mb", 54, True),
            ("mx", 55, True),
        ):
            names = []
            for i, shape in enumerate(shapes):
                values = _normal(int(np.prod(shape)), seed + 10 * i)
                if positive:
                    values = np.abs(values).tolist()
                inputs.append(tensor(f"{role}{i}", values, shape, dtype, False))
                names.append(f"${role}{i}")
            lists[role] = names
        for role, base in (("b1", 0.9), ("b2", 0.999)):
            lists[role] = []
            for i, steps in enumerate((3, 7)):
                inputs.append(tensor(f"{role}{i}", [base**steps], [1], dtype, False))
                lists[role].append(f"${role}{i}")
        inputs.append(tensor("lr", [0.01], [1], dtype, False))
        inputs.append(tensor("skip", [True], [1], "bool", False))
        for adamw in (False, True):
            for amsgrad in (False, True):
                for skip, global_pow in ((False, False), (True, False), (False, True)):
                    key = f"fused_adam_-{dtype}-adamw{adamw}-ams{amsgrad}-skip{skip}-g{global_pow}"
                    record = [0, 1, 2, 4, 5] + ([3] if amsgrad else [])
                    out[key] = case(
                        "fused_adam_",
                        inputs,
                        [
                            lists["p"], lists["g"], "$lr", lists["ma"], lists["mb"],
                            lists["mx"] if amsgrad else None, lists["b1"], lists["b2"], None,
                            "$skip" if skip else None, 0.9, 0.999, 1e-8, 4096, 0.01, adamw,
                            False, global_pow, amsgrad,
                        ],
                        record,
                    )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **abs_max_cases(),
        **channel_wise_cases(),
        **dequantize_cases(),
        **range_and_moving_cases(),
        **embedding_and_optimizer_cases(),
        **fused_adam_cases(),
    }


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    ops = importlib.import_module(f"{lib.__name__}._C_ops")

    def resolve(value: Any) -> Any:
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        return value

    return getattr(ops, case["fn"])(*[resolve(a) for a in case["args"]])


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's recorded outputs (dtype, shape, values; each tensor of a list output) and x's
    gradient on ``lib``."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    picked = [outs[i] for i in case["record"]]
    recorded: dict[str, Any] = {
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
        grad_output = lib.to_tensor(out_grad_for(list(target.shape), "float32"), dtype="float32")
        (grad,) = lib.grad([target], [tensors["x"]], grad_outputs=[grad_output])
        recorded["grads"]["x"] = to_json(grad.numpy())
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
