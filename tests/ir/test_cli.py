"""`python -m runtime.ir FILE... [--stats]` on every fixture and on a malformed file."""

from __future__ import annotations

from pathlib import Path

import pytest

from runtime.ir.__main__ import main
from tests.ir.fixtures import JSONS, PRINT_IR, TEXTS, print_ir


def test_cli_prints_every_text_fixture_back(capsys: pytest.CaptureFixture[str]) -> None:
    plain = [p for p in TEXTS if p.name not in PRINT_IR]
    assert main([str(p) for p in plain]) == 0
    assert capsys.readouterr().out == "".join(p.read_text(encoding="utf-8") for p in plain)


def test_cli_reads_json_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(p) for p in JSONS]) == 0
    out = capsys.readouterr().out
    assert out.count("{\n") >= len(JSONS)


def test_cli_keeps_print_ir_ids(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in TEXTS if p.name in PRINT_IR)
    with print_ir(True):
        assert main([str(path)]) == 0
    assert capsys.readouterr().out == path.read_text(encoding="utf-8")


def test_cli_stats_counts_ops_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in TEXTS if p.name == "18_cond.txt")
    assert main([str(path), "--stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path}: 14 ops"
    assert "       3  pd_op.full" in lines and "       1  pd_op.if" in lines


def test_cli_reports_the_located_error_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('{\n    (%0) = "pd_op.nope" () {} : () -> tensor<2xf32>\n}\n')
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f'{bad}:2:12: unknown op "pd_op.nope"')
    assert err.rstrip().endswith("^")
