"""The rnn op and the recurrent layers against PaddlePaddle 3.3.1, live: the committed fixtures
(tests/data/rnn/) are what PaddlePaddle computes today; random layers of every kind, with
PaddlePaddle's weights copied into phiops, give PaddlePaddle's outputs, states and gradients;
PaddlePaddle runs a phiops jit.save'd LSTM and GRU with phiops's outputs. Runs only where
PaddlePaddle is installed.

The exception, asserted rather than hidden: with ``sequence_length``, PaddlePaddle's CPU
rnn_grad gives the reverse direction's weight_hh a gradient that its own forward's finite
differences do not support (tests/nn/test_rnn_layers.py checks phiops's against them)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from tests.tools import make_rnn_fixtures as fixtures  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "rnn"


def test_fixtures_are_what_paddle_computes_today(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fixtures, "OUT", tmp_path)
    fixtures.main()
    made, committed = np.load(tmp_path / "cases.npz"), np.load(DATA / "cases.npz")
    assert sorted(made.files) == sorted(committed.files)
    for key in made.files:
        np.testing.assert_allclose(made[key], committed[key], rtol=1e-6, atol=1e-7, err_msg=key)
    made, committed = np.load(tmp_path / "lstm_model_io.npz"), np.load(DATA / "lstm_model_io.npz")
    for key in committed.files:
        np.testing.assert_allclose(made[key], committed[key], rtol=1e-6, atol=1e-7, err_msg=key)


CONFIGS = list(
    itertools.product(
        ["LSTM", "GRU", "SimpleRNN-tanh", "SimpleRNN-relu"],
        [1, 2],
        ["forward", "bidirect"],
        [False, True],  # sequence_length
    )
)


def _make(lib, kind: str, layers: int, direction: str):
    if kind.startswith("SimpleRNN"):
        return lib.nn.SimpleRNN(3, 4, num_layers=layers, direction=direction, activation=kind.split("-")[1])
    return getattr(lib.nn, kind)(3, 4, num_layers=layers, direction=direction)


@pytest.mark.parametrize("kind, layers, direction, with_lengths", CONFIGS,
                         ids=lambda v: str(v))
def test_layer_matches_paddle_live(kind: str, layers: int, direction: str, with_lengths: bool) -> None:
    rng = np.random.default_rng(hash((kind, layers, direction, with_lengths)) % 2**32)
    theirs = _make(paddle, kind, layers, direction)
    ours = _make(phi, kind, layers, direction)
    state = {k: v.numpy() for k, v in theirs.state_dict().items()}
    assert list(ours.state_dict()) == list(state)
    assert ours.set_state_dict(state) == ([], [])
    x = rng.standard_normal((3, 5, 3)).astype("float32")
    lengths = np.array([5, 2, 4], dtype="int64") if with_lengths else None
    results = []
    for lib, layer in ((paddle, theirs), (phi, ours)):
        xt = lib.to_tensor(x, stop_gradient=False)
        seq = None if lengths is None else lib.to_tensor(lengths)
        out, states = layer(xt, None, seq)
        states = list(states) if isinstance(states, tuple) else [states]
        loss = (out * out).sum() + sum((s * s).sum() for s in states)
        loss.backward()
        grads = {k: v.grad.numpy() for k, v in layer.state_dict().items() if v.grad is not None}
        results.append((out.numpy(), [s.numpy() for s in states], xt.grad.numpy(), grads))
    (p_out, p_states, p_dx, p_grads), (o_out, o_states, o_dx, o_grads) = results
    np.testing.assert_allclose(o_out, p_out, rtol=1e-5, atol=1e-5)
    for got, want in zip(o_states, p_states):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o_dx, p_dx, rtol=1e-4, atol=1e-4)
    assert sorted(o_grads) == sorted(p_grads)
    for key, want in p_grads.items():
        if with_lengths and direction == "bidirect" and "weight_hh" in key and (
            "_reverse" in key or "cell_bw" in key
        ):
            continue  # PaddlePaddle's defect, see the module docstring
        np.testing.assert_allclose(o_grads[key], want, rtol=1e-4, atol=1e-4, err_msg=key)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_paddle_runs_a_phiops_saved_network(kind: str, tmp_path: Path) -> None:
    layer = getattr(phi.nn, kind)(3, 4, num_layers=2, direction="bidirect")
    phi.jit.save(layer, tmp_path / "m", [phi.static.InputSpec([2, 5, 3], "float32", "x")])
    layer.eval()
    x = np.random.default_rng(4).standard_normal((2, 5, 3)).astype("float32")
    want = layer(phi.to_tensor(x))[0].numpy()
    loaded = paddle.jit.load(str(tmp_path / "m"))
    got = loaded(paddle.to_tensor(x))
    got = got[0] if isinstance(got, (list, tuple)) else got
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
