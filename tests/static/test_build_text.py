"""Programs built by phiops print exactly as PaddlePaddle 3.3.1 prints the same construction.

The expected text is tests/data/static_build/programs.json, written by
tests/tools/make_static_build_fixtures.py with PaddlePaddle from the cases in
tests/static/build_cases.py; here the same cases are built with phiops.
"""

from __future__ import annotations

import json
from pathlib import Path
import pytest

import phiops.generated as phi
from tests.static.build_cases import CASES, phiops_library

EXPECTED = json.loads(
    (Path(__file__).parents[1] / "data" / "static_build" / "programs.json").read_text("utf-8")
)
LIB = phiops_library()


def test_every_fixture_has_a_twin():
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_main_program_prints_as_paddle(name, programs):
    main, _ = programs
    CASES[name](LIB)
    assert str(main) == EXPECTED[name]["main"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_startup_program_prints_as_paddle(name, programs):
    _, startup = programs
    CASES[name](LIB)
    assert str(startup) == EXPECTED[name]["startup"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_built_program_verifies_and_parses_back(name, programs):
    main, startup = programs
    CASES[name](LIB)
    for program in (main, startup):
        phi.ir.verify(program)
        assert phi.ir.parse_program(str(program)) == phi.ir.parse_program(str(program))
        assert str(phi.ir.parse_program(str(program))) == str(program)
