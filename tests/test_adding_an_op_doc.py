"""docs/adding_an_op.md shows logit's spec, prose, kernel and gradient case as they are in the
tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "adding_an_op.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.S)


def test_the_specs_shown_are_in_ops() -> None:
    api = (ROOT / "ops" / "api.yaml").read_text()
    docs = (ROOT / "ops" / "docs.yaml").read_text()
    backward = (ROOT / "ops" / "backward.yaml").read_text()
    shown = [block for block in blocks("yaml") if "logit" in block]
    assert len(shown) == 3
    assert shown[0] in api and shown[1] in docs and shown[2] in backward


def test_the_kernel_shown_is_the_kernel_file_without_its_docstring() -> None:
    source = (ROOT / "runtime" / "kernels" / "impl" / "logit_kernel.py").read_text()
    kernel = next(block for block in blocks("python") if "def logit_kernel" in block)
    assert kernel in source


def test_the_gradient_case_shown_is_in_the_gradient_checks() -> None:
    checks = (ROOT / "tests" / "autograd" / "test_gradcheck_ops.py").read_text()
    line = next(b for b in blocks("python") if b.startswith('case("logit"')).strip()
    assert line in checks


def test_the_traits_entry_shown_is_in_op_traits() -> None:
    traits = (ROOT / "ops" / "op_traits.yaml").read_text()
    shown = [block for block in blocks("yaml") if "op : subtract" in block]
    assert len(shown) == 1 and shown[0] in traits
