"""PaddlePaddle tutorials run on phiops with only their import lines changed
(examples/tutorials/), and reach the quality PaddlePaddle 3.3.1 reaches on them (the expected
figures below were read from PaddlePaddle runs of the same files, tests/parity/test_tutorials_paddle.py
compares live where PaddlePaddle is installed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.tutorials import IMPORT, TUTORIALS, code_lines_naming_phiops, paddle_source, run

# tutorial -> {printed metric: (bound, "min" or "max")}. PaddlePaddle 3.3.1 printed, running the
# same files: cnn_lr_metrics test top1 0.6523, top2 0.8828; dataloader_mlp test accuracy 0.8535;
# static_graph test mse 0.000002; transformer_jit_save test accuracy 1.0000, jit max abs
# difference 0.00e+00.
QUALITY = {
    "cnn_lr_metrics": {"test top1": (0.60, "min"), "test top2": (0.80, "min")},
    "dataloader_mlp": {"test accuracy": (0.80, "min")},
    "static_graph": {"test mse": (1e-4, "max")},
    "transformer_jit_save": {
        "test accuracy": (0.90, "min"),
        "test jit max abs difference": (1e-5, "max"),
    },
}


def test_every_tutorial_has_a_quality_bar() -> None:
    assert sorted(path.stem for path in TUTORIALS) == sorted(QUALITY)


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda path: path.stem)
def test_only_import_lines_name_phiops(path: Path) -> None:
    lines = code_lines_naming_phiops(path)
    assert lines, f"{path.name} imports nothing from phiops"
    others = [f"{path.name}:{number}: {line}" for number, line in lines if not IMPORT.match(line)]
    assert not others, "lines naming phiops that are not imports:\n" + "\n".join(others)


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda path: path.stem)
def test_tutorial_runs_and_reaches_paddles_quality(path: Path, tmp_path: Path) -> None:
    printed = run(path.read_text(encoding="utf-8"), sys.executable, tmp_path)
    for metric, (bound, kind) in QUALITY[path.stem].items():
        assert metric in printed, f"{path.name} printed no '{metric}' line: {printed}"
        value = printed[metric]
        assert value >= bound if kind == "min" else value <= bound, (path.name, metric, value)


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda path: path.stem)
def test_the_paddle_version_imports_paddle_only(path: Path) -> None:
    code = paddle_source(path)
    assert "import paddle\n" in code
    assert not any(IMPORT.match(line) for line in code.splitlines())


def test_the_import_check_catches_a_phiops_call(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('import phiops as paddle\nx = phiops.ones([2])\ns = "phiops in a string"\n')
    lines = code_lines_naming_phiops(bad)
    assert [number for number, _ in lines] == [1, 2]
    assert [number for number, line in lines if not IMPORT.match(line)] == [2]
