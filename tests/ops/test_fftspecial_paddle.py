"""Parity of the fftspecial family with PaddlePaddle 3.3.1: results and gradients of every case
tests/tools/make_fftspecial_fixtures.py recorded into tests/data/fftspecial/paddle_3_3_1.json
(paddle.fft's functions and the fft_c2c/fft_r2c/fft_c2r ops, every registered dtype and norm,
cut and padded lengths, several axes), run on phiops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops
import phiops._C_ops  # noqa: F401  (the cases call phiops._C_ops.fft_*)
import phiops.fft  # noqa: F401
import phiops.signal  # noqa: F401
from tests.tools.make_fftspecial_fixtures import call, decode, inputs_of, resolve

DATA = Path(__file__).resolve().parents[1] / "data" / "fftspecial" / "paddle_3_3_1.json"
CASES: dict[str, dict[str, Any]] = json.loads(DATA.read_text())

# pocketfft in both, but PaddlePaddle's float32 transforms and numpy's differ in the last bits
TOLERANCE = {
    "float32": {"rtol": 2e-5, "atol": 2e-5},
    "complex64": {"rtol": 2e-5, "atol": 2e-5},
    "float64": {"rtol": 1e-12, "atol": 1e-12},
    "complex128": {"rtol": 1e-12, "atol": 1e-12},
}


def close(actual: np.ndarray, expected: np.ndarray, dtype: str) -> None:
    np.testing.assert_allclose(actual, expected, **TOLERANCE.get(dtype, {"rtol": 0, "atol": 0}))


def run_phiops(case: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    arrays = inputs_of(case)
    tensors = {
        name: phiops.to_tensor(
            array, stop_gradient=not (case["grad"] and "grads" in case and name in case["grads"])
        )
        for name, array in arrays.items()
    }
    out = call(resolve(phiops, case.get("phiops_fn", case["fn"])), case, tensors)
    return out, tensors


@pytest.mark.parametrize("key", sorted(CASES))
def test_result_matches_paddle(key: str) -> None:
    case = CASES[key]
    out, _ = run_phiops(case)
    assert str(out.dtype).replace("paddle.", "").lower().endswith(case["out_dtype"])
    assert list(out.shape) == case["out_shape"]
    close(out.numpy(), decode(case["out"], case["out_dtype"], case["out_shape"]), case["out_dtype"])


GRAD_CASES = sorted(key for key, case in CASES.items() if case.get("grads"))


@pytest.mark.parametrize("key", GRAD_CASES)
def test_gradient_matches_paddle(key: str) -> None:
    case = CASES[key]
    out, tensors = run_phiops(case)
    out_grad = phiops.to_tensor(decode(case["out_grad"], case["out_dtype"], case["out_shape"]))
    wanted = [tensors[name] for name in case["grads"]]
    grads = phiops.grad(out, wanted, grad_outputs=out_grad, allow_unused=True)
    for (name, expected), grad in zip(case["grads"].items(), grads):
        spec = case["inputs"][name]
        assert (grad is None) == (expected is None), name
        if expected is not None:
            close(grad.numpy(), decode(expected, spec["dtype"], spec["shape"]), spec["dtype"])


def test_the_recording_covers_every_paddle_fft_function_and_op() -> None:
    functions = {case["fn"] for case in CASES.values()}
    assert {f"fft.{name}" for name in phiops.fft.__all__} <= functions
    assert {"_C_ops.fft_c2c", "_C_ops.fft_r2c", "_C_ops.fft_c2r"} <= functions
