"""Record PaddlePaddle 3.3.1's ``paddle.Model`` results for tests/hapi/ (run in the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_hapi_fixtures.py``).

Writes under tests/data/hapi/: ``fit.json`` (per-epoch train/eval logs of ``Model.fit`` with
SGD from tests/hapi/nets.py's weights and data order, ``shuffle=False``; ``evaluate``'s result;
``predict``'s stacked outputs; the captured log of the fit), ``summary.json`` (``paddle.summary``
tables and counts, ``paddle.flops`` totals for LeNet, a ResNet basic block, a Transformer
encoder layer and the MLP), and ``adam.pdparams``/``adam.pdopt`` (``Model.save`` after one epoch
of Adam)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import paddle  # noqa: E402

from tests.hapi import nets  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "hapi")


def _plain(value):
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def _model(classes, optimizer="sgd"):
    net = classes["MLP"]()
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in nets.weights().items()})
    model = paddle.Model(net)
    if optimizer == "sgd":
        opt = paddle.optimizer.SGD(learning_rate=nets.LR, parameters=model.parameters())
    else:
        opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    return model


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    paddle.set_device("cpu")
    classes = nets.build(paddle)
    xt, yt, xe, ye = nets.data()
    train, evald = classes["Blobs"](xt, yt), classes["Blobs"](xe, ye)

    class Recorder(paddle.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.epochs, self.evals, self.params_seen = [], [], None

        def on_train_begin(self, logs=None):
            self.params_seen = dict(self.params)

        def on_epoch_end(self, epoch, logs=None):
            self.epochs.append({k: _plain(v) for k, v in logs.items()})

        def on_eval_end(self, logs=None):
            self.evals.append({k: _plain(v) for k, v in logs.items()})

    model = _model(classes)
    recorder = Recorder()
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        model.fit(
            train,
            evald,
            batch_size=nets.BATCH,
            epochs=nets.EPOCHS,
            shuffle=False,
            verbose=2,
            log_freq=2,
            callbacks=[recorder],
        )
    result = model.evaluate(evald, batch_size=nets.BATCH, verbose=0)
    predicted = model.predict(evald, batch_size=nets.BATCH, stack_outputs=True, verbose=0)
    fit = {
        "epochs": recorder.epochs,
        "evals": recorder.evals,
        "params": recorder.params_seen,
        "evaluate": {k: _plain(v) for k, v in result.items()},
        "predict": _plain(predicted[0]),
        "final_weights": {k: v.numpy().tolist() for k, v in model.network.state_dict().items()},
        "log": captured.getvalue(),
    }
    with open(os.path.join(OUT, "fit.json"), "w") as f:
        json.dump(fit, f, indent=1)

    adam = _model(classes, "adam")
    adam.fit(train, batch_size=nets.BATCH, epochs=1, shuffle=False, verbose=0)
    adam.save(os.path.join(OUT, "adam"))

    # PaddlePaddle 3.3.1's flops() calls int() on its [1]-shaped counters, which numpy 2 refuses
    # ("only 0-dimensional arrays can be converted"); give Tensor.__int__ numpy 1's behaviour
    # for one-element tensors so that its own counting rules run unchanged
    plain_int = paddle.Tensor.__int__
    paddle.Tensor.__int__ = lambda t: int(t.numpy().reshape(-1)[0]) if t.size == 1 else plain_int(t)
    summaries = {}
    for name, (key, size) in nets.SUMMARY_CASES.items():
        net = classes[key]()
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            counts = paddle.summary(net, size)
            total = paddle.flops(net, list(size), print_detail=True)
        summaries[name] = {
            "counts": {k: int(v) for k, v in counts.items()},
            "flops": int(total),
            "printed": text.getvalue(),
        }
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump(summaries, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
