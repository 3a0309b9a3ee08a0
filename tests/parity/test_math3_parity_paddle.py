"""The math3 ops (atan2, copysign, nextafter, heaviside, lerp, angle, real, imag, conj, complex,
as_complex, as_real) against PaddlePaddle 3.3.1 itself: every case tests/tools/make_math3_fixtures.py records, run live on both (results,
dtypes, shapes and gradients), and the recording in tests/data/math3/ checked against a fresh
run. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import json

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

from tests.ops.test_math3_paddle import DATA, TOLERANCE, call, compared, phiops_inputs  # noqa: E402
from tests.tools.make_math3_fixtures import as_numpy, cases, run_paddle  # noqa: E402

import phiops.generated as phi  # noqa: E402

CASES = cases()
RECORDED = json.loads(DATA.read_text())


def close(actual: np.ndarray, expected: np.ndarray, dtype: str) -> None:
    np.testing.assert_allclose(actual, expected, **TOLERANCE.get(dtype, {"rtol": 0, "atol": 0}))


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    expected = run_paddle(case)
    tensors = phiops_inputs(case, stop_gradient=not case["grad"])
    out = call(case, tensors)
    assert str(out.dtype).replace("paddle.", "").lower().endswith(expected["out_dtype"])
    assert list(out.shape) == expected["out_shape"]
    out_dtype = "float32" if expected["out_dtype"] == "bfloat16" else expected["out_dtype"]
    close(
        compared(out.numpy()).reshape(-1),
        as_numpy(expected["out"], out_dtype),
        expected["out_dtype"],
    )
    if case["grad"]:
        out_grad = phi.to_tensor(
            as_numpy(expected["out_grad"], expected["out_dtype"]).reshape(out.shape)
        )
        grads = phi.grad(out, list(tensors.values()), grad_outputs=out_grad, allow_unused=True)
        for name, grad in zip(tensors, grads):
            want = expected["grads"][name]
            assert (grad is None) == (want is None), name
            if want is not None:
                close(grad.numpy().reshape(-1), as_numpy(want, case["dtype"]), case["dtype"])


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    fresh = json.loads(json.dumps({**CASES[key], **run_paddle(CASES[key])}))
    recorded = RECORDED[key]
    assert fresh.keys() == recorded.keys()
    for field in ("op", "via", "dtype", "args", "grad", "out_dtype", "out_shape"):
        assert fresh[field] == recorded[field], field
    np.testing.assert_array_equal(fresh["out"], recorded["out"])
