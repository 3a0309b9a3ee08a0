"""paddle.amp on the GPU (CuPy), where it acts without FLAGS_amp_on_cpu. Skipped without a GPU."""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType

pytestmark = pytest.mark.gpu


@pytest.fixture
def on_gpu() -> Iterator[None]:
    previous = paddle.get_device()
    paddle.set_device("gpu")
    try:
        yield
    finally:
        paddle.set_device(previous)


def test_auto_cast_runs_matmul_in_float16_and_gradients_in_float32(on_gpu: None) -> None:
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((8, 16)).astype(np.float32))
    w = paddle.to_tensor(rng.standard_normal((16, 4)).astype(np.float32))
    w.stop_gradient = False
    with paddle.amp.auto_cast():
        out = paddle.matmul(x, w)
        soft = paddle.nn.functional.softmax(out)
    assert out.meta.dtype is DataType.FLOAT16
    assert soft.meta.dtype is DataType.FLOAT32
    np.testing.assert_allclose(
        out.numpy().astype(np.float32), x.numpy() @ w.numpy(), rtol=1e-2, atol=1e-2
    )
    soft.sum().backward()
    assert w.grad.meta.dtype is DataType.FLOAT32


def test_grad_scaler_is_enabled_and_scales(on_gpu: None) -> None:
    scaler = paddle.amp.GradScaler(init_loss_scaling=128.0)
    assert scaler.is_enable()
    layer = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
    with paddle.amp.auto_cast():
        loss = layer(paddle.ones([3, 4])).mean()
    scaled = scaler.scale(loss)
    np.testing.assert_allclose(float(scaled), float(loss) * 128, rtol=1e-3)
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    assert np.isfinite(layer.weight.numpy()).all()
