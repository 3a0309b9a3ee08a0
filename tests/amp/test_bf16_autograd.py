"""bfloat16 tensors carry gradients (ml_dtypes' bfloat16 is numpy kind "V", not "f"), and the
autograd engine sums bfloat16 gradients, though neither PaddlePaddle 3.3.1 nor phiops registers
a bfloat16 CPU ``add``: in float32, rounded once. This is what makes O2 bfloat16 training run on
the CPU with FLAGS_amp_on_cpu (PaddlePaddle's amp does nothing on the CPU). Expected values are
numpy's, in float32 rounded to bfloat16."""

from __future__ import annotations

import numpy as np

import phiops as paddle
from phiops.runtime.common import DataType

BF16 = DataType.BFLOAT16.numpy_dtype


def _bf16(values) -> np.ndarray:
    return np.asarray(values, np.float32).astype(BF16)


def test_a_bfloat16_leaf_gets_its_gradient_through_a_cast() -> None:
    x = paddle.to_tensor(_bf16([[1.5, -2.0], [0.25, 3.0]]))
    x.stop_gradient = False
    y = x.astype("float32") * paddle.to_tensor(np.float32([[3.0, 0.5], [1.0, -1.0]]))
    assert not y.stop_gradient
    y.sum().backward()
    assert x.grad.dtype == paddle.bfloat16
    np.testing.assert_array_equal(x.grad.numpy().astype(np.float32), [[3.0, 0.5], [1.0, -1.0]])


def test_bfloat16_gradients_of_two_uses_and_two_passes_are_summed_in_float32() -> None:
    w = paddle.to_tensor(_bf16([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]))
    w.stop_gradient = False
    a = np.float32([[1.0, 3.0, -1.0], [0.5, 2.0, 7.0]]) / 3
    b = np.float32([[2.0, -1.0, 0.0], [1.0, 1.0, 9.0]]) / 7

    def loss() -> paddle.Tensor:
        # two casts: each hands w a bfloat16 gradient, which the engine sums at w
        first, second = w.astype("float32"), w.astype("float32")
        return (first * paddle.to_tensor(a)).sum() + (second * paddle.to_tensor(b)).sum()

    loss().backward()
    once = (a.astype(BF16).astype(np.float32) + b.astype(BF16).astype(np.float32)).astype(BF16)
    np.testing.assert_array_equal(w.grad.numpy(), once)
    loss().backward()  # accumulates into .grad
    twice = (once.astype(np.float32) * 2).astype(BF16)
    np.testing.assert_array_equal(w.grad.numpy(), twice)


def test_o2_bfloat16_training_on_the_cpu_lowers_the_loss(amp_on_cpu: None) -> None:
    paddle.seed(7)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 1))
    opt = paddle.optimizer.AdamW(0.05, parameters=model.parameters(), multi_precision=True)
    model, opt = paddle.amp.decorate(models=model, optimizers=opt, level="O2", dtype="bfloat16")
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.normal(size=(16, 4)).astype(np.float32))
    target = paddle.to_tensor(rng.normal(size=(16, 1)).astype(np.float32))
    losses = []
    for _ in range(15):
        with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
            out = model(x)
        loss = ((out.astype("float32") - target) ** 2).mean()
        loss.backward()
        assert model[0].weight.grad.dtype == paddle.bfloat16
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert model[0].weight.dtype == paddle.bfloat16
    assert losses[-1] < 0.7 * losses[0], losses
