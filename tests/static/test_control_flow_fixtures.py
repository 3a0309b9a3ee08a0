"""PaddlePaddle 3.3.1's control-flow programs (tests/data/control_flow/, written by
tests/tools/make_control_flow_fixtures.py): phiops parses each printed program, runs it and
fetches PaddlePaddle's values; and builds the same construction (tests/static/control_flow_cases.py,
shared with the fixture script) into the same text.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.ir import parse_program
from tests.static.control_flow_cases import CASES, NOT_BUILT_BY_PHIOPS, phiops_library

DATA = Path(__file__).parents[1] / "data" / "control_flow"
PROGRAMS = json.loads((DATA / "programs.json").read_text("utf-8"))


def test_every_fixture_is_a_shared_case() -> None:
    assert sorted(PROGRAMS) == sorted(CASES)


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


@pytest.mark.parametrize("name", sorted(set(CASES) - set(NOT_BUILT_BY_PHIOPS)))
def test_phiops_builds_paddles_text(name: str) -> None:
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.program_guard(main, startup), phi.static.unique_name_guard():
        fetch = CASES[name](phiops_library())
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
