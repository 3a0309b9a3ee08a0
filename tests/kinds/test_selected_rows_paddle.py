"""SelectedRows against PaddlePaddle 3.3.1 live (runs only where it is installed: the side venv):
the committed recording (tests/data/kinds_selected_rows.json) is what PaddlePaddle computes
today, and phiops trains the embedding cases to PaddlePaddle's parameters computed here."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.kinds import embedding_cases  # noqa: E402

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "kinds_selected_rows.json").read_text()
)
DATA = embedding_cases.inputs()


def test_gradients_are_what_paddle_gives_today() -> None:
    paddle.set_device("cpu")
    assert embedding_cases.sparse_gradients(paddle) == RECORD["gradients"]
    assert embedding_cases.sparse_gradients(phiops) == RECORD["gradients"]


@pytest.mark.parametrize("name", sorted(RECORD["training"]))
def test_phiops_trains_as_paddle(name: str) -> None:
    want = embedding_cases.train(paddle, name, DATA)
    got = embedding_cases.train(phiops, name, DATA)
    for key, value in want.items():
        np.testing.assert_allclose(got[key], value, rtol=2e-5, atol=2e-6, err_msg=f"{name}: {key}")
        np.testing.assert_allclose(
            value, np.asarray(RECORD["training"][name][key], np.float32), rtol=1e-6, atol=1e-7
        )
