"""paddle.linalg.svdvals, lu_solve, svd_lowrank and pca_lowrank cases, run by tests/tools/make_linalg_extra_fixtures.py
with PaddlePaddle 3.3.1 (recorded) and by tests/ops/test_linalg_extra.py with phiops: each case's
result and the gradients of sum(result * weight) with respect to its float inputs (the low-rank
SVDs' values only, each after the same ``seed``: their sketch is a draw of the generator)."""

from __future__ import annotations

from typing import Any

import numpy as np

RNG = np.random.default_rng(11)
A = RNG.standard_normal((2, 4, 4))
B = RNG.standard_normal((2, 4, 3))
B_SHARED = RNG.standard_normal((4, 2))  # broadcast over lu's batch
WIDE = RNG.standard_normal((3, 5))
TALL = RNG.standard_normal((2, 9, 5))
SHIFT = RNG.standard_normal((9, 5))


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
    lowrank = {
        "svd_lowrank_tall": lambda: lib.linalg.svd_lowrank(lib.to_tensor(TALL), q=4, niter=2),
        "svd_lowrank_wide": lambda: lib.linalg.svd_lowrank(lib.to_tensor(WIDE)),
        "svd_lowrank_shift": lambda: lib.linalg.svd_lowrank(
            lib.to_tensor(TALL), q=3, niter=1, M=lib.to_tensor(SHIFT)
        ),
        "pca_lowrank": lambda: lib.linalg.pca_lowrank(lib.to_tensor(TALL), q=4),
        "pca_lowrank_uncentered": lambda: lib.linalg.pca_lowrank(
            lib.to_tensor(TALL[0]), center=False, niter=0
        ),
    }
    for name, call in lowrank.items():
        lib.seed(5)
        for part, tensor in zip("usv", call()):
            out[f"{name}/{part}"] = tensor.numpy()
    return out
