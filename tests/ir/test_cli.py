"""`phiops ir FILE... [--stats]` on every fixture and on a malformed file."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from phiops.runtime.ir.__main__ import main
from phiops.runtime.ir.plugins import ENTRY_POINT_GROUP
from tests.ir.fixtures import JSONS, PRINT_IR, TEXTS, print_ir

REPO = Path(__file__).resolve().parents[2]


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


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_importing_runtime_ir_does_not_import_generated() -> None:
    result = _python(
        "import sys, phiops.runtime.ir, phiops.runtime.ir.__main__, phiops.runtime.ir.plugins; "
        "print(sorted(m for m in sys.modules if m.startswith('phiops.generated')))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_cli_finds_phiops_own_pd_op_table() -> None:
    fixture = next(p for p in TEXTS if p.name == "18_cond.txt")
    result = _python("", "-m", "phiops", "ir", str(fixture))
    assert result.returncode == 0, result.stderr
    assert result.stdout == fixture.read_text(encoding="utf-8")


def test_phiops_own_pd_op_table_needs_no_entry_point() -> None:
    """The dialect entry points are for other packages; phiops's generated table is imported by
    name, so a bare checkout (nothing installed) has it too."""
    entries = {e.name: e.value for e in entry_points(group=ENTRY_POINT_GROUP)}
    assert "phiops.generated.pd_op_dialect" not in entries.values()
    result = _python(
        "import sys; sys.path[:] = [p for p in sys.path if 'site-packages' not in p or "
        "'__editable__' not in p]; "
        "from phiops.runtime.ir.plugins import load_dialect_plugins; "
        "from phiops.runtime.ir.dialects.pd_op import has_op_table; "
        "load_dialect_plugins(); print(has_op_table())"
    )
    assert result.stdout.strip() == "True", result.stderr


def test_the_cli_without_a_pd_op_table_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import phiops.runtime.ir.__main__ as cli
    from phiops.runtime.ir.dialects import pd_op

    monkeypatch.setattr(pd_op, "_TABLE", {})
    monkeypatch.setattr("phiops.runtime.ir.plugins.OWN_OP_TABLE", "phiops.no_such_module")
    monkeypatch.setattr("phiops.runtime.ir.plugins.entry_points", lambda group: [])
    assert cli.main([str(TEXTS[0])]) == 1
    err = capsys.readouterr().err
    assert err.startswith("phiops ir: no op table for the pd_op dialect is registered")
    assert "phiops codegen" in err


def test_no_runtime_module_imports_generated() -> None:
    importers = []
    for path in sorted((REPO / "runtime").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            if any(
                name.split(".")[:2] in (["generated"], ["phiops", "generated"]) for name in names
            ):
                importers.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert importers == []


def test_parsing_a_program_needs_no_import_of_the_generated_table_first() -> None:
    """The runtime finds phiops's own pd_op table the first time a pd_op op is looked up."""
    fixture = next(p for p in TEXTS if p.name == "18_cond.txt")
    result = _python(
        "import sys\n"
        "from phiops.runtime.ir import parse_program\n"
        f"text = open({str(fixture)!r}, encoding='utf-8').read()\n"
        "print(str(parse_program(text)) == text, 'phiops.generated' in sys.modules)"
    )
    assert result.stdout.split() == ["True", "True"], result.stderr
