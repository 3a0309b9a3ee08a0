"""Backward programs and static training against PaddlePaddle 3.3.1 (tests/data/static_training/,
written by tests/tools/make_static_training_fixtures.py).

For each case: phiops parses PaddlePaddle's main program text, runs it with PaddlePaddle's
parameters and feeds, and gets PaddlePaddle's fetched values and scope variables after every
step; phiops builds the same construction, which prints PaddlePaddle's main and startup text
exactly, and running it gives the same values. The constructions are
tests/static/static_training_cases.py, shared with the fixture script.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.ir import parse_program
from tests.static.static_training_cases import CASES as BUILDERS
from tests.static.static_training_cases import phiops_library

DATA = Path(__file__).resolve().parents[1] / "data" / "static_training"
CASES = sorted(p.stem for p in DATA.glob("*.json"))


def fixture(name: str) -> tuple[dict, dict[str, np.ndarray]]:
    meta = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    arrays = np.load(DATA / f"{name}.npz")
    return meta, {key: arrays[key] for key in arrays.files}


def build(name: str) -> tuple[phi.static.Program, phi.static.Program, list]:
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
        fetches = BUILDERS[name](phiops_library())
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
