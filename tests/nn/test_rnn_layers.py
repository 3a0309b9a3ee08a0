"""nn.SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN, LSTM and GRU against PaddlePaddle
3.3.1: outputs, final states and every gradient for the same weights (recorded by
tests/tools/make_rnn_fixtures.py into tests/data/rnn/), parameter names and shapes (state dicts
load both ways), the initialisation, and bad input.

One recorded gradient is not compared with PaddlePaddle's: for a bidirectional network given
``sequence_length``, PaddlePaddle 3.3.1's CPU rnn_grad returns a ``weight_hh`` gradient of the
reverse direction that disagrees with finite differences of its own forward (by up to 0.6 in
the recorded case); phiops's gradient is checked against finite differences there instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

DATA = Path(__file__).resolve().parents[1] / "data" / "rnn"
CASES = np.load(DATA / "cases.npz")
META = json.loads((DATA / "cases.json").read_text())

LAYER_CASES = sorted(n for n, m in META.items() if isinstance(m, dict) and "kwargs" in m)
CELL_CASES = sorted(n for n in META if n.startswith("cell_"))
WRAPPER_CASES = sorted(n for n in META if n.startswith("wrap_"))


def _to_float64(layer: paddle.nn.Layer) -> None:
    """Replace every parameter by a float64 copy (aliases stay shared): phiops has no
    set_default_dtype, PaddlePaddle recorded these cases with float64 as the default."""
    made: dict[int, paddle.Tensor] = {}
    for sub in layer.sublayers(include_self=True):
        for key, param in list(sub._parameters.items()):
            if id(param) not in made:
                copy = paddle.to_tensor(param.numpy().astype("float64"))
                copy.stop_gradient = param.stop_gradient
                made[id(param)] = copy
            sub._parameters[key] = made[id(param)]


def _build(name: str) -> paddle.nn.Layer:
    meta = META[name]
    if "wrapper" in meta:
        make = lambda: getattr(paddle.nn, meta["class"])(meta["input_size"], meta["hidden_size"])  # noqa: E731
        if meta["wrapper"] == "RNN":
            layer = paddle.nn.RNN(make(), is_reverse=meta["is_reverse"], time_major=meta["time_major"])
        else:
            layer = paddle.nn.BiRNN(make(), make(), time_major=meta["time_major"])
        dtype = "float64"
    elif "kwargs" in meta:
        layer = getattr(paddle.nn, meta["class"])(**meta["kwargs"])
        dtype = meta["dtype"]
    else:
        layer = getattr(paddle.nn, meta["class"])(meta["input_size"], meta["hidden_size"])
        dtype = "float64"
    if dtype == "float64":
        _to_float64(layer)
    recorded = {k.split("/param/", 1)[1]: CASES[k] for k in CASES.files if k.startswith(f"{name}/param/")}
    missing, unexpected = layer.set_state_dict(recorded)
    assert missing == [] and unexpected == []
    return layer


def _flat_states(states):
    states = list(states) if isinstance(states, (list, tuple)) else [states]
    if states and isinstance(states[0], (list, tuple)):
        states = [t for pair in states for t in (pair if isinstance(pair, (list, tuple)) else [pair])]
    return states


def _tol(array: np.ndarray, grad: bool = False) -> dict:
    if array.dtype == np.float32:
        return {"rtol": 1e-4, "atol": 1e-5} if grad else {"rtol": 1e-5, "atol": 1e-6}
    return {"rtol": 1e-9, "atol": 1e-11}


def _paddle_grad_is_wrong(name: str, key: str) -> bool:
    meta = META[name]
    kwargs = meta.get("kwargs", {})
    return (
        f"{name}/seq" in CASES.files
        and "kwargs" in meta
        and kwargs.get("direction", "forward") != "forward"
        and "weight_hh" in key
        and ("_reverse" in key or ".cell_bw." in key)
    )


def _run(name: str, layer: paddle.nn.Layer):
    x = paddle.to_tensor(CASES[f"{name}/x"], stop_gradient=False)
    inits = [
        paddle.to_tensor(CASES[k], stop_gradient=False)
        for k in sorted(k for k in CASES.files if k.startswith(f"{name}/init/"))
    ]
    seq = paddle.to_tensor(CASES[f"{name}/seq"]) if f"{name}/seq" in CASES.files else None
    initial = None if not inits else (inits if len(inits) > 1 else inits[0])
    out, states = layer(x, initial, seq)
    return x, inits, out, _flat_states(states)


@pytest.mark.parametrize("name", LAYER_CASES + WRAPPER_CASES)
def test_outputs_states_and_gradients_match_paddle(name: str) -> None:
    layer = _build(name)
    x, inits, out, states = _run(name, layer)
    np.testing.assert_allclose(out.numpy(), CASES[f"{name}/out"], **_tol(CASES[f"{name}/out"]))
    loss = (out * paddle.to_tensor(CASES[f"{name}/g_out"])).sum()
    assert len(states) == len([k for k in CASES.files if k.startswith(f"{name}/state/")])
    for i, state in enumerate(states):
        want = CASES[f"{name}/state/{i}"]
        np.testing.assert_allclose(state.numpy(), want, **_tol(want))
        loss = loss + (state * paddle.to_tensor(CASES[f"{name}/g_state/{i}"])).sum()
    loss.backward()
    want = CASES[f"{name}/grad/x"]
    np.testing.assert_allclose(x.grad.numpy(), want, **_tol(want, True))
    for i, init in enumerate(inits):
        want = CASES[f"{name}/grad/init/{i}"]
        np.testing.assert_allclose(init.grad.numpy(), want, **_tol(want, True))
    own = layer.state_dict()
    compared = 0
    for key in CASES.files:
        if not key.startswith(f"{name}/grad/param/"):
            continue
        param_key = key.split("/grad/param/", 1)[1]
        if _paddle_grad_is_wrong(name, param_key):
            continue
        np.testing.assert_allclose(
            own[param_key].grad.numpy(), CASES[key], **_tol(CASES[key], True), err_msg=param_key
        )
        compared += 1
    assert compared >= 4


def test_reverse_weight_hh_gradient_with_sequence_length_matches_finite_differences() -> None:
    name = "lstm_2l_bi_f64_seq"
    layer = _build(name)
    x, inits, out, states = _run(name, layer)
    g_out = CASES[f"{name}/g_out"]
    g_states = [CASES[f"{name}/g_state/{i}"] for i in range(len(states))]
    loss = (out * paddle.to_tensor(g_out)).sum()
    for state, g in zip(states, g_states):
        loss = loss + (state * paddle.to_tensor(g)).sum()
    loss.backward()
    weight = layer.weight_hh_l0_reverse
    analytic = weight.grad.numpy()

    def value() -> float:
        with paddle.no_grad():
            _, _, o, s = _run(name, layer)
        return float((o.numpy() * g_out).sum() + sum((t.numpy() * g).sum() for t, g in zip(s, g_states)))

    base = weight.numpy().copy()
    numeric = np.zeros_like(base)
    for index in [(0, 0), (3, 1), (7, 2), (12, 3), (15, 0)]:
        for sign in (1, -1):
            moved = base.copy()
            moved[index] += sign * 1e-6
            weight.set_value(moved)
            numeric[index] += sign * value() / 2e-6
        weight.set_value(base)
        np.testing.assert_allclose(analytic[index], numeric[index], rtol=1e-6, atol=1e-8)
    # PaddlePaddle's recorded gradient differs from both (its CPU kernel's defect)
    assert not np.allclose(CASES[f"{name}/grad/param/weight_hh_l0_reverse"], analytic, atol=1e-3)


@pytest.mark.parametrize("name", CELL_CASES)
def test_cells_match_paddle(name: str) -> None:
    cell = _build(name)
    x = paddle.to_tensor(CASES[f"{name}/x"], stop_gradient=False)
    inits = [
        paddle.to_tensor(CASES[k], stop_gradient=False)
        for k in sorted(k for k in CASES.files if k.startswith(f"{name}/init/"))
    ]
    out, states = cell(x, tuple(inits) if len(inits) > 1 else inits[0])
    states = _flat_states(states)
    np.testing.assert_allclose(out.numpy(), CASES[f"{name}/out"], rtol=1e-10, atol=1e-12)
    loss = (out * out).sum()
    for i, state in enumerate(states):
        np.testing.assert_allclose(state.numpy(), CASES[f"{name}/state/{i}"], rtol=1e-10, atol=1e-12)
        loss = loss + (state * state * state).sum()
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), CASES[f"{name}/grad/x"], rtol=1e-9, atol=1e-11)
    for i, init in enumerate(inits):
        np.testing.assert_allclose(init.grad.numpy(), CASES[f"{name}/grad/init/{i}"], rtol=1e-9, atol=1e-11)
    for key, param in cell.state_dict().items():
        np.testing.assert_allclose(param.grad.numpy(), CASES[f"{name}/grad/param/{key}"], rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", LAYER_CASES + CELL_CASES + WRAPPER_CASES)
def test_parameter_names_and_shapes_are_paddles(name: str) -> None:
    recorded = [k.split("/param/", 1)[1] for k in CASES.files if k.startswith(f"{name}/param/")]
    meta = META[name]
    if "kwargs" in meta:
        layer = getattr(paddle.nn, meta["class"])(**meta["kwargs"])
    else:
        layer = _build(name)
    state = layer.state_dict()
    assert list(state) == recorded
    for key in recorded:
        assert state[key].shape == list(CASES[f"{name}/param/{key}"].shape), key
    # a phiops state dict loads into a fresh layer (and PaddlePaddle's into phiops, above)
    again = getattr(paddle.nn, meta["class"])(**meta["kwargs"]) if "kwargs" in meta else None
    if again is not None:
        assert again.set_state_dict(state) == ([], [])
        for key, value in again.state_dict().items():
            np.testing.assert_array_equal(value.numpy(), state[key].numpy())


def test_the_network_shares_its_cells_parameters_and_counts_each_once() -> None:
    lstm = paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    assert lstm.weight_ih_l1_reverse is lstm[1].cell_bw.weight_ih
    assert len(lstm.parameters()) == 16
    assert [n for n, _ in lstm.named_parameters()][:4] == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"
    ]
    assert lstm.weight_ih_l1.shape == [16, 8]


@pytest.mark.parametrize("cls, gates", [("SimpleRNN", 1), ("LSTM", 4), ("GRU", 3)])
def test_parameters_are_uniform_in_plus_minus_one_over_sqrt_hidden(cls: str, gates: int) -> None:
    layer = getattr(paddle.nn, cls)(5, 16, num_layers=2)
    bound = 1.0 / np.sqrt(16)
    values = np.concatenate([p.numpy().ravel() for p in layer.parameters()])
    assert np.abs(values).max() <= bound and np.abs(values).max() > 0.9 * bound
    assert abs(values.mean()) < 0.02 and abs(values.std() - bound / np.sqrt(3)) < 0.02
    assert layer.weight_ih_l0.shape == [gates * 16, 5] and layer.bias_hh_l1.shape == [gates * 16]


def test_no_bias_attr_gives_fixed_zero_biases() -> None:
    cell = paddle.nn.GRUCell(3, 4, bias_ih_attr=False, bias_hh_attr=False)
    assert not cell.bias_ih.numpy().any() and cell.bias_ih.stop_gradient
    assert not cell.weight_ih.stop_gradient


def test_default_initial_states_are_zeros_and_time_major_layout() -> None:
    gru = paddle.nn.GRU(3, 4, time_major=True)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((5, 2, 3)).astype("float32"))
    out, h = gru(x)
    out0, h0 = gru(x, paddle.zeros([1, 2, 4]))
    assert out.shape == [5, 2, 4] and h.shape == [1, 2, 4]
    np.testing.assert_array_equal(out.numpy(), out0.numpy())
    np.testing.assert_array_equal(out.numpy()[-1], h.numpy()[0])


def test_dropout_applies_in_training_only() -> None:
    lstm = paddle.nn.LSTM(3, 4, num_layers=3, dropout=0.5)
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((2, 6, 3)).astype("float32"))
    lstm.eval()
    a, _ = lstm(x)
    b, _ = lstm(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    lstm.train()
    c, _ = lstm(x)
    assert not np.allclose(a.numpy(), c.numpy())


def test_bad_input_is_rejected_with_a_clear_error() -> None:
    lstm = paddle.nn.LSTM(3, 4)
    with pytest.raises(InvalidArgumentError, match=r"LSTM: 'inputs' must be 3-D \[batch_size, time_steps"):
        lstm(paddle.zeros([2, 3]))
    with pytest.raises(InvalidArgumentError, match=r"LSTM: 'inputs' has 5 features .*input_size is 3"):
        lstm(paddle.zeros([2, 4, 5]))
    with pytest.raises(InvalidArgumentError, match=r"LSTM: 'initial_states' must be 2 tensor"):
        lstm(paddle.zeros([2, 4, 3]), paddle.zeros([1, 2, 4]))
    with pytest.raises(InvalidArgumentError, match=r"rnn.*pre_state"):
        lstm(paddle.zeros([2, 4, 3]), (paddle.zeros([1, 3, 4]), paddle.zeros([1, 3, 4])))
    with pytest.raises(InvalidArgumentError, match=r"GRU: direction must be 'forward' or 'bidirect'"):
        paddle.nn.GRU(3, 4, direction="backward")
    with pytest.raises(InvalidArgumentError, match=r"SimpleRNN: activation must be 'tanh' or 'relu'"):
        paddle.nn.SimpleRNN(3, 4, activation="sigmoid")
    with pytest.raises(InvalidArgumentError, match=r"LSTMCell: hidden_size must be greater than 0"):
        paddle.nn.LSTMCell(3, 0)
    with pytest.raises(InvalidArgumentError, match=r"GRUCell: 'inputs' has 2 features"):
        paddle.nn.GRUCell(3, 4)(paddle.zeros([2, 2]))
    with pytest.raises(InvalidArgumentError, match=r"BiRNN: the input size of the forward cell \(3\)"):
        paddle.nn.BiRNN(paddle.nn.GRUCell(3, 4), paddle.nn.GRUCell(2, 4))
    with pytest.raises(UnimplementedError, match=r"LSTM: proj_size > 0"):
        paddle.nn.LSTM(3, 4, proj_size=2)
