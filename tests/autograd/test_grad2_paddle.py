"""Second and third derivatives of the grad2 family's ops against PaddlePaddle 3.3.1's, recorded
by tests/tools/make_grad2_fixtures.py into tests/data/grad2_paddle_derivatives.json from the
cases of tests/tools/grad2_cases.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from tests.tools.grad2_cases import CASES, derivatives

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "grad2_paddle_derivatives.json").read_text()
)["derivatives"]

ENTRIES = [(name, op, inputs, order) for name, op, inputs, orders in CASES for order in orders]


def test_the_recording_has_every_case() -> None:
    assert sorted(RECORD) == sorted(f"{name}/{order}" for name, _, _, order in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e[0]}-order{e[3]}" for e in ENTRIES])
def test_derivatives_equal_paddles(entry: tuple) -> None:
    name, op, inputs, order = entry
    got = derivatives(paddle, op, inputs, order)
    for i, (actual, expected) in enumerate(zip(got, RECORD[f"{name}/{order}"])):
        np.testing.assert_allclose(
            actual, np.asarray(expected), rtol=1e-10, atol=1e-12, err_msg=f"input {i}"
        )
