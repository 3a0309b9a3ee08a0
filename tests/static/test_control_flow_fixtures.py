"""PaddlePaddle 3.3.1's control-flow programs (tests/data/control_flow/, written by
tests/tools/make_control_flow_fixtures.py): phiops parses each printed program, runs it and
fetches PaddlePaddle's values; and builds the same construction (the twin of the case of the same
name below) into the same text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import generated as phi
from runtime.ir import parse_program

DATA = Path(__file__).parents[1] / "data" / "control_flow"
PROGRAMS = json.loads((DATA / "programs.json").read_text("utf-8"))
TWINS: dict[str, Callable[[], list[Any]]] = {}
nn = phi.static.nn


def twin(fn: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
    TWINS[fn.__name__] = fn
    return fn


def data(name: str, shape: list[int], dtype: str = "float32") -> Any:
    return phi.static.data(name, shape, dtype)


def full(shape: list[int], value: float, dtype: str) -> Any:
    return phi.full(shape, value, dtype, place=phi.Place())


@twin
def cond_mean_positive():
    x = data("x", [2, 3])
    pred = phi.mean(x) > 0
    return [nn.cond(pred, lambda: phi.exp(x) * 2.0, lambda: phi.abs(x) + 1.0)]


@twin
def cond_fed_0d_predicate():
    p = data("p", [], "bool")
    x = data("x", [2, 3])
    return [nn.cond(p, lambda: x * x, lambda: x - 1.0)]


@twin
def cond_nested_outputs():
    p = data("p", [1], "bool")
    x = data("x", [2, 3])
    a, (b, c), d, n = nn.cond(
        p,
        lambda: (x + 1.0, [x * 2.0, {"k": phi.sum(x)}], x, 3),
        lambda: (x - 1.0, [x * 3.0, {"k": phi.max(x)}], phi.tanh(x), 3),
    )
    assert n == 3
    return [a, b, c["k"], d]


@twin
def cond_branch_extents_differ():
    p = data("p", [1], "bool")
    x = data("x", [2, 3])
    y = data("y", [4, 3])
    out = nn.cond(p, lambda: x * 2.0, lambda: y * 3.0)
    return [out, phi.sum(out, axis=0)]


@twin
def cond_no_outputs():
    x = data("x", [2, 3])
    assert nn.cond(phi.mean(x) > 0, lambda: None) is None
    return [x * 1.0]


@twin
def while_counting():
    i = full([1], 0, "int64")
    ten = full([1], 10, "int64")
    i, ten = nn.while_loop(lambda i, t: i < t, lambda i, t: [i + 1, t], [i, ten])
    return [i, ten]


@twin
def while_accumulate():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    s = full([2, 3], 0.0, "float32")

    def body(i, s):
        return [i + 1, s + x * phi.cast(i, "float32")]

    return nn.while_loop(lambda i, s: i < 4, body, [i, s])


@twin
def while_over_slices():
    x = data("x", [5, 3])
    i = full([1], 0, "int64")
    s = full([1, 3], 0.0, "float32")

    def body(i, s):
        row = phi.slice(x, [0], i, i + 1, [-1], [])  # starts and ends: Values (operands)
        return [i + 1, s + row * row]

    return nn.while_loop(lambda i, s: i < 5, body, [i, s])


@twin
def while_over_rows():
    x = data("x", [5, 3])
    i = full([1], 0, "int64")
    s = full([1, 3], 0.0, "float32")

    def body(i, s):
        row = phi.index_select(x, i, 0)
        return [i + 1, s + row * 2.0]

    return nn.while_loop(lambda i, s: i < 5, body, [i, s])


@twin
def while_swap():
    a = full([1], 1.0, "float32")
    b = full([1], 2.0, "float32")
    i = full([1], 0, "int64")
    return nn.while_loop(lambda i, a, b: i < 3, lambda i, a, b: [i + 1, b, a * 2.0], [i, a, b])


@twin
def while_extent_grows():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    i, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, phi.concat([s, s * 2.0])], [i, x])
    return [i, s, phi.sum(s)]


@twin
def nested_cond_and_while_in_while():
    x = data("x", [2, 3])
    i = full([1], 0, "int64")
    s = full([2, 3], 0.0, "float32")

    def body(i, s):
        s2 = nn.cond(phi.mean(s) > 2.0, lambda: s + 1.0, lambda: s + x)
        j = full([1], 0, "int64")
        j, s3 = nn.while_loop(lambda j, t: j < 2, lambda j, t: [j + 1, t * 1.5], [j, s2])
        return [i + 1, s3]

    return nn.while_loop(lambda i, s: i < 3, body, [i, s])


@twin
def while_in_cond():
    p = data("p", [], "bool")
    x = data("x", [2, 3])

    def looped():
        i = full([1], 0, "int64")
        _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * x], [i, x])
        return s

    return [nn.cond(p, looped, lambda: x)]


@twin
def cond_gradient():
    x = data("x", [2, 3])
    x.stop_gradient = False
    out = nn.cond(phi.mean(x) > 0, lambda: phi.tanh(x), lambda: x * x)
    loss = phi.mean(out)
    (grad,) = phi.static.gradients([loss], [x])
    return [loss, grad]


@twin
def while_gradient():
    x = data("x", [2, 3])
    x.stop_gradient = False
    i = full([1], 0, "int64")
    _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, phi.tanh(s)], [i, x])
    loss = phi.mean(s)
    (grad,) = phi.static.gradients([loss], [x])
    return [loss, grad]


# Fixtures phiops runs but does not build the same: nested_gradient is PaddlePaddle's backward of
# a cond inside a while_loop, whose inner backward if reads the loop's incoming gradient instead of
# its block argument and yields zeros (phiops' backward gives the true gradient, see
# tests/static/test_backward.py).
NOT_BUILT = ("nested_gradient",)


def test_every_fixture_has_a_twin_or_is_listed_as_not_built() -> None:
    assert sorted(PROGRAMS) == sorted([*TWINS, *NOT_BUILT])


def _runs(name: str) -> list[tuple[dict[str, np.ndarray], list[np.ndarray]]]:
    arrays = np.load(DATA / f"{name}.npz")
    runs = []
    for run in range(PROGRAMS[name]["runs"]):
        feed = {
            key[len(f"feed_{run}_") :]: arrays[key]
            for key in arrays.files
            if key.startswith(f"feed_{run}_")
        }
        count = sum(1 for key in arrays.files if key.startswith(f"fetch_{run}_"))
        runs.append((feed, [arrays[f"fetch_{run}_{k}"] for k in range(count)]))
    return runs


def _check(got: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(got) == len(expected)
    for index, (array, want) in enumerate(zip(got, expected)):
        assert array.dtype == want.dtype, index
        assert array.shape == want.shape, index
        np.testing.assert_allclose(array, want, rtol=1e-5, atol=1e-6, err_msg=f"fetch {index}")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_paddle_program_runs_with_paddles_values(name: str) -> None:
    case = PROGRAMS[name]
    program = parse_program(case["text"])
    fetch = [program.block.ops[op].results[result] for op, result in case["fetch"]]
    exe = phi.static.Executor()
    for feed, expected in _runs(name):
        _check(exe.run(program, feed, fetch), expected)
        _check(exe.run(program, feed, fetch), expected)  # the cached plan gives the same


@pytest.mark.parametrize("name", sorted(TWINS))
def test_phiops_builds_paddles_text(name: str) -> None:
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.program_guard(main, startup), phi.static.unique_name_guard():
        fetch = TWINS[name]()
    assert str(main) == PROGRAMS[name]["text"]
    exe = phi.static.Executor()
    for feed, expected in _runs(name):
        _check(exe.run(main, feed, fetch), expected)


@pytest.mark.parametrize("name", ["cond_gradient", "while_gradient"])
def test_paddles_backward_programs_agree_with_finite_differences(name: str) -> None:
    # (nested_gradient is not checked so: PaddlePaddle 3.3.1's backward of a cond inside a
    # while_loop yields zeros from the inner if, so its gradient is 0, which phiops reproduces)
    case = PROGRAMS[name]
    program = parse_program(case["text"])
    loss_value, grad_value = [program.block.ops[op].results[r] for op, r in case["fetch"]]
    exe = phi.static.Executor()

    def loss(x: np.ndarray) -> float:
        (value,) = exe.run(program, {"x": x.astype("float32")}, [loss_value])
        return float(value)

    for feed, _ in _runs(name):
        x = feed["x"].astype("float64")
        (grad,) = exe.run(program, feed, [grad_value])
        numeric = np.zeros_like(x)
        eps = 1e-2
        for index in np.ndindex(*x.shape):
            step = np.zeros_like(x)
            step[index] = eps
            numeric[index] = (loss(x + step) - loss(x - step)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=1e-2, atol=1e-4)
