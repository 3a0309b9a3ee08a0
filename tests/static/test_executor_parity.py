"""Programs PaddlePaddle 3.3.1 printed and serialised (tests/data/ir/), run by phiops' executor
with the feeds and parameters PaddlePaddle used, give PaddlePaddle's fetched values and parameter
updates (tests/data/executor/, written by tests/tools/make_executor_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.formats.pir_json import load_program_json
from phiops.runtime.ir import parse_program

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURES = sorted((DATA / "executor").glob("*.npz"))
FORMATS = ("txt", "json")
# the text prints attribute floats with 6 significant digits (`full`'s value 9007199254740993
# prints as 9.0072e+15, also for an int64 full); the JSON keeps them exactly
RTOL = {"txt": 1e-5, "json": 1e-6}


def load(name: str, form: str):
    path = DATA / "ir" / f"{name}.{form}"
    if form == "txt":
        return parse_program(path.read_text(encoding="utf-8"), str(path))
    return load_program_json(path)


def run_fixture(name: str, form: str):
    expected = np.load(DATA / "executor" / f"{name}.npz")
    program = load(name, form)
    feed = {k[5:]: expected[k] for k in expected.files if k.startswith("feed/")}
    fetch_names = [k[6:] for k in expected.files if k.startswith("fetch/")]
    scope = phi.static.Scope()
    for key in expected.files:
        if key.startswith("scope/"):
            scope.var(key[6:]).set(expected[key].copy())
    exe = phi.static.Executor()
    fetched = exe.run(program, feed, [program.value(n) for n in fetch_names], scope=scope)
    return expected, fetch_names, fetched, scope


def assert_same(got: np.ndarray, want: np.ndarray, what: str, rtol: float) -> None:
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, PaddlePaddle {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, PaddlePaddle {want.shape}"
    if want.dtype.kind in "fc" or want.dtype.kind in "iu" and rtol > RTOL["json"]:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("form", FORMATS)
@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_fetches_match_paddle(fixture: Path, form: str) -> None:
    if not (DATA / "ir" / f"{fixture.stem}.{form}").exists():
        pytest.skip(f"PaddlePaddle wrote no .{form} for {fixture.stem}")
    expected, names, fetched, _ = run_fixture(fixture.stem, form)
    for name, got in zip(names, fetched):
        assert_same(got, expected[f"fetch/{name}"], f"{fixture.stem} {name}", RTOL[form])


@pytest.mark.parametrize(
    "name", [p.stem for p in FIXTURES if any(k.startswith("after/") for k in np.load(p).files)]
)
def test_scope_after_run_matches_paddle(name: str) -> None:
    expected, _, _, scope = run_fixture(name, "json")
    for key in expected.files:
        if key.startswith("after/"):
            assert_same(np.asarray(scope.get(key[6:])), expected[key], f"{name} {key}", 1e-6)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_last_value_fetched_alone_matches_paddle(fixture: Path) -> None:
    # fetching one value lets the executor release every other intermediate after its last use
    expected = np.load(fixture)
    program = load(fixture.stem, "json")
    last = [k[6:] for k in expected.files if k.startswith("fetch/")][-1]
    scope = phi.static.Scope()
    for key in expected.files:
        if key.startswith("scope/"):
            scope.var(key[6:]).set(expected[key].copy())
    feed = {k[5:]: expected[k] for k in expected.files if k.startswith("feed/")}
    (got,) = phi.static.Executor().run(program, feed, [program.value(last)], scope=scope)
    assert_same(got, expected[f"fetch/{last}"], f"{fixture.stem} {last}", RTOL["json"])
