"""``phiops.Model`` and PaddlePaddle 3.3.1's ``paddle.Model`` side by side (runs only where
PaddlePaddle is installed): the same MLP, weights and data order trained by both ``fit`` give
the same per-epoch logs, printed lines (timings masked) and weights; each loads the other's
saved ``.pdparams``/``.pdopt``; ``summary``/``flops`` agree on the test nets."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.hapi import nets  # noqa: E402


def _train(lib, epochs=nets.EPOCHS, optimizer="sgd"):
    classes = nets.build(lib)
    xt, yt, xe, ye = nets.data()
    net = classes["MLP"]()
    net.set_state_dict({k: lib.to_tensor(v) for k, v in nets.weights().items()})
    model = lib.Model(net)
    if optimizer == "sgd":
        opt = lib.optimizer.SGD(learning_rate=nets.LR, parameters=model.parameters())
    else:
        opt = lib.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    model.prepare(opt, lib.nn.CrossEntropyLoss(), lib.metric.Accuracy())
    evals = []

    class Keep(lib.callbacks.Callback):
        def on_eval_end(self, logs=None):
            evals.append((float(logs["loss"][0]), float(logs["acc"])))

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(
            classes["Blobs"](xt, yt),
            classes["Blobs"](xe, ye),
            batch_size=nets.BATCH,
            epochs=epochs,
            shuffle=False,
            log_freq=2,
            callbacks=[Keep()],
        )
    return model, evals, out.getvalue()


def _mask(text):
    return [re.sub(r"\d+(s|ms|us)/step", "T/step", line) for line in text.splitlines()]


def test_fit_side_by_side():
    ours, our_evals, our_log = _train(phiops)
    theirs, their_evals, their_log = _train(paddle)
    np.testing.assert_allclose(our_evals, their_evals, rtol=1e-4, atol=1e-5)
    assert _mask(our_log) == _mask(their_log)
    for name, value in theirs.network.state_dict().items():
        np.testing.assert_allclose(
            ours.network.state_dict()[name].numpy(), value.numpy(), rtol=1e-4, atol=1e-5
        )


def test_each_loads_the_others_checkpoint(tmp_path):
    ours, _, _ = _train(phiops, epochs=1, optimizer="adam")
    theirs, _, _ = _train(paddle, epochs=1, optimizer="adam")
    ours.save(str(tmp_path / "ours"))
    theirs.save(str(tmp_path / "theirs"))
    fresh_paddle, _, _ = _train(paddle, epochs=1, optimizer="adam")
    # PaddlePaddle's optimizer asserts on accumulator names of other parameters (it does not
    # rename them, and a fresh network is named otherwise), so it loads the parameters only
    fresh_paddle.load(str(tmp_path / "ours"), reset_optimizer=True)
    fresh_ours, _, _ = _train(phiops, epochs=1, optimizer="adam")
    fresh_ours.load(str(tmp_path / "theirs"))
    for name, value in ours.network.state_dict().items():
        np.testing.assert_array_equal(
            fresh_paddle.network.state_dict()[name].numpy(), value.numpy()
        )
    for name, value in theirs.network.state_dict().items():
        np.testing.assert_array_equal(fresh_ours.network.state_dict()[name].numpy(), value.numpy())


@pytest.mark.parametrize("case", sorted(nets.SUMMARY_CASES))
def test_summary_and_flops_side_by_side(case):
    key, size = nets.SUMMARY_CASES[case]
    plain_int = paddle.Tensor.__int__  # see tests/tools/make_hapi_fixtures.py
    paddle.Tensor.__int__ = lambda t: int(t.numpy().reshape(-1)[0]) if t.size == 1 else plain_int(t)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            theirs = nets.build(paddle)[key]()
            their_counts = paddle.summary(theirs, size)
            their_flops = paddle.flops(theirs, list(size))
    finally:
        paddle.Tensor.__int__ = plain_int
    with contextlib.redirect_stdout(io.StringIO()):
        ours = nets.build(phiops)[key]()
        assert phiops.summary(ours, size) == {k: int(v) for k, v in their_counts.items()}
        assert phiops.flops(ours, list(size)) == their_flops


def test_the_fixtures_are_what_paddle_records_today(tmp_path, monkeypatch):
    import json
    from pathlib import Path

    from tests.tools import make_hapi_fixtures as fixtures

    monkeypatch.setattr(fixtures, "OUT", str(tmp_path))
    with contextlib.redirect_stdout(io.StringIO()):
        fixtures.main()
    committed = Path(__file__).resolve().parents[1] / "data" / "hapi"
    made_fit = json.loads((tmp_path / "fit.json").read_text())
    fit = json.loads((committed / "fit.json").read_text())
    assert made_fit["params"] == fit["params"]
    assert _mask(made_fit["log"]) == _mask(fit["log"])
    np.testing.assert_allclose(
        [e["loss"][0] for e in made_fit["evals"]], [e["loss"][0] for e in fit["evals"]], rtol=1e-6
    )
    made_summary = json.loads((tmp_path / "summary.json").read_text())
    summary = json.loads((committed / "summary.json").read_text())
    for case in summary:
        assert made_summary[case]["counts"] == summary[case]["counts"]
        assert made_summary[case]["flops"] == summary[case]["flops"]
