"""pyramid_hash's backward against finite differences. PaddlePaddle 3.3.1's pyramid_hash_grad
gives no gradient (its only output, x_grad, is of the int32 ids and left unwritten): it updates
the hash table w in place, w -= lr * dL/dw for L = sum(out * out_grad). So the check here is of
that step: (w_before - w_after) / lr against the central differences of L over w. The op is
float32 only; out copies rows of w, so L is linear in w and the differences are exact but for
float32 rounding."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated.backward as backward
import phiops.generated as phi
from phiops.runtime.dispatch.op_def import OP_DEFS

ATTRS = (4, 16, 3, 2, 0.0, 1, False, 0, 0, 0)  # num_emb .. seed: three layers, all terms kept
LR = 0.25


def _forward(ids: phi.Tensor, w: np.ndarray) -> tuple:
    filters = phi.to_tensor(np.zeros((1, 1), np.float32))
    return OP_DEFS["pyramid_hash"].dispatcher.call(
        (ids, phi.to_tensor(w), filters, filters), (*ATTRS, LR, "")
    )


def test_pyramid_hash_grad_steps_w_by_lr_times_the_finite_difference_gradient() -> None:
    ids = phi.to_tensor(np.asarray([[3], [1], [4], [1], [5], [9]], np.int32))
    ids.set_lod([[0, 4, 6]])
    w = np.random.default_rng(2480).uniform(-1, 1, (18, 1)).astype(np.float32)
    out, drop_pos, x_temp = _forward(ids, w)
    weights = np.random.default_rng(2481).uniform(-1, 1, tuple(out.shape)).astype(np.float32)

    def loss(table: np.ndarray) -> float:
        return float((_forward(ids, table)[0].numpy().astype(np.float64) * weights).sum())

    eps = 0.5
    numeric = np.zeros(w.shape)
    for row in range(w.shape[0]):
        plus, minus = w.copy(), w.copy()
        plus[row, 0] += eps
        minus[row, 0] -= eps
        numeric[row, 0] = (loss(plus) - loss(minus)) / (2 * eps)
    table = phi.to_tensor(w.copy())
    backward.pyramid_hash_grad(ids, table, drop_pos, x_temp, phi.to_tensor(weights), *ATTRS, LR, "")
    step = (w.astype(np.float64) - table.numpy()) / LR
    assert np.abs(numeric).max() > 0.1  # the terms do reach w
    np.testing.assert_allclose(step, numeric, rtol=1e-4, atol=1e-5)
