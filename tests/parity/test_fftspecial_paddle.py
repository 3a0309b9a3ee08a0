"""The fftspecial family against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_fftspecial_fixtures.py records, run live on both (results, dtypes, shapes and
gradients), and the recording in tests/data/fftspecial/ checked against a fresh run. Runs only
where PaddlePaddle is installed."""

from __future__ import annotations

import json

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_fftspecial_paddle import DATA, close, run_phiops  # noqa: E402
from tests.tools.make_fftspecial_fixtures import cases, decode, run_paddle  # noqa: E402

CASES = cases()
RECORDED = json.loads(DATA.read_text())


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    expected = {**case, **run_paddle(case)}
    out, tensors = run_phiops(expected)
    assert str(out.dtype).lower().endswith(expected["out_dtype"])
    assert list(out.shape) == expected["out_shape"]
    close(
        out.numpy(),
        decode(expected["out"], expected["out_dtype"], expected["out_shape"]),
        expected["out_dtype"],
    )
    if expected.get("grads"):
        out_grad = phiops.to_tensor(
            decode(expected["out_grad"], expected["out_dtype"], expected["out_shape"])
        )
        wanted = [tensors[name] for name in expected["grads"]]
        grads = phiops.grad(out, wanted, grad_outputs=out_grad, allow_unused=True)
        for (name, want), grad in zip(expected["grads"].items(), grads):
            spec = case["inputs"][name]
            assert (grad is None) == (want is None), name
            if want is not None:
                close(grad.numpy(), decode(want, spec["dtype"], spec["shape"]), spec["dtype"])


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    fresh = json.loads(json.dumps({**CASES[key], **run_paddle(CASES[key])}))
    recorded = RECORDED[key]
    assert fresh.keys() == recorded.keys()
    for field in ("fn", "inputs", "args", "kwargs", "grad", "out_dtype", "out_shape"):
        assert fresh[field] == recorded[field], field
    np.testing.assert_array_equal(np.array(fresh["out"]), np.array(recorded["out"]))
