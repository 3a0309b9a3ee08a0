"""Gradient-check cases of the quant24 quantize-dequantize ops (fake_quantize_dequantize_abs_max,
fake_channel_wise_quantize_dequantize_abs_max, fake_quantize_dequantize_moving_average_abs_max),
for CASES in test_gradcheck_ops.py.

Their kernels are float32 only, so each case casts its float64 input to float32 and back. Their
gradient is the straight-through estimator: the identity, the derivative of the function that
quantization approximates, not of the staircase itself. With 16 bits a step is 1/32767 of the
scale, so finite differences over steps of 1e-2 see the identity to within 1e-2 (a tolerance
that a wrong gradient, e.g. zero or doubled, is far outside)."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform

_COARSE = {"eps": 1e-2, "rtol": 1e-2, "atol": 1e-2}


def _through_float32(fn):
    return lambda x: phi.cast(fn(phi.cast(x, phi.float32)), phi.float64)


def _one(value: float) -> phi.Tensor:
    return phi.to_tensor(np.array([value], np.float32))


def quant24_cases() -> list[Case]:
    return [
        case(
            "fake_quantize_dequantize_abs_max",
            "[2,3]-16bits",
            _through_float32(lambda x: C.fake_quantize_dequantize_abs_max(x, 16, 1)[0]),
            uniform((2, 3), 2401),
            **_COARSE,
        ),
        case(
            "fake_channel_wise_quantize_dequantize_abs_max",
            "[3,2]-16bits-axis1",
            _through_float32(
                lambda x: C.fake_channel_wise_quantize_dequantize_abs_max(x, 16, 1, 1)[0]
            ),
            uniform((3, 2), 2402),
            **_COARSE,
        ),
        case(
            "fake_quantize_dequantize_moving_average_abs_max",
            "[2,3]-16bits",
            _through_float32(
                lambda x: C.fake_quantize_dequantize_moving_average_abs_max(
                    x, _one(2.0), _one(4.0), _one(1.0), 0.9, 16, False, 1
                )[0]
            ),
            uniform((2, 3), 2403, -1.5, 1.5),
            **_COARSE,
        ),
    ]


QUANT24_CASES = quant24_cases()
