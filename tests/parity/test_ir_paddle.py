"""phi.ir's JSON files against PaddlePaddle 3.3.1: what save_program_json writes, PaddlePaddle
loads and prints as the fixture's text. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from tests.ir.fixtures import JSONS, TEXTS  # noqa: E402

# PaddlePaddle 3.3.1 cannot load its own files for these (float8 dtypes; non-finite "VD" values)
PADDLE_CANNOT_LOAD = {"08_casts", "22_attribute_zoo"}
TEXT_ONLY = [p for p in TEXTS if not p.with_suffix(".json").exists() and "print_ir" not in p.name]


def _paddle_prints(path: Path) -> str:
    from paddle.base import core

    paddle.enable_static()
    try:
        program = paddle.static.Program()
        core.deserialize_pir_program(str(path), program, -1)
        return str(program)
    finally:
        paddle.disable_static()  # the other parity modules run PaddlePaddle eagerly


@pytest.mark.parametrize(
    "path", [p for p in JSONS if p.stem not in PADDLE_CANNOT_LOAD], ids=lambda p: p.stem
)
def test_paddle_loads_what_save_program_json_writes(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "saved.json"
    phi.ir.save_program_json(phi.ir.load_program_json(path), out)
    expected = path.with_suffix(".from_json.txt")
    if not expected.exists():
        expected = path.with_suffix(".txt")
    assert _paddle_prints(out) == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", TEXTS[:20], ids=lambda p: p.stem)
def test_paddle_loads_a_program_parsed_from_text(path: Path, tmp_path: Path) -> None:
    if path.stem in PADDLE_CANNOT_LOAD or path in TEXT_ONLY:
        pytest.skip("PaddlePaddle cannot serialize or load this program")
    out = tmp_path / "saved.json"
    phi.ir.save_program_json(phi.ir.parse_program(path.read_text(encoding="utf-8")), out)
    assert (
        str(phi.ir.load_program_json(out))
        == phi.ir.load_program_json(path.with_suffix(".json")).__str__()
    )
    _paddle_prints(out)
