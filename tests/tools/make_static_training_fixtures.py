"""Writes tests/data/static_training/: backward programs and static training as PaddlePaddle 3.3.1
builds and runs them.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_static_training_fixtures.py``.
Each case builds a program (unique names counted from 0), runs its startup program in a fresh
scope, then runs the main program ``steps`` times on seeded random feeds. ``<case>.json`` holds
the main and startup programs' text, the printed names of the fetched values and the scope
variables recorded; ``<case>.npz`` holds ``before/<name>`` (those variables after the startup
program), and per step ``step<k>/feed/<data name>``, ``step<k>/fetch/<i>`` and
``step<k>/after/<name>``. tests/static/test_static_training.py builds the phiops twin of each case
and runs both PaddlePaddle's text and phiops' program against these.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "static_training"
CASES = {}


def case(name: str, steps: int = 1):
    def register(build):
        CASES[name] = (build, steps)
        return build

    return register


def mlp(x_needs_grad: bool = False):
    """relu MLP 4 -> 8 -> 3 with softmax cross entropy: (loss, parameters in creation order)."""
    x = paddle.static.data("x", [-1, 4], "float32")
    x.stop_gradient = not x_needs_grad
    y = paddle.static.data("y", [-1, 1], "int64")
    w1 = paddle.create_parameter([4, 8], "float32", name="w1")
    b1 = paddle.create_parameter([8], "float32", name="b1", is_bias=True)
    w2 = paddle.create_parameter([8, 3], "float32", name="w2")
    b2 = paddle.create_parameter([3], "float32", name="b2", is_bias=True)
    hidden = paddle.nn.functional.relu(paddle.add(paddle.matmul(x, w1), b1))
    logits = paddle.add(paddle.matmul(hidden, w2), b2)
    _, loss = paddle._C_ops.cross_entropy_with_softmax(logits, y, False, True, True, -100, -1)
    return x, paddle.mean(loss), [w1, b1, w2, b2]


@case("append_backward_mlp")
def _append_backward_mlp():
    _, loss, _ = mlp()
    pairs = paddle.static.append_backward(loss)
    return [loss] + [g for _, g in pairs]


@case("gradients_shared_uses")
def _gradients_shared_uses():
    # an intermediate used twice (y * y) and a parameter used twice (w in matmul and w * w):
    # their gradients are summed with add_n; x's gradient asked for as well
    x = paddle.static.data("x", [-1, 4], "float32")
    x.stop_gradient = False
    w = paddle.create_parameter([4, 8], "float32", name="w")
    y = paddle.tanh(paddle.matmul(x, w))
    loss = paddle.mean(y * y) + paddle.mean(w * w)
    grads = paddle.static.gradients(loss, [w, x])
    return [loss, *grads]


@case("gradients_no_grad_set")
def _gradients_no_grad_set():
    x, loss, (w1, b1, w2, b2) = mlp(x_needs_grad=True)
    grads = paddle.static.gradients(loss, [x, w2], no_grad_set=[b1])
    return [loss, *grads]


@case("double_grad_tanh")
def _double_grad_tanh():
    x = paddle.static.data("x", [2, 3], "float32")
    x.stop_gradient = False
    y = paddle.tanh(x)
    (dx,) = paddle.static.gradients([y], [x])
    (ddx,) = paddle.static.gradients([dx], [x])
    return [y, dx, ddx]


@case("sgd_minimize", steps=3)
def _sgd_minimize():
    _, loss, _ = mlp()
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss]


@case("momentum_minimize", steps=3)
def _momentum_minimize():
    _, loss, _ = mlp()
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return [loss]


@case("adam_minimize", steps=3)
def _adam_minimize():
    _, loss, _ = mlp()
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    return [loss]


def printed_names(program, values) -> list[str]:
    results = [r for op in program.global_block().ops for r in op.results()]
    names = []
    for value in values:
        index = next(i for i, r in enumerate(results) if r.is_same(value))
        names.append(f"%{index}")
    return names


def feeds(rng: np.random.Generator, program) -> dict[str, np.ndarray]:
    out = {}
    for op in program.global_block().ops:
        if op.name() != "pd_op.data" or op.attrs().get("persistable"):
            continue
        name = op.attrs()["name"]
        shape = [5 if d == -1 else d for d in op.result(0).shape]
        if name == "y":
            out[name] = rng.integers(0, 3, shape).astype("int64")
        else:
            out[name] = rng.uniform(-1.0, 1.0, shape).astype("float32")
    return out


def scope_names(program) -> list[str]:
    names = []
    for op in program.global_block().ops:
        if op.name() == "builtin.parameter":
            names.append(op.attrs()["parameter_name"])
        elif op.name() == "pd_op.data" and op.attrs().get("persistable"):
            names.append(op.attrs()["name"])
    return sorted(names)


def record(name: str, build, steps: int) -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetches = build()
    rng = np.random.default_rng(sum(map(ord, name)))
    paddle.seed(sum(map(ord, name)))  # the startup program's uniform initializers
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    names = scope_names(main)
    arrays = {}
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for var in names:
            arrays[f"before/{var}"] = np.array(scope.find_var(var).get_tensor())
        for step in range(steps):
            feed = feeds(rng, main)
            fetched = exe.run(main, feed=feed, fetch_list=fetches)
            for key, value in feed.items():
                arrays[f"step{step}/feed/{key}"] = value
            for index, value in enumerate(fetched):
                arrays[f"step{step}/fetch/{index}"] = np.asarray(value)
            for var in names:
                arrays[f"step{step}/after/{var}"] = np.array(scope.find_var(var).get_tensor())
    meta = {
        "main": str(main),
        "startup": str(startup),
        "fetch": printed_names(main, fetches),
        "scope": names,
        "steps": steps,
    }
    (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    np.savez_compressed(OUT / f"{name}.npz", **arrays)
    print(f"{name}: {len(fetches)} fetches, {len(names)} scope variables, {steps} step(s)")


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (build, steps) in CASES.items():
        record(name, build, steps)


if __name__ == "__main__":
    main()
