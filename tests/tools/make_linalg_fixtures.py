"""Writes tests/data/linalg/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of the
linear-algebra ops (bmm, mv, dot, kron, cross, trace, diagonal, diag_embed, inverse, cholesky) for every dtype PaddlePaddle registers on
CPU, on several shapes and attributes each (0-D results, empty operands, ranks that differ,
default and negative axes, offsets beyond the matrix); tests/ops/test_linalg_paddle.py compares
phiops with them (no PaddlePaddle needed there).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_linalg_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "linalg" / "paddle_3_3_1.json"

# op -> (paddle function taking (*tensors, *attrs), [(label, input shapes, attrs)])
OPS = {
    "bmm": (
        paddle.bmm,
        [("b2", [(2, 3, 4), (2, 4, 2)], []), ("empty", [(0, 2, 3), (0, 3, 2)], [])],
    ),
    "mv": (paddle.mv, [("m3", [(3, 4), (4,)], []), ("empty", [(0, 4), (4,)], [])]),
    "dot": (
        paddle.dot,
        [("vec", [(5,), (5,)], []), ("rows", [(3, 4), (3, 4)], []), ("empty", [(0,), (0,)], [])],
    ),
    "kron": (
        paddle.kron,
        [("2d", [(2, 3), (2, 2)], []), ("ranks", [(3,), (2, 1, 2)], []), ("0d", [(), (2, 3)], [])],
    ),
    "cross": (
        paddle.cross,
        [
            ("default", [(2, 3, 3), (2, 3, 3)], [9]),
            ("axis-1", [(4, 3), (4, 3)], [-1]),
            ("axis0", [(3, 2), (3, 2)], [0]),
        ],
    ),
    "trace": (
        paddle.trace,
        [
            ("2d", [(3, 4)], [0, 0, 1]),
            ("offset1", [(3, 4)], [1, 0, 1]),
            ("neg-axes", [(2, 3, 4)], [-1, -1, 0]),
            ("beyond", [(3, 4)], [5, 0, 1]),
        ],
    ),
    "diagonal": (
        paddle.diagonal,
        [
            ("2d", [(3, 4)], [0, 0, 1]),
            ("neg-axes", [(2, 3, 4)], [-1, -1, 0]),
            ("offset", [(2, 3, 4)], [2, 1, 2]),
            ("beyond", [(2, 3, 4)], [7, 1, 2]),
        ],
    ),
    "diag_embed": (
        paddle.diag_embed,
        [
            ("default", [(2, 3)], [0, -2, -1]),
            ("offset", [(2, 3)], [1, 0, 2]),
            ("below", [(2, 3)], [-2, 2, 0]),
            ("1d", [(4,)], [0, -2, -1]),
        ],
    ),
    "inverse": (
        paddle.inverse,
        [("2d", [(3, 3)], []), ("batch", [(2, 4, 4)], []), ("empty", [(0, 2, 2)], [])],
    ),
}
OPS["cholesky"] = (
    paddle.linalg.cholesky,
    [("lower", [(3, 3)], [False]), ("upper", [(2, 3, 3)], [True]), ("empty", [(0, 2, 2)], [False])],
)
# inputs made well conditioned (diagonally dominant) for the ops that invert
CONDITION = {"inverse"}
# symmetric positive-definite inputs
SPD = {"cholesky"}


def encode(array: np.ndarray) -> list:
    flat = array.reshape(-1)
    if flat.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if flat.dtype.kind in "iub":
        return [int(v) for v in flat]
    return [float(v) for v in flat.astype(np.float64)]


def sample(shape: tuple[int, ...], dtype: str, rng: np.random.Generator) -> np.ndarray:
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        return rng.integers(-4, 5, size=shape).astype(dtype)
    values = rng.uniform(-2, 2, size=shape)
    if dtype.startswith("complex"):
        values = values + 1j * rng.uniform(-2, 2, size=shape)
    return values.astype(dtype)


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
    rng = np.random.default_rng(20261127)
    cases: dict[str, dict] = {}
    for op, (fn, variants) in OPS.items():
        for dtype in kernel_dtypes[op]:
            if dtype.startswith("float8"):
                continue  # numpy has no float8 types
            grad = dtype in kernel_dtypes.get(f"{op}_grad", ()) and dtype.startswith(
                ("float", "complex")
            )
            if dtype == "bfloat16":
                continue  # recorded as float32 would say nothing more: diagonal moves data only
            for label, shapes, attrs in variants:
                arrays = [sample(shape, dtype, rng) for shape in shapes]
                if op in CONDITION:
                    arrays = [a + 6 * np.eye(a.shape[-1], dtype=a.dtype) for a in arrays]
                if op in SPD:
                    arrays = [
                        (a @ np.swapaxes(a, -1, -2) + 3 * np.eye(a.shape[-1])).astype(a.dtype)
                        for a in arrays
                    ]
                tensors = [paddle.to_tensor(a) for a in arrays]
                for tensor in tensors:
                    tensor.stop_gradient = not grad
                out = fn(*tensors, *attrs)
                entry = {
                    "op": op,
                    "dtype": dtype,
                    "attrs": attrs,
                    "shapes": [list(s) for s in shapes],
                    "inputs": [encode(a) for a in arrays],
                    "out_shape": list(out.shape),
                    "out_dtype": str(out.dtype).replace("paddle.", ""),
                    "out": encode(out.numpy()),
                }
                if grad and out.size:
                    out_grad = sample(tuple(out.shape), dtype, rng)
                    grads = paddle.grad(out, tensors, paddle.to_tensor(out_grad))
                    entry["out_grad"] = encode(out_grad)
                    entry["grads"] = [encode(g.numpy()) for g in grads]
                cases[f"{op}-{dtype}-{label}"] = entry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    header = {
        "paddle_version": paddle.__version__,
        "generated_by": "tests/tools/make_linalg_fixtures.py",
    }
    OUT.write_text(json.dumps({"header": header, "cases": cases}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
