"""The static training fixtures (tests/data/static_training/) are what PaddlePaddle 3.3.1 builds
and computes today. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

from tests.tools import make_static_training_fixtures as fixtures  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "static_training"


def test_fixtures_are_what_paddle_builds_and_computes_today(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fixtures, "OUT", tmp_path)
    try:
        fixtures.main()
    finally:
        paddle.disable_static()  # the other parity modules run PaddlePaddle eagerly
    for name in fixtures.CASES:
        fresh = json.loads((tmp_path / f"{name}.json").read_text("utf-8"))
        assert fresh == json.loads((DATA / f"{name}.json").read_text("utf-8")), name
        fresh_arrays, committed = np.load(tmp_path / f"{name}.npz"), np.load(DATA / f"{name}.npz")
        assert sorted(fresh_arrays.files) == sorted(committed.files), name
        for key in committed.files:
            np.testing.assert_allclose(fresh_arrays[key], committed[key], rtol=1e-6, err_msg=key)
