"""The lstm24 ops of issue 24: lstm (dynamic_lstm) and gru (dynamic_gru), PaddlePaddle 3.3.1's
legacy LoD recurrent ops, for every registered dtype against numpy references written here one
sequence and one step at a time (no batching), their batch-order intermediates and LoDs, their
gradients against finite differences of the references, and their edges and bad input.
tests/ops/test_lstm24_paddle.py compares 3.3.1's recorded results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

OPS = ("lstm", "gru")
GRADS = ("lstm_grad", "gru_grad")
LOD = [[0, 3, 4, 4, 6]]  # four sequences of 3, 1, 0 and 2 rows
D = 2


def values(shape: tuple[int, ...], seed: int, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def lod_tensor(array: np.ndarray, lod: list[list[int]], stop_gradient: bool = True) -> phiops.Tensor:
    tensor = phi.to_tensor(array)
    tensor.stop_gradient = stop_gradient
    tensor.set_lod(lod)
    return tensor


def plain(array: np.ndarray | None, stop_gradient: bool = True) -> phiops.Tensor | None:
    if array is None:
        return None
    tensor = phi.to_tensor(array)
    tensor.stop_gradient = stop_gradient
    return tensor


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


ACTS = {"sigmoid": sigmoid, "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0), "identity": lambda x: x}


def lstm_reference(x, h0, c0, w, b, offsets, peep=True, reverse=False, acts=("sigmoid", "tanh", "tanh")):
    gate_act, cell_act, cand_act = (ACTS[a] for a in acts)
    hidden, cell = np.zeros((x.shape[0], D)), np.zeros((x.shape[0], D))
    b = b.reshape(-1)
    for s, (begin, end) in enumerate(zip(offsets, offsets[1:])):
        h = np.zeros(D) if h0 is None else h0[s].astype(np.float64)
        c = np.zeros(D) if c0 is None else c0[s].astype(np.float64)
        rows = range(end - 1, begin - 1, -1) if reverse else range(begin, end)
        for row in rows:
            g = x[row] + b[: 4 * D] + h @ w
            wi, wf, wo = (b[4 * D : 5 * D], b[5 * D : 6 * D], b[6 * D :]) if peep else (0, 0, 0)
            i = gate_act(g[D : 2 * D] + c * wi)
            f = gate_act(g[2 * D : 3 * D] + c * wf)
            c = cand_act(g[:D]) * i + c * f
            o = gate_act(g[3 * D :] + c * wo)
            h = o * cell_act(c)
            hidden[row], cell[row] = h, c
    return hidden, cell


def gru_reference(x, h0, w, b, offsets, reverse=False, origin=False, acts=("tanh", "sigmoid")):
    act, gate_act = (ACTS[a] for a in acts)
    w_gate, w_cand = w.reshape(-1)[: 2 * D * D].reshape(D, 2 * D), w.reshape(-1)[2 * D * D :].reshape(D, D)
    bias = np.zeros(3 * D) if b is None else b.reshape(-1)
    hidden = np.zeros((x.shape[0], D))
    for s, (begin, end) in enumerate(zip(offsets, offsets[1:])):
        h = np.zeros(D) if h0 is None else h0[s].astype(np.float64)
        rows = range(end - 1, begin - 1, -1) if reverse else range(begin, end)
        for row in rows:
            g = x[row] + bias
            u = gate_act(g[:D] + h @ w_gate[:, :D])
            r = gate_act(g[D : 2 * D] + h @ w_gate[:, D:])
            cand = act(g[2 * D :] + (r * h) @ w_cand)
            h = u * h + (1 - u) * cand if origin else (1 - u) * h + u * cand
            hidden[row] = h
    return hidden


def lstm_inputs(dtype: str, peep: bool = True, initial: bool = True, seed: int = 0):
    x = values((6, 4 * D), seed + 1, dtype)
    w = values((D, 4 * D), seed + 2, dtype)
    b = values((1, (7 if peep else 4) * D), seed + 3, dtype)
    h0 = values((4, D), seed + 4, dtype) if initial else None
    c0 = values((4, D), seed + 5, dtype) if initial else None
    return x, h0, c0, w, b


def gru_inputs(dtype: str, initial: bool = True, bias: bool = True, seed: int = 10):
    x = values((6, 3 * D), seed + 1, dtype)
    w = values((D, 3 * D), seed + 2, dtype)
    b = values((1, 3 * D), seed + 3, dtype) if bias else None
    h0 = values((4, D), seed + 4, dtype) if initial else None
    return x, h0, w, b


def numeric_grad(f, arrays: list[np.ndarray], eps: float = 1e-6) -> list[np.ndarray]:
    grads = []
    for a in arrays:
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            keep = a[idx]
            a[idx] = keep + eps
            up = f()
            a[idx] = keep - eps
            down = f()
            a[idx] = keep
            g[idx] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- lstm ---------------------------------------------------------------------------------------


@op_test("lstm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lstm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("peep, reverse, initial", [(True, False, True), (False, True, False)], ids=["peep-h0", "reverse"])
def test_lstm_matches_the_definition(dtype: DataType, peep: bool, reverse: bool, initial: bool) -> None:
    np_dtype = dtype.name.lower()
    x, h0, c0, w, b = lstm_inputs(np_dtype, peep, initial)
    hidden, cell = C.lstm(lod_tensor(x, LOD), plain(h0), plain(c0), plain(w), plain(b), peep, reverse, False, "sigmoid", "tanh", "tanh")
    want_h, want_c = lstm_reference(x, h0, c0, w, b, LOD[0], peep, reverse)
    tol = 1e-5 if np_dtype == "float32" else 1e-12
    for got, want in ((hidden, want_h), (cell, want_c)):
        assert got.dtype == dtype and got.shape == [6, D] and got.lod() == LOD
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_lstm_batch_outputs_are_in_length_order_with_paddles_lod() -> None:
    x, h0, c0, w, b = lstm_inputs("float64")
    args = (lod_tensor(x, LOD), plain(h0), plain(c0), plain(w), plain(b))
    assert OP_DEFS["lstm"].intermediate == ("batch_gate", "batch_cell_pre_act")
    hidden, cell, batch_gate, cell_act = OP_DEFS["lstm"].dispatcher.call(args, (True, True, False, "sigmoid", "tanh", "tanh"))
    # sorted by length, longest first: sequences 0 (3 rows), 3 (2), 1 (1), 2 (empty); reversed:
    # step 0 is each sequence's last row
    assert batch_gate.lod() == [[0, 3, 5, 6], [2, 5, 3, 1, 4, 0], [0, 3, 1, 2]]
    assert batch_gate.shape == [6, 4 * D] and cell_act.lod() == []
    index = [2, 5, 3, 1, 4, 0]
    np.testing.assert_allclose(cell_act.numpy(), np.tanh(cell.numpy()[index]), rtol=1e-12)
    # the activated output gate times tanh(cell) is the hidden state
    np.testing.assert_allclose(batch_gate.numpy()[:, 3 * D :] * cell_act.numpy(), hidden.numpy()[index], rtol=1e-12)


@op_test("lstm", kind="edge")
@pytest.mark.parametrize("acts", [("sigmoid", "relu", "identity"), ("tanh", "sigmoid", "relu")])
def test_lstm_other_activations(acts: tuple[str, str, str]) -> None:
    x, h0, c0, w, b = lstm_inputs("float64", seed=20)
    hidden, cell = C.lstm(lod_tensor(x, LOD), plain(h0), plain(c0), plain(w), plain(b), True, False, True, *acts)
    want_h, want_c = lstm_reference(x, h0, c0, w, b, LOD[0], True, False, acts)
    np.testing.assert_allclose(hidden.numpy(), want_h, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cell.numpy(), want_c, rtol=1e-12, atol=1e-12)


def test_lstm_grad_matches_finite_differences() -> None:
    x, h0, c0, w, b = lstm_inputs("float64", seed=30)
    weight_h = values((6, D), 35)
    tensors = [lod_tensor(x, LOD, False), plain(h0, False), plain(c0, False), plain(w, False), plain(b, False)]
    hidden, cell = C.lstm(*tensors, True, True, False, "sigmoid", "tanh", "tanh")
    grads = phiops.grad([hidden], tensors, [phi.to_tensor(weight_h)])
    assert grads[0].lod() == LOD
    arrays = [x, h0, c0, w, b]
    want = numeric_grad(lambda: float((lstm_reference(*arrays, LOD[0], True, True)[0] * weight_h).sum()), arrays)
    for got, expected in zip(grads, want):
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6, atol=1e-8)


def test_lstm_of_no_rows_gives_empty_outputs() -> None:
    x, _, _, w, b = lstm_inputs("float64")
    hidden, cell = C.lstm(lod_tensor(x[:0], [[0, 0]]), None, None, plain(w), plain(b), True, False, False, "sigmoid", "tanh", "tanh")
    assert hidden.shape == [0, D] and cell.shape == [0, D]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"lod": None}, "argument 'input' carries no LoD"),
        ({"lod": [[0, 2], [0, 1, 6]]}, "2 levels, at most 1"),
        ({"x": np.zeros((6, 7))}, "argument 'input' must have 4 \\* D columns"),
        ({"w": np.zeros((D, 3 * D))}, "argument 'weight' must have 8"),
        ({"b": np.zeros((1, 4 * D))}, "argument 'bias' must have 14 \\(7 \\* D with use_peepholes"),
        ({"h0": np.zeros((4, D)), "c0": None}, "'h0' and 'c0' must be given together"),
        ({"h0": np.zeros((3, D)), "c0": np.zeros((3, D))}, "argument 'h0' must have one row per sequence"),
        ({"acts": ("softmax", "tanh", "tanh")}, "argument 'gate_activation' must be one of"),
    ],
)
def test_lstm_refuses_bad_input(change: dict, message: str) -> None:
    x, _, _, w, b = lstm_inputs("float64")
    parts = {"x": x, "lod": LOD, "h0": None, "c0": None, "w": w, "b": b, "acts": ("sigmoid", "tanh", "tanh")}
    parts.update(change)
    tensor = phi.to_tensor(parts["x"])
    if parts["lod"] is not None:
        tensor.set_lod(parts["lod"])
    with pytest.raises(InvalidArgumentError, match=f"lstm\\(\\): .*{message}"):
        C.lstm(tensor, plain(parts["h0"]), plain(parts["c0"]), plain(parts["w"]), plain(parts["b"]), True, False, False, *parts["acts"])


# -- gru ----------------------------------------------------------------------------------------


@op_test("gru", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gru"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("reverse, origin, initial", [(False, False, True), (True, True, False)], ids=["h0", "reverse-origin"])
def test_gru_matches_the_definition(dtype: DataType, reverse: bool, origin: bool, initial: bool) -> None:
    np_dtype = dtype.name.lower()
    x, h0, w, b = gru_inputs(np_dtype, initial)
    hidden = C.gru(lod_tensor(x, LOD), plain(h0), plain(w), plain(b), "tanh", "sigmoid", reverse, origin, False)
    tol = 1e-5 if np_dtype == "float32" else 1e-12
    assert hidden.dtype == dtype and hidden.shape == [6, D] and hidden.lod() == LOD
    np.testing.assert_allclose(hidden.numpy(), gru_reference(x, h0, w, b, LOD[0], reverse, origin), rtol=tol, atol=tol)


@op_test("gru", kind="edge")
def test_gru_without_bias_and_its_batch_outputs() -> None:
    x, h0, w, _ = gru_inputs("float64", bias=False)
    args = (lod_tensor(x, LOD), plain(h0), plain(w), None)
    assert OP_DEFS["gru"].intermediate == ("batch_gate", "batch_reset_hidden_prev", "batch_hidden")
    gate, reset, batch_hidden, hidden = OP_DEFS["gru"].dispatcher.call(args, ("relu", "sigmoid", False, False, False))
    np.testing.assert_allclose(hidden.numpy(), gru_reference(x, h0, w, None, LOD[0], acts=("relu", "sigmoid")), rtol=1e-12)
    assert gate.lod() == batch_hidden.lod() == [[0, 3, 5, 6], [0, 4, 3, 1, 5, 2], [0, 3, 1, 2]]
    assert reset.lod() == []
    np.testing.assert_allclose(batch_hidden.numpy(), hidden.numpy()[[0, 4, 3, 1, 5, 2]], rtol=1e-12)


def test_gru_grad_matches_finite_differences() -> None:
    x, h0, w, b = gru_inputs("float64", seed=40)
    weight_h = values((6, D), 45)
    tensors = [lod_tensor(x, LOD, False), plain(h0, False), plain(w, False), plain(b, False)]
    hidden = C.gru(*tensors, "tanh", "sigmoid", True, True, False)
    grads = phiops.grad([hidden], tensors, [phi.to_tensor(weight_h)])
    arrays = [x, h0, w, b]
    want = numeric_grad(lambda: float((gru_reference(*arrays, LOD[0], True, True) * weight_h).sum()), arrays)
    for got, expected in zip(grads, want):
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"lod": None}, "argument 'input' carries no LoD"),
        ({"x": np.zeros((6, 5))}, "argument 'input' must have 6 \\(3 \\* D"),
        ({"w": np.zeros((D, 2 * D))}, "argument 'weight' must have 6"),
        ({"b": np.zeros((1, 2 * D))}, "argument 'bias' must have 6"),
        ({"h0": np.zeros((2, D))}, "argument 'h0' must have one row per sequence"),
        ({"acts": ("tanh", "gelu")}, "argument 'gate_activation' must be one of"),
    ],
)
def test_gru_refuses_bad_input(change: dict, message: str) -> None:
    x, _, w, b = gru_inputs("float64")
    parts = {"x": x, "lod": LOD, "h0": None, "w": w, "b": b, "acts": ("tanh", "sigmoid")}
    parts.update(change)
    tensor = phi.to_tensor(parts["x"])
    if parts["lod"] is not None:
        tensor.set_lod(parts["lod"])
    with pytest.raises(InvalidArgumentError, match=f"gru\\(\\): .*{message}"):
        C.gru(tensor, plain(parts["h0"]), plain(parts["w"]), plain(parts["b"]), *parts["acts"], False, False, False)
