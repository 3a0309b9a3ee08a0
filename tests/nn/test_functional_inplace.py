"""F.tanh_ and F.thresholded_relu_ (runtime/nn/activation.py): the out-of-place result written
into x (the same object, its version bumped), gradients through a non-leaf, and a leaf that needs
a gradient refused, as PaddlePaddle's in-place functions do."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import PhiError

F = paddle.nn.functional
X = np.array([-1.5, 0.5, 1.0, 2.5], np.float32)
CASES = {
    "tanh_": (lambda x: F.tanh_(x), lambda x: F.tanh(x)),
    "thresholded_relu_": (
        lambda x: F.thresholded_relu_(x, 0.8, -1.0),
        lambda x: F.thresholded_relu(x, 0.8, -1.0),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_writes_the_result_into_x(name: str) -> None:
    inplace, outplace = CASES[name]
    x = paddle.to_tensor(X)
    version = x.inplace_version
    out = inplace(x)
    assert out is x and x.inplace_version == version + 1
    np.testing.assert_array_equal(x.numpy(), outplace(paddle.to_tensor(X)).numpy())


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_through_a_non_leaf_and_leaf_refused(name: str) -> None:
    inplace, outplace = CASES[name]
    leaf = paddle.to_tensor(X, stop_gradient=False)
    paddle.sum(inplace(leaf * 1.0)).backward()
    expected = paddle.to_tensor(X, stop_gradient=False)
    paddle.sum(outplace(expected * 1.0)).backward()
    np.testing.assert_allclose(leaf.grad.numpy(), expected.grad.numpy(), rtol=1e-6)
    with pytest.raises(PhiError, match="leaf"):
        inplace(paddle.to_tensor(X, stop_gradient=False))
