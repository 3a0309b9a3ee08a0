"""``phiops.Model`` against PaddlePaddle 3.3.1's recordings (tests/data/hapi/, written by
tests/tools/make_hapi_fixtures.py) and against the same training written by hand in phiops."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import (
    InvalidArgumentError,
    PreconditionNotMetError,
    UnimplementedError,
)
from tests.hapi import nets

DATA = Path(__file__).resolve().parents[1] / "data" / "hapi"
FIT = json.loads((DATA / "fit.json").read_text())
SUMMARY = json.loads((DATA / "summary.json").read_text())
CLASSES = nets.build(paddle)


def _datasets():
    xt, yt, xe, ye = nets.data()
    return CLASSES["Blobs"](xt, yt), CLASSES["Blobs"](xe, ye)


def _model(optimizer: str = "sgd", **kwargs):
    net = CLASSES["MLP"]()
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in nets.weights().items()})
    model = paddle.Model(net, **kwargs)
    if optimizer == "sgd":
        opt = paddle.optimizer.SGD(learning_rate=nets.LR, parameters=model.parameters())
    else:
        opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    return model


class Recorder(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls, self.epochs, self.evals = [], [], []
        self.params_seen = None

    def on_train_begin(self, logs=None):
        self.params_seen = dict(self.params)
        self.calls.append("train_begin")

    def on_train_end(self, logs=None):
        self.calls.append("train_end")

    def on_epoch_begin(self, epoch, logs=None):
        self.calls.append(f"epoch_begin {epoch}")

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(f"epoch_end {epoch}")
        self.epochs.append(dict(logs))

    def on_train_batch_begin(self, step, logs=None):
        self.calls.append(f"train_batch_begin {step}")

    def on_train_batch_end(self, step, logs=None):
        self.calls.append(f"train_batch_end {step}")

    def on_eval_begin(self, logs=None):
        self.calls.append(f"eval_begin {logs['steps']} {logs['metrics']}")

    def on_eval_batch_begin(self, step, logs=None):
        self.calls.append(f"eval_batch_begin {step}")

    def on_eval_batch_end(self, step, logs=None):
        self.calls.append(f"eval_batch_end {step}")

    def on_eval_end(self, logs=None):
        self.calls.append("eval_end")
        self.evals.append(dict(logs))


def _fit(model, *callbacks, epochs=nets.EPOCHS, **kwargs):
    train, evald = _datasets()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(
            train,
            evald,
            batch_size=nets.BATCH,
            epochs=epochs,
            shuffle=False,
            verbose=kwargs.pop("verbose", 2),
            log_freq=2,
            callbacks=list(callbacks),
            **kwargs,
        )
    return out.getvalue()


def _close(ours, theirs):
    assert set(ours) == set(theirs), (ours, theirs)
    for key, value in theirs.items():
        np.testing.assert_allclose(
            np.asarray(ours[key], float),
            np.asarray(value, float),
            rtol=1e-4,
            atol=1e-5,
            err_msg=key,
        )


def test_fit_matches_paddle_epoch_by_epoch():
    model, recorder = _model(), Recorder()
    _fit(model, recorder)
    assert recorder.params_seen == FIT["params"]
    assert len(recorder.epochs) == len(FIT["epochs"]) == nets.EPOCHS
    for ours, theirs in zip(recorder.epochs, FIT["epochs"]):
        _close(ours, theirs)
    for ours, theirs in zip(recorder.evals, FIT["evals"]):
        _close(ours, theirs)
    _close(model.evaluate(_datasets()[1], batch_size=nets.BATCH, verbose=0), FIT["evaluate"])
    predicted = model.predict(_datasets()[1], batch_size=nets.BATCH, stack_outputs=True, verbose=0)
    np.testing.assert_allclose(predicted[0], np.array(FIT["predict"]), rtol=1e-4, atol=1e-5)
    for name, value in model.network.state_dict().items():
        np.testing.assert_allclose(
            value.numpy(), np.array(FIT["final_weights"][name]), rtol=1e-4, atol=1e-5
        )
    assert FIT["evals"][-1]["acc"] >= 0.85  # the classifier learns


def test_fit_matches_hand_written_training():
    model = _model()
    _fit(model, verbose=0)
    net = CLASSES["MLP"]()
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in nets.weights().items()})
    opt = paddle.optimizer.SGD(learning_rate=nets.LR, parameters=net.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    xt, yt, xe, ye = nets.data()
    for _ in range(nets.EPOCHS):
        for start in range(0, len(xt), nets.BATCH):
            x = paddle.to_tensor(xt[start : start + nets.BATCH])
            y = paddle.to_tensor(yt[start : start + nets.BATCH])
            loss = loss_fn(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
    for name, value in net.state_dict().items():
        np.testing.assert_allclose(
            model.network.state_dict()[name].numpy(), value.numpy(), rtol=1e-6, atol=1e-7
        )
    hand_acc = float((net(paddle.to_tensor(xe)).numpy().argmax(1) == ye[:, 0]).mean())
    result = model.evaluate(_datasets()[1], batch_size=nets.BATCH, verbose=0)
    assert result["acc"] == pytest.approx(hand_acc)


def _mask(text):
    return [re.sub(r" - \d+(s|ms|us)/step$", " - <t>/step", line) for line in text.splitlines()]


def test_log_lines_match_paddle():
    printed = _fit(_model())
    assert _mask(printed) == _mask(FIT["log"])
    assert "Epoch 1/3" in printed and "Eval samples: 48" in printed
    assert re.search(
        r"^step 2/6 - loss: \d\.\d{4} - acc: \d\.\d{4} - \d+(ms|us|s)/step$", printed, re.M
    )


def test_progress_bar_verbose_1_and_3():
    printed = _fit(_model(), epochs=1, verbose=3)
    assert re.search(
        r"avg_reader_cost: \d+\.\d{5} sec - avg_batch_cost: \d+\.\d{5} sec - ips: \d+\.\d{5} samples/sec",
        printed,
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _model().evaluate(_datasets()[1], batch_size=nets.BATCH, verbose=1, log_freq=1)
    assert re.search(
        r"step 3/3 \[==============================\] - loss: \d\.\d{4}", out.getvalue()
    )


def test_callbacks_order_and_logs():
    recorder = Recorder()
    model = _model()
    train, evald = _datasets()
    with contextlib.redirect_stdout(io.StringIO()):
        model.fit(
            train,
            evald,
            batch_size=48,
            epochs=2,
            eval_freq=2,
            shuffle=False,
            verbose=0,
            callbacks=recorder,
        )
    assert recorder.calls == [
        "train_begin",
        "epoch_begin 0",
        "train_batch_begin 0",
        "train_batch_end 0",
        "train_batch_begin 1",
        "train_batch_end 1",
        "epoch_end 0",
        "eval_begin 1 ['loss', 'acc']",
        "eval_batch_begin 0",
        "eval_batch_end 0",
        "eval_end",
        "epoch_begin 1",
        "train_batch_begin 0",
        "train_batch_end 0",
        "train_batch_begin 1",
        "train_batch_end 1",
        "epoch_end 1",
        "train_end",
    ]
    assert set(recorder.epochs[0]) == {"loss", "acc", "step", "batch_size"}
    assert recorder.epochs[0]["step"] == 1 and recorder.epochs[0]["batch_size"] == 48
    assert isinstance(recorder.epochs[0]["loss"], list)


def test_early_stopping_stops_and_saves_best(tmp_path):
    stopper = paddle.callbacks.EarlyStopping(
        "loss", mode="min", patience=1, min_delta=10.0, save_best_model=True
    )
    recorder = Recorder()
    printed = _fit(_model(), stopper, recorder, epochs=5, verbose=0, save_dir=str(tmp_path))
    # the first evaluation is an improvement over inf; the second is not by min_delta: stop
    assert [c for c in recorder.calls if c.startswith("epoch_begin")] == [
        "epoch_begin 0",
        "epoch_begin 1",
    ]
    assert "Epoch 2: Early stopping." in printed
    assert (tmp_path / "best_model.pdparams").exists() and (tmp_path / "final.pdparams").exists()
    assert (tmp_path / "0.pdparams").exists() and (tmp_path / "1.pdparams").exists()
    acc = paddle.callbacks.EarlyStopping("acc")
    assert acc.monitor_op is np.greater


def test_lr_scheduler_callback_by_step_and_by_epoch():
    for by_epoch, expected in ((False, 6 * 2), (True, 2)):
        net = CLASSES["MLP"]()
        scheduler = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=1000)
        model = paddle.Model(net)
        model.prepare(
            paddle.optimizer.SGD(learning_rate=scheduler, parameters=net.parameters()),
            paddle.nn.CrossEntropyLoss(),
        )
        cb = paddle.callbacks.LRScheduler(by_step=not by_epoch, by_epoch=by_epoch)
        model.fit(_datasets()[0], batch_size=16, epochs=2, verbose=0, callbacks=[cb])
        assert scheduler.last_epoch == expected
    with pytest.raises(InvalidArgumentError, match="mutually exclusive"):
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)


def test_reduce_lr_on_plateau():
    model = _model()
    cb = paddle.callbacks.ReduceLROnPlateau(
        monitor="loss", factor=0.5, patience=1, min_delta=10.0, verbose=0
    )
    _fit(model, cb, epochs=2, verbose=0)
    assert model._optimizer.get_lr() == pytest.approx(nets.LR * 0.5)
    with pytest.raises(InvalidArgumentError, match="factor >= 1.0"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.5)


def test_save_load_round_trip(tmp_path):
    model = _model("adam")
    _fit(model, epochs=1, verbose=0)
    model.save(str(tmp_path / "ckpt" / "m"))
    assert (tmp_path / "ckpt" / "m.pdparams").exists() and (tmp_path / "ckpt" / "m.pdopt").exists()
    fresh = _model("adam")
    fresh.load(str(tmp_path / "ckpt" / "m"))
    for name, value in model.network.state_dict().items():
        np.testing.assert_array_equal(fresh.network.state_dict()[name].numpy(), value.numpy())
    # the accumulators, under the fresh network's parameter names
    ours, theirs = model._optimizer.state_dict(), fresh._optimizer.state_dict()
    names = {p.name: q.name for p, q in zip(model.network.parameters(), fresh.network.parameters())}
    for key, value in ours.items():
        for old, new in names.items():
            if key.startswith(old + "_"):
                np.testing.assert_array_equal(theirs[new + key[len(old) :]].numpy(), value.numpy())
    # the same next step from the restored state
    x, y = nets.data()[:2]
    a = model.train_batch([x[:16]], [y[:16]])[0][0]
    b = fresh.train_batch([x[:16]], [y[:16]])[0][0]
    np.testing.assert_allclose(a, b, rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        fresh.load(str(tmp_path / "missing"))


def test_load_paddle_saved_files():
    model = _model("adam")
    model.load(str(DATA / "adam.pdparams"))
    from phiops.runtime.formats import pdparams

    saved = pdparams.load(str(DATA / "adam.pdparams"))
    for name, value in model.network.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), np.asarray(saved[name]))
    opt_saved = pdparams.load(str(DATA / "adam.pdopt"))
    state = model._optimizer.state_dict()
    # PaddlePaddle's accumulators, renamed to this network's parameters
    names = {saved[k].name: p.name for k, p in model.network.state_dict().items()}
    moments = [k for k in opt_saved if "moment" in k or "pow_acc" in k]
    assert len(moments) == 4 * 4
    for key in moments:
        old = next(n for n in names if key.startswith(n + "_"))
        ours = state[names[old] + key[len(old) :]]
        np.testing.assert_allclose(ours.numpy(), np.asarray(opt_saved[key].numpy()), rtol=1e-6)


def test_load_skip_mismatch(tmp_path):
    model = _model()
    model.save(str(tmp_path / "m"))
    other = paddle.Model(paddle.nn.Linear(nets.N_FEATURES, 5))
    with pytest.raises(InvalidArgumentError, match="not found in the providing file"):
        other.load(str(tmp_path / "m"))
    with pytest.warns(UserWarning, match="Skip loading"):
        other.load(str(tmp_path / "m"), skip_mismatch=True)


def test_save_inference_model(tmp_path):
    spec = paddle.static.InputSpec([None, nets.N_FEATURES], "float32", "x")
    model = _model(inputs=[spec])
    model.save(str(tmp_path / "infer"), training=False)
    loaded = paddle.jit.load(str(tmp_path / "infer"))
    x = nets.data()[0][:4]
    np.testing.assert_allclose(
        np.asarray(loaded(paddle.to_tensor(x)).numpy()), model.predict_batch([x])[0], rtol=1e-5
    )
    with pytest.raises(PreconditionNotMetError, match="needs 'inputs'"):
        _model().save(str(tmp_path / "no"), training=False)


def test_predict_without_stacking_and_num_iters():
    model = _model()
    out = model.predict(_datasets()[1], batch_size=16, verbose=0)
    assert len(out) == 1 and len(out[0]) == 3 and out[0][0].shape == (16, nets.N_CLASSES)
    recorder = Recorder()
    _fit(model, recorder, epochs=3, verbose=0, num_iters=4)
    assert sum(c.startswith("train_batch_end") for c in recorder.calls) == 4


def test_accumulate_grad_batches_steps_every_other_batch():
    model = _model()
    model.fit(
        _datasets()[0], batch_size=16, epochs=1, shuffle=False, verbose=0, accumulate_grad_batches=2
    )
    net = CLASSES["MLP"]()
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in nets.weights().items()})
    opt = paddle.optimizer.SGD(learning_rate=nets.LR, parameters=net.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    xt, yt = nets.data()[:2]
    for i, start in enumerate(range(0, len(xt), 16)):
        loss_fn(
            net(paddle.to_tensor(xt[start : start + 16])), paddle.to_tensor(yt[start : start + 16])
        ).backward()
        if i % 2 == 1:
            opt.step()
            opt.clear_grad()
    for name, value in net.state_dict().items():
        np.testing.assert_allclose(
            model.network.state_dict()[name].numpy(), value.numpy(), rtol=1e-5, atol=1e-6
        )


def test_bad_input_errors():
    net = CLASSES["MLP"]()
    model = paddle.Model(net)
    with pytest.raises(PreconditionNotMetError, match="prepare"):
        model.fit(_datasets()[0])
    with pytest.raises(PreconditionNotMetError, match="prepare"):
        model.evaluate(_datasets()[1])
    with pytest.raises(InvalidArgumentError, match="train_data must be given"):
        _model().fit(None)
    with pytest.raises(InvalidArgumentError, match="could not be recognized"):
        model.prepare(amp_configs={"init_loss_scale": 1024.0})
    with pytest.raises(InvalidArgumentError, match="'O0', 'O1' or 'O2'"):
        model.prepare(amp_configs="O5")
    model.prepare(
        paddle.optimizer.SGD(parameters=net.parameters()),
        paddle.nn.CrossEntropyLoss(),
        amp_configs="O0",
    )
    with pytest.raises(InvalidArgumentError, match="Unknown postfix .txt"):
        model.load("weights.txt")
    with pytest.raises(InvalidArgumentError, match="not sub class of Metric"):
        model.prepare(metrics=[object()])
    with pytest.raises(InvalidArgumentError, match="loss"):
        model.prepare(loss=3)
    with pytest.raises(InvalidArgumentError, match="network"):
        paddle.Model(object())
    labels = [
        paddle.static.InputSpec([None, 1], "int64", "a"),
        paddle.static.InputSpec([None, 1], "int64", "b"),
    ]
    two_labels = _model(labels=labels)
    with pytest.raises(InvalidArgumentError, match="1 label\\(s\\), but the Model's labels are 2"):
        two_labels.fit(_datasets()[0], batch_size=16, verbose=0)
    with pytest.raises(InvalidArgumentError, match="batch_size"):
        _model().fit(_datasets()[0], batch_size=0)
    with pytest.raises(InvalidArgumentError, match="Dataset or a DataLoader"):
        _model().fit(3)
    with pytest.raises(UnimplementedError, match="visualdl"):
        paddle.callbacks.VisualDL("logs")
    with pytest.raises(UnimplementedError, match="wandb"):
        paddle.callbacks.WandbCallback()


def test_fit_with_a_dataloader():
    train, evald = _datasets()
    loader = paddle.io.DataLoader(train, batch_size=nets.BATCH, shuffle=False)
    model, recorder = _model(), Recorder()
    model.fit(
        loader,
        paddle.io.DataLoader(evald, batch_size=nets.BATCH),
        epochs=nets.EPOCHS,
        verbose=0,
        callbacks=recorder,
    )
    for ours, theirs in zip(recorder.evals, FIT["evals"]):
        _close(ours, theirs)


def _mask_indices(text):
    """The table's rows as words, the layer numbers (global counters) masked: their width
    moves the centred columns and the rulers' length (which then depend on how many layers
    the process made before), the rest must match."""
    return [
        re.sub(r"-\d+\b", "-N", line).split() if line.strip("-=") else [line[:1]]
        for line in text.splitlines()
    ]


@pytest.mark.parametrize("case", sorted(nets.SUMMARY_CASES))
def test_summary_and_flops_match_paddle(case):
    key, size = nets.SUMMARY_CASES[case]
    recorded = SUMMARY[case]
    net = CLASSES[key]()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        counts = paddle.summary(net, size)
        total = paddle.flops(net, list(size))
    assert counts == recorded["counts"]
    assert total == recorded["flops"]
    theirs = recorded["printed"].split("\n\n")[0]
    ours = out.getvalue().split("\n\n")[0]
    assert _mask_indices(ours) == _mask_indices(theirs)
    assert f"Total Flops: {total}     Total Params: {counts['total_params']}" in out.getvalue()


def test_model_summary_and_flops_options():
    spec = paddle.static.InputSpec([None, nets.N_FEATURES], "float32", "x")
    model = _model(inputs=[spec])
    with contextlib.redirect_stdout(io.StringIO()):
        assert model.summary() == SUMMARY["mlp"]["counts"]
        assert (
            paddle.summary(model.network, input=paddle.to_tensor(nets.data()[0][:2]))
            == SUMMARY["mlp"]["counts"]
        )
    with pytest.raises(InvalidArgumentError, match="input_size and input cannot be None"):
        paddle.summary(model.network)
    with pytest.raises(InvalidArgumentError, match="only the dim of batch_size"):
        paddle.summary(model.network, (None, None))
    with pytest.raises(InvalidArgumentError, match="'input_size' or 'self._input' must be set"):
        _model().summary()

    def count_linear_twice(m, x, y):
        m.total_ops += 2

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        total = paddle.flops(
            model.network,
            [1, nets.N_FEATURES],
            custom_ops={paddle.nn.Linear: count_linear_twice},
            print_detail=True,
        )
    assert total == 4
    assert "Customize Function has been applied" in out.getvalue()
    assert "| Layer Name | Input Shape | Output Shape | Params | Flops |" in out.getvalue()
    with pytest.raises(InvalidArgumentError, match="paddle.nn.Layer"):
        paddle.flops(3, [1])


def test_batch_methods_return_paddles_structures():
    x, y = nets.data()[:2]
    model = _model()
    losses, metrics = model.train_batch([x[:16]], [y[:16]])
    assert isinstance(losses[0], np.ndarray) and len(metrics) == 1
    losses, metrics = model.eval_batch([x[:16]], [y[:16]])
    logits = model.predict_batch([x[:16]])[0]
    expected = -np.log(np.exp(logits) / np.exp(logits).sum(1, keepdims=True))[
        np.arange(16), y[:16, 0]
    ].mean()
    np.testing.assert_allclose(float(losses[0]), expected, rtol=1e-5)
    no_loss = paddle.Model(model.network)
    no_loss.prepare(metrics=paddle.metric.Accuracy())
    only_metrics = no_loss.eval_batch([x[:16]], [y[:16]])
    assert only_metrics[0] == pytest.approx(float((logits.argmax(1) == y[:16, 0]).mean()))
    assert [p.name for p in model.parameters()] == [p.name for p in model.network.parameters()]
