"""Second derivatives of the dgrad24 family's ops (clip, pad, pad3d, pool2d, conv2d, conv3d,
batch_norm, instance_norm) against PaddlePaddle 3.3.1's, recorded by
tests/tools/make_dgrad24_fixtures.py into tests/data/dgrad24_paddle_derivatives.json from the
cases of tests/tools/dgrad24_cases.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from tests.tools.dgrad24_cases import BORDER_CASES, CASES
from tests.tools.grad2_cases import derivatives

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "dgrad24_paddle_derivatives.json").read_text()
)["derivatives"]


def test_the_recording_has_every_case() -> None:
    assert sorted(RECORD) == sorted(case[0] for case in CASES + BORDER_CASES)


@pytest.mark.parametrize("entry", CASES, ids=[name for name, _, _ in CASES])
def test_second_derivatives_equal_paddles(entry: tuple) -> None:
    name, op, inputs = entry
    got = derivatives(paddle, op, inputs, 2)
    for i, (actual, expected) in enumerate(zip(got, RECORD[name])):
        np.testing.assert_allclose(
            actual, np.asarray(expected), rtol=1e-9, atol=1e-11, err_msg=f"input {i}"
        )


@pytest.mark.parametrize("entry", BORDER_CASES, ids=[case[0] for case in BORDER_CASES])
def test_constant_pad_double_grads_are_zero_on_the_border_where_paddles_hold_pad_value(
    entry: tuple,
) -> None:
    name, op, inputs, widths, pad_value = entry
    x_grad, grad_out_grad = derivatives(paddle, op, inputs, 2)
    paddle_x_grad, paddle_grad_out_grad = (np.asarray(g) for g in RECORD[name])
    border = np.pad(np.zeros(inputs[0].shape, dtype=bool), widths, constant_values=True)
    np.testing.assert_array_equal(x_grad, paddle_x_grad)
    np.testing.assert_array_equal(grad_out_grad[border], 0.0)
    np.testing.assert_array_equal(paddle_grad_out_grad[border], pad_value)
    np.testing.assert_allclose(grad_out_grad[~border], paddle_grad_out_grad[~border], rtol=1e-12)
