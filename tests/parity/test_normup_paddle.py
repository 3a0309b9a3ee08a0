"""The normalization, upsampling and rearranging functions and layers (and the rrelu op) against
PaddlePaddle 3.3.1 itself: every case of tests/tools/normup_cases.py run live on both (results,
dtypes, input gradients, and for layers parameter gradients and running statistics), and
rrelu's training mode, whose random slopes differ between the two, by their range and the
identity out = x * slope, grad = out_grad * slope. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.tools.normup_cases import cases, inputs  # noqa: E402

ARRAYS = inputs()
PADDLE_FUNCTIONS, PADDLE_LAYERS = cases(paddle)
PHIOPS_FUNCTIONS, PHIOPS_LAYERS = cases(phiops)


def run(module, fn, array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = module.to_tensor(array)
    x.stop_gradient = False
    out = fn(x)
    weights = module.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape)
    )
    (out * weights).sum().backward()
    return out.numpy(), x.grad.numpy()


@pytest.mark.parametrize("name", sorted(PADDLE_FUNCTIONS))
def test_function_equals_paddle_live(name: str) -> None:
    paddle_fn, array = PADDLE_FUNCTIONS[name]
    phiops_fn, _ = PHIOPS_FUNCTIONS[name]
    expected_out, expected_grad = run(paddle, paddle_fn, ARRAYS[array])
    out, grad = run(phiops, phiops_fn, ARRAYS[array])
    np.testing.assert_allclose(out, expected_out, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-4, atol=1e-5)


# PaddlePaddle's CPU build has no sync_batch_norm kernel (tests/nn/test_normup.py compares
# SyncBatchNorm with the recorded BatchNorm of the same state)
LIVE_LAYERS = sorted(name for name in PADDLE_LAYERS if not name.startswith("SyncBatchNorm"))


@pytest.mark.parametrize("name", LIVE_LAYERS)
def test_layer_equals_paddle_live(name: str) -> None:
    results = []
    for module, table in ((paddle, PADDLE_LAYERS), (phiops, PHIOPS_LAYERS)):
        make, array, training = table[name]
        layer = make()
        layer.train() if training else layer.eval()
        out, grad = run(module, layer, ARRAYS[array])
        state = {k: v.numpy() for k, v in layer.state_dict().items()}
        grads = {k: v.grad.numpy() for k, v in layer.state_dict().items() if v.grad is not None}
        results.append((out, grad, state, grads))
    (p_out, p_grad, p_state, p_grads), (out, grad, state, grads) = results
    np.testing.assert_allclose(out, p_out, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(grad, p_grad, rtol=1e-4, atol=1e-5)
    assert set(state) == set(p_state) and set(grads) == set(p_grads)
    for key in p_state:
        np.testing.assert_allclose(state[key], p_state[key], rtol=1e-5, atol=1e-6)
    for key in p_grads:
        np.testing.assert_allclose(grads[key], p_grads[key], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("module", [paddle, phiops], ids=["paddle", "phiops"])
def test_rrelu_training_slopes_lie_in_lower_upper_on_both(module) -> None:
    x_values = -np.linspace(0.5, 2.0, 1000).astype(np.float32)
    x = module.to_tensor(x_values)
    x.stop_gradient = False
    out = module.nn.functional.rrelu(x, 0.2, 0.5, training=True)
    out.backward(module.to_tensor(np.ones(1000, np.float32)))
    slopes = out.numpy() / x_values
    assert slopes.min() >= 0.2 - 1e-6 and slopes.max() <= 0.5 + 1e-6
    assert abs(slopes.mean() - 0.35) < 0.02
    np.testing.assert_allclose(x.grad.numpy(), slopes, rtol=1e-5)
