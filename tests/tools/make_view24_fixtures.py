"""Writes tests/data/view24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
view24 ops (as_strided, view_shape, view_dtype, tensor_unfold, index_select_strided, einsum)
through the op (``paddle._C_ops``), the ``paddle.*`` functions and the Tensor methods, for every
dtype PaddlePaddle registers on CPU, on inputs with their edges (0-D, empty, negative axes and
strides, offsets).

Gradients are recorded only where 3.3.1's are the derivative: its as_strided_grad and
tensor_unfold_grad copy out_grad through the view (the last write wins where reads overlap,
phiops sums), so the overlapping cases stop gradients.

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``: ``op``, ``api`` or
``method``, a Tensor method of the first argument; tensor inputs; ``"$x"`` for input ``x``; a
dtype name as an ``op`` argument is the library's dtype). ``run(lib, case)`` runs one on
``paddle`` or ``phiops`` alike: tests/ops/test_view24_paddle.py compares phiops with the
recording (no PaddlePaddle needed) and tests/parity/test_view24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_view24_fixtures.py``.
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

OUT = Path(__file__).resolve().parents[1] / "data" / "view24" / "paddle_3_3_1.json"

DTYPES = (
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
ITEM_SIZE = {
    "bool": 1,
    "uint8": 1,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
    "complex64": 8,
    "complex128": 16,
}
_DTYPE_NAMES = set(DTYPES)


def _values(n: int, dtype: str) -> list:
    """n small whole numbers every dtype holds (0/1 for bool, [re, im] pairs for complex)."""
    base = (np.arange(n) * 7 % 11).astype(float)
    if dtype == "bool":
        return [bool(v % 2) for v in base]
    if dtype.startswith("complex"):
        return [[v, 5.0 - v] for v in base.tolist()]
    return base.tolist()


def _x(shape: list[int], dtype: str, grad: bool = True, name: str = "x") -> list:
    return tensor(name, _values(int(np.prod(shape)) if shape else 1, dtype), shape, dtype, grad)


def as_strided_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        item = ITEM_SIZE[dtype]
        out[f"as_strided-{dtype}"] = case(
            "op", "as_strided", [_x([2, 3, 4], dtype)], ["$x", [3, 2, 2], [6, 1, 3], 2 * item]
        )
    x = _x([12], "float64", grad=False)
    out["as_strided-overlapping"] = case("op", "as_strided", [x], ["$x", [3, 3], [1, 1], 0])
    out["as_strided-negative-stride"] = case("op", "as_strided", [x], ["$x", [3], [-2], 48])
    out["as_strided-0d-view"] = case("op", "as_strided", [_x([12], "float32")], ["$x", [], [], 12])
    out["as_strided-empty"] = case("op", "as_strided", [_x([2, 3], "float32")], ["$x", [0, 4], [1, 1], 0])
    out["as_strided-api"] = case(
        "api", "as_strided", [_x([2, 3, 4], "float32")], ["$x"], {"shape": [4, 3], "stride": [6, 2], "offset": 4}
    )
    out["as_strided-method"] = case("method", "as_strided", [_x([4, 3], "float64")], ["$x", [3, 2], [3, 1], 8])
    return out


def view_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        out[f"view_shape-{dtype}"] = case("op", "view_shape", [_x([2, 3, 4], dtype)], ["$x", [4, -1]])
    # to 0-D; 3.3.1 refuses a 0-D input with a non-empty dims and any dims holding no element
    # ("can not be viewed", "cannot reshape tensor of 0 elements"), which phiops views
    out["view_shape-to-0d"] = case("op", "view_shape", [_x([1, 1], "float32")], ["$x", []])
    # from float32 (small whole numbers: their low halves are zero, no NaN bit patterns)
    for target in ("uint8", "int16", "int32", "float16", "bfloat16"):
        out[f"view_dtype-float32-{target}"] = case(
            "op", "view_dtype", [_x([2, 4], "float32")], ["$x", target]
        )
    for source in ("uint8", "int8", "int16", "bool"):
        out[f"view_dtype-{source}-int8-or-uint8"] = case(
            "op", "view_dtype", [_x([2, 4], source)], ["$x", "uint8" if source != "uint8" else "int8"]
        )
    out["view_dtype-int16-int32"] = case("op", "view_dtype", [_x([3, 4], "int16")], ["$x", "int32"])
    out["view_dtype-int32-float32"] = case("op", "view_dtype", [_x([2, 2], "int32")], ["$x", "float32"])
    out["view_dtype-int64-float64"] = case("op", "view_dtype", [_x([2, 2], "int64")], ["$x", "float64"])
    out["view_dtype-complex128-float64"] = case(
        "op", "view_dtype", [_x([2, 2], "complex128", grad=False)], ["$x", "float64"]
    )
    out["view_dtype-float64-complex64"] = case(
        "op", "view_dtype", [_x([2, 2], "float64", grad=False)], ["$x", "complex64"]
    )
    out["view_dtype-0d-same-size"] = case("op", "view_dtype", [_x([], "float32")], ["$x", "int32"])
    out["view-api-shape"] = case("api", "view", [_x([2, 6], "float32")], ["$x", [3, 4]])
    out["view-api-dtype"] = case("api", "view", [_x([2, 6], "float32")], ["$x", "float16"])
    out["view-method-varargs"] = case("method", "view", [_x([2, 6], "float64")], ["$x", -1, 3])
    out["view-method-dtype-keyword"] = case("method", "view", [_x([2, 6], "float32")], ["$x"], {"dtype": "int32"})
    out["view_as-api"] = case(
        "api", "view_as", [_x([2, 6], "float32"), _x([4, 3], "float32", grad=False, name="y")], ["$x", "$y"]
    )
    return out


def unfold_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        # step > size: gaps, so out has fewer elements than x and 3.3.1's grad zero-fills
        out[f"tensor_unfold-{dtype}"] = case("op", "tensor_unfold", [_x([3, 7], dtype)], ["$x", 1, 2, 3])
    out["tensor_unfold-axis-negative"] = case("op", "tensor_unfold", [_x([4, 2, 3], "float32")], ["$x", -3, 2, 2])
    out["tensor_unfold-overlapping"] = case(
        "op", "tensor_unfold", [_x([9], "float64", grad=False)], ["$x", 0, 3, 2]
    )
    out["tensor_unfold-size0"] = case("op", "tensor_unfold", [_x([2, 3], "float32", grad=False)], ["$x", 1, 0, 1])
    out["tensor_unfold-0d"] = case("op", "tensor_unfold", [_x([], "float32", grad=False)], ["$x", 0, 1, 1])
    out["unfold-api"] = case("api", "unfold", [_x([2, 8], "float32")], ["$x", 1, 2, 4])
    out["unfold-method"] = case("method", "unfold", [_x([6, 2], "float64")], ["$x", 0, 3, 3])
    return out


def index_select_strided_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in DTYPES:
        out[f"index_select_strided-{dtype}"] = case(
            "op", "index_select_strided", [_x([2, 3, 4], dtype)], ["$x", 2, 1]
        )
    out["index_select_strided-axis-negative"] = case(
        "op", "index_select_strided", [_x([2, 3], "float32")], ["$x", 1, -1]
    )
    out["index_select_strided-1d"] = case("op", "index_select_strided", [_x([5], "float64")], ["$x", 4, 0])
    return out


def _real(shape: list[int], dtype: str, name: str, seed: int) -> list:
    count = int(np.prod(shape)) if shape else 1
    values = np.round(np.random.default_rng(seed).uniform(-2, 2, count), 3).tolist()
    if dtype.startswith("complex"):
        values = [[v, round(0.5 - v, 3)] for v in values]
    return tensor(name, values, shape, dtype)


def einsum_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "complex64", "complex128"):
        out[f"einsum-matmul-{dtype}"] = case(
            "api",
            "einsum",
            [_real([2, 3], dtype, "a", 1), _real([3, 4], dtype, "b", 2)],
            ["ij,jk->ik", "$a", "$b"],
        )
    equations = {
        "trace": ("ii", [[3, 3]]),
        "diagonal": ("ii->i", [[3, 3]]),
        "transpose": ("ij->ji", [[2, 3]]),
        "sum": ("ij->", [[2, 3]]),
        "outer": ("i,j->ij", [[3], [2]]),
        "dot": ("i,i", [[4], [4]]),
        "batch-matmul": ("bij,bjk->bik", [[2, 2, 3], [2, 3, 2]]),
        "ellipsis": ("...ij,...jk->...ik", [[2, 2, 3], [3, 2]]),
        "broadcast-1": ("bij,bjk->bik", [[1, 2, 3], [2, 3, 2]]),
        "implicit": ("ij,jk", [[2, 3], [3, 4]]),
        "uppercase": ("IJ,JK->IK", [[2, 3], [3, 4]]),
        "three-operands": ("ij,jk,k->i", [[2, 3], [3, 4], [4]]),
        "summed-only-in-one": ("ij,k->ik", [[2, 3], [4]]),
    }
    for key, (equation, shapes) in equations.items():
        inputs = [_real(shape, "float64", name, 10 + i) for i, (shape, name) in enumerate(zip(shapes, "abc"))]
        out[f"einsum-{key}"] = case(
            "api", "einsum", inputs, [equation, *[f"${name}" for name in "abc"[: len(shapes)]]]
        )
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **as_strided_cases(),
        **view_cases(),
        **unfold_cases(),
        **index_select_strided_cases(),
        **einsum_cases(),
    }


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if isinstance(value, str) and case["via"] == "op" and value in _DTYPE_NAMES:
            return getattr(lib, value)
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    if case["via"] == "method":  # a Tensor method, on the first argument
        return getattr(args[0], case["fn"])(*args[1:], **kwargs)
    owner = importlib.import_module(f"{lib.__name__}._C_ops") if case["via"] == "op" else lib
    return getattr(owner, case["fn"])(*args, **kwargs)


def _array(o: Any) -> np.ndarray:
    return o.astype("float32").numpy() if dtype_name(o.dtype) == "bfloat16" else o.numpy()


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded: dict[str, Any] = {
        "outs": [
            {"dtype": dtype_name(o.dtype), "shape": list(o.shape), "values": to_json(_array(o))}
            for o in outs
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    picks = [i for i, o in enumerate(outs) if dtype_name(o.dtype) in FLOAT_KINDS]
    if wanted and picks:
        targets = [outs[i] for i in picks]
        grad_outputs = []
        for target in targets:
            dtype = dtype_name(target.dtype)
            made = lib.to_tensor(
                out_grad_for(list(target.shape), dtype),
                dtype="float32" if dtype == "bfloat16" else dtype,
            )
            grad_outputs.append(made.astype("bfloat16") if dtype == "bfloat16" else made)
        grads = lib.grad(
            targets, [tensors[n] for n in wanted], grad_outputs=grad_outputs, allow_unused=True
        )
        for name, grad in zip(wanted, grads):
            recorded["grads"][name] = None if grad is None else to_json(_array(grad))
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
