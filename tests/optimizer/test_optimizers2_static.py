"""The optimizers of issues 24 and 25 in a static program: ``minimize`` builds their ops
(``pd_op.adagrad_``, ``rmsprop_``, ``adadelta_``, ``lamb_``, ``nadam_``, ``radam_``, and
``adam_``/``adamw_`` with amsgrad's ``moment2_max``), the Executor runs them, and three steps
give the parameters the eager steps of the same rule give. Then PaddlePaddle 3.3.1's programs
of the same constructions: phiops prints their text exactly, runs it, and its own program, to
PaddlePaddle's values."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import optimizer
from phiops.runtime.ir import parse_program
from tests.optimizer.optimizer2_static_cases import CASES as STATIC_CASES
from tests.static.static_training_cases import phiops_library

SAME_RULE = {
    "adagrad": lambda ps: optimizer.Adagrad(0.1, parameters=ps, weight_decay=0.05),
    "rmsprop_centered": lambda ps: optimizer.RMSProp(
        0.01, momentum=0.5, centered=True, parameters=ps
    ),
    "adadelta": lambda ps: optimizer.Adadelta(1.0, parameters=ps),
    "adamax": lambda ps: optimizer.Adamax(0.01, beta1=0.8, parameters=ps),
    "lamb": lambda ps: optimizer.Lamb(0.05, lamb_weight_decay=0.02, parameters=ps),
    "nadam": lambda ps: optimizer.NAdam(0.01, parameters=ps, weight_decay=0.01),
    "radam": lambda ps: optimizer.RAdam(0.01, parameters=ps),
    "adam_amsgrad": lambda ps: optimizer.Adam(0.05, parameters=ps, amsgrad=True),
    "adamw_amsgrad": lambda ps: optimizer.AdamW(0.05, parameters=ps, amsgrad=True),
}
OPS = {
    "adagrad": "pd_op.adagrad_",
    "rmsprop_centered": "pd_op.rmsprop_",
    "adadelta": "pd_op.adadelta_",
    "adamax": "pd_op.scale_",
    "lamb": "pd_op.lamb_",
    "nadam": "pd_op.nadam_",
    "radam": "pd_op.radam_",
    "adam_amsgrad": "pd_op.adam_",
    "adamw_amsgrad": "pd_op.adamw_",
}


@pytest.fixture
def programs() -> Iterator[tuple[Any, Any]]:
    phi.enable_static()
    main, startup = phi.static.Program(), phi.static.Program()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            yield main, startup
    finally:
        phi.disable_static()


def _regression() -> Any:
    x = phi.static.data("x", [-1, 3], "float32")
    y = phi.static.data("y", [-1, 1], "float32")
    w = phi.static.create_parameter([3, 1], "float32", name="w")
    b = phi.static.create_parameter([1], "float32", name="b", is_bias=True)
    prediction = phi.add(phi.matmul(x, w), b)
    return phi.mean(phi.square(prediction - y))


@pytest.mark.parametrize("kind", sorted(SAME_RULE))
def test_a_static_program_trains_as_the_eager_steps_of_the_same_rule(programs, kind: str) -> None:
    main, startup = programs
    loss = _regression()
    ops, _ = SAME_RULE[kind](None).minimize(loss)
    assert [op.name for op in ops if op.name.startswith("pd_op.") and op.name.endswith("_")][
        -2:
    ] == [OPS[kind]] * 2
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    start = {name: np.asarray(scope.get(name)).copy() for name in ("w", "b")}
    rng = np.random.default_rng(0)
    feeds = [
        {
            "x": rng.normal(size=(8, 3)).astype("float32"),
            "y": rng.normal(size=(8, 1)).astype("float32"),
        }
        for _ in range(3)
    ]
    for feed in feeds:
        exe.run(main, feed=feed, scope=scope)

    phi.disable_static()
    try:
        params = {}
        for name, value in start.items():
            params[name] = phi.to_tensor(value, stop_gradient=False)
            params[name].name = name
        eager = SAME_RULE[kind]([params["w"], params["b"]])
        for feed in feeds:
            prediction = phi.add(phi.matmul(phi.to_tensor(feed["x"]), params["w"]), params["b"])
            phi.mean(phi.square(prediction - phi.to_tensor(feed["y"]))).backward()
            eager.step()
            eager.clear_grad()
    finally:
        phi.enable_static()
    for name, tensor in params.items():
        np.testing.assert_allclose(tensor.numpy(), np.asarray(scope.get(name)), rtol=1e-6)


# -- against PaddlePaddle 3.3.1's programs (tests/data/optimizer/static/, written by
# tests/tools/make_optimizer2_static_fixtures.py from tests/optimizer/optimizer2_static_cases.py)

DATA = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "static"
FIXTURES = sorted(p.stem for p in DATA.glob("*.json"))


def _fixture(name: str) -> tuple[dict, dict[str, np.ndarray]]:
    meta = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    arrays = np.load(DATA / f"{name}.npz")
    return meta, {key: arrays[key] for key in arrays.files}


def _build(name: str) -> tuple[Any, Any, list]:
    main, startup = phi.static.Program(), phi.static.Program()
    library = SimpleNamespace(**vars(phiops_library()), optimizer=optimizer)
    with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
        fetches = STATIC_CASES[name](library)
    return main, startup, fetches


def _run_steps(name: str, main: Any, fetches: list) -> None:
    """Run ``main`` for every recorded step from PaddlePaddle's scope after its startup program,
    checking the fetched loss and every scope variable after each step."""
    meta, arrays = _fixture(name)
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
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        for var in meta["scope"]:
            np.testing.assert_allclose(
                np.asarray(scope.get(var)),
                arrays[f"step{step}/after/{var}"],
                rtol=1e-5,
                atol=1e-6,
                err_msg=f"{name} step {step}: {var}",
            )


def test_every_static_fixture_has_a_phiops_twin() -> None:
    assert FIXTURES and sorted(STATIC_CASES) == FIXTURES


@pytest.mark.parametrize("name", FIXTURES)
def test_phiops_builds_paddles_program_text(programs, name: str) -> None:
    meta, _ = _fixture(name)
    main, startup, fetches = _build(name)
    assert str(main) == meta["main"]
    assert str(startup) == meta["startup"]
    assert all(a is main.value(p) for a, p in zip(fetches, meta["fetch"]))


@pytest.mark.parametrize("name", FIXTURES)
def test_paddles_program_text_runs_to_paddles_values(programs, name: str) -> None:
    meta, _ = _fixture(name)
    main = parse_program(meta["main"], f"{name}.json")
    _run_steps(name, main, [main.value(printed) for printed in meta["fetch"]])


@pytest.mark.parametrize("name", FIXTURES)
def test_phiops_program_runs_to_paddles_values(programs, name: str) -> None:
    main, _, fetches = _build(name)
    _run_steps(name, main, fetches)
