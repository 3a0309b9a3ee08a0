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


# PaddlePaddle 3.3.1's non-lazy Adam on a SelectedRows gradient sometimes moves a row no batch
# ever touches when it runs after many other tests (seen in the parity record's run: row 33 of
# "adam" moved by 0.19, where a row with zero gradient and zero moments cannot move; alone it
# gives the committed recording). There the untouched rows are compared with the recording.
UNSTABLE_UNTOUCHED_ROWS = {"adam"}


@pytest.mark.parametrize("name", sorted(RECORD["training"]))
def test_phiops_trains_as_paddle(name: str) -> None:
    want = embedding_cases.train(paddle, name, DATA)
    got = embedding_cases.train(phiops, name, DATA)
    recorded = {k: np.asarray(v, np.float32) for k, v in RECORD["training"][name].items()}
    for key, value in want.items():
        if key == "embedding" and name in UNSTABLE_UNTOUCHED_ROWS:
            touched = embedding_cases.TOUCHED
            np.testing.assert_allclose(got[key][:touched],
                                       value[:touched], rtol=2e-5, atol=2e-6)  # fmt: skip
            np.testing.assert_allclose(got[key][touched:], recorded[key][touched:], rtol=2e-5)
            continue
        np.testing.assert_allclose(got[key], value, rtol=2e-5, atol=2e-6, err_msg=f"{name}: {key}")
        np.testing.assert_allclose(value, recorded[key], rtol=1e-6, atol=1e-7)
