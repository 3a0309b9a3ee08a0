"""The nnmisc losses (runtime/nn/losses2.py, the op warpctc) against PaddlePaddle 3.3.1 itself:
every case of tests/tools/nnmisc_cases.py run live on both (results, dtypes, shapes and input
gradients), warpctc and its grad through ``_C_ops`` for both dtypes, and the recording in
tests/data/nnmisc/ checked against a fresh run. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
import phiops._C_ops  # noqa: E402,F401  (phiops._C_ops, as paddle._C_ops)
from tests.tools.nnmisc_cases import cases, inputs  # noqa: E402

ARRAYS = inputs()
RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "nnmisc" / "paddle_3_3_1.json").read_text()
)


def run(module: Any, fn: Any, names: list[str], n_grad: int) -> dict:
    tensors = []
    for index, name in enumerate(names):
        tensor = module.to_tensor(ARRAYS[name])
        tensor.stop_gradient = index >= n_grad
        tensors.append(tensor)
    out = fn(*tensors)
    if n_grad:
        weights = np.linspace(0.5, 1.5, max(out.size, 1)).astype(out.numpy().dtype)
        (out * module.to_tensor(weights.reshape(out.shape))).sum().backward()
    return {
        "out": out.numpy(),
        "shape": list(out.shape),
        "dtype": str(out.dtype).split(".")[-1],
        "grads": [t.grad.numpy() for t in tensors[:n_grad]],
    }


def assert_matches(got: dict, want: dict) -> None:
    assert got["shape"] == want["shape"] and got["dtype"] == want["dtype"]
    np.testing.assert_allclose(got["out"], np.asarray(want["out"]), rtol=2e-5, atol=2e-6)
    for grad, expected in zip(got["grads"], want["grads"], strict=True):
        np.testing.assert_allclose(grad, np.asarray(expected), rtol=2e-5, atol=2e-6)


def _case(kind: str, name: str, module: Any) -> tuple[Any, list[str], int]:
    functions, layers = cases(module)
    if kind == "functions":
        return functions[name]
    make, names, n_grad = layers[name]
    return make(), names, n_grad


KEYS = [("functions", n) for n in sorted(cases(phiops)[0])] + [
    ("layers", n) for n in sorted(cases(phiops)[1])
]


@pytest.mark.parametrize("kind, name", KEYS, ids=lambda v: v)
def test_phiops_equals_paddle_live(kind: str, name: str) -> None:
    assert_matches(run(phiops, *_case(kind, name, phiops)), run(paddle, *_case(kind, name, paddle)))


@pytest.mark.parametrize("kind, name", KEYS, ids=lambda v: v)
def test_the_recording_is_what_paddle_gives_now(kind: str, name: str) -> None:
    assert_matches(run(paddle, *_case(kind, name, paddle)), RECORDED[kind][name])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("norm_by_times", [False, True])
def test_warpctc_op_and_grad_equal_paddles(dtype: str, norm_by_times: bool) -> None:
    logits = ARRAYS["CTC_X64"].astype(dtype)
    label, lengths = ARRAYS["CTC_LABEL"], (ARRAYS["CTC_IN_LEN"], ARRAYS["CTC_LABEL_LEN"])

    def go(module: Any) -> tuple[np.ndarray, np.ndarray]:
        x = module.to_tensor(logits)
        x.stop_gradient = False
        loss = module._C_ops.warpctc(
            x, module.to_tensor(label), *(module.to_tensor(a) for a in lengths), 0, norm_by_times
        )
        (loss * module.to_tensor(np.array([[1.0], [-2.0], [0.5]], dtype))).sum().backward()
        return loss.numpy(), x.grad.numpy()

    (loss, grad), (want_loss, want_grad) = go(phiops), go(paddle)
    rtol = 2e-5 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(loss, want_loss, rtol=rtol)
    np.testing.assert_allclose(grad, want_grad, rtol=rtol, atol=rtol)
