"""Writes tests/data/basic24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
basic24 ops of issue 24 (fill, full_, increment, assign_out_, ...) through the op
(``paddle._C_ops``) and the ``paddle.*`` functions, for the dtypes PaddlePaddle registers on CPU
(uint16/32/64 of fill only in tests/ops/test_basic24.py), on inputs with their edges (0-D,
empty, truncated integer values, changed shapes and dtypes of in-place outputs).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``), here also ``"#float32"`` for a dtype and ``"@cpu"`` for the CPU
place; ``run(lib, case)`` runs one on ``paddle`` or ``phiops`` alike:
tests/ops/test_basic24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_basic24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_basic24_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import (
    FLOAT_KINDS,
    case,
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "basic24" / "paddle_3_3_1.json"

ALL = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32")
ALL += ("float64", "complex64", "complex128")


def _values(n: int, dtype: str) -> list:
    """n small whole numbers every dtype holds."""
    raw = [((3 * i) % 7) - 2 for i in range(n)]
    if dtype == "bool":
        return [v > 0 for v in raw]
    if dtype == "uint8":
        return [abs(v) for v in raw]
    if dtype.startswith("complex"):
        return [[v, 1.0 - v] for v in raw]
    return raw


def fill_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ALL:
        # PaddlePaddle 3.3.1 has no complex fill_grad kernel
        x = tensor("x", _values(6, dtype), [2, 3], dtype, grad="complex" not in dtype)
        out[f"fill-{dtype}"] = case("op", "fill", [x], ["$x", 3.0])
        if dtype in ("bool", "int32", "float32"):  # the in-place form: a few dtypes suffice
            out[f"fill_-{dtype}"] = case(
                "op",
                "fill_",
                [tensor("x", _values(6, dtype), [2, 3], dtype, grad=False)],
                ["$x", 1.0],
            )
    out["fill-int-truncates"] = case("op", "fill", [tensor("x", [1, 2], [2], "int32")], ["$x", 3.7])
    out["fill-int-negative"] = case("op", "fill", [tensor("x", [1, 2], [2], "int64")], ["$x", -2.9])
    out["fill-0d"] = case("op", "fill", [tensor("x", [1.0], [], "float64")], ["$x", 7.5])
    out["fill-empty"] = case("op", "fill", [tensor("x", [], [0, 3], "float32")], ["$x", 1.0])
    out["fill-inf"] = case("op", "fill", [tensor("x", [1.0], [1], "float32")], ["$x", float("inf")])
    out["fill-method"] = case(
        "method", "fill_", [tensor("x", [1, 2, 3, 4], [2, 2], "int64", grad=False)], ["$x", 9]
    )
    return out


def full__cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bool", "uint8", "int64", "float16", "bfloat16", "complex128"):
        output = tensor("output", [1.0, 2.0, 3.0], [3], "float32", grad=False)
        value = 1.0 if dtype == "bool" else 2.0
        out[f"full_-{dtype}"] = case(
            "op", "full_", [output], ["$output", [2, 2], value, f"#{dtype}", "@cpu"]
        )
    output = tensor("output", [1, 2], [1, 2], "int64", grad=False)
    out["full_-0d"] = case("op", "full_", [output], ["$output", [], 1.5, "#float64", "@cpu"])
    out["full_-empty"] = case("op", "full_", [output], ["$output", [0, 4], 1.0, "#float32", "@cpu"])
    out["full_-int-truncates"] = case(
        "op", "full_", [output], ["$output", [3], 2.9, "#int32", "@cpu"]
    )
    return out


def increment_cases() -> dict[str, dict[str, Any]]:
    """increment has no gradient (PaddlePaddle 3.3.1 aborts when asked for one)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64"):
        x = tensor("x", [5], [1], dtype, grad=False)
        out[f"increment-{dtype}"] = case("op", "increment", [x], ["$x", 2.0])
        out[f"increment-frac-{dtype}"] = case("op", "increment", [x], ["$x", -1.7])
        out[f"increment_-{dtype}"] = case(
            "op", "increment_", [tensor("x", [5], [1], dtype, grad=False)], ["$x", 3.0]
        )
        out[f"increment-api-{dtype}"] = case("api", "increment", [x], ["$x"])
    out["increment-0d"] = case(
        "op", "increment", [tensor("x", [2.0], [], "float64", grad=False)], ["$x", 0.5]
    )
    out["increment-3d"] = case(
        "op", "increment", [tensor("x", [1.0], [1, 1, 1], "float32", grad=False)], ["$x", 1.0]
    )
    return out


def assign_out__cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bool", "int8", "int64", "bfloat16", "float64", "complex64"):
        x = tensor("x", _values(6, dtype), [2, 3], dtype)
        output = tensor("output", [0.0, 0.0], [2], "float32", grad=False)
        out[f"assign_out_-{dtype}"] = case("op", "assign_out_", [x, output], ["$x", "$output"])
    out["assign_out_-0d"] = case(
        "op",
        "assign_out_",
        [
            tensor("x", [3.0], [], "float64"),
            tensor("output", [1.0, 2.0], [2], "float64", grad=False),
        ],
        ["$x", "$output"],
    )
    out["assign_out_-empty"] = case(
        "op",
        "assign_out_",
        [tensor("x", [], [0, 2], "float32"), tensor("output", [1.0], [1], "float32", grad=False)],
        ["$x", "$output"],
    )
    return out


def crop_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64"):
        x = tensor("x", _values(60, dtype), [3, 4, 5], dtype)
        out[f"crop-{dtype}"] = case("op", "crop", [x], ["$x", [2, -1, 3], [1, 2, 0]])
        out[f"crop-api-{dtype}"] = case("api", "crop", [x], ["$x"], {"shape": [2, 2, 2]})
    x = tensor("x", _values(12, "float64"), [3, 4], "float64")
    out["crop-whole"] = case("op", "crop", [x], ["$x", [3, 4], [0, 0]])
    out["crop-zero-extent"] = case("op", "crop", [x], ["$x", [2, 0], [0, 0]])
    out["crop-api-none"] = case("api", "crop", [x], ["$x"])
    out["crop-api-offsets"] = case("api", "crop", [x], ["$x", [-1, 2], [1, 1]])
    out["crop-1d"] = case(
        "op", "crop", [tensor("x", _values(5, "float32"), [5], "float32")], ["$x", [2], [3]]
    )
    out["crop-empty"] = case(
        "op", "crop", [tensor("x", [], [0, 3], "float32")], ["$x", [-1, 2], [0, 1]]
    )
    return out


def shard_index_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    values = [19, 0, 7, 10, 13, 3, 16, 9, 1, 12]
    for dtype in ("int32", "int64"):
        x = tensor("input", values, [5, 2, 1], dtype, grad=False)
        settings = ((2, 0, -1), (2, 1, -1), (3, 2, -2), (1, 0, 5), (7, 4, 0))
        for nshards, shard_id, ignore in settings if dtype == "int64" else settings[2:3]:
            out[f"shard_index-{dtype}-{nshards}-{shard_id}"] = case(
                "op", "shard_index", [x], ["$input", 20, nshards, shard_id, ignore]
            )
        out[f"shard_index-api-{dtype}"] = case("api", "shard_index", [x], ["$input", 20, 3, 1])
    out["shard_index-uneven"] = case(
        "op",
        "shard_index",
        [tensor("input", [0, 4, 5, 6], [4, 1], "int64", grad=False)],
        ["$input", 7, 2, 1, -1],
    )
    out["shard_index-empty"] = case(
        "op",
        "shard_index",
        [tensor("input", [], [0, 1], "int64", grad=False)],
        ["$input", 20, 2, 0, -1],
    )
    return out


def shuffle_channel_cases() -> dict[str, dict[str, Any]]:
    """float32 forward only: PaddlePaddle 3.3.1's float64 kernel copies half of each channel's
    bytes (the rest is uninitialised memory), and its shuffle_channel_grad applies the forward
    permutation instead of its inverse; phiops computes both correctly (tests/ops/test_basic24.py
    and the finite-difference check in tests/autograd/cases_basic24.py). Gradients are recorded
    only where the permutation is its own inverse."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32",):
        x = tensor("x", _values(72, dtype), [2, 6, 2, 3], dtype, grad=False)
        for group in (1, 2, 3, 6):
            out[f"shuffle_channel-{dtype}-{group}"] = case(
                "op", "shuffle_channel", [x], ["$x", group]
            )
    # gradients where the permutation is its own inverse (group 1, C, or group * group == C), so
    # that 3.3.1's gradient is right
    for shape, group in (
        ([2, 4, 2, 3], 2),
        ([1, 9, 1, 2], 3),
        ([2, 6, 1, 2], 1),
        ([2, 6, 1, 2], 6),
    ):
        x = tensor("x", _values(int(np.prod(shape)), "float32"), shape, "float32")
        key = f"shuffle_channel-grad-{'x'.join(map(str, shape))}-{group}"
        out[key] = case("op", "shuffle_channel", [x], ["$x", group])
    return out


def temporal_shift_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        x = tensor("x", _values(6 * 8 * 4, dtype), [6, 8, 2, 2], dtype)
        steps = ((3, 0.25), (2, 0.15), (6, 0.45), (1, 0.3)) if dtype == "float32" else ((2, 0.15),)
        for seg_num, ratio in steps:
            for fmt in ("NCHW", "NHWC"):
                out[f"temporal_shift-{dtype}-{seg_num}-{ratio}-{fmt}"] = case(
                    "op", "temporal_shift", [x], ["$x", seg_num, ratio, fmt]
                )
    return out


def partial_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    kinds = {"partial_concat": ALL[4:6] + ("float32", "float64", "complex64", "complex128")}
    kinds["partial_sum"] = ("int32", "int64", "float32", "float64")
    ranges = {
        "partial_concat": ((1, 2), (0, -1), (-3, 2), (4, 0)),
        "partial_sum": ((1, 2), (0, -1), (4, 1)),
    }
    for op, dtypes in kinds.items():
        for dtype in dtypes:
            a = tensor("a", _values(10, dtype), [2, 5], dtype)
            b = tensor("b", _values(15, dtype)[5:], [2, 5], dtype)
            for start, length in ranges[op] if dtype == "float64" else ranges[op][:1]:
                out[f"{op}-{dtype}-{start}-{length}"] = case(
                    "op", op, [a, b], [["$a", "$b"], start, length]
                )
        one = tensor("a", _values(8, "float64"), [4, 2], "float64")
        out[f"{op}-one"] = case("op", op, [one], [["$a"], 1, -1])
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **fill_cases(),
        **full__cases(),
        **increment_cases(),
        **assign_out__cases(),
        **crop_cases(),
        **shard_index_cases(),
        **shuffle_channel_cases(),
        **temporal_shift_cases(),
        **partial_cases(),
    }


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    def resolve(value: Any) -> Any:
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if isinstance(value, str) and value.startswith("#"):
            return getattr(lib, value[1:])
        if value == "@cpu":
            return lib.CPUPlace()
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    if case["via"] == "method":
        return getattr(args[0], case["fn"])(*args[1:], **kwargs)
    owner = {
        "op": importlib.import_module(f"{lib.__name__}._C_ops"),
        "F": importlib.import_module(f"{lib.__name__}.nn.functional"),
        "api": lib,
    }[case["via"]]
    return getattr(owner, case["fn"])(*args, **kwargs)


def _record(o: Any) -> dict[str, Any]:
    dtype = dtype_name(o.dtype)
    values = o.astype("float32").numpy() if dtype == "bfloat16" else o.numpy()
    return {"dtype": dtype, "shape": list(o.shape), "values": to_json(values)}


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``; for an in-place
    case also what its tensor inputs hold afterwards."""
    tensors = make_inputs(lib, case)
    # before the call: an in-place op's output input takes part in the graph after it
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded: dict[str, Any] = {"outs": [_record(o) for o in outs], "grads": {}}
    if case["fn"].endswith("_"):
        recorded["outs"] += [_record(t) for t in tensors.values()]
    picks = [
        i
        for i, o in enumerate(outs)
        if dtype_name(o.dtype) in FLOAT_KINDS and dtype_name(o.dtype) != "bfloat16"
    ]
    if wanted and picks:
        targets = [outs[i] for i in picks]
        grad_outputs = [
            lib.to_tensor(out_grad_for(list(t.shape), dtype_name(t.dtype)), dtype=t.dtype)
            for t in targets
        ]
        grads = lib.grad(
            targets, [tensors[n] for n in wanted], grad_outputs=grad_outputs, allow_unused=True
        )
        for name, grad in zip(wanted, grads):
            recorded["grads"][name] = None if grad is None else to_json(grad.numpy())
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
