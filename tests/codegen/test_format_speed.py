"""black's part in generation: the pd_op table is not formatted but proven stable, and black's
results are cached, so a regeneration whose file bodies did not change formats (almost) nothing."""

from __future__ import annotations

import os
from pathlib import Path

import black
import pytest

import phiops.codegen.render as render
from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files
from tests.codegen.project import REPO, make_project

MODE = black.Mode(line_length=100, target_versions={black.TargetVersion.PY310})


@pytest.fixture
def black_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """black runs of this test (first lines of their inputs), with an empty cache in tmp_path."""
    calls: list[str] = []
    real = black.format_str

    def counting(source: str, *, mode: black.Mode) -> str:
        calls.append(source.splitlines()[0] if source else "")
        return real(source, mode=mode)

    monkeypatch.setattr(black, "format_str", counting)
    monkeypatch.setattr(render, "_CACHE_DIR", tmp_path / "black-cache")
    return calls


def test_the_committed_pd_op_table_is_black_formatted() -> None:
    text = (REPO / "generated" / "pd_op_dialect.py").read_text(encoding="utf-8")
    body = text.split("\n", 2)[2]  # after the two header lines
    assert black.format_str(body, mode=MODE) == body


def test_pd_op_table_is_checked_by_black_without_its_rows(black_calls: list[str]) -> None:
    rendered = "x = 1\n# fmt: off\nOPS = {\n    'a':   1,\n}\n# fmt: on\n"
    skeleton = "x = 1\n# fmt: off\nOPS = {\n}\n# fmt: on\n"
    assert render.format_source(rendered, "generated/t.py", skeleton) == rendered
    assert black_calls == ["x = 1"]


def test_a_table_template_that_black_would_change_is_a_codegen_bug(black_calls) -> None:
    skeleton = "x=1\n# fmt: off\nOPS = {\n}\n# fmt: on\n"
    with pytest.raises(SpecError, match="not black-formatted outside its '# fmt: off' table"):
        render.format_source(skeleton, "generated/t.py", skeleton)


def test_a_second_format_of_the_same_source_is_read_from_the_cache(black_calls) -> None:
    source = "def f( a ):\n  return a\n"
    first = render.format_source(source, "generated/t.py")
    second = render.format_source(source, "generated/t.py")
    assert first == second == "def f(a):\n    return a\n"
    assert len(black_calls) == 1


def test_a_damaged_cache_entry_is_formatted_again(black_calls) -> None:
    source = "def f( a ):\n  return a\n"
    render.format_source(source, "generated/t.py")
    (entry,) = render._CACHE_DIR.glob("*.txt")
    digest, _, text = entry.read_text().partition("\n")
    entry.write_text(digest + "\n" + text.replace("return a", "return b"))
    assert render.format_source(source, "generated/t.py") == "def f(a):\n    return a\n"
    assert len(black_calls) == 2


def test_regeneration_with_unchanged_bodies_formats_only_the_init(
    tmp_path: Path, black_calls: list[str]
) -> None:
    root = make_project(tmp_path / "proj")
    build_files(Project(root)).write()
    first = len(black_calls)
    # a new fingerprint (the specs' bytes changed) but the same ops: only __init__.py, which
    # embeds the run's fingerprint, has a new body
    spec = root / "ops" / "api.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    build_files(Project(root)).write()
    assert first >= 6
    assert len(black_calls) - first == 1
    assert black_calls[-1].startswith('"""phiops.generated: every op')


def test_the_cache_keeps_only_the_entries_used_last(black_calls) -> None:
    for n in range(5):
        render.format_source(f"x = {n}\n", "generated/t.py")
    for entry in render._CACHE_DIR.glob("*.txt"):
        n = int(entry.read_text().partition("\n")[2].split("=")[1])
        os.utime(entry, (1_000_000 + n, 1_000_000 + n))
    render.prune_black_cache(keep=2)
    kept = sorted(p.read_text().partition("\n")[2] for p in render._CACHE_DIR.glob("*.txt"))
    assert kept == ["x = 3\n", "x = 4\n"]
