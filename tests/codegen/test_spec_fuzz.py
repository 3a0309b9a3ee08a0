"""Fuzzing the generator with mutated specs: every outcome is either a SpecError whose every
diagnostic is located (file:line:col) or a clean generation whose package imports. Never another
exception, a hang or a crash. Bounded: about 200 specs in well under a minute."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files
from tests.codegen.project import REPO, SMALL_SPEC

BASE = textwrap.dedent(SMALL_SPEC).lstrip("\n")
LINES = BASE.splitlines()

# Pieces a mutation inserts: fragments of the spec grammar, hostile values, YAML structure.
PIECES = [
    "Tensor",
    "Tensor[]",
    "int",
    "int64_t[]",
    "Scalar",
    "Scalar(float)",
    "IntArray",
    "DataType",
    "Place",
    "bool",
    "str",
    "x",
    "y",
    "out",
    "shape",
    "value",
    "class",
    "name",
    "_x",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    "=",
    "->",
    "::",
    ":",
    "- ",
    "  ",
    "&a ",
    "*a",
    "!!python/name:os.system",
    "1 << 99999999999",
    "9" * 500,
    "1e999",
    "-" * 50 + "1",
    "(" * 40,
    "DataType::FLOAT8_E4M3FN",
    "DataLayout::NCDHW",
    "GPUPlace(3)",
    "__import__('os')",
    '"s"',
    "true",
    "null",
    "~",
    "{a: 1}",
    "[a, b]",
    "invoke : full(shape, 1)",
    "invoke : ones(shape)",
    "backward : add_grad",
    "optional : x",
    "inplace : (x -> out)",
    "param : [shape, dtype]",
    "data_type : dtype",
    "func : UnchangedInferMeta",
    "func : nope",
    "output : Tensor(out), Tensor(out)",
]

mutation = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, len(BASE)), st.sampled_from(PIECES)),
    st.tuples(st.just("delete"), st.integers(0, len(BASE)), st.integers(1, 12)),
    st.tuples(st.just("drop_line"), st.integers(0, len(LINES) - 1), st.just(0)),
    st.tuples(st.just("dup_line"), st.integers(0, len(LINES) - 1), st.just(0)),
    st.tuples(st.just("text"), st.integers(0, len(BASE)), st.text(max_size=6)),
)


def mutate(steps: list[tuple]) -> str:
    text = BASE
    for kind, where, what in steps:
        if kind == "insert" or kind == "text":
            where = min(where, len(text))
            text = text[:where] + what + text[where:]
        elif kind == "delete":
            where = min(where, len(text))
            text = text[:where] + text[where + what :]
        else:
            lines = text.splitlines(keepends=True)
            if not lines:
                continue
            index = where % len(lines)
            lines[index : index + 1] = [] if kind == "drop_line" else [lines[index]] * 2
            text = "".join(lines)
    return text


ACCEPTED: list[Path] = []


def _run(spec: str, workdir: Path) -> None:
    root = Path(tempfile.mkdtemp(dir=workdir))
    (root / "ops").mkdir()
    (root / "ops" / "api.yaml").write_text(spec, encoding="utf-8", errors="surrogatepass")
    shutil.copytree(REPO / "templates", root / "templates")
    try:
        manager = build_files(Project(root))
    except SpecError as error:
        assert error.diagnostics
        for diagnostic in error.diagnostics:
            assert diagnostic.loc is not None, f"unlocated: {diagnostic}\n--- spec:\n{spec}"
            assert diagnostic.loc.file == "ops/api.yaml" and diagnostic.loc.line >= 1
        shutil.rmtree(root)
        return
    manager.write()
    ACCEPTED.append(root)


_IMPORT_EACH = """
import os, sys
from phiops import runtime  # imported once; each generated package is imported in a forked child
failed = 0
for root in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:
        sys.path.insert(0, root)
        try:
            from phiops import generated
        except BaseException as error:
            print(f"{root}: {type(error).__name__}: {error}", flush=True)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    failed += status != 0
sys.exit(1 if failed else 0)
"""


def test_mutated_specs_give_located_errors_or_packages_that_import() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        ACCEPTED.clear()

        @settings(
            max_examples=200,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.lists(mutation, min_size=1, max_size=3))
        def one_spec(steps: list[tuple]) -> None:
            _run(mutate(steps), Path(workdir))

        one_spec()
        assert ACCEPTED, "no mutation generated a package: the fuzzer tests nothing"
        result = subprocess.run(
            [sys.executable, "-c", _IMPORT_EACH, *map(str, ACCEPTED)],
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
