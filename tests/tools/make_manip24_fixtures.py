"""Writes tests/data/manip24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
manip24 ops of issue 24 (unique_consecutive, index_add, expand_as, multiplex, ...) through the op
(``paddle._C_ops``) and the ``paddle.*`` functions, for every dtype PaddlePaddle registers on
CPU, on inputs with their edges (NaN runs, repeated and negative indices, empty inputs, 0-D).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, here also ``method`` for a Tensor method of the first argument, tensor inputs, arguments
with ``"$x"`` for input ``x``, here also inside a list: ``["$a", "$b"]`` for a Tensor[]
argument, and ``"@cpu"`` for the CPU place); ``run(lib, case)`` runs one on ``paddle`` or ``phiops`` alike:
tests/ops/test_manip24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_manip24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_manip24_fixtures.py``.
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
    FLOAT_KINDS,
    case,
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "manip24" / "paddle_3_3_1.json"

NAN = math.nan


def _values(n: int, seed: int) -> list[float]:
    """n whole numbers in [-n, n) (every dtype holds them), shuffled."""
    return (np.random.default_rng(seed).permutation(2 * n)[:n] - n).astype(float).tolist()


def _complex(values: list[float]) -> list[list[float]]:
    """[re, im] pairs, as the recording writes complex numbers."""
    return [[v, 0.5 * v - 1.0] for v in values]


def unique_consecutive_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    runs = [1, 1, 2, 2, 2, -3, 1, 1, 0, 0, 5, 5]
    for dtype in ("float32", "float64", "int32", "int64"):
        x = tensor("x", runs, [12], dtype, grad=False)
        for index_dtype in ("int32", "int64"):
            out[f"unique_consecutive-{dtype}-{index_dtype}"] = case(
                "op", "unique_consecutive", [x], ["$x", True, True, [], index_dtype]
            )
        rows = tensor("x", [1, 1, 2, 1, 1, 2, 0, 0, 1, 3, 3, 3], [4, 3], dtype, grad=False)
        out[f"unique_consecutive-axis0-{dtype}"] = case(
            "op", "unique_consecutive", [rows], ["$x", True, True, [0], "int64"]
        )
        out[f"unique_consecutive-axis-1-{dtype}"] = case(
            "op", "unique_consecutive", [rows], ["$x", True, True, [-1], "int64"]
        )
        out[f"unique_consecutive-2d-flat-{dtype}"] = case(
            "op", "unique_consecutive", [rows], ["$x", True, True, [], "int64"]
        )
        out[f"unique_consecutive-api-{dtype}"] = case(
            "api", "unique_consecutive", [x], ["$x"], {"return_counts": True}
        )
        out[f"unique_consecutive-api-axis-{dtype}"] = case(
            "api", "unique_consecutive", [rows], ["$x", True, False, 1, "int32"]
        )
    nan = tensor("x", [NAN, NAN, 1.0, 1.0, NAN, 2.0], [6], "float32", grad=False)
    out["unique_consecutive-nan"] = case(
        "op", "unique_consecutive", [nan], ["$x", True, True, [], "int64"]
    )
    out["unique_consecutive-0d"] = case(
        "op",
        "unique_consecutive",
        [tensor("x", [4.0], [], "float64", grad=False)],
        ["$x", True, True, [], "int64"],
    )
    out["unique_consecutive-empty"] = case(
        "op",
        "unique_consecutive",
        [tensor("x", [], [0], "float32", grad=False)],
        ["$x", True, True, [], "int64"],
    )
    return out


def index_add_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float16", "float32", "float64", "int32", "int64"):
        x = tensor("x", _values(12, 1), [3, 4], dtype)
        for index_dtype in ("int32", "int64"):
            index = tensor("index", [2, 0, 2], [3], index_dtype, grad=False)
            value = tensor("value", _values(12, 2), [3, 4], dtype)
            out[f"index_add-axis0-{dtype}-{index_dtype}"] = case(
                "op", "index_add", [x, index, value], ["$x", "$index", "$value", 0]
            )
        index = tensor("index", [-1, 1], [2], "int64", grad=False)
        value = tensor("value", _values(6, 3), [3, 2], dtype)
        out[f"index_add-axis-1-negative-{dtype}"] = case(
            "op", "index_add", [x, index, value], ["$x", "$index", "$value", -1]
        )
        out[f"index_add-api-alpha-{dtype}"] = case(
            "api", "index_add", [x, index, value], ["$x", "$index", 1, "$value"], {"alpha": 2}
        )
    x3 = tensor("x", _values(24, 4), [2, 3, 4], "float64")
    out["index_add-3d-axis1"] = case(
        "op",
        "index_add",
        [x3, tensor("index", [0, 0], [2], "int64", grad=False), tensor("value", _values(16, 5), [2, 2, 4], "float64")],
        ["$x", "$index", "$value", 1],
    )
    out["index_add-empty-index"] = case(
        "op",
        "index_add",
        [
            tensor("x", _values(6, 6), [2, 3], "float32"),
            tensor("index", [], [0], "int64", grad=False),
            tensor("value", [], [0, 3], "float32"),
        ],
        ["$x", "$index", "$value", 0],
    )
    return out


def expand_as_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bool", "float32", "float64", "int32", "int64"):
        values = [1, 0, 1] if dtype == "bool" else [1, -2, 3]
        x = tensor("x", values, [3, 1], dtype)
        y = tensor("y", [0] * 24, [2, 3, 4], dtype, grad=False)
        out[f"expand_as-{dtype}"] = case("op", "expand_as", [x, y], ["$x", "$y", []])
        out[f"expand_as-target-{dtype}"] = case(
            "op", "expand_as", [x], ["$x", None, [2, 3, 5]]
        )
        out[f"expand_as-api-{dtype}"] = case("api", "expand_as", [x, y], ["$x", "$y"])
    out["expand_as-0d"] = case(
        "op",
        "expand_as",
        [tensor("x", [2.5], [], "float64"), tensor("y", [0.0] * 6, [2, 3], "float64", grad=False)],
        ["$x", "$y", []],
    )
    out["expand_as-y-wins"] = case(
        "op",
        "expand_as",
        [tensor("x", [1.0, 2.0], [2], "float32"), tensor("y", [0.0] * 6, [3, 2], "float32", grad=False)],
        ["$x", "$y", [4, 2]],
    )
    out["expand_as-empty"] = case(
        "op",
        "expand_as",
        [tensor("x", [1.0, 2.0], [1, 2], "float32"), tensor("y", [], [0, 2], "float32", grad=False)],
        ["$x", "$y", []],
    )
    return out


def multiplex_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("complex64", "complex128", "float32", "float64", "int32", "int64"):
        a, b, c = (
            tensor(name, _complex(_values(8, seed)) if "complex" in dtype else _values(8, seed), [4, 2], dtype)
            for name, seed in (("a", 7), ("b", 8), ("c", 9))
        )
        index = tensor("index", [2, 0, 1, 2], [4, 1], "int32", grad=False)
        out[f"multiplex-{dtype}"] = case(
            "op", "multiplex", [a, b, c, index], [["$a", "$b", "$c"], "$index"]
        )
        out[f"multiplex-api-{dtype}"] = case(
            "api", "multiplex", [a, b, c, index], [["$a", "$b", "$c"], "$index"]
        )
    out["multiplex-3d-fewer-rows"] = case(
        "op",
        "multiplex",
        [
            tensor("a", _values(12, 10), [3, 2, 2], "float64"),
            tensor("b", _values(12, 11), [3, 2, 2], "float64"),
            tensor("index", [1, 1], [2, 1], "int32", grad=False),
        ],
        [["$a", "$b"], "$index"],
    )
    return out


def broadcast_tensors_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    kinds = ("bool", "complex64", "complex128", "float16", "float32", "float64", "int32", "int64")
    for dtype in kinds:
        def make(name: str, n: int, shape: list[int], seed: int) -> list:
            values = _values(n, seed)
            if dtype == "bool":
                values = [v > 0 for v in values]
            elif "complex" in dtype:
                values = _complex(values)
            return tensor(name, values, shape, dtype)

        a, b, c = make("a", 6, [2, 1, 3], 12), make("b", 4, [4, 1], 13), make("c", 1, [], 14)
        out[f"broadcast_tensors-{dtype}"] = case(
            "op", "broadcast_tensors", [a, b, c], [["$a", "$b", "$c"]]
        )
        out[f"broadcast_tensors-api-{dtype}"] = case(
            "api", "broadcast_tensors", [a, b], [["$a", "$b"]]
        )
    out["broadcast_tensors-empty"] = case(
        "op",
        "broadcast_tensors",
        [tensor("a", [1.0], [], "float32"), tensor("b", [], [0, 2], "float32")],
        [["$a", "$b"]],
    )
    return out


def indices_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for op in ("tril_indices", "triu_indices"):
        for dtype in ("int32", "int64"):
            for rows, cols, offset in ((4, 3, 0), (3, 5, 1), (5, 5, -2), (0, 3, 0), (3, 4, 9)):
                out[f"{op}-{rows}x{cols}-{offset}-{dtype}"] = case(
                    "op", op, [], [rows, cols, offset, dtype, "@cpu"]
                )
        out[f"{op}-api"] = case("api", op, [], [4, 3])
        out[f"{op}-api-offset-int32"] = case("api", op, [], [3, 5, -1, "int32"])
    out["triu_indices-api-square"] = case("api", "triu_indices", [], [4], {"offset": 1})
    return out


def fill_diagonal_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bool", "float16", "float32", "float64", "int32", "int64"):
        values = _values(12, 15)
        if dtype == "bool":
            values = [v > 0 for v in values]
        x = tensor("x", values, [3, 4], dtype)
        for offset in (0, 2, -1):
            out[f"fill_diagonal-{dtype}-offset{offset}"] = case(
                "op", "fill_diagonal", [x], ["$x", 2.7, offset, False]
            )
        tall = tensor("x", _values(21, 16) if dtype != "bool" else [True] * 21, [7, 3], dtype)
        out[f"fill_diagonal-wrap-{dtype}"] = case(
            "op", "fill_diagonal", [tall], ["$x", -1.0, 0, True]
        )
        out[f"fill_diagonal-nowrap-{dtype}"] = case(
            "op", "fill_diagonal", [tall], ["$x", -1.0, 1, False]
        )
    for shape in ([2, 2, 2], [2, 3, 2], [3, 3, 3]):
        n = int(np.prod(shape))
        for wrap in (False, True):
            out[f"fill_diagonal-{shape}-{wrap}"] = case(
                "op", "fill_diagonal", [tensor("x", _values(n, 17), shape, "float64")], ["$x", 9.0, 0, wrap]
            )
    return out


def fill_diagonal_tensor_cases() -> dict[str, dict[str, Any]]:
    """y never takes a gradient: PaddlePaddle 3.3.1 has none for it (and aborts when asked)."""
    out: dict[str, dict[str, Any]] = {}
    kinds = ("bool", "complex64", "complex128", "float16", "float32", "float64")
    kinds += ("int8", "int16", "int32", "int64", "uint8")
    for dtype in kinds:
        def values(n: int, seed: int) -> list:
            raw = _values(n, seed)
            if dtype == "bool":
                return [v > 0 for v in raw]
            if dtype == "uint8":
                return [abs(v) for v in raw]
            return _complex(raw) if "complex" in dtype else raw

        x = tensor("x", values(24, 18), [2, 3, 4], dtype)
        for offset, dim1, dim2, y_shape in ((0, 1, 2, [2, 3]), (1, 2, 0, [3, 1]), (-1, 2, 1, [2, 3])):
            y = tensor("y", values(int(np.prod(y_shape)), 19), y_shape, dtype, grad=False)
            out[f"fill_diagonal_tensor-{dtype}-{offset}-{dim1}-{dim2}"] = case(
                "op", "fill_diagonal_tensor", [x, y], ["$x", "$y", offset, dim1, dim2]
            )
    square = tensor("x", _values(9, 20), [3, 3], "float32")
    diag = tensor("y", [1.0, 2.0], [2], "float32", grad=False)
    out["fill_diagonal_tensor-method"] = case(
        "method", "fill_diagonal_tensor", [square, diag], ["$x", "$y"], {"offset": -1}
    )
    return out


def numel_shift_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bool", "float16", "float32", "float64", "int8", "uint8", "complex64"):
        values = [0] * 6 if "complex" not in dtype else [[0.0, 0.0]] * 6
        out[f"numel-{dtype}"] = case("op", "numel", [tensor("x", values, [2, 3], dtype)], ["$x"])
    out["numel-0d"] = case("op", "numel", [tensor("x", [1.0], [], "float32")], ["$x"])
    out["numel-empty"] = case("op", "numel", [tensor("x", [], [0, 4], "float32")], ["$x"])
    for dtype in ("int8", "int16", "int32", "int64", "uint8"):
        bits = np.dtype(dtype).itemsize * 8
        if dtype == "uint8":
            values, counts = [7, 255, 5, 100, 3, 128, 1, 0], [1, 3, 0, 7, 7, 2, 8, 200]
        else:
            values = [-7, -1, 5, 100, 3, -128, 1, 0]
            counts = [1, 3, 0, 7, bits - 1, 2, bits, -1]
        x, y = tensor("x", values, [2, 4], dtype), tensor("y", counts, [2, 4], dtype)
        for arithmetic in (True, False):
            for op in ("bitwise_left_shift", "bitwise_right_shift"):
                out[f"{op}-{dtype}-{arithmetic}"] = case("op", op, [x, y], ["$x", "$y", arithmetic])
        row = tensor("y", [1, 2, 3], [3], dtype)
        column = tensor("x", [1, 2] if dtype == "uint8" else [1, -2], [2, 1], dtype)
        out[f"bitwise_left_shift-api-broadcast-{dtype}"] = case(
            "api", "bitwise_left_shift", [column, row], ["$x", "$y"]
        )
        out[f"bitwise_right_shift-api-logical-{dtype}"] = case(
            "api", "bitwise_right_shift", [column, row], ["$x", "$y"], {"is_arithmetic": False}
        )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **unique_consecutive_cases(),
        **index_add_cases(),
        **expand_as_cases(),
        **multiplex_cases(),
        **broadcast_tensors_cases(),
        **indices_cases(),
        **fill_diagonal_cases(),
        **fill_diagonal_tensor_cases(),
        **numel_shift_cases(),
    }


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    if case["via"] == "method":  # a Tensor method, on the first argument
        first = tensors[case["args"][0][1:]]
        return getattr(first, case["fn"])(
            *[tensors[a[1:]] if isinstance(a, str) and a.startswith("$") else a for a in case["args"][1:]],
            **case["kwargs"],
        )
    owner = {
        "op": importlib.import_module(f"{lib.__name__}._C_ops"),
        "F": importlib.import_module(f"{lib.__name__}.nn.functional"),
        "api": lib,
    }[case["via"]]

    def resolve(value: Any) -> Any:
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if value == "@cpu":  # PaddlePaddle's _C_ops creation functions need the place
            return lib.CPUPlace()
        if isinstance(value, str) and case["via"] == "op" and value in ("int32", "int64"):
            return getattr(lib, value)
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    return getattr(owner, case["fn"])(*args, **kwargs)


def _record(o: Any) -> dict[str, Any]:
    dtype = dtype_name(o.dtype)
    values = o.astype("float32").numpy() if dtype == "bfloat16" else o.numpy()
    return {"dtype": dtype, "shape": list(o.shape), "values": to_json(values)}


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded: dict[str, Any] = {"outs": [_record(o) for o in outs], "grads": {}}
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    picks = case["grad_outputs"]
    if picks is None:
        picks = [i for i, o in enumerate(outs) if dtype_name(o.dtype) in FLOAT_KINDS]
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
