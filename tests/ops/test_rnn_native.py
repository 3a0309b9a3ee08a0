"""The rnn op's steps through the optional compiled kernels (runtime/kernels/csrc/rnn.h:
``rnn_sequence``, a layer's whole loop with its own h W_hh^T products, ``rnn_cell``, one step's
gate arithmetic after a BLAS product, and ``rnn_sequence_grad``, the whole loop back for the
sizes ``rnn_sequence`` takes) and through the numpy code (FLAGS_use_native_kernels off): each
path against the float64 step-by-step reference of tests/ops/test_rnn.py, and the native paths
against the numpy one, forward outputs, last states and the gradients rnn_grad computes.

The paths are not bit for bit the same: the C code uses the C library's expf/tanhf (exp/tanh)
where numpy has its own SIMD versions, and sums the products in its own order (16 partial sums
forward, row by row back) where BLAS has its. The agreement stated and checked: within 2e-6
(float32) and 1e-14 (float64) relative to the larger of 1 and the value (measured: 5.8e-7 and
8.9e-16 on these cases), gradients within 8 times that (measured: 1.9e-6 and 4.3e-15)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.kernels import native
from phiops.runtime.kernels.impl import rnn_grad_kernel, rnn_kernel
from tests.ops.op_testing import tolerance
from tests.ops.test_rnn import GATES, call, make_inputs, reference

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
HAS_RNN = native.NATIVE_BUILT and hasattr(native._native, "rnn_sequence")

AGREEMENT = {DataType.FLOAT32: 2e-6, DataType.FLOAT64: 1e-14}

# (layers, bidirectional, lengths or a batch size, hidden): batch 1 and 3, masking, hidden sizes
# below, at and past the 16 partial sums of rnn_sequence's products
CONFIGS = {
    "l2-bi-seq-h4": (2, True, [4, 2, 3], 4),
    "l1-fw-b1-h5": (1, False, 1, 5),
    "l2-fw-seq-h20": (2, False, [1, 4], 20),
    "l1-bi-b3-h16": (1, True, 3, 16),
}
PATHS = ["numpy", "sequence", "cell"]


def _run_on(path: str, monkeypatch: pytest.MonkeyPatch, fn):
    """fn() with the forward steps on ``path``."""
    if path != "numpy" and not HAS_RNN:
        pytest.skip(NOT_BUILT)
    with monkeypatch.context() as patch:
        patch.setattr(rnn_kernel, "SEQUENCE_MAX_WORK", (1 << 62) if path == "sequence" else -1)
        with flags.flags_guard({"use_native_kernels": path != "numpy"}):
            return fn()


def _inputs(mode: str, dtype: DataType, config: str):
    layers, bidirec, lengths, hidden = CONFIGS[config]
    batch = len(lengths) if isinstance(lengths, list) else lengths
    x, states, weights = make_inputs(
        mode, dtype, layers, bidirec, steps=4, batch=batch, input_size=3, hidden=hidden, seed=hidden
    )
    return x, states, weights, (lengths if isinstance(lengths, list) else None), layers, bidirec


def _forward(mode, dtype, config, path, monkeypatch):
    x, states, weights, lengths, layers, bidirec = _inputs(mode, dtype, config)

    def run():
        out, _, state = call(mode, x, states, weights, lengths, layers, bidirec)
        return out.numpy(), [s.numpy() for s in state]

    return _run_on(path, monkeypatch, run), reference(
        mode, x, states, weights, lengths, layers, bidirec
    )


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", list(GATES))
@pytest.mark.parametrize("dtype", [DataType.FLOAT32, DataType.FLOAT64], ids=["float32", "float64"])
def test_each_path_matches_the_reference(dtype, mode, config, path, monkeypatch) -> None:
    (out, state), (want_out, want_state) = _forward(mode, dtype, config, path, monkeypatch)
    assert out.dtype == dtype.numpy_dtype
    np.testing.assert_allclose(out, want_out, **tolerance(dtype))
    for got, want in zip(state, want_state, strict=True):
        np.testing.assert_allclose(got, want, **tolerance(dtype))
    lengths = CONFIGS[config][2]
    if isinstance(lengths, list):  # the padded steps' outputs are exactly 0
        for b, length in enumerate(lengths):
            assert (out[length:, b] == 0).all()


def _agree(got: np.ndarray, want: np.ndarray, dtype: DataType, what: str) -> None:
    scale = np.maximum(np.abs(want.astype(np.float64)), 1.0)
    worst = (np.abs(got.astype(np.float64) - want) / scale).max(initial=0.0)
    assert worst <= AGREEMENT[dtype], f"{what}: native and numpy differ by {worst:.3g}"


@pytest.mark.skipif(not HAS_RNN, reason=NOT_BUILT)
@pytest.mark.parametrize("path", ["sequence", "cell"])
@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", list(GATES))
@pytest.mark.parametrize("dtype", [DataType.FLOAT32, DataType.FLOAT64], ids=["float32", "float64"])
def test_native_paths_agree_with_the_numpy_path(dtype, mode, config, path, monkeypatch) -> None:
    (out, state), _ = _forward(mode, dtype, config, path, monkeypatch)
    (want_out, want_state), _ = _forward(mode, dtype, config, "numpy", monkeypatch)
    _agree(out, want_out, dtype, "out")
    for k, (got, want) in enumerate(zip(state, want_state, strict=True)):
        _agree(got, want, dtype, f"state[{k}]")


def _gradients(mode, dtype, config, path, monkeypatch) -> list[np.ndarray]:
    x, states, weights, lengths, layers, bidirec = _inputs(mode, dtype, config)
    hidden = states[0].shape[2]
    rng = np.random.default_rng(3)

    def run():
        leaves = [phi.to_tensor(a, stop_gradient=False) for a in [x, *states, *weights]]
        n = len(states)
        out, _, state = phi.rnn(
            leaves[0], leaves[1 : 1 + n], leaves[1 + n :],
            None if lengths is None else phi.to_tensor(np.asarray(lengths, dtype=np.int64)),
            phi.zeros([0], "uint8"), 0.0, bidirec, x.shape[-1], hidden, layers, mode, 0, False,
        )  # fmt: skip
        loss = None
        for o in [out, *state]:
            w = phi.to_tensor(rng.standard_normal(o.shape).astype(o.numpy().dtype))
            term = phi.sum(phi.multiply(o, w))
            loss = term if loss is None else phi.add(loss, term)
        return [g.numpy() for g in phi.grad(loss, leaves)]

    return _run_on(path, monkeypatch, run)


@pytest.mark.skipif(not HAS_RNN, reason=NOT_BUILT)
@pytest.mark.parametrize("path", ["sequence", "cell"])
@pytest.mark.parametrize("config", ["l2-bi-seq-h4", "l2-fw-seq-h20"])
@pytest.mark.parametrize("mode", list(GATES))
@pytest.mark.parametrize("dtype", [DataType.FLOAT32, DataType.FLOAT64], ids=["float32", "float64"])
def test_gradients_agree_between_the_paths(dtype, mode, config, path, monkeypatch) -> None:
    """rnn_grad recomputes the forward keeping its per-step values (h before each step, the
    activated gates, c, GRU's h W_hc^T + b_hc): the native paths write the same ones."""
    got = _gradients(mode, dtype, config, path, monkeypatch)
    want = _gradients(mode, dtype, config, "numpy", monkeypatch)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        # gradients sum over steps and rows: a few times the forward's agreement
        scale = np.maximum(np.abs(w.astype(np.float64)), 1.0)
        worst = (np.abs(g.astype(np.float64) - w) / scale).max(initial=0.0)
        assert worst <= 8 * AGREEMENT[dtype], f"gradient {k}: paths differ by {worst:.3g}"


@pytest.mark.skipif(not HAS_RNN, reason=NOT_BUILT)
def test_the_step_loop_is_chosen_by_the_size_of_the_hidden_product(monkeypatch) -> None:
    """Small h W_hh^T products run the whole loop in C; larger ones one BLAS call and one
    rnn_cell call per step."""
    calls: list[str] = []
    real = native.native_function

    def spy(x, name):
        function = real(x, name)
        if function is None:
            return None

        def wrapper(*args):
            calls.append(name)
            return function(*args)

        return wrapper

    monkeypatch.setattr(rnn_kernel, "native_function", spy)
    x, states, weights = make_inputs("LSTM", DataType.FLOAT32, 1, False, steps=3, batch=1, hidden=8)
    call("LSTM", x, states, weights)
    assert calls == ["rnn_sequence"]  # 4 * 8 * 8 = 256 multiply-adds a step
    calls.clear()
    monkeypatch.setattr(rnn_grad_kernel, "native_function", spy)
    leaves = [phi.to_tensor(a, stop_gradient=False) for a in [x, *states, *weights]]
    out, _, _ = phi.rnn(leaves[0], leaves[1:3], leaves[3:], None, phi.zeros([0], "uint8"),
                        0.0, False, 3, 8, 1, "LSTM", 0, False)  # fmt: skip
    phi.grad(phi.sum(out), leaves)
    # the forward, the grad kernel's recomputation of it, then the steps back
    assert calls == ["rnn_sequence", "rnn_sequence", "rnn_sequence_grad"]
    calls.clear()
    monkeypatch.setattr(rnn_kernel, "SEQUENCE_MAX_WORK", 255)
    call("LSTM", x, states, weights)
    assert calls == ["rnn_cell"] * 3
    calls.clear()
    phi.grad(
        phi.sum(
            phi.rnn(leaves[0], leaves[1:3], leaves[3:], None, phi.zeros([0], "uint8"),
                    0.0, False, 3, 8, 1, "LSTM", 0, False)[0]  # fmt: skip
        ),
        leaves,
    )
    assert calls == ["rnn_cell"] * 6  # no rnn_sequence_grad: the numpy steps back


@pytest.mark.skipif(not HAS_RNN, reason=NOT_BUILT)
def test_the_extension_refuses_wrong_buffers() -> None:
    n = native._native
    batch, hidden = 2, 3
    f32 = lambda *shape: np.zeros(shape, np.float32)  # noqa: E731

    def sequence(**change):
        args = dict(
            mode=0, steps=2, batch=batch, hidden=hidden, pre=f32(2, batch, 4 * hidden),
            w_hh=f32(4 * hidden, hidden), bhc=None, h=f32(batch, hidden), c=f32(batch, hidden),
            valid=None, reverse=False, out=f32(2, batch, hidden), out_offset=0, out_width=hidden,
        )  # fmt: skip
        args.update(change)
        n.rnn_sequence(*args.values(), None, None, None, None, None)

    sequence()  # the valid call runs
    with pytest.raises(ValueError, match="mode"):
        sequence(mode=4)
    with pytest.raises(TypeError, match="format"):
        sequence(pre=np.zeros((2, batch, 4 * hidden), np.int32))
    with pytest.raises(TypeError, match="format"):
        sequence(w_hh=np.zeros((4 * hidden, hidden), np.float64))
    with pytest.raises(ValueError, match="w_hh: expected 36 elements"):
        sequence(w_hh=f32(3 * hidden, hidden))
    with pytest.raises(ValueError, match="out_offset"):
        sequence(out_offset=1)
    with pytest.raises(TypeError):  # LSTM needs c
        sequence(c=None)
    with pytest.raises(TypeError):  # GRU needs its candidate bias
        sequence(mode=1, pre=f32(2, batch, 3 * hidden), w_hh=f32(3 * hidden, hidden))
    with pytest.raises(ValueError, match="h: expected"):
        n.rnn_cell(2, batch, hidden, f32(batch, hidden), f32(batch, hidden), None,
                   f32(batch + 1, hidden), None, None, f32(batch, hidden), 0, hidden,
                   None, None, None, None, None)  # fmt: skip
    with pytest.raises(ValueError, match="read-only"):  # h is written
        h = f32(batch, hidden)
        h.flags.writeable = False
        n.rnn_cell(2, batch, hidden, f32(batch, hidden), f32(batch, hidden), None, h, None,
                   None, f32(batch, hidden), 0, hidden, None, None, None, None, None)  # fmt: skip


@pytest.mark.skipif(not HAS_RNN, reason=NOT_BUILT)
def test_rnn_sequence_grad_refuses_wrong_buffers() -> None:
    n = native._native
    steps, batch, hidden = 2, 2, 3
    f32 = lambda *shape: np.zeros(shape, np.float32)  # noqa: E731
    per_step = (steps, batch, hidden)

    def grad(**change):
        args = dict(
            mode=1, steps=steps, batch=batch, hidden=hidden, w_hh=f32(3 * hidden, hidden),
            valid=None, reverse=False, d_out=f32(steps, batch, 2 * hidden), d_offset=hidden,
            d_width=2 * hidden, h_prev=f32(*per_step), gates=f32(steps, batch, 3 * hidden),
            c_prev=None, c_new=None, hc=f32(*per_step), dh=f32(batch, hidden), dc=None,
            d_pre=f32(steps, batch, 3 * hidden), d_hh=f32(steps, batch, 3 * hidden),
        )  # fmt: skip
        args.update(change)
        n.rnn_sequence_grad(*args.values())

    grad()  # the valid call runs
    with pytest.raises(ValueError, match="mode"):
        grad(mode=7)
    with pytest.raises(ValueError, match="out_offset"):
        grad(d_offset=hidden + 1)
    with pytest.raises(TypeError):  # GRU needs hc
        grad(hc=None)
    with pytest.raises(TypeError):  # and d_hh
        grad(d_hh=None)
    with pytest.raises(ValueError, match="gates: expected"):
        grad(gates=f32(steps, batch, 4 * hidden))
    with pytest.raises(TypeError, match="format"):
        grad(dh=np.zeros((batch, hidden)))
    with pytest.raises(TypeError):  # LSTM needs c_prev, c_new and dc
        grad(mode=0, w_hh=f32(4 * hidden, hidden), gates=f32(steps, batch, 4 * hidden),
             d_pre=f32(steps, batch, 4 * hidden))  # fmt: skip
