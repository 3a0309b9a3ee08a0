"""Which programs the passes touch (runtime/static/passes/config.py): programs
load_inference_model loads, or marked; the passes FLAGS_inference_passes names; never a
training program. The executor fixtures PaddlePaddle recorded (tests/data/executor) give its
values with the passes on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.formats.pir_json import load_program_json
from phiops.runtime.static.passes import PASS_NAMES, mark_inference_program, training_reason
from tests.static.passes.helpers import build, plan_of, started_scope

DATA = Path(__file__).resolve().parents[2] / "data"
FIXTURES = sorted((DATA / "executor").glob("*.npz"))
RNG = np.random.default_rng(2)


def _program():
    def build_fn():
        x = phi.static.data("x", [None, 6], "float32")
        return [phi.nn.functional.relu(phi.nn.Linear(6, 5)(x))]

    return build(build_fn)


def test_the_flag_names_every_pass_by_default() -> None:
    assert flags.flag_value("inference_passes").split(",") == list(PASS_NAMES)


def test_an_unmarked_program_runs_without_passes() -> None:
    main, startup, fetches = _program()
    executor = phi.static.Executor()
    executor.run(main, {"x": np.ones((2, 6), np.float32)}, fetches, scope=started_scope(startup)())
    plan = plan_of(executor, main)
    assert plan.report is None and len(plan.ops) == 3


def test_an_unknown_pass_is_an_error_naming_the_passes() -> None:
    main, startup, fetches = _program()
    mark_inference_program(main)
    with flags.flags_guard({"inference_passes": "constant_folding,fold_everything"}):
        with pytest.raises(InvalidArgumentError, match="fold_everything.*dead_code_elimination"):
            phi.static.Executor().run(
                main, {"x": np.ones((2, 6), np.float32)}, fetches, scope=started_scope(startup)()
            )


def test_changing_the_flag_compiles_the_plan_anew() -> None:
    main, startup, fetches = _program()
    mark_inference_program(main)
    scope = started_scope(startup)()
    executor = phi.static.Executor()
    feed = {"x": np.ones((2, 6), np.float32)}
    executor.run(main, feed, fetches, scope=scope)
    assert len(plan_of(executor, main).ops) == 1
    with flags.flags_guard({"inference_passes": ""}):
        executor.run(main, feed, fetches, scope=scope)
        assert len(plan_of(executor, main).ops) == 3


def test_mark_inference_program_takes_programs_only() -> None:
    with pytest.raises(InvalidArgumentError, match="must be a Program"):
        mark_inference_program("main")


def test_training_programs_are_recognised() -> None:
    for name, reason in [
        ("16_sgd_minimize", "gradient op"),
        ("17_append_backward", "gradient op"),
    ]:
        program = load_program_json(DATA / "ir" / f"{name}.json")
        params = {op.results[0] for op in program.block.ops if op.name == "builtin.parameter"}
        assert reason in training_reason(program.block, params)
    inference = load_program_json(DATA / "ir" / "11_mlp.json")
    assert training_reason(inference.block, set()) is None


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_paddles_executor_fixtures_give_its_values_with_the_passes(fixture: Path) -> None:
    expected = np.load(fixture)
    program = load_program_json(DATA / "ir" / f"{fixture.stem}.json")
    mark_inference_program(program)
    feed = {k[5:]: expected[k] for k in expected.files if k.startswith("feed/")}
    names = [k[6:] for k in expected.files if k.startswith("fetch/")]
    scope = phi.static.Scope()
    for key in expected.files:
        if key.startswith("scope/"):
            scope.var(key[6:]).set(expected[key].copy())
    executor = phi.static.Executor()
    fetched = executor.run(program, feed, [program.value(n) for n in names], scope=scope)
    folded = plan_of(executor, program).report.changes_rounding
    for name, got in zip(names, fetched):
        want = expected[f"fetch/{name}"]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        if want.dtype.kind in "fc":
            scale = max(float(np.nanmax(np.abs(want), initial=0)), 1.0) if want.size else 1.0
            atol = 1e-5 * scale if folded else 1e-6
            np.testing.assert_allclose(
                got,
                want,
                rtol=1e-6 if not folded else 1e-5,
                atol=atol,
                equal_nan=True,
                err_msg=name,
            )
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)
    for key in expected.files:
        if key.startswith("after/"):
            np.testing.assert_allclose(
                np.asarray(scope.get(key[6:])), expected[key], rtol=1e-6, atol=1e-6, err_msg=key
            )


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_the_last_value_fetched_alone_is_the_unpassed_programs(fixture: Path) -> None:
    # fetching one value leaves the rest of the program to dead-code elimination and fusion
    expected = np.load(fixture)
    program = load_program_json(DATA / "ir" / f"{fixture.stem}.json")
    feed = {k[5:]: expected[k] for k in expected.files if k.startswith("feed/")}
    last = program.value([k[6:] for k in expected.files if k.startswith("fetch/")][-1])

    def scope():
        new = phi.static.Scope()
        for key in expected.files:
            if key.startswith("scope/"):
                new.var(key[6:]).set(expected[key].copy())
        return new

    from tests.static.passes.helpers import run_with_and_without

    (on,), (off,), plan = run_with_and_without(program, feed, [last], scope)
    assert not plan.report.changes_rounding  # no fixture has a test-mode batch norm: bit-exact
    np.testing.assert_array_equal(on, off)
