"""Writes tests/data/linalg2/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the linalg2 ops (``paddle._C_ops.<op>``, the op-level functions phiops generates as
``phiops._C_ops.<op>``) for every dtype PaddlePaddle registers on CPU, on several shapes and
attributes each (batches that broadcast, vectors, 0-D results, empty operands, negative axes,
singular matrices where PaddlePaddle computes through them); tests/ops/test_linalg2_paddle.py
compares phiops with them (no PaddlePaddle needed there).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_linalg2_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "linalg2" / "paddle_3_3_1.json"

INF = float("inf")

# op -> [(label, input shapes, attrs, how the inputs are made)]; "kernel" names the kernel whose
# registered dtypes are recorded where it differs from the op's name
OPS: dict[str, list[tuple[str, list, list, str]]] = {
    "solve": [
        ("3x3", [(3, 3), (3, 2)], [], "dominant"),
        ("vector", [(2, 3, 3), (3,)], [], "dominant"),
        ("broadcast", [(2, 1, 3, 3), (4, 3, 2)], [], "dominant"),
        ("empty", [(0, 2, 2), (0, 2, 1)], [], "dominant"),
    ],
    "triangular_solve": [
        ("upper", [(3, 3), (3, 2)], [True, False, False], "dominant"),
        ("lower-transpose", [(2, 3, 3), (2, 3, 2)], [False, True, False], "dominant"),
        ("unit", [(3, 3), (3, 4)], [True, False, True], "dominant"),
        ("lower-unit", [(3, 3), (3, 2)], [False, False, True], "dominant"),
        ("broadcast", [(2, 1, 3, 3), (4, 3, 2)], [True, True, False], "dominant"),
    ],
    "cholesky_solve": [
        ("lower", [(3, 2), (3, 3)], [False], "factor"),
        ("upper", [(2, 3, 2), (2, 3, 3)], [True], "factor"),
        ("broadcast", [(4, 3, 1), (2, 1, 3, 3)], [False], "factor"),
    ],
    "det": [
        ("3x3", [(3, 3)], [], "plain"),
        ("batch", [(2, 4, 4)], [], "plain"),
        ("singular", [(2, 2)], [], "singular"),
    ],
    "slogdet": [
        ("3x3", [(3, 3)], [], "plain"),
        ("batch", [(2, 3, 3)], [], "plain"),
    ],
    "matrix_power": [
        ("n3", [(3, 3)], [3], "plain"),
        ("n0", [(2, 3, 3)], [0], "plain"),
        ("n1", [(3, 3)], [1], "plain"),
        ("n-2", [(2, 3, 3)], [-2], "dominant"),
    ],
    "multi_dot": [
        ("two", [(3, 4), (4, 2)], [], "list"),
        ("vectors", [(4,), (4, 5), (5, 3), (3,)], [], "list"),
        ("four", [(2, 6), (6, 3), (3, 5), (5, 2)], [], "list"),
    ],
    "p_norm": [
        ("p2", [(3, 4)], [2.0, 1, 1e-12, False, False], "plain"),
        ("p3-axis0-keep", [(3, 4)], [3.0, 0, 1e-12, True, False], "plain"),
        ("p1-neg-axis", [(2, 3, 4)], [1.0, -2, 1e-12, False, False], "plain"),
        ("p0", [(3, 4)], [0.0, 1, 1e-12, False, False], "plain"),
        ("inf", [(3, 4)], [INF, 1, 1e-12, False, False], "plain"),
        ("-inf", [(3, 4)], [-INF, 1, 1e-12, False, False], "plain"),
        ("p0.5", [(3, 4)], [0.5, 1, 1e-12, False, False], "plain"),
        ("vector", [(2, 3)], [2.0, 0, 1e-12, False, True], "plain"),
        ("vector-keep", [(2, 3)], [2.0, 0, 1e-12, True, True], "plain"),
        ("empty", [(2, 0)], [2.0, 1, 1e-12, False, False], "plain"),
    ],
    "frobenius_norm": [
        ("all", [(3, 4)], [[0, 1], False, False], "plain"),
        ("axis", [(2, 3, 4)], [[-1], True, False], "plain"),
        ("reduce_all", [(2, 3)], [[0], False, True], "plain"),
        ("empty-axis", [(2, 3)], [[], False, False], "plain"),
    ],
    "dist": [
        ("p2", [(3, 4), (4,)], [2.0], "plain"),
        ("p1", [(2, 1, 3), (4, 3)], [1.0], "plain"),
        ("p0", [(3, 4), (3, 4)], [0.0], "plain"),
        ("inf", [(3, 4), (3, 1)], [INF], "plain"),
        ("-inf", [(3, 4), (3, 4)], [-INF], "plain"),
        ("p3", [(5,), (5,)], [3.0], "plain"),
    ],
    "addmm": [
        ("2d", [(2, 3), (2, 4), (4, 3)], [0.5, 2.0], "plain"),
        ("row", [(3,), (2, 4), (4, 3)], [1.0, 1.0], "plain"),
        ("column", [(2, 1), (2, 4), (4, 3)], [-1.0, 0.5], "plain"),
    ],
    "qr": [
        ("tall", [(4, 3)], ["reduced"], "plain"),
        ("square-complete", [(2, 3, 3)], ["complete"], "plain"),
        ("wide", [(2, 4)], ["reduced"], "plain"),
        ("r", [(3, 2)], ["r"], "forward"),
    ],
    "svd": [
        ("tall", [(4, 3)], [False], "plain"),
        ("wide-batch", [(2, 2, 4)], [False], "plain"),
        ("square-full", [(3, 3)], [True], "plain"),
        ("tall-full", [(4, 2)], [True], "forward"),
    ],
    "eigh": [
        ("L", [(3, 3)], ["L"], "hermitian"),
        ("U-batch", [(2, 3, 3)], ["U"], "hermitian"),
        ("U-reads-upper", [(3, 3)], ["U"], "forward"),
        ("U", [(4, 4)], ["U"], "hermitian"),
    ],
    "eigvalsh": [
        ("L", [(3, 3)], ["L", False], "hermitian"),
        ("U-batch", [(2, 3, 3)], ["U", False], "hermitian"),
        ("U", [(3, 3)], ["U", False], "hermitian"),
    ],
    "matrix_rank": [
        ("default", [(2, 3, 4)], [0.0, True, False], "low-rank"),
        ("tol", [(3, 3)], [0.5, False, False], "plain"),
        ("hermitian", [(2, 3, 3)], [0.0, True, True], "hermitian-low-rank"),
    ],
    "matrix_rank_tol": [
        ("per-matrix", [(2, 3, 3), (2,)], [False, False], "low-rank-tol"),
        ("default", [(2, 3, 4), ()], [True, False], "low-rank-tol"),
    ],
    "renorm": [
        ("axis0", [(3, 4)], [2.0, 0, 1.0], "plain"),
        ("axis2-p1", [(2, 3, 4)], [1.0, 2, 2.0], "plain"),
        ("p3", [(4, 3)], [3.0, 1, 1.5], "plain"),
    ],
    "squared_l2_norm": [("2d", [(3, 4)], [], "plain"), ("0d", [()], [], "plain")],
    "l1_norm": [("2d", [(3, 4)], [], "plain"), ("1d", [(5,)], [], "plain")],
    "eigvals": [("3x3", [(3, 3)], [], "plain"), ("batch", [(2, 4, 4)], [], "plain")],
}
KERNELS = {"det": "determinant"}
ONE_INPUT_LIST = {"multi_dot"}
# ops whose other inputs take no gradient
GRAD_OF_FIRST = {"matrix_rank_tol"}


def unrecorded_grad(op: str, dtype: str, shapes: list) -> bool:
    """Gradients PaddlePaddle 3.3.1 gets wrong, not recorded: eigh's and eigvalsh's for a batch
    of matrices (each matrix's differs from V diag(dw) V^H, which its single-matrix gradient
    gives), and svd's for complex input (phiops raises UnimplementedError there)."""
    if op in ("eigh", "eigvalsh") and len(shapes[0]) > 2:
        return True
    return op == "svd" and dtype.startswith("complex")


def encode(array: np.ndarray) -> list:
    flat = array.reshape(-1)
    if flat.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if flat.dtype.kind in "iub":
        return [int(v) for v in flat]
    return [float(v) for v in flat.astype(np.float64)]


def sample(shape: tuple[int, ...], dtype: str, rng: np.random.Generator) -> np.ndarray:
    values = rng.uniform(-2, 2, size=shape)
    if dtype.startswith("complex"):
        values = values + 1j * rng.uniform(-2, 2, size=shape)
    return values.astype(dtype)


def make_inputs(op: str, shapes: list, how: str, dtype: str, rng: np.random.Generator) -> list:
    arrays = [sample(shape, dtype, rng) for shape in shapes]
    if how == "dominant":
        # the square operand made diagonally dominant: well conditioned
        arrays[0] = arrays[0] + 6 * np.eye(arrays[0].shape[-1], dtype=dtype)
    elif how == "factor":
        # y a well-conditioned triangular factor with a positive diagonal
        y = arrays[1]
        n = y.shape[-1]
        arrays[1] = (y + 4 * np.eye(n)).astype(dtype)
    elif how == "singular":
        arrays[0] = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)
    elif how.startswith("hermitian"):
        # a Hermitian matrix with well-separated eigenvalues
        a = arrays[0]
        n = a.shape[-1]
        h = (a + np.conj(np.swapaxes(a, -1, -2))) / 2 + np.diag(np.arange(n) * 3.0)
        if how == "hermitian-low-rank":
            h = h[..., :, :1] @ np.conj(np.swapaxes(h[..., :, :1], -1, -2))
        arrays[0] = h.astype(dtype)
    elif how.startswith("low-rank"):
        # rank 2 matrices
        a = arrays[0]
        m, n = a.shape[-2:]
        left = sample(a.shape[:-1] + (2,), dtype, rng)
        right = sample(a.shape[:-2] + (2, n), dtype, rng)
        arrays[0] = (left @ right).astype(dtype)
        if how == "low-rank-tol":
            arrays[1] = np.abs(arrays[1].real).astype(np.dtype(dtype).type(0).real.dtype)
    return arrays


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
    rng = np.random.default_rng(20261128)
    cases: dict[str, dict] = {}
    for op, variants in OPS.items():
        kernel = KERNELS.get(op, op)
        fn = getattr(_C_ops, op)
        for dtype in kernel_dtypes[kernel]:
            has_grad = dtype in kernel_dtypes.get(f"{kernel}_grad", ())
            for label, shapes, attrs, how in variants:
                grad = has_grad and how != "forward" and not unrecorded_grad(op, dtype, shapes)
                arrays = make_inputs(op, shapes, how, dtype, rng)
                tensors = [paddle.to_tensor(a) for a in arrays]
                for tensor in tensors:
                    tensor.stop_gradient = not grad
                result = fn(tensors, *attrs) if op in ONE_INPUT_LIST else fn(*tensors, *attrs)
                outs = list(result) if isinstance(result, (list, tuple)) else [result]
                # eigvalsh's eigenvectors are the gradient's input, not a result
                outs = outs[:1] if op == "eigvalsh" else outs
                entry = {
                    "op": op,
                    "dtype": dtype,
                    "attrs": attrs,
                    "list": op in ONE_INPUT_LIST,
                    "shapes": [list(s) for s in shapes],
                    "dtypes": [str(a.dtype) for a in arrays],
                    "inputs": [encode(a) for a in arrays],
                    "outs": [
                        {
                            "shape": list(out.shape),
                            "dtype": str(out.dtype).replace("paddle.", ""),
                            "values": encode(out.numpy()),
                        }
                        for out in outs
                    ],
                }
                if grad and all(out.size for out in outs):
                    out_grads = [
                        sample(tuple(out.shape), str(out.dtype).replace("paddle.", ""), rng)
                        for out in outs
                    ]
                    grads = paddle.grad(
                        outs,
                        tensors[:1] if op in GRAD_OF_FIRST else tensors,
                        [paddle.to_tensor(g) for g in out_grads],
                    )
                    entry["out_grads"] = [encode(g) for g in out_grads]
                    entry["grads"] = [encode(g.numpy()) for g in grads]
                cases[f"{op}-{dtype}-{label}"] = entry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    header = {
        "paddle_version": paddle.__version__,
        "generated_by": "tests/tools/make_linalg2_fixtures.py",
    }
    OUT.write_text(json.dumps({"header": header, "cases": cases}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
