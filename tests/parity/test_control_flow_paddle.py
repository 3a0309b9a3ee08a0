"""Control-flow programs against PaddlePaddle 3.3.1: the committed fixtures
(tests/data/control_flow/) are what PaddlePaddle builds and fetches today, and PaddlePaddle loads
the JSON of each phiops-built control-flow program and prints it as phiops loads it back (the
JSON holds no stop_gradient of block arguments, in either library). Runs only where PaddlePaddle
is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from tests.static.control_flow_cases import CASES, NOT_BUILT_BY_PHIOPS, phiops_library  # noqa: E402
from tests.static.test_control_flow_fixtures import DATA, PROGRAMS  # noqa: E402
from tests.tools import make_control_flow_fixtures as fixtures  # noqa: E402


def test_fixtures_are_what_paddle_builds_and_fetches_today(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fixtures, "OUT", tmp_path)
    try:
        fixtures.main()
    finally:
        paddle.disable_static()  # the other parity modules run PaddlePaddle eagerly
    assert json.loads((tmp_path / "programs.json").read_text("utf-8")) == PROGRAMS
    for name in PROGRAMS:
        made, committed = np.load(tmp_path / f"{name}.npz"), np.load(DATA / f"{name}.npz")
        assert sorted(made.files) == sorted(committed.files)
        for key in made.files:
            np.testing.assert_array_equal(made[key], committed[key], err_msg=f"{name} {key}")


@pytest.mark.parametrize("name", sorted(set(CASES) - set(NOT_BUILT_BY_PHIOPS)))
def test_paddle_loads_the_json_of_a_phiops_built_program(name: str, tmp_path: Path) -> None:
    from paddle.base import core

    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            CASES[name](phiops_library())
    finally:
        phi.disable_static()
    path = tmp_path / "program.json"
    phi.ir.save_program_json(main, path)
    paddle.enable_static()
    try:
        loaded = paddle.static.Program()
        core.deserialize_pir_program(str(path), loaded, -1)
        printed = str(loaded)
    finally:
        paddle.disable_static()
    assert printed == str(phi.ir.load_program_json(path))
