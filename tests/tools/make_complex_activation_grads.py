"""Writes tests/data/complex_activation_grads.json: PaddlePaddle 3.3.1's gradients of hardswish,
softsign, softplus and logsigmoid for complex inputs, which tests/ops/test_complex_activation_grads.py
compares phiops' grad kernels with (no PaddlePaddle needed there).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_complex_activation_grads.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "complex_activation_grads.json"

# every branch: hardswish's three ranges (by the real part, edges included), softplus above and
# below its threshold, softsign's x = 0, logsigmoid's large negative real parts
X = np.array(
    [-4 + 1j, -3 + 0.5j, -1 + 2j, 0.5 - 0.3j, 0j, 2 + 1j, 3 - 1j, 4 - 2j, -2.9 + 0.5j, 3.1 + 0.2j,
     25 + 1j, -30 - 2j, 1j, -2.5j],
    np.complex128,
)  # fmt: skip
OUT_GRAD = np.array(
    [1 + 0.5j, 2 - 1j, 0.3 + 0.3j, -1 + 1j, 1 + 1j, 0.5j, 1, 1 - 1j, -0.5 + 2j, 1.5, 2j, 1 - 3j,
     0.7 + 0.1j, -1 - 1j],
    np.complex128,
)  # fmt: skip

F = paddle.nn.functional
CASES = {
    "hardswish": (lambda x: F.hardswish(x), []),
    "softsign": (lambda x: F.softsign(x), []),
    "softplus": (lambda x: F.softplus(x, 1.0, 20.0), [1.0, 20.0]),
    "softplus-beta2-threshold3": (lambda x: F.softplus(x, 2.0, 3.0), [2.0, 3.0]),
    "logsigmoid": (lambda x: F.log_sigmoid(x), []),
}


def pairs(array: np.ndarray) -> list[list[float]]:
    return [[float(v.real), float(v.imag)] for v in array.reshape(-1)]


def main() -> None:
    table: dict[str, dict] = {"x": pairs(X), "out_grad": pairs(OUT_GRAD), "cases": {}}
    for name, (fn, attrs) in CASES.items():
        for dtype in ("complex64", "complex128"):
            x = paddle.to_tensor(X.astype(dtype), stop_gradient=False)
            (grad,) = paddle.grad(fn(x), x, paddle.to_tensor(OUT_GRAD.astype(dtype)))
            table["cases"][f"{name}-{dtype}"] = {
                "op": name.split("-")[0], "attrs": attrs, "dtype": dtype,
                "x_grad": pairs(grad.numpy()),
            }  # fmt: skip
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {len(table['cases'])} cases to {OUT}")


if __name__ == "__main__":
    main()
