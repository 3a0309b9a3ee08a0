"""paddle.linalg.svdvals and lu_solve cases, run by tests/tools/make_linalg_extra_fixtures.py
with PaddlePaddle 3.3.1 (recorded) and by tests/ops/test_linalg_extra.py with phiops: each case's
result and the gradients of sum(result * weight) with respect to its float inputs."""

from __future__ import annotations

from typing import Any

import numpy as np

RNG = np.random.default_rng(11)
A = RNG.standard_normal((2, 4, 4))
B = RNG.standard_normal((2, 4, 3))
B_SHARED = RNG.standard_normal((4, 2))  # broadcast over lu's batch
WIDE = RNG.standard_normal((3, 5))


def _grads(lib: Any, out: Any, inputs: list[Any]) -> list[np.ndarray]:
    weight = lib.to_tensor(np.linspace(0.5, 1.5, int(np.prod(out.shape))).reshape(out.shape))
    lib.sum(out * weight).backward()
    return [t.grad.numpy() for t in inputs]


def run(lib: Any) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for name, matrix in (("svdvals_square", A), ("svdvals_wide", WIDE)):
        x = lib.to_tensor(matrix, stop_gradient=False)
        s = lib.linalg.svdvals(x)
        out[f"{name}/value"] = s.numpy()
        (out[f"{name}/grad_x"],) = _grads(lib, s, [x])
    for name, rhs, trans in (("lu_solve_N", B, "N"), ("lu_solve_T", B, "T"),
                             ("lu_solve_broadcast", B_SHARED, "N")):
        a = lib.to_tensor(A)
        lu, pivots = lib.linalg.lu(a)
        lu = lib.to_tensor(lu.numpy(), stop_gradient=False)
        b = lib.to_tensor(rhs, stop_gradient=False)
        x = lib.linalg.lu_solve(b, lu, pivots, trans=trans)
        out[f"{name}/value"] = x.numpy()
        out[f"{name}/grad_b"], out[f"{name}/grad_lu"] = _grads(lib, x, [b, lu])
    return out
