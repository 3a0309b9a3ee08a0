"""The grad2 family against PaddlePaddle 3.3.1, live (runs only where PaddlePaddle is installed):
the second and third derivatives of every case of tests/tools/grad2_cases.py, through the double
and triple grad kernels, computed by phiops and by PaddlePaddle with the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from tests.tools.grad2_cases import CASES, derivatives  # noqa: E402

ENTRIES = [(name, op, inputs, order) for name, op, inputs, orders in CASES for order in orders]


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e[0]}-order{e[3]}" for e in ENTRIES])
def test_derivatives_equal_paddles(entry: tuple) -> None:
    _, op, inputs, order = entry
    got = derivatives(phi, op, inputs, order)
    want = derivatives(paddle, op, inputs, order)
    for i, (actual, expected) in enumerate(zip(got, want)):
        np.testing.assert_allclose(actual, expected, rtol=1e-10, atol=1e-12, err_msg=f"input {i}")
