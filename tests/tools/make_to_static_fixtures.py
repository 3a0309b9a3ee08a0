"""Record PaddlePaddle 3.3.1's results for tests/static/test_static_nn_training.py and
tests/jit/test_to_static.py into tests/data/to_static/.

Run in the side venv from the repository root:

    PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_to_static_fixtures.py

The cases below take the library as ``paddle`` (PaddlePaddle here, ``phiops`` in the tests), so
both run the same code. PaddlePaddle 3.3.1 builds ``static.nn.fc`` in PIR programs but
``conv2d``, ``batch_norm`` and ``embedding`` only in legacy programs: the CNN case runs in a
child process with ``FLAGS_enable_pir_api=0``. Initial parameters are seeded numpy arrays set
into the scope after the startup program ran (so the two libraries start from the same values).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "to_static"
STEPS = 4

# (name, shape) of each trained parameter, set from a seeded generator in this order; batch
# norm's moving statistics keep their startup values (zeros, ones)
MLP_PARAMETERS = [("fc_0.w_0", [4, 8]), ("fc_0.b_0", [8]), ("fc_1.w_0", [8, 3]), ("fc_1.b_0", [3])]
CNN_PARAMETERS = [
    ("conv2d_0.w_0", [4, 2, 3, 3]),
    ("conv2d_0.b_0", [4]),
    ("batch_norm_0.w_0", [4]),
    ("batch_norm_0.b_0", [4]),
    ("embedding_0.w_0", [10, 5]),
    ("layer_norm_0.w_0", [5]),
    ("layer_norm_0.b_0", [5]),
    ("fc_0.w_0", [144, 3]),
    ("fc_0.b_0", [3]),
    ("fc_1.w_0", [15, 3]),
    ("fc_1.b_0", [3]),
]
CNN_STATE = ["batch_norm_0.w_1", "batch_norm_0.w_2"]


def initial_values(parameters: list[tuple[str, list[int]]], seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        name: (rng.standard_normal(shape) * 0.3).astype("float32") for name, shape in parameters
    }


def mlp_feeds(step: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(100 + step)
    return {
        "x": rng.standard_normal((6, 4)).astype("float32"),
        "label": np.eye(3, dtype="float32")[rng.integers(0, 3, 6)],
    }


def cnn_feeds(step: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(200 + step)
    return {
        "img": rng.standard_normal((5, 2, 6, 6)).astype("float32"),
        "ids": rng.integers(0, 10, (5, 3)).astype("int64"),
        "label": np.eye(3, dtype="float32")[rng.integers(0, 3, 5)],
    }


def _cross_entropy(paddle: Any, logits: Any, onehot: Any) -> Any:
    """Mean softmax cross entropy against one-hot labels over 3 classes, from log_softmax (the
    mean over every element times -3: the batch mean of each row's sum)."""
    return paddle.mean(paddle.nn.functional.log_softmax(logits) * onehot) * -3.0


def build_mlp(paddle: Any) -> Any:
    """A classic static MLP: fc(relu) -> fc -> softmax cross entropy; returns the mean loss."""
    x = paddle.static.data("x", [-1, 4], "float32")
    label = paddle.static.data("label", [-1, 3], "float32")
    hidden = paddle.static.nn.fc(x, 8, activation="relu")
    logits = paddle.static.nn.fc(hidden, 3)
    loss = _cross_entropy(paddle, logits, label)
    paddle.optimizer.SGD(learning_rate=0.2).minimize(loss)
    return loss


def build_cnn(paddle: Any) -> Any:
    """conv2d(relu) -> batch_norm -> fc, plus embedding -> layer_norm -> fc (num_flatten_dims=1 over [N, 3,
    5]); Momentum; returns the mean loss."""
    img = paddle.static.data("img", [-1, 2, 6, 6], "float32")
    ids = paddle.static.data("ids", [-1, 3], "int64")
    label = paddle.static.data("label", [-1, 3], "float32")
    conv = paddle.static.nn.conv2d(img, 4, 3, padding=1, act="relu")
    normed = paddle.static.nn.batch_norm(conv)
    words = paddle.static.nn.layer_norm(paddle.static.nn.embedding(ids, [10, 5]), begin_norm_axis=2)
    logits = paddle.static.nn.fc(normed, 3) + paddle.static.nn.fc(words, 3)
    loss = _cross_entropy(paddle, logits, label)
    paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
    return loss


def train_static(
    paddle: Any, build: Any, parameters: list, feeds: Any, seed: int, state: list[str] = ()
) -> dict[str, np.ndarray]:
    """Build in fresh programs, run the startup program, set the seeded parameters, run the
    main program STEPS times: the losses, and the parameters (and state) after the last step."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        loss = build(paddle)
    scope = paddle.static.Scope()
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for name, value in initial_values(parameters, seed).items():
            scope.var(name).get_tensor().set(value, place)
        losses = [
            float(np.asarray(exe.run(main, feed=feeds(step), fetch_list=[loss])[0]))
            for step in range(STEPS)
        ]
        out = {"losses": np.array(losses, "float64")}
        for name in [n for n, _ in parameters] + list(state):
            out[name] = np.array(scope.find_var(name).get_tensor())
    return out


# ---- to_static -----------------------------------------------------------------------------

TO_STATIC_STEPS = 5


def to_static_layer(paddle: Any) -> Any:
    """Linear(4, 8) -> tanh -> Linear(8, 3), with seeded weights."""

    class Net(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = paddle.nn.Linear(4, 8)
            self.fc2 = paddle.nn.Linear(8, 3)

        def forward(self, x: Any) -> Any:
            return self.fc2(paddle.tanh(self.fc1(x)))

    net = Net()
    rng = np.random.default_rng(7)
    net.set_state_dict(
        {
            key: paddle.to_tensor((rng.standard_normal(value.shape) * 0.4).astype("float32"))
            for key, value in net.state_dict().items()
        }
    )
    return net


def to_static_batches(step: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(300 + step)
    return rng.standard_normal((6, 4)).astype("float32"), rng.standard_normal((6, 3)).astype(
        "float32"
    )


def train_layer(paddle: Any, net: Any) -> dict[str, np.ndarray]:
    """TO_STATIC_STEPS of Adam on mean((net(x) - y)^2): the losses and final state dict."""
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    losses = []
    for step in range(TO_STATIC_STEPS):
        x, y = to_static_batches(step)
        loss = ((net(paddle.to_tensor(x)) - paddle.to_tensor(y)) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    out = {"losses": np.array(losses, "float64")}
    out.update({key: value.numpy() for key, value in net.state_dict().items()})
    return out


def main() -> None:
    if os.environ.get("FLAGS_enable_pir_api") == "0":
        import paddle

        paddle.enable_static()
        with paddle.utils.unique_name.guard():
            cnn = train_static(paddle, build_cnn, CNN_PARAMETERS, cnn_feeds, 2, CNN_STATE)
        np.savez(DATA / "static_nn_cnn.npz", **cnn)
        return
    import paddle

    DATA.mkdir(parents=True, exist_ok=True)
    net = paddle.jit.to_static(to_static_layer(paddle))
    np.savez(DATA / "to_static_layer.npz", **train_layer(paddle, net))
    paddle.enable_static()
    with paddle.utils.unique_name.guard():
        mlp = train_static(paddle, build_mlp, MLP_PARAMETERS, mlp_feeds, 1)
    np.savez(DATA / "static_nn_mlp.npz", **mlp)
    subprocess.run(
        [sys.executable, __file__], check=True, env={**os.environ, "FLAGS_enable_pir_api": "0"}
    )
    print("wrote", sorted(p.name for p in DATA.iterdir()))


if __name__ == "__main__":
    main()
