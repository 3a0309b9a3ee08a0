"""The tutorials of examples/tutorials/, with their imports spelled as PaddlePaddle's, run on
PaddlePaddle 3.3.1 and reach the quality tests/test_tutorials.py asks of phiops (skipped without
PaddlePaddle)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("paddle")

from tests.test_tutorials import QUALITY  # noqa: E402
from tests.tutorials import TUTORIALS, paddle_source, run  # noqa: E402


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda path: path.stem)
def test_tutorial_on_paddle_reaches_the_same_bar(path: Path, tmp_path: Path) -> None:
    printed = run(paddle_source(path), sys.executable, tmp_path)
    for metric, (bound, kind) in QUALITY[path.stem].items():
        value = printed[metric]
        assert value >= bound if kind == "min" else value <= bound, (path.name, metric, value)
