"""SelectedRows end to end against PaddlePaddle 3.3.1 (tests/data/kinds_selected_rows.json,
recorded by tests/tools/make_kinds_selected_rows.py): the gradient of ``Embedding(sparse=True)``
(rows, value, accumulation over two backward passes, clear_grad) and an embedding model trained
20 steps by each optimizer with a SelectedRows gradient. AdamW, which PaddlePaddle 3.3.1 fails
to run on a SelectedRows gradient, is compared with a numpy reference of PHI's kernel."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from tests.kinds import embedding_cases

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "kinds_selected_rows.json").read_text()
)
DATA = embedding_cases.inputs()


def test_sparse_gradient_matches_paddle() -> None:
    got = embedding_cases.sparse_gradients(paddle)
    want = RECORD["gradients"]
    assert got["first"] == want["first"]
    assert got["second"] == want["second"]
    assert got["after_clear_grad_is_none"] is want["after_clear_grad_is_none"] is True


@pytest.mark.parametrize("name", sorted(RECORD["training"]))
def test_training_matches_paddle(name: str) -> None:
    got = embedding_cases.train(paddle, name, DATA)
    for key, value in RECORD["training"][name].items():
        np.testing.assert_allclose(got[key], np.asarray(value, np.float32), rtol=2e-5, atol=2e-6,
                                   err_msg=f"{name}: {key}")  # fmt: skip


def test_untouched_rows_stay() -> None:
    """Rows no batch touches keep their initial values under every update but AdamW's decay."""
    for name in ("sgd", "momentum", "adam", "adam_lazy", "adagrad"):
        got = embedding_cases.train(paddle, name, DATA)["embedding"]
        np.testing.assert_array_equal(got[embedding_cases.TOUCHED :], DATA["embedding"][embedding_cases.TOUCHED :])


def _adamw_reference(lazy: bool) -> np.ndarray:
    """The embedding after 20 AdamW steps by PHI's adamw_dense_param_sparse_grad formula
    (decay of every row, then Adam on the merged rows: lazy, or every row with zeros), with
    the model's gradient computed in numpy."""
    _, options, _, _ = embedding_cases.CASES["adamw_lazy" if lazy else "adamw"]
    rate, decay, b1, b2, eps = options["learning_rate"], options["weight_decay"], 0.9, 0.999, 1e-8
    table = DATA["embedding"].astype(np.float64).copy()
    weight = DATA["weight"].astype(np.float64).copy()
    bias = DATA["bias"].astype(np.float64).copy()
    state = {k: [np.zeros_like(v), np.zeros_like(v)] for k, v in (("t", table), ("w", weight), ("b", bias))}
    pow1, pow2 = b1, b2  # the beta power accumulators start at beta1, beta2
    for step in range(embedding_cases.STEPS):
        ids, target = DATA["ids"][step, 0], DATA["targets"][step, 0].astype(np.float64)
        hidden = table[ids].mean(axis=1)
        error = hidden @ weight + bias - target
        d_out = 2 * error / error.size
        grads = {"w": hidden.T @ d_out, "b": d_out.sum(axis=0)}
        d_hidden = d_out @ weight.T / ids.shape[1]
        dense = np.zeros_like(table)
        np.add.at(dense, ids.reshape(-1), np.repeat(d_hidden, ids.shape[1], axis=0))
        grads["t"] = dense
        touched = np.unique(ids)
        for key, param in (("t", table), ("w", weight), ("b", bias)):
            param *= 1 - rate * decay
            m1, m2 = state[key]
            rows = touched if (key == "t" and lazy) else slice(None)
            g = grads[key][rows]
            m1[rows] = b1 * m1[rows] + (1 - b1) * g
            m2[rows] = b2 * m2[rows] + (1 - b2) * g * g
            # PHI's SelectedRows kernel updates with the powers advanced one step (the
            # embedding's); the dense kernel with the current ones (the linear layer's)
            p1, p2 = (pow1 * b1, pow2 * b2) if key == "t" else (pow1, pow2)
            step_size = rate * np.sqrt(1 - p2) / (1 - p1)
            param[rows] -= step_size * m1[rows] / (np.sqrt(m2[rows]) + eps * np.sqrt(1 - p2))
        pow1, pow2 = pow1 * b1, pow2 * b2
    return table


@pytest.mark.parametrize("lazy", [False, True])
def test_adamw_matches_phi_formula(lazy: bool) -> None:
    assert ("adamw_lazy" if lazy else "adamw") in RECORD["paddle_fails"]
    got = embedding_cases.train(paddle, "adamw_lazy" if lazy else "adamw", DATA)["embedding"]
    np.testing.assert_allclose(got, _adamw_reference(lazy), rtol=1e-4, atol=1e-5)
