"""Writes tests/data/frame24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the frame24
framework ops (empty, empty_like, share_data, memcpy_d2h, memcpy_h2d, npu_identity, trans_layout
with its gradient, read_file; decode_jpeg, which both refuse on the CPU) through the op (``paddle._C_ops``), the ``paddle.*``
functions and ``paddle.vision.ops``, for every dtype PaddlePaddle registers on CPU, with their
edges (0-D, empty, negative perm entries, every accepted dst_place_type) and the errors both
libraries raise alike (the kind of error: ValueError, IndexError, RuntimeError or
NotImplementedError).

``empty``/``empty_like`` give uninitialised memory: their cases record dtype and shape only.
``read_file`` reads tests/data/frame24/sample.bin (``"%sample"`` in a case). ``depend`` has no
case: 3.3.1 runs it only where a program pass made its output ``x`` itself, and refuses it
everywhere else ("Input(X) and Output(Out) variable should be the same").

A case's tensor arguments are ``"$x"`` (its input ``x``), ``"#float32"`` a dtype of the library,
``"@cpu"`` its CPUPlace. ``run(lib, case)`` runs one on ``paddle`` or ``phiops`` alike:
tests/ops/test_frame24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_frame24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_frame24_fixtures.py``.
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
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "frame24"
OUT = DATA / "paddle_3_3_1.json"
SAMPLE = DATA / "sample.bin"

ALL = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32")
ALL = ALL + ("float64", "complex64", "complex128")
SHARE_DATA = ("bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64")
NPU_IDENTITY = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
# trans_layout runs transpose (every dtype); its grad kernel has these on CPU
TRANS_LAYOUT_GRAD = ("bool", "int32", "int64", "bfloat16", "float32", "float64", "complex64")
TRANS_LAYOUT_GRAD = TRANS_LAYOUT_GRAD + ("complex128",)
# the kinds of error both libraries raise alike (phiops's errors subclass them)
ERROR_KINDS = (NotImplementedError, IndexError, ValueError, RuntimeError)


def _values(n: int, dtype: str) -> list:
    """n small whole numbers every dtype holds (0/1 for bool, [re, im] pairs for complex)."""
    base = (np.arange(n) * 7 % 11).astype(float)
    if dtype == "bool":
        return [bool(v % 2) for v in base]
    if dtype.startswith("complex"):
        return [[v, 5.0 - v] for v in base.tolist()]
    return base.tolist()


def _input(dtype: str, shape: list[int], grad: bool = False, name: str = "x") -> list:
    return tensor(name, _values(int(np.prod(shape)), dtype), shape, dtype, grad)


def case(via: str, fn: str, inputs: list, args: list, values: bool = True, **kwargs: Any) -> dict:
    """A call; ``values`` false records dtype and shape alone (uninitialised memory)."""
    return {
        "via": via,
        "fn": fn,
        "inputs": inputs,
        "args": args,
        "kwargs": kwargs,
        "values": values,
    }


def creation_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ALL:
        out[f"empty-{dtype}"] = case("op", "empty", [], [[2, 3], f"#{dtype}", "@cpu"], False)
        out[f"empty_like-{dtype}"] = case(
            "op", "empty_like", [_input("float32", [3, 1])], ["$x", f"#{dtype}", "@cpu"], False
        )
    out["empty-0d"] = case("op", "empty", [], [[], "#float32", "@cpu"], False)
    out["empty-size0"] = case("op", "empty", [], [[0, 4], "#int64", "@cpu"], False)
    out["empty_like-undefined-dtype"] = case(
        "api", "empty_like", [_input("int16", [2, 0])], ["$x"], False
    )
    out["api-empty"] = case("api", "empty", [], [[3, 2]], False)
    out["api-empty-dtype"] = case("api", "empty", [], [[4], "int32"], False)
    out["api-empty-size"] = case("api", "empty", [], [], False, size=[2, 2], dtype="float64")
    out["api-empty_like"] = case("api", "empty_like", [_input("float64", [2])], ["$x"], False)
    out["api-empty_like-dtype"] = case(
        "api", "empty_like", [_input("float64", [2, 3])], ["$x", "bool"], False
    )
    out["empty-negative-shape"] = case("op", "empty", [], [[2, -1], "#float32", "@cpu"])
    return out


def passing_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in SHARE_DATA:
        out[f"share_data-{dtype}"] = case("op", "share_data", [_input(dtype, [2, 3])], ["$x"])
    out["share_data-0d"] = case("op", "share_data", [_input("float32", [])], ["$x"])
    for dtype in NPU_IDENTITY:
        out[f"npu_identity-{dtype}"] = case("op", "npu_identity", [_input(dtype, [3])], ["$x", -1])
    out["npu_identity-format"] = case("op", "npu_identity", [_input("float32", [2, 2])], ["$x", 3])
    for dtype in ALL:
        out[f"memcpy_d2h-{dtype}"] = case("op", "memcpy_d2h", [_input(dtype, [2, 2])], ["$x", 0])
        out[f"memcpy_h2d-{dtype}"] = case("op", "memcpy_h2d", [_input(dtype, [2, 2])], ["$x", 0])
    for place_type in (1, 2, 3, 6):
        out[f"memcpy_h2d-place{place_type}"] = case(
            "op", "memcpy_h2d", [_input("float32", [3])], ["$x", place_type]
        )
    out["memcpy_h2d-empty"] = case("op", "memcpy_h2d", [_input("int64", [0, 2])], ["$x", 0])
    out["memcpy_d2h-0d"] = case("op", "memcpy_d2h", [_input("float64", [])], ["$x", 0])
    for place_type in (-1, 4, 5, 7):
        out[f"memcpy_h2d-bad{place_type}"] = case(
            "op", "memcpy_h2d", [_input("float32", [3])], ["$x", place_type]
        )
    for place_type in (-1, 2):
        out[f"memcpy_d2h-bad{place_type}"] = case(
            "op", "memcpy_d2h", [_input("float32", [3])], ["$x", place_type]
        )
    return out


def trans_layout_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in ALL:
        grad = dtype in TRANS_LAYOUT_GRAD and dtype in FLOAT_KINDS
        out[f"trans_layout-{dtype}"] = case(
            "op", "trans_layout", [_input(dtype, [2, 3, 2], grad)], ["$x", [2, 0, 1]]
        )
    out["trans_layout-negative-perm"] = case(
        "op", "trans_layout", [_input("float64", [2, 3], True)], ["$x", [-1, 0]]
    )
    out["trans_layout-0d"] = case("op", "trans_layout", [_input("float32", [], True)], ["$x", []])
    out["trans_layout-empty"] = case(
        "op", "trans_layout", [_input("float32", [0, 3], True)], ["$x", [1, 0]]
    )
    out["trans_layout-bad-perm"] = case(
        "op", "trans_layout", [_input("float32", [2, 3])], ["$x", [0, 0]]
    )
    return out


def file_cases() -> dict[str, dict[str, Any]]:
    bytes_in = [_input("uint8", [4])]
    return {
        "read_file-op": case("op", "read_file", [], ["%sample", "#uint8", "@cpu"]),
        "read_file-vision": case("vision", "read_file", [], ["%sample"]),
        "decode_jpeg-vision": case("vision", "decode_jpeg", bytes_in, ["$x"]),
        "decode_jpeg-rgb": case("vision", "decode_jpeg", bytes_in, ["$x", "rgb"]),
    }


def cases() -> dict[str, dict[str, Any]]:
    return {**creation_cases(), **passing_cases(), **trans_layout_cases(), **file_cases()}


def _call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    owner = {
        "op": lambda: importlib.import_module(f"{lib.__name__}._C_ops"),
        "api": lambda: lib,
        "vision": lambda: importlib.import_module(f"{lib.__name__}.vision.ops"),
    }[case["via"]]()

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value[:1] == "$":
            return tensors[value[1:]]
        if isinstance(value, str) and value[:1] == "#":
            return getattr(lib, value[1:])
        if value == "@cpu":
            return lib.CPUPlace()
        if value == "%sample":
            return str(SAMPLE)
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    return getattr(owner, case["fn"])(*args, **kwargs)


def _host(t: Any) -> np.ndarray:
    return t.astype("float32").numpy() if dtype_name(t.dtype) == "bfloat16" else t.numpy()


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's output (dtype, shape and, unless ``values`` is false, values) and gradients on
    ``lib``, or the kind of error it raised."""
    tensors = make_inputs(lib, case)
    try:
        out = _call(lib, case, tensors)
    except ERROR_KINDS as error:
        return {"error": next(k.__name__ for k in ERROR_KINDS if isinstance(error, k))}
    recorded: dict[str, Any] = {
        "outs": [
            {
                "dtype": dtype_name(out.dtype),
                "shape": list(out.shape),
                "values": to_json(_host(out)) if case["values"] else None,
            }
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    if wanted:
        dtype = dtype_name(out.dtype)
        made = lib.to_tensor(
            out_grad_for(list(out.shape), dtype), dtype="float32" if dtype == "bfloat16" else dtype
        )
        grad_output = made.astype("bfloat16") if dtype == "bfloat16" else made
        grads = lib.grad([out], [tensors[n] for n in wanted], grad_outputs=[grad_output])
        recorded["grads"] = {n: to_json(_host(g)) for n, g in zip(wanted, grads)}
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
