"""Every fixture printed by PaddlePaddle 3.3.1 round-trips byte for byte, through text and JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

import phiops.generated as phi
from tests.ir.fixtures import JSONS, PRINT_IR, TEXTS, print_ir


def test_there_are_at_least_thirty_fixture_programs() -> None:
    assert len(TEXTS) >= 30 and len(JSONS) >= 25


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.stem)
def test_text_prints_back_byte_identical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    with print_ir(path.name in PRINT_IR):
        assert str(phi.ir.parse_program(text, path.name)) == text


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.stem)
def test_parse_print_parse_gives_an_equal_program(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    with print_ir(path.name in PRINT_IR):
        first = phi.ir.parse_program(text, path.name)
        second = phi.ir.parse_program(str(first), path.name)
    assert first == second


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.stem)
def test_json_prints_what_paddle_prints_for_it(path: Path) -> None:
    # PaddlePaddle's file drops block-argument attributes; where that changes the text,
    # the fixture script kept what PaddlePaddle prints for the loaded file
    expected = path.with_suffix(".from_json.txt")
    if not expected.exists():
        expected = path.with_suffix(".txt")
    assert str(phi.ir.load_program_json(path)) == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.stem)
@pytest.mark.parametrize("readable", [False, True])
def test_json_save_then_load_prints_the_same(path: Path, readable: bool, tmp_path: Path) -> None:
    program = phi.ir.load_program_json(path)
    out = tmp_path / "saved.json"
    phi.ir.save_program_json(program, out, readable=readable)
    assert (out.read_text().count("\n") > 0) == readable
    assert phi.ir.load_program_json(out) == program


def test_saved_json_keeps_exact_attribute_values(tmp_path: Path) -> None:
    program = phi.ir.load_program_json(JSONS[0].parent / "22_attribute_zoo.json")
    out = tmp_path / "zoo.json"
    phi.ir.save_program_json(program, out)
    values = [
        op.attributes["value"].value
        for op in phi.ir.load_program_json(out).walk()
        if op.name == "pd_op.full"
    ]
    assert 9007199254740992.0 in values and 123456789.0 in values


def test_text_with_block_arguments_saves_to_json_and_back(tmp_path: Path) -> None:
    path = TEXTS[0].parent / "19_while_loop.txt"
    program = phi.ir.parse_program(path.read_text(encoding="utf-8"))
    out = tmp_path / "w.json"
    phi.ir.save_program_json(program, out)
    assert str(phi.ir.load_program_json(out)) == (
        path.parent / "19_while_loop.from_json.txt"
    ).read_text(encoding="utf-8")
