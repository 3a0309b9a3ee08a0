"""The tensor-array API in dynamic mode: Python lists, as PaddlePaddle 3.3.1's
(tests/data/tarray/eager.json, recorded by tests/tools/make_tarray_fixtures.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from phiops.tensor.manipulation import tensor_array_to_tensor

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tarray" / "eager.json").read_text()
)


def test_arrays_are_lists_as_paddles() -> None:
    arr = paddle.tensor.create_array("float32", [paddle.ones([1])])
    assert type(arr).__name__ == RECORDED["create_type"]
    arr = paddle.tensor.array_write(paddle.full([2], 3.0), paddle.to_tensor([1]), arr)
    assert paddle.tensor.array_length(arr) == RECORDED["length"]
    read = paddle.tensor.array_read(arr, paddle.to_tensor([1]))
    assert read.numpy().tolist() == RECORDED["read_1"]


def test_array_write_without_an_array_makes_one() -> None:
    x = paddle.ones([2])
    arr = paddle.tensor.array_write(x, paddle.to_tensor([0]))
    assert len(arr) == 1 and arr[0] is x


def test_tensor_array_to_tensor_concatenates_and_stacks_as_paddles() -> None:
    out, index = tensor_array_to_tensor([paddle.ones([2, 3]), paddle.zeros([1, 3])], axis=0)
    assert list(out.shape) == RECORDED["concat_shape"]
    assert index.numpy().tolist() == RECORDED["concat_index"]
    assert str(index.numpy().dtype) == RECORDED["concat_index_dtype"]
    np.testing.assert_array_equal(out.numpy(), np.concatenate([np.ones((2, 3)), np.zeros((1, 3))]))
    out, index = tensor_array_to_tensor([paddle.ones([2, 3])] * 2, axis=1, use_stack=True)
    assert list(out.shape) == RECORDED["stack_shape"]
    assert index.numpy().tolist() == RECORDED["stack_index"]


def test_writing_past_the_end_of_a_list_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match=r"array_write\(\): index 5 must be in \[0, 1\]"):
        paddle.tensor.array_write(paddle.ones([1]), paddle.to_tensor([5]), [paddle.ones([1])])


def test_index_of_shape_other_than_one_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match=r"array_read\(\): argument 'i' must have shape \[1\]"):
        paddle.tensor.array_read([paddle.ones([1])], paddle.to_tensor([0, 1]))


def test_initialized_list_must_hold_tensors() -> None:
    with pytest.raises(InvalidArgumentError, match="item 0 of 'initialized_list' must be a Tensor"):
        paddle.tensor.create_array("float32", [1.0])


def test_module_names_are_paddles() -> None:
    from phiops.tensor import array

    assert sorted(array.__all__) == ["array_length", "array_read", "array_write", "create_array"]
    assert paddle.tensor.create_array is array.create_array
