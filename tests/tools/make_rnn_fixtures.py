"""Record PaddlePaddle 3.3.1's recurrent layers for tests/nn/test_rnn_layers.py and
tests/ops/test_rnn.py: run in the side venv,

    /work/paddle-venv/bin/python -m tests.tools.make_rnn_fixtures

writes ``tests/data/rnn/cases.npz`` (per case: the layer's parameters by state-dict key, the
input, the initial states, the sequence lengths, the outputs, the final states, the upstream
gradients and every gradient PaddlePaddle computed) and ``tests/data/rnn/lstm_model.*``: an
``nn.LSTM`` saved by ``paddle.jit.save`` (PIR ``.json`` + ``.pdiparams``) with an input and the
outputs PaddlePaddle's inference gives for it (``lstm_model_io.npz``).

Every case runs the layer in training mode with dropout 0, so the rnn op's outputs are
deterministic; the cell cases run one step of ``LSTMCell``/``GRUCell``/``SimpleRNNCell``, and the
``RNN``/``BiRNN`` cases PaddlePaddle's Python loop over a cell.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "rnn"

# name: (class, kwargs, dtype, batch, steps, with initial states, sequence lengths or None)
LAYER_CASES = {
    "lstm_1l_fw_f32": ("LSTM", dict(input_size=3, hidden_size=4), "float32", 2, 5, False, None),
    "lstm_2l_bi_f64_init": (
        "LSTM",
        dict(input_size=3, hidden_size=4, num_layers=2, direction="bidirect"),
        "float64", 3, 4, True, None,
    ),
    "lstm_2l_bi_f64_seq": (
        "LSTM",
        dict(input_size=3, hidden_size=4, num_layers=2, direction="bidirectional"),
        "float64", 3, 5, True, [5, 2, 3],
    ),
    "lstm_1l_fw_f64_timemajor": (
        "LSTM",
        dict(input_size=2, hidden_size=3, time_major=True),
        "float64", 2, 4, False, None,
    ),
    "gru_2l_fw_f64_seq": (
        "GRU",
        dict(input_size=3, hidden_size=4, num_layers=2),
        "float64", 3, 5, True, [1, 5, 3],
    ),
    "gru_1l_bi_f64": (
        "GRU", dict(input_size=3, hidden_size=2, direction="bidirect"), "float64", 2, 3, False, None,
    ),
    "gru_1l_fw_f32": ("GRU", dict(input_size=4, hidden_size=3), "float32", 2, 6, True, None),
    "rnn_tanh_2l_bi_f64": (
        "SimpleRNN",
        dict(input_size=3, hidden_size=4, num_layers=2, direction="bidirect"),
        "float64", 2, 4, True, None,
    ),
    "rnn_relu_1l_fw_f64_seq": (
        "SimpleRNN",
        dict(input_size=3, hidden_size=4, activation="relu"),
        "float64", 3, 4, True, [4, 1, 2],
    ),
    "rnn_tanh_1l_bi_f64_seq": (
        "SimpleRNN",
        dict(input_size=2, hidden_size=3, direction="bidirect"),
        "float64", 2, 5, False, [3, 5],
    ),
}

# name: (cell class, input size, hidden size, batch)
CELL_CASES = {
    "cell_lstm": ("LSTMCell", 3, 4, 2),
    "cell_gru": ("GRUCell", 3, 4, 2),
    "cell_simple_tanh": ("SimpleRNNCell", 3, 4, 2),
}

# name: (wrapper, cell class, input, hidden, batch, steps, sequence lengths, time_major, is_reverse)
WRAPPER_CASES = {
    "wrap_rnn_gru_seq": ("RNN", "GRUCell", 3, 4, 3, 4, [4, 2, 1], False, False),
    "wrap_rnn_lstm_reverse": ("RNN", "LSTMCell", 3, 2, 2, 3, None, False, True),
    "wrap_birnn_lstm_seq": ("BiRNN", "LSTMCell", 2, 3, 2, 4, [2, 4], True, False),
}


def _states_tuple(states):
    return list(states) if isinstance(states, (list, tuple)) else [states]


def _record(data: dict, prefix: str, layer, inputs, initial, lengths, rng, dtype) -> None:
    for key, value in layer.state_dict().items():
        data[f"{prefix}/param/{key}"] = value.numpy()
    x = paddle.to_tensor(inputs, stop_gradient=False)
    init = None
    if initial is not None:
        init = [paddle.to_tensor(s, stop_gradient=False) for s in initial]
        for i, s in enumerate(initial):
            data[f"{prefix}/init/{i}"] = s
    seq = None
    if lengths is not None:
        seq = paddle.to_tensor(np.array(lengths, dtype=np.int64))
        data[f"{prefix}/seq"] = np.array(lengths, dtype=np.int64)
    if init is None:
        out, states = layer(x, sequence_length=seq) if seq is not None else layer(x)
    else:
        arg = init if len(init) > 1 else init[0]
        out, states = layer(x, arg, seq)
    states = _states_tuple(states)
    if isinstance(states[0], (list, tuple)):  # BiRNN: ((h, c), (h, c))
        states = [t for pair in states for t in _states_tuple(pair)]
    data[f"{prefix}/x"] = inputs
    data[f"{prefix}/out"] = out.numpy()
    loss = (out * paddle.to_tensor(g_out := rng.standard_normal(out.shape).astype(dtype))).sum()
    data[f"{prefix}/g_out"] = g_out
    for i, s in enumerate(states):
        data[f"{prefix}/state/{i}"] = s.numpy()
        g = rng.standard_normal(s.shape).astype(dtype)
        data[f"{prefix}/g_state/{i}"] = g
        loss = loss + (s * paddle.to_tensor(g)).sum()
    loss.backward()
    data[f"{prefix}/grad/x"] = x.grad.numpy()
    if init is not None:
        for i, s in enumerate(init):
            data[f"{prefix}/grad/init/{i}"] = s.grad.numpy()
    for key, value in layer.state_dict().items():
        if value.grad is not None:
            data[f"{prefix}/grad/param/{key}"] = value.grad.numpy()


def record_layers(data: dict, meta: dict) -> None:
    for name, (cls, kwargs, dtype, batch, steps, with_init, lengths) in LAYER_CASES.items():
        paddle.set_default_dtype(dtype)
        paddle.seed(7)
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        layer = getattr(paddle.nn, cls)(**kwargs)
        layer.train()
        time_major = kwargs.get("time_major", False)
        size = kwargs["input_size"]
        shape = (steps, batch, size) if time_major else (batch, steps, size)
        inputs = rng.standard_normal(shape).astype(dtype)
        directions = 2 if kwargs.get("direction", "forward") != "forward" else 1
        count = kwargs.get("num_layers", 1) * directions
        initial = None
        if with_init:
            n_states = 2 if cls == "LSTM" else 1
            initial = [
                rng.standard_normal((count, batch, kwargs["hidden_size"])).astype(dtype)
                for _ in range(n_states)
            ]
        _record(data, name, layer, inputs, initial, lengths, rng, dtype)
        meta[name] = {"class": cls, "kwargs": kwargs, "dtype": dtype}
    paddle.set_default_dtype("float32")


def record_cells(data: dict, meta: dict) -> None:
    paddle.set_default_dtype("float64")
    for name, (cls, size, hidden, batch) in CELL_CASES.items():
        paddle.seed(11)
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        cell = getattr(paddle.nn, cls)(size, hidden)
        x = paddle.to_tensor(rng.standard_normal((batch, size)), stop_gradient=False)
        n_states = 2 if cls == "LSTMCell" else 1
        init = [
            paddle.to_tensor(rng.standard_normal((batch, hidden)), stop_gradient=False)
            for _ in range(n_states)
        ]
        for key, value in cell.state_dict().items():
            data[f"{name}/param/{key}"] = value.numpy()
        data[f"{name}/x"] = x.numpy()
        for i, s in enumerate(init):
            data[f"{name}/init/{i}"] = s.numpy()
        out, states = cell(x, tuple(init) if n_states == 2 else init[0])
        states = _states_tuple(states)
        data[f"{name}/out"] = out.numpy()
        loss = (out * out).sum()
        for i, s in enumerate(states):
            data[f"{name}/state/{i}"] = s.numpy()
            loss = loss + (s * s * s).sum()
        loss.backward()
        data[f"{name}/grad/x"] = x.grad.numpy()
        for i, s in enumerate(init):
            data[f"{name}/grad/init/{i}"] = s.grad.numpy()
        for key, value in cell.state_dict().items():
            data[f"{name}/grad/param/{key}"] = value.grad.numpy()
        meta[name] = {"class": cls, "input_size": size, "hidden_size": hidden}
    paddle.set_default_dtype("float32")


def record_wrappers(data: dict, meta: dict) -> None:
    paddle.set_default_dtype("float64")
    for name, spec in WRAPPER_CASES.items():
        wrapper, cls, size, hidden, batch, steps, lengths, time_major, reverse = spec
        paddle.seed(13)
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        if wrapper == "RNN":
            layer = paddle.nn.RNN(
                getattr(paddle.nn, cls)(size, hidden), is_reverse=reverse, time_major=time_major
            )
        else:
            layer = paddle.nn.BiRNN(
                getattr(paddle.nn, cls)(size, hidden),
                getattr(paddle.nn, cls)(size, hidden),
                time_major=time_major,
            )
        shape = (steps, batch, size) if time_major else (batch, steps, size)
        inputs = rng.standard_normal(shape)
        _record(data, name, layer, inputs, None, lengths, rng, "float64")
        meta[name] = {
            "wrapper": wrapper, "class": cls, "input_size": size, "hidden_size": hidden,
            "time_major": time_major, "is_reverse": reverse,
        }
    paddle.set_default_dtype("float32")


def record_op_shapes(meta: dict) -> None:
    """The shapes and dtypes of the rnn op's dropout_state output in training and inference."""
    x = paddle.randn([4, 2, 3])
    h = paddle.zeros([2, 2, 5])
    c = paddle.zeros([2, 2, 5])
    layer = paddle.nn.LSTM(3, 5, num_layers=2, time_major=True, dropout=0.5)
    shapes = {}
    for training in (True, False):
        _, dropout_state, _ = paddle._C_ops.rnn(
            x, [h, c], layer._all_weights, None, layer._dropout_state, 0.5, False, 3, 5, 2,
            "LSTM", 0, not training,
        )
        mask = dropout_state.numpy()
        shapes["train" if training else "test"] = {
            "shape": list(mask.shape),
            "dtype": str(mask.dtype),
            "values": sorted({int(v) for v in np.unique(mask)}),
        }
    meta["op_dropout_state"] = shapes


def record_saved_model() -> None:
    paddle.set_default_dtype("float32")
    paddle.seed(3)
    layer = paddle.nn.LSTM(3, 4, num_layers=2)
    layer.eval()
    spec = [paddle.static.InputSpec([2, 5, 3], "float32", "x")]
    paddle.jit.save(layer, str(OUT / "lstm_model"), input_spec=spec)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 5, 3)).astype("float32")
    out, (h, c) = layer(paddle.to_tensor(x))
    params = {f"param/{k}": v.numpy() for k, v in layer.state_dict().items()}
    np.savez(OUT / "lstm_model_io.npz", x=x, out=out.numpy(), h=h.numpy(), c=c.numpy(), **params)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    data: dict = {}
    meta: dict = {"paddle": paddle.__version__}
    record_layers(data, meta)
    record_cells(data, meta)
    record_wrappers(data, meta)
    record_op_shapes(meta)
    np.savez_compressed(OUT / "cases.npz", **data)
    (OUT / "cases.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    record_saved_model()
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    os.environ.setdefault("FLAGS_use_mkldnn", "0")
    main()
