"""The dgrad24 family against PaddlePaddle 3.3.1, live (runs only where PaddlePaddle is
installed): the second derivatives of every case of tests/tools/dgrad24_cases.py, through the
double grads of clip, pad, pad3d, pool2d, conv2d, conv3d, batch_norm and instance_norm, computed
by phiops and by PaddlePaddle with the same inputs; and the constant pads with a nonzero
pad_value, where phiops's second derivative is 0 on the border and PaddlePaddle's pad_value."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from tests.tools.dgrad24_cases import BORDER_CASES, CASES  # noqa: E402
from tests.tools.grad2_cases import derivatives  # noqa: E402


@pytest.mark.parametrize("entry", CASES, ids=[name for name, _, _ in CASES])
def test_second_derivatives_equal_paddles(entry: tuple) -> None:
    _, op, inputs = entry
    got = derivatives(phi, op, inputs, 2)
    want = derivatives(paddle, op, inputs, 2)
    for i, (actual, expected) in enumerate(zip(got, want)):
        np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=1e-11, err_msg=f"input {i}")


@pytest.mark.parametrize("entry", BORDER_CASES, ids=[case[0] for case in BORDER_CASES])
def test_constant_pads_differ_from_paddle_on_the_border_only(entry: tuple) -> None:
    _, op, inputs, widths, pad_value = entry
    got = derivatives(phi, op, inputs, 2)[-1]
    want = derivatives(paddle, op, inputs, 2)[-1]
    border = np.pad(np.zeros(inputs[0].shape, dtype=bool), widths, constant_values=True)
    np.testing.assert_array_equal(got[border], 0.0)
    np.testing.assert_array_equal(want[border], pad_value)
    np.testing.assert_allclose(got[~border], want[~border], rtol=1e-12)
