"""Writes tests/data/math3/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
math3 ops (atan2, copysign, nextafter, heaviside, lerp; angle, real, imag, conj, complex,
as_complex, as_real) on inputs with their edges (nan,
+-inf, +-0, ties, broadcasting), for every dtype PaddlePaddle registers on CPU, through the op
(``paddle._C_ops``) and through the ``paddle.*`` function where it converts its arguments first
(atan2 broadcasting, copysign and lerp with a number); tests/ops/test_math3_paddle.py compares
phiops with them (no PaddlePaddle needed there) and tests/parity/test_math3_parity_paddle.py
runs the same cases on PaddlePaddle itself.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_math3_fixtures.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "math3" / "paddle_3_3_1.json"

NAN, INF = math.nan, math.inf

# op -> (inputs as lists of rows, dtypes); each input a flat list, all of one length
SIGNED_PAIRS = (
    [1.0, -2.0, 0.0, -0.0, 0.0, 3.5, -3.5, INF, -INF, NAN, 1.0, 0.25, -7.0, 1e-30],
    [2.0, 3.0, 0.0, 0.0, -0.0, -1.0, -1.0, 1.0, INF, 1.0, NAN, -INF, 0.0, -5.0],
)
INTEGER_PAIRS = ([1, -2, 0, 0, 3, -3, 7, -7, 5], [2, 3, 0, -1, -1, -1, 0, 0, 5])
UNSIGNED_PAIRS = ([1, 2, 0, 0, 3, 200, 7], [2, 3, 0, 1, 0, 9, 0])
BOOL_PAIRS = ([True, False, True, False], [True, True, False, False])

COMPLEX_VALUES = [
    [1.0, 2.0],
    [-3.0, 0.0],
    [0.0, 0.0],
    [-0.0, -1.0],
    [-3.0, -0.0],
    [0.5, -2.5],
    [INF, 1.0],
]
REAL_VALUES = [1.0, -2.0, 0.0, -0.0, NAN, INF, -INF]
COMPLEX_OPS = ("angle", "real", "imag", "conj", "complex", "as_complex", "as_real")

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTEGERS = ("int8", "int16", "int32", "int64")

# (op, dtypes): every CPU registration of PaddlePaddle 3.3.1 (runtime/kernels/paddle_3_3_1_cpu.json)
BINARY_OPS = {
    "atan2": ("float16", "float32", "float64", "int32", "int64"),
    "copysign": ("bool", "uint8") + INTEGERS + FLOATS,
    "nextafter": ("float32", "float64"),
    "heaviside": ("float32", "float64", "int32", "int64"),
}
GRAD_DTYPES = ("float32", "float64")


def pairs_for(dtype: str) -> tuple[list, list]:
    if dtype == "bool":
        return BOOL_PAIRS
    if dtype == "uint8":
        return UNSIGNED_PAIRS
    if dtype.startswith("int"):
        return INTEGER_PAIRS
    return SIGNED_PAIRS


def as_numpy(values: list, dtype: str) -> np.ndarray:
    """Inputs and recorded values as numpy arrays: complex numbers are written as [re, im]
    pairs, bfloat16 values as float32 (the recorder and the tests cast)."""
    if dtype.startswith("complex"):
        return np.array([complex(re, im) for re, im in values], dtype)
    return np.array(values, "float32" if dtype == "bfloat16" else dtype)


def cases() -> dict[str, dict[str, Any]]:
    """Every recorded case: op, the function ('op' for the _C_ops one, 'api' for paddle.*),
    dtype, inputs (name -> (flat values, shape)), extra arguments and whether to record grads."""
    out: dict[str, dict[str, Any]] = {}
    for op, dtypes in BINARY_OPS.items():
        for dtype in dtypes:
            x, y = pairs_for(dtype)
            out[f"{op}-{dtype}"] = {
                "op": op,
                "via": "op",
                "dtype": dtype,
                "inputs": {"x": [x, [len(x)]], "y": [y, [len(y)]]},
                "args": [],
                "grad": dtype in GRAD_DTYPES and op != "nextafter",
            }
    # broadcasting through the op (copysign, nextafter, heaviside) and paddle.atan2
    for op in ("copysign", "nextafter", "heaviside", "atan2"):
        for dtype in ("float32", "float64"):
            out[f"{op}-{dtype}-broadcast"] = {
                "op": op,
                "via": "api" if op == "atan2" else "op",
                "dtype": dtype,
                "inputs": {
                    "x": [[1.0, -2.0, 0.0, 3.0, -0.5, 0.0], [2, 3]],
                    "y": [[-1.0, 0.0, 2.5], [3]],
                },
                "args": [],
                "grad": op != "nextafter",
            }
    for dtype in ("float32", "float64"):
        out[f"copysign-{dtype}-number"] = {
            "op": "copysign",
            "via": "api",
            "dtype": dtype,
            "inputs": {"x": [[1.0, -2.0, 0.0, INF], [4]]},
            "args": [-1.5],
            "grad": True,
        }
        lerp_inputs = {
            "same": {
                "x": [[1.0, -2.0, 0.0, 3.0, INF, 1e30], [6]],
                "y": [[3.0, 2.0, -1.0, 3.0, 1.0, -1e30], [6]],
                "weight": [[0.5, 0.25, 1.0, 0.0, 0.5, 0.75], [6]],
            },
            "broadcast": {
                "x": [[1.0, -2.0, 0.5], [3]],
                "y": [[3.0, 2.0], [2, 1]],
                "weight": [[0.5, -0.25, 1.5], [3, 1, 1]],
            },
            "scalar": {"x": [[1.0, -2.0], [2]], "y": [[[3.0]], [1, 1]], "weight": [[0.3], []]},
        }
        for label, inputs in lerp_inputs.items():
            out[f"lerp-{dtype}-{label}"] = {
                "op": "lerp",
                "via": "op",
                "dtype": dtype,
                "inputs": {name: [np.ravel(v).tolist(), s] for name, (v, s) in inputs.items()},
                "args": [],
                "grad": True,
            }
        out[f"lerp-{dtype}-float-weight"] = {
            "op": "lerp",
            "via": "api",
            "dtype": dtype,
            "inputs": {"x": [[1.0, -2.0, 0.0], [3]], "y": [[3.0, 2.0, 5.0], [3]]},
            "args": [0.75],
            "grad": True,
        }
    # the complex-number ops, through the op; their paddle.* functions are the ops themselves
    for dtype in ("complex64", "complex128"):
        for op in ("angle", "real", "imag", "conj", "as_real"):
            out[f"{op}-{dtype}"] = {
                "op": op,
                "via": "op",
                "dtype": dtype,
                "inputs": {"x": [COMPLEX_VALUES, [len(COMPLEX_VALUES)]]},
                "args": [],
                "grad": True,
            }
    for dtype in ("float32", "float64"):
        for op in ("angle", "conj"):
            out[f"{op}-{dtype}"] = {
                "op": op,
                "via": "op",
                "dtype": dtype,
                "inputs": {"x": [REAL_VALUES, [len(REAL_VALUES)]]},
                "args": [],
                "grad": True,
            }
        out[f"complex-{dtype}"] = {
            "op": "complex",
            "via": "op",
            "dtype": dtype,
            "inputs": {"real": [[1.0, -2.0, 0.0, NAN], [4]], "imag": [[3.0, -0.0, INF, 1.0], [4]]},
            "args": [],
            "grad": True,
        }
        out[f"complex-{dtype}-broadcast"] = {
            "op": "complex",
            "via": "op",
            "dtype": dtype,
            "inputs": {"real": [[1.0, 2.0], [2, 1]], "imag": [[3.0, 4.0, 5.0], [3]]},
            "args": [],
            "grad": True,
        }
        out[f"as_complex-{dtype}"] = {
            "op": "as_complex",
            "via": "op",
            "dtype": dtype,
            "inputs": {"x": [[1.0, 2.0, -3.0, 0.5, 0.0, -0.0, INF, NAN], [2, 2, 2]]},
            "args": [],
            "grad": True,
        }
    for dtype in ("int32", "int64"):
        out[f"conj-{dtype}"] = {
            "op": "conj",
            "via": "op",
            "dtype": dtype,
            "inputs": {"x": [[1, -2, 0, 7], [4]]},
            "args": [],
            "grad": False,
        }
    return out


def encode(array: np.ndarray) -> list:
    flat = array.reshape(-1)
    if flat.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if flat.dtype.kind in "iub":
        return [int(v) for v in flat]
    return [float(v) for v in flat.astype(np.float64)]


def run_paddle(case: dict[str, Any]) -> dict[str, Any]:
    """PaddlePaddle's out (and grads of the float inputs, for out_grad = linspace(0.5, 1.5))."""
    import paddle

    dtype = case["dtype"]
    tensors = {}
    for name, (values, shape) in case["inputs"].items():
        tensor = paddle.to_tensor(as_numpy(values, dtype).reshape(shape))
        if dtype == "bfloat16":
            tensor = tensor.astype("bfloat16")
        tensor.stop_gradient = not case["grad"]
        tensors[name] = tensor
    fn = getattr(paddle if case["via"] == "api" else paddle._C_ops, case["op"])
    out = fn(*tensors.values(), *case["args"])
    entry = {
        "out_dtype": str(out.dtype).replace("paddle.", ""),
        "out_shape": list(out.shape),
        "out": encode(out.astype("float32").numpy() if dtype == "bfloat16" else out.numpy()),
    }
    if case["grad"]:
        out_grad = np.linspace(0.5, 1.5, out.size).astype(out.numpy().dtype).reshape(out.shape)
        if out_grad.dtype.kind == "c":
            out_grad = (out_grad + 0.25j * out_grad[::-1]).astype(out_grad.dtype)
        grads = paddle.grad(
            out, list(tensors.values()), paddle.to_tensor(out_grad), allow_unused=True
        )
        entry["out_grad"] = encode(out_grad)
        entry["grads"] = {
            name: None if grad is None else encode(grad.numpy())
            for name, grad in zip(tensors, grads)
        }
    return entry


def main() -> None:
    recorded = {key: {**case, **run_paddle(case)} for key, case in cases().items()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(recorded.items()))
    OUT.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
