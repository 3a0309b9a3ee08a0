"""paddle.nn.Parameter (runtime/nn/layer.py): made from a tensor (sharing its storage) or from a
shape and dtype; registered on a Layer whether trainable or not; trained by an optimizer;
isinstance tells parameters from other tensors; bad arguments named."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError


def test_from_a_tensor_shares_its_storage_and_trains() -> None:
    data = paddle.to_tensor([1.0, 2.0, 3.0])
    w = paddle.nn.Parameter(data)
    assert isinstance(w, paddle.Tensor) and isinstance(w, paddle.nn.Parameter)
    assert not w.stop_gradient and w.name.startswith("_eager_param_base_")
    assert not isinstance(data, paddle.nn.Parameter)
    with paddle.no_grad():
        data.scale_(2.0)
    np.testing.assert_array_equal(w.numpy(), [2.0, 4.0, 6.0])
    optimizer = paddle.optimizer.SGD(0.5, parameters=[w])
    paddle.sum(w * w).backward()
    np.testing.assert_array_equal(w.grad.numpy(), [4.0, 8.0, 12.0])
    optimizer.step()
    np.testing.assert_array_equal(w.numpy(), [0.0, 0.0, 0.0])


def test_from_a_shape_and_on_a_layer() -> None:
    class Model(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.frozen = paddle.nn.Parameter(paddle.to_tensor([1.0]), requires_grad=False)
            self.weight = paddle.nn.Parameter([2, 3], "float64", name="my_weight")

    model = Model()
    params = dict(model.named_parameters())
    assert list(params) == ["frozen", "weight"]
    assert params["frozen"].stop_gradient and not params["weight"].stop_gradient
    assert params["weight"].name == "my_weight" and params["weight"].dtype == paddle.float64
    np.testing.assert_array_equal(params["weight"].numpy(), np.zeros((2, 3)))
    assert isinstance(paddle.nn.Linear(2, 2).weight, paddle.nn.Parameter)
    assert paddle.nn.Parameter(None).shape == [0]


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="must be a Tensor"):
        paddle.nn.Parameter(np.ones(2))
    with pytest.raises(InvalidArgumentError, match=">= 0"):
        paddle.nn.Parameter([2, -1], "float32")
    with pytest.raises(InvalidArgumentError, match="must not be None"):
        paddle.nn.Parameter([2], None)
    with pytest.raises(InvalidArgumentError, match="unexpected argument 'colour'"):
        paddle.nn.Parameter(paddle.ones([1]), colour=1)
    with pytest.raises(UnimplementedError, match="learning rate"):
        paddle.nn.Parameter(paddle.ones([1]), optimize_attr={"learning_rate": 2.0})
