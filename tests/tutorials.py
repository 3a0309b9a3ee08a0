"""The tutorials of examples/tutorials/: PaddlePaddle code whose only lines naming phiops are
imports. ``paddle_source`` turns one into the code PaddlePaddle runs; ``run`` runs a tutorial's
source in a fresh interpreter and returns the numbers it printed."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((REPO / "examples" / "tutorials").glob("*.py"))

# The phiops import lines a tutorial may hold, and their PaddlePaddle spelling.
IMPORT = re.compile(r"^(import phiops(\.[\w.]+)? as \w+|from phiops(\.[\w.]+)? import [\w, ]+)$")
RESULT = re.compile(r"^(test [\w ]+?) ([-+0-9.e]+)$", re.MULTILINE)


def code_lines_naming_phiops(path: Path) -> list[tuple[int, str]]:
    """(line number, line) of every line whose code (not a string or comment) names phiops."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string == "phiops":
            found.add(token.start[0])
    return [(number, lines[number - 1]) for number in sorted(found)]


def paddle_source(path: Path) -> str:
    """The tutorial with its phiops imports spelled as PaddlePaddle's."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if IMPORT.match(line):
            line = line.replace("import phiops as paddle", "import paddle")
            line = re.sub(r"\bphiops\b", "paddle", line)
        out.append(line)
    return "\n".join(out) + "\n"


def run(source: str, python: str, cwd: Path, timeout: float = 240) -> dict[str, float]:
    """Run ``source`` with ``python`` in ``cwd`` (from a file there: PaddlePaddle's
    ``jit.save`` reads the source of the layer it converts); the ``test <metric> <value>`` lines
    it printed."""
    script = cwd / "tutorial.py"
    script.write_text(source, encoding="utf-8")
    result = subprocess.run(
        [python, str(script)], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return {name: float(value) for name, value in RESULT.findall(result.stdout)}
