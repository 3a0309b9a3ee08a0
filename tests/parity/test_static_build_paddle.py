"""Programs built by phi.static against PaddlePaddle 3.3.1: the committed fixtures are what
PaddlePaddle builds today, and PaddlePaddle loads the JSON of each phiops-built program and prints
it as it prints its own. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from tests.static.build_cases import CASES, phiops_library  # noqa: E402
from tests.static.test_build_text import EXPECTED  # noqa: E402
from tests.tools import make_static_build_fixtures as fixtures  # noqa: E402


def _phi_programs(name: str) -> tuple[phi.static.Program, phi.static.Program]:
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            CASES[name](phiops_library())
    finally:
        phi.disable_static()
    return main, startup


def test_fixtures_are_what_paddle_builds_today(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fixtures, "OUT", tmp_path / "programs.json")
    try:
        fixtures.main()
    finally:
        paddle.disable_static()  # the other parity modules run PaddlePaddle eagerly
    assert json.loads((tmp_path / "programs.json").read_text("utf-8")) == EXPECTED


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("which", ["main", "startup"])
def test_paddle_loads_the_json_of_a_phiops_built_program(name, which, tmp_path: Path) -> None:
    from paddle.base import core

    program = dict(zip(("main", "startup"), _phi_programs(name)))[which]
    path = tmp_path / "program.json"
    phi.ir.save_program_json(program, path)
    paddle.enable_static()
    try:
        loaded = paddle.static.Program()
        core.deserialize_pir_program(str(path), loaded, -1)
        printed = str(loaded)
    finally:
        paddle.disable_static()
    assert printed == EXPECTED[name][which]
