"""Record PaddlePaddle 3.3.1's CPU numbers of the random ops issue 24 moved onto its engine, for
tests/ops/test_rng24.py: ``cases`` below (paddle.seed, then a row of calls, so the engine state
carries over from one op to the next) run with PaddlePaddle into tests/data/rng24/paddle_3_3_1.npz.
The test runs the same ``cases`` with phiops as ``paddle``.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_rng24_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "rng24" / "paddle_3_3_1.npz"
SEEDS = (3, 7, 2024)


def cases(paddle: Any) -> dict[str, np.ndarray]:
    """Each seed's numbers, keyed '<seed>/<case>' (ops run in this order after paddle.seed)."""
    F = paddle.nn.functional
    out: dict[str, np.ndarray] = {}
    weights = np.array([[0.1, 0.2, 0.3, 0.4, 0.0], [0.4, 0.3, 0.2, 0.1, 1.5]], "float32")
    logits = np.array([[0.5, -1.0, 2.0, 0.25], [1.0, 1.0, -0.5, 3.0]], "float32")
    negatives = np.array([-1.0, 2.0, -3.0, -0.5, 0.0, 4.0, -2.5], "float32")
    for seed in SEEDS:
        paddle.seed(seed)
        out[f"{seed}/exponential"] = paddle.empty([2, 3]).exponential_(2.0).numpy()
        out[f"{seed}/exponential_f64"] = paddle.empty([5], "float64").exponential_(0.5).numpy()
        out[f"{seed}/uniform_"] = paddle.empty([2, 3]).uniform_(-1.5, 2.0).numpy()
        out[f"{seed}/uniform_f64"] = paddle.empty([4], "float64").uniform_(0.0, 3.0).numpy()
        out[f"{seed}/normal_"] = paddle.empty([5]).normal_(1.0, 2.0).numpy()
        out[f"{seed}/normal_f64"] = paddle.empty([2, 2], "float64").normal_(-1.0, 0.5).numpy()
        out[f"{seed}/randperm"] = paddle.randperm(10).numpy()
        out[f"{seed}/randperm_odd"] = paddle.randperm(7, "int32").numpy()
        out[f"{seed}/randperm_f"] = paddle.randperm(6, "float32").numpy()
        out[f"{seed}/multinomial"] = paddle.multinomial(
            paddle.to_tensor(weights), 6, replacement=True
        ).numpy()
        out[f"{seed}/multinomial_norep"] = paddle.multinomial(
            paddle.to_tensor(weights), 4, replacement=False
        ).numpy()
        out[f"{seed}/multinomial_f64"] = paddle.multinomial(
            paddle.to_tensor(weights[1].astype("float64")), 3
        ).numpy()
        out[f"{seed}/gumbel_softmax"] = F.gumbel_softmax(paddle.to_tensor(logits), 0.7).numpy()
        out[f"{seed}/gumbel_softmax_hard"] = F.gumbel_softmax(
            paddle.to_tensor(logits), 1.0, hard=True, axis=0
        ).numpy()
        out[f"{seed}/rrelu"] = F.rrelu(paddle.to_tensor(negatives), 0.1, 0.3, training=True).numpy()
        like = paddle._C_ops.uniform_random_batch_size_like
        batch = paddle.zeros([3, 2])
        out[f"{seed}/batch_size_like"] = like(
            batch, [-1, 4], 0, 0, -2.0, 3.0, 0, 0, 0, 1.0, paddle.float32
        ).numpy()
        out[f"{seed}/batch_size_like_f64"] = like(
            batch, [2, -1], 0, 1, 1.0, 0.0, 0, 2, 2, 7.0, paddle.float64
        ).numpy()
        out[f"{seed}/batch_size_like_seed"] = like(
            batch, [-1, 2], 0, 0, 0.0, 1.0, seed + 11, 0, 0, 1.0, paddle.float32
        ).numpy()
        rnn = paddle.nn.SimpleRNN(3, 4, num_layers=2, dropout=0.5)
        rnn.train()
        steps = paddle.to_tensor(np.linspace(-1, 1, 2 * 5 * 3).reshape(2, 5, 3).astype("float32"))
        rnn_out, rnn_state = rnn(steps)
        out[f"{seed}/rnn_dropout"] = rnn_out.numpy()
        alpha = paddle.to_tensor(np.array([0.3, 1.0, 2.5, 0.0, -1.0, 9.0, 0.05], "float32"))
        out[f"{seed}/standard_gamma"] = paddle.standard_gamma(alpha).numpy()
        out[f"{seed}/standard_gamma_f64"] = paddle.standard_gamma(
            paddle.to_tensor(np.array([[0.7, 4.0], [100.0, 1.5]]))
        ).numpy()
        out[f"{seed}/dirichlet"] = paddle._C_ops.dirichlet(
            paddle.to_tensor(np.array([[0.5, 2.0, 3.5], [1.0, 1.0, 1.0]], "float32"))
        ).numpy()
        rates = np.concatenate([[0.0, -1.0, 0.5, 3.0, 11.9], np.geomspace(12, 5e5, 27)])
        out[f"{seed}/poisson"] = paddle.poisson(paddle.to_tensor(rates.astype("float32"))).numpy()
        out[f"{seed}/poisson_f64"] = paddle.poisson(paddle.to_tensor(rates[::3])).numpy()
        count = np.array([10, 100, 5, 20.7, 1000, 50, 7, 40, 0, 3, 1e4, 30], "float32")
        prob = np.array([0.3, 0.5, 0.9, 0.6, 0.02, 0.95, 0.5, 0.6, 0.5, 1.0, 0.3, 0.1], "float32")
        out[f"{seed}/binomial"] = paddle.binomial(
            paddle.to_tensor(count), paddle.to_tensor(prob)
        ).numpy()
        out[f"{seed}/binomial_f64"] = paddle.binomial(
            paddle.to_tensor(count.astype("float64")), paddle.to_tensor(prob.astype("float64"))
        ).numpy()
        out[f"{seed}/randn_complex64"] = paddle.randn([2, 3], dtype="complex64").numpy()
        out[f"{seed}/uniform_complex128"] = paddle.uniform(
            [5], dtype="complex128", min=-1.0, max=2.0
        ).numpy()
        out[f"{seed}/normal_complex128"] = (
            paddle.empty([3], dtype="complex128").normal_(0.5, 3.0).numpy()
        )
        out[f"{seed}/after"] = paddle.rand([3]).numpy()
        out[f"{seed}/uniform_seed"] = paddle.empty([3]).uniform_(0.0, 1.0, seed=seed * 5).numpy()
    return out


def main() -> None:
    import paddle

    paddle.set_device("cpu")
    recorded = cases(paddle)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, paddle_version=np.array(paddle.__version__), **recorded)
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
