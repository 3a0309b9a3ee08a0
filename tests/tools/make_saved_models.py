"""Writes the saved-model fixtures under tests/data/saved_models/ with PaddlePaddle 3.3.1.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_saved_models.py``.

Four models, each in its own folder: a small CNN (conv2d/batch_norm/relu/pool2d/linear) and a
one-layer transformer encoder (an embedding, then ``paddle.nn.TransformerEncoderLayer``), each
saved with ``paddle.jit.save`` (``*_jit``) and with ``paddle.static.save_inference_model``
(``*_static``). Each folder holds what PaddlePaddle wrote (``model.json``, ``model.pdiparams``)
and what PaddlePaddle reads back from those files: ``program.txt`` (``str()`` of the program
``load_inference_model`` returns), ``feeds.json`` (its feed names and fetch count),
``params.npz`` (every parameter as loaded into the scope), ``input.npy`` and ``output.npy``
(the loaded model run by PaddlePaddle's executor on that input).

``pdparams/`` holds ``paddle.save`` files: a state dict (``state_dict.pdparams``), a nested
structure (``nested.pdparams``), the same with pickle protocol 2 (``nested_protocol2.pdparams``),
the tensor ``nested.a`` with ``use_binary_format=True`` (``tensor.bin``), and in ``expected.npz``
the arrays they hold.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "saved_models"
RNG = np.random.default_rng(2026)


class SmallCNN(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.pool = paddle.nn.MaxPool2D(2)
        self.fc = paddle.nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = self.pool(paddle.nn.functional.relu(self.bn(self.conv(x))))
        return self.fc(paddle.flatten(x, 1))


class SmallEncoder(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.embed = paddle.nn.Embedding(20, 16)
        self.encoder = paddle.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)

    def forward(self, ids):
        return self.encoder(self.embed(ids))


MODELS = {
    "cnn": (SmallCNN, [None, 3, 8, 8], "float32"),
    "transformer": (SmallEncoder, [None, 5], "int64"),
}


def randomize(layer: paddle.nn.Layer) -> None:
    """Non-trivial values for every parameter and buffer (BN variances stay positive)."""
    for name, tensor in list(layer.named_parameters()) + list(layer.named_buffers()):
        shape = tensor.shape
        if name.endswith("_variance"):
            value = RNG.uniform(0.5, 1.5, shape)
        else:
            value = RNG.normal(0.0, 0.5, shape)
        tensor.set_value(value.astype(tensor.numpy().dtype))


def make_input(kind: str) -> np.ndarray:
    if kind == "cnn":
        return RNG.normal(size=(2, 3, 8, 8)).astype("float32")
    return RNG.integers(0, 20, size=(2, 5)).astype("int64")


def save_jit(kind: str, prefix: str) -> None:
    cls, shape, dtype = MODELS[kind]
    layer = cls()
    randomize(layer)
    layer.eval()
    spec = [paddle.static.InputSpec(shape, dtype, "x")]
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec, full_graph=True), prefix)


def save_static(kind: str, prefix: str) -> None:
    cls, shape, dtype = MODELS[kind]
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", shape, dtype)
            layer = cls()
            layer.eval()
            out = layer(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        scope = paddle.static.global_scope()
        for op in main.global_block().ops:
            if op.name() == "builtin.parameter":
                name = op.attrs()["parameter_name"]
                tensor = scope.find_var(name).get_tensor()
                current = np.array(tensor)
                if name.startswith("batch_norm") and name.endswith(".w_2"):  # the variance
                    value = RNG.uniform(0.5, 1.5, current.shape)
                else:
                    value = RNG.normal(0.0, 0.5, current.shape)
                tensor.set(value.astype(current.dtype), paddle.CPUPlace())
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    finally:
        paddle.disable_static()


def record(prefix: str, folder: Path, kind: str) -> None:
    """Copy PaddlePaddle's files and what PaddlePaddle reads back from them into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in (".json", ".pdiparams"):
        shutil.copyfile(prefix + suffix, folder / ("model" + suffix))
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
            scope = paddle.static.global_scope()
            params = {}
            for op in program.global_block().ops:
                if op.name() == "builtin.parameter":
                    name = op.attrs()["parameter_name"]
                    params[name] = np.array(scope.find_var(name).get_tensor())
            x = make_input(kind)
            (out,) = exe.run(program, feed={feed_names[0]: x}, fetch_list=fetch_targets)
    finally:
        paddle.disable_static()
    (folder / "program.txt").write_text(str(program), encoding="utf-8")
    (folder / "feeds.json").write_text(
        json.dumps({"feed_names": feed_names, "num_fetch": len(fetch_targets)}) + "\n"
    )
    np.savez(folder / "params.npz", **params)
    np.save(folder / "input.npy", x)
    np.save(folder / "output.npy", out)


def make_pdparams(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    linear = paddle.nn.Linear(3, 2)
    randomize(linear)
    state = linear.state_dict()
    paddle.save(state, str(folder / "state_dict.pdparams"))
    expected = {f"state.{k}": v.numpy() for k, v in state.items()}
    a = paddle.to_tensor(RNG.normal(size=(2, 2)).astype("float64"))
    b = paddle.to_tensor(RNG.integers(0, 9, size=(3,)).astype("int32"))
    c = paddle.to_tensor(np.array([True, False]))
    nested = {"a": a, "inner": {"list": [b, 7, "text"], "flag": c}, "lr": 0.5}
    paddle.save(nested, str(folder / "nested.pdparams"))
    paddle.save(nested, str(folder / "nested_protocol2.pdparams"), protocol=2)
    paddle.save(a, str(folder / "tensor.bin"), use_binary_format=True)
    expected.update({"nested.a": a.numpy(), "nested.b": b.numpy(), "nested.c": c.numpy()})
    expected["names"] = np.array([state[k].name for k in sorted(state)] + [a.name, b.name, c.name])
    np.savez(folder / "expected.npz", **expected)


def main() -> None:
    paddle.seed(2026)
    with tempfile.TemporaryDirectory() as tmp:
        for kind in MODELS:
            for how, save in (("jit", save_jit), ("static", save_static)):
                prefix = os.path.join(tmp, f"{kind}_{how}", "model")
                save(kind, prefix)
                record(prefix, OUT / f"{kind}_{how}", kind)
    make_pdparams(OUT / "pdparams")
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({total / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
