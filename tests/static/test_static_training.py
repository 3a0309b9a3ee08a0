"""Backward programs and static training against PaddlePaddle 3.3.1 (tests/data/static_training/,
written by tests/tools/make_static_training_fixtures.py).

For each case: phiops parses PaddlePaddle's main program text, runs it with PaddlePaddle's
parameters and feeds, and gets PaddlePaddle's fetched values and scope variables after every
step; phiops builds the same construction, which prints PaddlePaddle's main and startup text
exactly, and running it gives the same values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import generated as phi
from runtime import optimizer
from runtime.ir import parse_program

DATA = Path(__file__).resolve().parents[1] / "data" / "static_training"
CASES = sorted(p.stem for p in DATA.glob("*.json"))


def mlp(x_needs_grad: bool = False):
    """The fixture script's relu MLP 4 -> 8 -> 3 with softmax cross entropy."""
    x = phi.static.data("x", [-1, 4], "float32")
    x.stop_gradient = not x_needs_grad
    y = phi.static.data("y", [-1, 1], "int64")
    w1 = phi.static.create_parameter([4, 8], "float32", name="w1")
    b1 = phi.static.create_parameter([8], "float32", name="b1", is_bias=True)
    w2 = phi.static.create_parameter([8, 3], "float32", name="w2")
    b2 = phi.static.create_parameter([3], "float32", name="b2", is_bias=True)
    hidden = phi.relu(phi.add(phi.matmul(x, w1), b1))
    logits = phi.add(phi.matmul(hidden, w2), b2)
    _, loss = phi.cross_entropy_with_softmax(logits, y, False, True, True, -100, -1)
    return x, phi.mean(loss), [w1, b1, w2, b2]


def append_backward_mlp():
    _, loss, _ = mlp()
    pairs = phi.static.append_backward(loss)
    return [loss] + [g for _, g in pairs]


def gradients_shared_uses():
    x = phi.static.data("x", [-1, 4], "float32")
    x.stop_gradient = False
    w = phi.static.create_parameter([4, 8], "float32", name="w")
    y = phi.tanh(phi.matmul(x, w))
    loss = phi.mean(y * y) + phi.mean(w * w)
    return [loss, *phi.static.gradients(loss, [w, x])]


def gradients_no_grad_set():
    x, loss, (w1, b1, w2, b2) = mlp(x_needs_grad=True)
    return [loss, *phi.static.gradients(loss, [x, w2], no_grad_set=[b1])]


def double_grad_tanh():
    x = phi.static.data("x", [2, 3], "float32")
    x.stop_gradient = False
    y = phi.tanh(x)
    (dx,) = phi.static.gradients([y], [x])
    (ddx,) = phi.static.gradients([dx], [x])
    return [y, dx, ddx]


def sgd_minimize():
    _, loss, _ = mlp()
    optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss]


def momentum_minimize():
    _, loss, _ = mlp()
    optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return [loss]


def adam_minimize():
    _, loss, _ = mlp()
    optimizer.Adam(learning_rate=0.01).minimize(loss)
    return [loss]


BUILDERS: dict[str, Callable[[], list]] = {
    f.__name__: f
    for f in (
        append_backward_mlp,
        gradients_shared_uses,
        gradients_no_grad_set,
        double_grad_tanh,
        sgd_minimize,
        momentum_minimize,
        adam_minimize,
    )
}


def fixture(name: str) -> tuple[dict, dict[str, np.ndarray]]:
    meta = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    arrays = np.load(DATA / f"{name}.npz")
    return meta, {key: arrays[key] for key in arrays.files}


def build(name: str) -> tuple[phi.static.Program, phi.static.Program, list]:
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
        fetches = BUILDERS[name]()
    return main, startup, fetches


def run_steps(name: str, main, fetches: list) -> None:
    """Run ``main`` for every step of the fixture, from PaddlePaddle's scope after its startup
    program, checking the fetched values and the scope after each step."""
    meta, arrays = fixture(name)
    scope = phi.static.Scope()
    for var in meta["scope"]:
        scope.var(var).set(arrays[f"before/{var}"].copy())
    exe = phi.static.Executor()
    for step in range(meta["steps"]):
        prefix = f"step{step}/feed/"
        feed = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
        fetched = exe.run(main, feed=feed, fetch_list=fetches, scope=scope)
        for index, got in enumerate(fetched):
            want = arrays[f"step{step}/fetch/{index}"]
            np.testing.assert_allclose(
                got, want, rtol=1e-5, atol=1e-6, err_msg=f"{name} step {step} fetch {index}"
            )
        for var in meta["scope"]:
            np.testing.assert_allclose(
                np.asarray(scope.get(var)),
                arrays[f"step{step}/after/{var}"],
                rtol=1e-5,
                atol=1e-6,
                err_msg=f"{name} step {step}: {var}",
            )


def test_every_fixture_has_a_phiops_twin() -> None:
    assert CASES and sorted(BUILDERS) == CASES


@pytest.mark.parametrize("name", CASES)
def test_paddle_text_runs_with_paddle_values(name: str) -> None:
    meta, _ = fixture(name)
    main = parse_program(meta["main"], f"{name}.json")
    run_steps(name, main, [main.value(printed) for printed in meta["fetch"]])


@pytest.mark.parametrize("name", CASES)
def test_phiops_builds_paddle_text(name: str) -> None:
    meta, _ = fixture(name)
    main, startup, fetches = build(name)
    assert str(main) == meta["main"]
    assert str(startup) == meta["startup"]
    namer_values = [main.value(printed) for printed in meta["fetch"]]
    assert all(a is b for a, b in zip(fetches, namer_values))


@pytest.mark.parametrize("name", CASES)
def test_phiops_program_gives_paddle_values(name: str) -> None:
    main, _, fetches = build(name)
    run_steps(name, main, fetches)
