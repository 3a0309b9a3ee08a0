"""The rnn op in programs: an nn.LSTM saved by PaddlePaddle 3.3.1's ``paddle.jit.save``
(tests/data/rnn/lstm_model.json + .pdiparams, recorded by tests/tools/make_rnn_fixtures.py)
runs in phiops's Executor with PaddlePaddle's outputs; phiops's recurrent layers build into a
static program and run there as they do eagerly; jit.save/jit.load round-trips them."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.formats.inference_model import read_inference_model

nn = phi.nn
DATA = Path(__file__).resolve().parents[1] / "data" / "rnn"


@pytest.fixture(autouse=True)
def fresh_names() -> Iterator[None]:
    with phi.static.unique_name_guard():
        yield


def test_paddles_saved_lstm_runs_with_paddles_outputs() -> None:
    io = np.load(DATA / "lstm_model_io.npz")
    program, feeds, fetches, params = read_inference_model(DATA / "lstm_model")
    assert feeds == ["x"] and len(fetches) == 3
    assert [op.name for op in program.block.ops].count("pd_op.rnn") == 1
    # the non-persistable dropout-state buffer is not in .pdiparams; it starts empty
    [buffer] = [name for name in params if name.endswith("dropout_state__non_persistable")]
    assert params[buffer].dtype == np.uint8
    loaded = phi.jit.load(DATA / "lstm_model")
    out, h, c = loaded(phi.to_tensor(io["x"]))
    np.testing.assert_allclose(out.numpy(), io["out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), io["h"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), io["c"], rtol=1e-5, atol=1e-6)


def test_paddles_saved_parameters_load_into_a_phiops_lstm() -> None:
    io = np.load(DATA / "lstm_model_io.npz")
    lstm = nn.LSTM(3, 4, num_layers=2)
    state = {key[len("param/"):]: io[key] for key in io.files if key.startswith("param/")}
    assert lstm.set_state_dict(state) == ([], [])
    lstm.eval()
    out, (h, c) = lstm(phi.to_tensor(io["x"]))
    np.testing.assert_allclose(out.numpy(), io["out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), io["c"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.LSTM(3, 4, num_layers=2, direction="bidirect"),
        lambda: nn.GRU(3, 4, time_major=True),
        lambda: nn.SimpleRNN(3, 4, activation="relu", num_layers=2),
    ],
    ids=["lstm", "gru", "simple_rnn"],
)
def test_layers_build_into_a_program_and_run_as_eagerly(make) -> None:
    layer = make()
    layer.eval()
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    want_out, want_state = layer(phi.to_tensor(x))
    want_states = want_state if isinstance(want_state, tuple) else (want_state,)
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            out, state = layer(phi.static.data("x", [2, 5, 3], "float32"))
            states = state if isinstance(state, tuple) else (state,)
        scope = phi.static.Scope()
        executor = phi.static.Executor()
        executor.run(startup, scope=scope)
        results = executor.run(main, {"x": x}, [out, *states], scope=scope)
    finally:
        phi.disable_static()
    assert [op.name for op in main.block.ops].count("pd_op.rnn") == 1
    np.testing.assert_allclose(results[0], want_out.numpy(), rtol=1e-6, atol=1e-7)
    for got, want in zip(results[1:], want_states):
        np.testing.assert_allclose(got, want.numpy(), rtol=1e-6, atol=1e-7)


def test_jit_save_and_load_of_a_phiops_gru(tmp_path: Path) -> None:
    gru = nn.GRU(3, 4, num_layers=2)
    phi.jit.save(gru, tmp_path / "gru", [phi.static.InputSpec([2, 6, 3], "float32", "x")])
    gru.eval()
    x = np.random.default_rng(1).standard_normal((2, 6, 3)).astype(np.float32)
    want, h = gru(phi.to_tensor(x))
    got = phi.jit.load(tmp_path / "gru")(phi.to_tensor(x))
    np.testing.assert_allclose(got[0].numpy(), want.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got[1].numpy(), h.numpy(), rtol=1e-6, atol=1e-7)


def test_an_unknown_batch_without_initial_states_is_unimplemented() -> None:
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            with pytest.raises(UnimplementedError, match="batch size of 'inputs' is unknown"):
                nn.LSTM(3, 4)(phi.static.data("x", [None, 5, 3], "float32"))
    finally:
        phi.disable_static()


def test_jit_save_flattens_an_lstms_nested_outputs(tmp_path: Path) -> None:
    lstm = nn.LSTM(3, 4, direction="bidirect")
    phi.jit.save(lstm, tmp_path / "lstm", [phi.static.InputSpec([2, 6, 3], "float32", "x")])
    lstm.eval()
    x = np.random.default_rng(2).standard_normal((2, 6, 3)).astype(np.float32)
    out, (h, c) = lstm(phi.to_tensor(x))
    got = phi.jit.load(tmp_path / "lstm")(phi.to_tensor(x))
    assert len(got) == 3
    for loaded, want in zip(got, (out, h, c)):
        np.testing.assert_allclose(loaded.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)


def test_static_training_through_rnn_grad_follows_eager_training() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 5, 3)).astype(np.float32)
    y = rng.standard_normal((4, 2)).astype(np.float32)
    static_lstm = nn.LSTM(3, 2, direction="bidirect")
    eager_lstm = nn.LSTM(3, 2, direction="bidirect")
    eager_lstm.set_state_dict(static_lstm.state_dict())
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            xs = phi.static.data("x", [4, 5, 3], "float32")
            ys = phi.static.data("y", [4, 2], "float32")
            _, (h, _) = static_lstm(xs)
            diff = phi.mean(h, [0]) - ys
            loss = phi.mean(diff * diff)
            phi.optimizer.SGD(learning_rate=0.5).minimize(loss)
        assert "pd_op.rnn_grad" in [op.name for op in main.block.ops]
        scope = phi.static.Scope()
        executor = phi.static.Executor()
        executor.run(startup, scope=scope)
        static_losses = [
            float(executor.run(main, {"x": x, "y": y}, [loss], scope=scope)[0]) for _ in range(3)
        ]
    finally:
        phi.disable_static()
    optimizer = phi.optimizer.SGD(learning_rate=0.5, parameters=eager_lstm.parameters())
    eager_losses = []
    for _ in range(3):
        _, (h, _) = eager_lstm(phi.to_tensor(x))
        diff = phi.mean(h, [0]) - phi.to_tensor(y)
        loss = phi.mean(diff * diff)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        eager_losses.append(float(loss))
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-6)
    assert static_losses[-1] < static_losses[0]
