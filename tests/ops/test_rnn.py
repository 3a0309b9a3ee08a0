"""The rnn op: forward against a numpy reference for each dtype and mode, against PaddlePaddle
3.3.1's recordings (tests/data/rnn/, tests/tools/make_rnn_fixtures.py) for the same weights, and
its edges: sequence_length, bidirectional and multi-layer, dropout between layers, the
dropout_state / reserve outputs, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, tolerance

DATA = Path(__file__).resolve().parents[1] / "data" / "rnn"
GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# -- a numpy reference, step by step ------------------------------------------------------------


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-a))


def _cell(mode: str, x, h, c, w_ih, w_hh, b_ih, b_hh):
    if mode == "LSTM":
        i, f, g, o = np.split(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        return _sigmoid(o) * np.tanh(c), c
    if mode == "GRU":
        x_r, x_z, x_c = np.split(x @ w_ih.T + b_ih, 3, axis=1)
        h_r, h_z, h_c = np.split(h @ w_hh.T + b_hh, 3, axis=1)
        r, z = _sigmoid(x_r + h_r), _sigmoid(x_z + h_z)
        cand = np.tanh(x_c + r * h_c)
        return (h - cand) * z + cand, None
    a = x @ w_ih.T + b_ih + h @ w_hh.T + b_hh
    return (np.tanh(a) if mode == "RNN_TANH" else np.maximum(a, 0)), None


def reference(mode, x, states, weights, lengths, layers, bidirec):
    """out, final states of the stacked network; weights in PaddlePaddle's flattened order."""
    steps, batch = x.shape[:2]
    directions = 2 if bidirec else 1
    half = len(weights) // 2
    h_last = np.zeros_like(states[0])
    c_last = np.zeros_like(states[0])
    layer_in = x.astype(np.float64)
    for layer in range(layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            w = [weights[2 * k], weights[2 * k + 1], weights[half + 2 * k], weights[half + 2 * k + 1]]
            w = [np.asarray(v, np.float64) for v in w]
            h = states[0][k].astype(np.float64)
            c = states[1][k].astype(np.float64) if mode == "LSTM" else None
            out = np.zeros((steps, batch, h.shape[1]))
            for t in reversed(range(steps)) if d == 1 else range(steps):
                h_new, c_new = _cell(mode, layer_in[t], h, c, *w)
                valid = np.ones((batch, 1)) if lengths is None else (t < np.asarray(lengths))[:, None]
                out[t] = np.where(valid, h_new, 0.0)
                h = np.where(valid, h_new, h)
                if c is not None:
                    c = np.where(valid, c_new, c)
            outs.append(out)
            h_last[k] = h
            if c is not None:
                c_last[k] = c
        layer_in = np.concatenate(outs, axis=2)
    return layer_in, [h_last] + ([c_last] if mode == "LSTM" else [])


def make_inputs(mode, dtype, layers, bidirec, steps=4, batch=3, input_size=3, hidden=4, seed=0):
    rng = np.random.default_rng(seed)
    np_dtype = dtype.numpy_dtype
    directions = 2 if bidirec else 1
    rows = GATES[mode] * hidden
    x = rng.uniform(-1, 1, (steps, batch, input_size)).astype(np_dtype)
    n_states = 2 if mode == "LSTM" else 1
    states = [rng.uniform(-1, 1, (layers * directions, batch, hidden)).astype(np_dtype) for _ in range(n_states)]
    weights, biases = [], []
    for layer in range(layers):
        size = input_size if layer == 0 else directions * hidden
        for _ in range(directions):
            weights += [rng.uniform(-0.5, 0.5, (rows, size)), rng.uniform(-0.5, 0.5, (rows, hidden))]
            biases += [rng.uniform(-0.5, 0.5, (rows,)), rng.uniform(-0.5, 0.5, (rows,))]
    return x, states, [w.astype(np_dtype) for w in weights + biases]


def call(mode, x, states, weights, lengths=None, layers=1, bidirec=False, dropout=0.0, is_test=False, seed=0, hidden=None):
    hidden = states[0].shape[2] if hidden is None else hidden
    return phi.rnn(
        phi.to_tensor(x),
        [phi.to_tensor(s) for s in states],
        [phi.to_tensor(w) for w in weights],
        None if lengths is None else phi.to_tensor(np.asarray(lengths, dtype=np.int64)),
        phi.zeros([0], "uint8"),
        dropout, bidirec, x.shape[-1], hidden, layers, mode, seed, is_test,
    )


@op_test("rnn", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("rnn"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("mode", list(GATES))
def test_rnn_matches_the_numpy_reference_for_each_dtype_and_mode(dtype: DataType, mode: str) -> None:
    assert cpu_dtypes("rnn") == [DataType.FLOAT32, DataType.FLOAT64]
    x, states, weights = make_inputs(mode, dtype, 2, True, seed=len(mode))
    out, _, state = call(mode, x, states, weights, layers=2, bidirec=True)
    want_out, want_states = reference(mode, x, states, weights, None, 2, True)
    assert out.dtype == dtype and out.shape == [4, 3, 8]
    np.testing.assert_allclose(out.numpy(), want_out, **tolerance(dtype))
    assert len(state) == len(want_states)
    for got, want in zip(state, want_states):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy(), want, **tolerance(dtype))


# -- against PaddlePaddle 3.3.1's recordings ----------------------------------------------------


def _recorded(name: str):
    data = np.load(DATA / "cases.npz")
    meta = json.loads((DATA / "cases.json").read_text())[name]
    return data, meta


def _flat_weights(data, name: str, layers: int, directions: int) -> list[np.ndarray]:
    keys = []
    for layer in range(layers):
        for d in range(directions):
            suffix = "_reverse" if d else ""
            keys.append((f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}",
                         f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"))
    weights = [data[f"{name}/param/{k}"] for ks in keys for k in ks[:2]]
    biases = [data[f"{name}/param/{k}"] for ks in keys for k in ks[2:]]
    return weights + biases


MODES = {"LSTM": "LSTM", "GRU": "GRU"}


@op_test("rnn", kind="edge")
@pytest.mark.parametrize(
    "name",
    ["lstm_2l_bi_f64_init", "lstm_2l_bi_f64_seq", "gru_2l_fw_f64_seq", "gru_1l_fw_f32",
     "rnn_tanh_2l_bi_f64", "rnn_relu_1l_fw_f64_seq", "rnn_tanh_1l_bi_f64_seq"],
)
def test_rnn_matches_paddle_for_the_same_weights(name: str) -> None:
    data, meta = _recorded(name)
    kwargs = meta["kwargs"]
    mode = MODES.get(meta["class"]) or ("RNN_RELU" if kwargs.get("activation") == "relu" else "RNN_TANH")
    layers = kwargs.get("num_layers", 1)
    directions = 1 if kwargs.get("direction", "forward") == "forward" else 2
    x = data[f"{name}/x"]
    if not kwargs.get("time_major", False):
        x = x.transpose(1, 0, 2)
    n_states = 2 if mode == "LSTM" else 1
    shape = (layers * directions, x.shape[1], kwargs["hidden_size"])
    states = [
        data[f"{name}/init/{i}"] if f"{name}/init/{i}" in data.files else np.zeros(shape, x.dtype)
        for i in range(n_states)
    ]
    lengths = data[f"{name}/seq"] if f"{name}/seq" in data.files else None
    out, _, state = call(mode, np.ascontiguousarray(x), states,
                         _flat_weights(data, name, layers, directions), lengths, layers, directions == 2)
    tol = {"rtol": 1e-5, "atol": 1e-6} if x.dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-12}
    want = data[f"{name}/out"]
    if not kwargs.get("time_major", False):
        want = want.transpose(1, 0, 2)
    np.testing.assert_allclose(out.numpy(), want, **tol)
    for i, got in enumerate(state):
        np.testing.assert_allclose(got.numpy(), data[f"{name}/state/{i}"], **tol)


# -- edges ---------------------------------------------------------------------------------------


@op_test("rnn", kind="edge")
@pytest.mark.parametrize("mode", list(GATES))
def test_padded_steps_give_zeros_and_the_last_valid_state(mode: str) -> None:
    x, states, weights = make_inputs(mode, DataType.FLOAT64, 1, True, steps=5, seed=3)
    lengths = [5, 2, 0]
    out, _, state = call(mode, x, states, weights, lengths, 1, True)
    want_out, want_states = reference(mode, x, states, weights, lengths, 1, True)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-12, atol=1e-12)
    assert not out.numpy()[2:, 1].any() and not out.numpy()[:, 2].any()
    for got, want in zip(state, want_states):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # a sequence of length 0 keeps its initial state in both directions
    np.testing.assert_allclose(state[0].numpy()[:, 2], states[0][:, 2])
    # int32 lengths work as int64 ones
    out32, _, _ = phi.rnn(
        phi.to_tensor(x), [phi.to_tensor(s) for s in states], [phi.to_tensor(w) for w in weights],
        phi.to_tensor(np.array(lengths, np.int32)), phi.zeros([0], "uint8"),
        0.0, True, 3, 4, 1, mode, 0, False,
    )
    np.testing.assert_array_equal(out32.numpy(), out.numpy())


@op_test("rnn", kind="edge")
def test_dropout_state_and_reserve_have_paddles_extents() -> None:
    meta = json.loads((DATA / "cases.json").read_text())["op_dropout_state"]
    x, states, weights = make_inputs("LSTM", DataType.FLOAT32, 2, False, steps=4, batch=2, hidden=5)
    for is_test, key in ((False, "train"), (True, "test")):
        outs = call("LSTM", x, states, weights, layers=2, dropout=0.5, is_test=is_test)
        mask = outs[1].numpy()
        assert list(mask.shape) == meta[key]["shape"] and str(mask.dtype) == meta[key]["dtype"]
        assert set(np.unique(mask).tolist()) <= set(meta[key]["values"]) | {0, 1}
    # the intermediate reserve: [(gates + 2) * layers + layers - 1, T * B * D * H] for LSTM
    from phiops.runtime.dispatch.op_def import OP_DEFS

    assert OP_DEFS["rnn"].intermediate == ("reserve",)
    tensors = (phi.to_tensor(x), [phi.to_tensor(s) for s in states],
               [phi.to_tensor(w) for w in weights], None, phi.zeros([0], "uint8"))
    for is_test, extents in ((False, [6 * 2 + 1, 4 * 2 * 5]), (True, [0])):
        outs = OP_DEFS["rnn"].dispatcher.call(tensors, (0.0, False, 3, 5, 2, "LSTM", 0, is_test))
        reserve = outs[-1]
        assert reserve.shape == extents and reserve.dtype == DataType.FLOAT32


@op_test("rnn", kind="edge")
def test_dropout_between_layers_uses_one_mask_and_a_seed_repeats_it() -> None:
    x, states, weights = make_inputs("GRU", DataType.FLOAT64, 3, False, seed=9)
    out_a, mask_a, _ = call("GRU", x, states, weights, layers=3, dropout=0.4, seed=5)
    out_b, mask_b, _ = call("GRU", x, states, weights, layers=3, dropout=0.4, seed=5)
    np.testing.assert_array_equal(mask_a.numpy(), mask_b.numpy())
    np.testing.assert_array_equal(out_a.numpy(), out_b.numpy())
    mask = mask_a.numpy()
    assert mask.shape == (4, 3, 4) and 0 < mask.mean() < 1
    # the same mask, scaled by 1 / (1 - p), on the inputs of layers 1 and 2
    half = len(weights) // 2
    layer_in = x.astype(np.float64)
    h = None
    for layer in range(3):
        if layer:
            layer_in = layer_in * mask / 0.6
        w = [weights[2 * layer], weights[2 * layer + 1], weights[half + 2 * layer], weights[half + 2 * layer + 1]]
        layer_in, _ = reference("GRU", layer_in, [states[0][layer : layer + 1]], w, None, 1, False)
    np.testing.assert_allclose(out_a.numpy(), layer_in, rtol=1e-12, atol=1e-12)
    # inference: no dropout, an empty mask
    out_test, mask_test, _ = call("GRU", x, states, weights, layers=3, dropout=0.4, is_test=True)
    assert mask_test.shape == [0]
    want, _ = reference("GRU", x, states, weights, None, 3, False)
    np.testing.assert_allclose(out_test.numpy(), want, rtol=1e-12, atol=1e-12)
    # p = 1 zeroes every layer's input but the first; one layer draws no mask
    _, ones, _ = call("GRU", x, [states[0][:1]], weights[:2] + weights[half : half + 2], dropout=0.4)
    assert ones.numpy().all() and ones.shape == [4, 3, 4]


@op_test("rnn", kind="edge")
def test_rnn_rejects_bad_input_naming_the_argument() -> None:
    x, states, weights = make_inputs("LSTM", DataType.FLOAT32, 1, False)
    with pytest.raises(InvalidArgumentError, match=r"rnn.*argument 'x' must be 3-D"):
        call("LSTM", x[0], states, weights)
    with pytest.raises(InvalidArgumentError, match=r"argument 'x' has 3 features.*input_size is 5"):
        phi.rnn(phi.to_tensor(x), [phi.to_tensor(s) for s in states], [phi.to_tensor(w) for w in weights],
                None, phi.zeros([0], "uint8"), 0.0, False, 5, 4, 1, "LSTM", 0, False)
    with pytest.raises(InvalidArgumentError, match=r"argument 'mode' must be one of"):
        call("LSTMX", x, states, weights)
    with pytest.raises(InvalidArgumentError, match=r"argument 'pre_state' of LSTM must hold 2"):
        call("LSTM", x, states[:1], weights)
    with pytest.raises(InvalidArgumentError, match=r"argument 'weight_list' must hold 8"):
        call("LSTM", x, [np.concatenate([s, s]) for s in states], weights, bidirec=True)
    with pytest.raises(InvalidArgumentError, match=r"argument 'weight_list'\[1\] of LSTM must have dims \[16, 4\]"):
        call("LSTM", x, states, [weights[0], weights[1][:, :3]] + weights[2:])
    with pytest.raises(InvalidArgumentError, match=r"argument 'pre_state'\[0\] must have dims"):
        call("LSTM", x, [s[:, :2] for s in states], weights)
    with pytest.raises(InvalidArgumentError, match=r"argument 'sequence_length' must be 1-D with the batch size 3"):
        call("LSTM", x, states, weights, lengths=[1, 2])
    with pytest.raises(InvalidArgumentError, match=r"argument 'dropout_prob' must be in \[0, 1\]"):
        call("LSTM", x, states, weights, dropout=1.5)
