"""Writes tests/data/linalg24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the linalg24 ops (``paddle._C_ops.<op>``: lu, lu_unpack, eig, lstsq, baddbmm, matrix_rank_atol_rtol,
its rtol left out (None) where a case has two inputs) for every dtype
PaddlePaddle registers on CPU, on several shapes each (square, tall and wide matrices, batches,
empty batches, singular matrices, every lstsq driver); tests/ops/test_linalg24_paddle.py
compares phiops with them (no PaddlePaddle needed there).

Outputs PaddlePaddle's kernel leaves unset are not recorded (None): lstsq's ``rank`` for gels
and ``singular_values`` for gels and gelsy. Gradients are recorded for the float outputs only
(lu's packed factors, lu_unpack's L and U, eig's both, baddbmm's), with respect to the first
input (every input for baddbmm).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_linalg24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "linalg24" / "paddle_3_3_1.json"

# op -> [(label, input shapes, attrs, how the inputs are made)]
OPS: dict[str, list[tuple[str, list, list, str]]] = {
    "lu": [
        ("3x3", [(3, 3)], [True], "plain"),
        ("tall", [(4, 3)], [True], "plain"),
        ("wide", [(2, 3, 5)], [True], "plain"),
        ("singular", [(3, 3)], [True], "singular"),
        ("empty-batch", [(0, 2, 2)], [True], "forward"),
    ],
    "lu_unpack": [
        ("3x3", [(3, 3)], [True, True], "factors"),
        ("tall", [(2, 5, 3)], [True, True], "factors"),
        ("wide", [(3, 4)], [True, True], "factors"),
        ("no-pivots", [(3, 3)], [True, False], "factors-forward"),
        ("no-ludata", [(3, 3)], [False, True], "factors-forward"),
    ],
    "eig": [
        ("3x3", [(3, 3)], [], "plain"),
        ("batch", [(2, 4, 4)], [], "plain"),
        ("symmetric", [(3, 3)], [], "symmetric"),
        ("empty-batch", [(0, 2, 2)], [], "forward"),
    ],
    "lstsq": [
        ("tall-gels", [(5, 3), (5, 2)], [0.0, "gels"], "forward"),
        ("tall-gelsy", [(2, 5, 3), (2, 5, 2)], [1e-10, "gelsy"], "forward"),
        ("tall-gelsd", [(2, 5, 3), (2, 5, 2)], [1e-10, "gelsd"], "forward"),
        ("tall-gelss", [(5, 3), (5, 1)], [1e-10, "gelss"], "forward"),
        ("wide-gelsd", [(3, 5), (3, 2)], [1e-10, "gelsd"], "forward"),
        ("square-gelsy", [(3, 4, 4), (3, 4, 3)], [1e-10, "gelsy"], "forward"),
        ("low-rank-gelsy", [(5, 4), (5, 2)], [1e-4, "gelsy"], "low-rank"),
    ],
    "baddbmm": [
        ("3d", [(2, 3, 5), (2, 3, 4), (2, 4, 5)], [0.5, 2.0], "plain"),
        ("broadcast", [(1, 3, 1), (2, 3, 4), (2, 4, 5)], [-1.0, 1.0], "plain"),
        ("2d-input", [(2, 5), (2, 3, 4), (2, 4, 5)], [1.0, 0.5], "plain"),
        ("beta0", [(2, 3, 5), (2, 3, 4), (2, 4, 5)], [0.0, 1.0], "plain"),
    ],
    # inputs: x, atol (and rtol), of x's real dtype
    "matrix_rank_atol_rtol": [
        ("atol-rtol", [(2, 4, 5), (2,), (2,)], [False], "low-rank-tolerances"),
        ("atol-only", [(2, 4, 5), ()], [False], "low-rank-tolerances"),
        ("broadcast", [(2, 4, 5), (3, 1), (3, 1)], [False], "low-rank-tolerances"),
        ("hermitian", [(2, 4, 4), (), ()], [True], "hermitian-tolerances"),
        ("empty", [(2, 0, 3), ()], [False], "low-rank-tolerances"),
    ],
}
# lstsq outputs PaddlePaddle's kernel leaves unset, by driver: (rank, singular_values)
UNSET = {"gels": (2, 3), "gelsy": (3,)}


def unset_outputs(op: str, attrs: list) -> tuple[int, ...]:
    """Outputs PaddlePaddle's kernel leaves unset (an empty float32 tensor for lu_unpack's),
    not recorded."""
    if op == "lstsq":
        return UNSET.get(attrs[-1], ())
    if op == "lu_unpack":
        return (() if attrs[0] else (1, 2)) + (() if attrs[1] else (0,))
    return ()


def unrecorded_grad(op: str, shapes: list) -> bool:
    """PaddlePaddle 3.3.1's eig gradient for a batch is wrong past the first matrix (each
    differs from the gradient of that matrix alone): not recorded."""
    return op == "eig" and len(shapes[0]) > 2


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


def make_inputs(shapes: list, how: str, dtype: str, rng: np.random.Generator) -> list:
    arrays = [sample(shape, dtype, rng) for shape in shapes]
    if how == "singular":
        # a zero second column: an exact zero pivot in the second step
        arrays[0][..., :, 1] = 0
    elif how == "symmetric":
        a = arrays[0]
        arrays[0] = (
            (a + np.swapaxes(a, -1, -2)) / 2 + np.diag(np.arange(a.shape[-1]) * 3.0)
        ).astype(dtype)
    elif how.startswith("factors"):
        lu, pivots, _ = _C_ops.lu(paddle.to_tensor(arrays[0]), True)
        arrays = [lu.numpy(), pivots.numpy()]
    elif how.endswith("-tolerances"):
        # rank-2 matrices (Hermitian ones for "hermitian"), the second scaled down, and
        # tolerances in [0, 0.5) of x's real dtype
        a = arrays[0]
        m, n = a.shape[-2:]
        if m and n:
            left = sample(a.shape[:-1] + (2,), dtype, rng)
            a = left @ sample(a.shape[:-2] + (2, n), dtype, rng)
            if how.startswith("hermitian"):
                a = left @ np.conj(np.swapaxes(left, -1, -2))
            a[1] *= 0.05
        real = np.zeros((), dtype).real.dtype
        tolerances = [np.abs(t.real).astype(real) / 4 for t in arrays[1:]]
        arrays = [a.astype(dtype)] + tolerances
    elif how == "low-rank":
        a = arrays[0]
        m, n = a.shape[-2:]
        arrays[0] = (sample((m, 2), dtype, rng) @ sample((2, n), dtype, rng)).astype(dtype)
    return arrays


def float_outputs(op: str, outs: list) -> list[int]:
    """The outputs whose gradients are recorded."""
    return {"lu": [0], "lu_unpack": [1, 2], "eig": [0, 1], "baddbmm": [0]}.get(op, [])


# ops whose every input takes a gradient (the others: the first only)
ALL_INPUTS_GRADED = {"baddbmm"}


def main() -> None:
    kernel_dtypes = json.loads(
        (OUT.parents[3] / "runtime" / "kernels" / "paddle_3_3_1_cpu.json").read_text()
    )["kernels"]
    rng = np.random.default_rng(20261127)
    cases: dict[str, dict] = {}
    for op, variants in OPS.items():
        fn = getattr(_C_ops, op)
        for dtype in kernel_dtypes[op]:
            has_grad = dtype in kernel_dtypes.get(f"{op}_grad", ())
            for label, shapes, attrs, how in variants:
                grad = has_grad and not how.endswith("forward") and not unrecorded_grad(op, shapes)
                arrays = make_inputs(shapes, how, dtype, rng)
                tensors = [paddle.to_tensor(a) for a in arrays]
                graded = tensors if op in ALL_INPUTS_GRADED else tensors[:1]
                for tensor in graded:
                    tensor.stop_gradient = not grad
                # matrix_rank_atol_rtol's optional rtol: None where the case has no third input
                optional = [None] if op == "matrix_rank_atol_rtol" and len(tensors) == 2 else []
                result = fn(*tensors, *optional, *attrs)
                outs = list(result) if isinstance(result, (list, tuple)) else [result]
                unset = unset_outputs(op, attrs)
                entry = {
                    "op": op,
                    "dtype": dtype,
                    "attrs": attrs,
                    "shapes": [list(a.shape) for a in arrays],
                    "dtypes": [str(a.dtype) for a in arrays],
                    "inputs": [encode(a) for a in arrays],
                    "outs": [
                        (
                            None
                            if index in unset
                            else {
                                "shape": list(out.shape),
                                "dtype": str(out.dtype).replace("paddle.", ""),
                                "values": encode(out.numpy()),
                            }
                        )
                        for index, out in enumerate(outs)
                    ],
                }
                wanted = float_outputs(op, outs)
                if grad and all(outs[i].size for i in wanted):
                    out_grads = [
                        sample(tuple(outs[i].shape), str(outs[i].dtype).replace("paddle.", ""), rng)
                        for i in wanted
                    ]
                    grads = paddle.grad(
                        [outs[i] for i in wanted],
                        graded,
                        [paddle.to_tensor(g) for g in out_grads],
                    )
                    entry["grad_outputs"] = wanted
                    entry["out_grads"] = [encode(g) for g in out_grads]
                    entry["grads"] = [encode(g.numpy()) for g in grads]
                    entry["grad_dtypes"] = [str(g.dtype).replace("paddle.", "") for g in grads]
                cases[f"{op}-{dtype}-{label}"] = entry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    header = {
        "paddle_version": paddle.__version__,
        "generated_by": "tests/tools/make_linalg24_fixtures.py",
    }
    OUT.write_text(json.dumps({"header": header, "cases": cases}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
