"""``import phiops as paddle``: the top-level functions take PaddlePaddle 3.3.1's signatures,
defaults and return structure (python/paddle/tensor/*.py of that release), and so do the Tensor
methods of the same names, while ``phiops._C_ops`` keeps the op-level signatures. Expected
values come from numpy or are worked out by hand."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops as paddle
from phiops import _api, _C_ops, _paddle_api
from phiops.generated import python_api as _python_api
from tests import paddle_api

# what phiops does not take yet (docs/python_api.md): PaddlePaddle 3.3.1's torch-style keywords
NOT_YET = {"device", "requires_grad", "pin_memory"}
PADDLE_NAMES = sorted((set(_python_api.__all__) | set(_paddle_api.__all__)) - {"TopKRetType"})


def _ours(function) -> list[tuple]:
    return [
        (p.name, p.kind.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in inspect.signature(function).parameters.values()
    ]


def _theirs(qualname: str) -> list[tuple]:
    """PaddlePaddle 3.3.1's parameters as recorded (tests/data/paddle_api_3_3_1.json)."""
    return [
        (p["name"], p["kind"], p.get("default"))
        for p in paddle_api.parameters(qualname)
        if p["name"] not in NOT_YET and p["name"] != "self"
    ]


@pytest.mark.parametrize("name", PADDLE_NAMES)
def test_signature_is_paddles(name: str) -> None:
    assert _ours(getattr(paddle, name)) == _theirs(f"paddle.{name}")


@pytest.mark.parametrize("name", sorted(_api.PADDLE_TENSOR_METHODS))
def test_tensor_method_signature_is_paddles(name: str) -> None:
    assert _ours(getattr(paddle.Tensor, name)) == _theirs(f"paddle.Tensor.{name}")


def t(data, dtype=None):
    return paddle.to_tensor(np.asarray(data, dtype=dtype))


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)


def check(tensor, expected, dtype=None) -> None:
    expected = np.asarray(expected)
    assert tensor.shape == list(expected.shape)
    np.testing.assert_allclose(tensor.numpy(), expected, rtol=1e-6)
    if dtype is not None:
        assert tensor.numpy().dtype == np.dtype(dtype)


# ---- flatten, reshape, transpose, squeeze, unsqueeze


def test_flatten_defaults_to_every_axis() -> None:
    check(paddle.flatten(t(X)), X.reshape(24))


def test_flatten_from_start_axis() -> None:
    check(paddle.flatten(t(X), 1), X.reshape(2, 12))
    check(paddle.flatten(t(X), start_axis=0, stop_axis=1), X.reshape(6, 4))


def test_flatten_0d_gives_one_element() -> None:
    check(paddle.flatten(t(7.0)), [7.0])


def test_reshape_takes_a_shape_with_minus_one() -> None:
    check(paddle.reshape(t(X), [4, -1]), X.reshape(4, 6))


def test_transpose_by_perm() -> None:
    check(paddle.transpose(t(X), [2, 0, 1]), X.transpose(2, 0, 1))
    check(paddle.transpose(t(X), perm=[1, 0, 2]), X.transpose(1, 0, 2))


def test_squeeze_defaults_to_every_size_one_axis() -> None:
    ones = np.zeros((1, 3, 1), dtype=np.float32)
    check(paddle.squeeze(t(ones)), np.zeros(3))
    check(paddle.squeeze(t(ones), axis=0), np.zeros((3, 1)))


def test_unsqueeze_takes_an_int_or_a_list() -> None:
    check(paddle.unsqueeze(t(M), 0), M[None])
    check(paddle.unsqueeze(t(M), [0, 3]), M[None, :, :, None])


# ---- cumsum, cumprod


def test_cumsum_without_axis_flattens() -> None:
    check(paddle.cumsum(t(M)), np.cumsum(M.reshape(-1)))


def test_cumsum_along_axis() -> None:
    check(paddle.cumsum(t(M), axis=0), np.cumsum(M, axis=0))
    check(paddle.cumsum(t(M), 1), np.cumsum(M, axis=1))


def test_cumsum_widens_int32_to_int64_and_casts_to_dtype() -> None:
    ints = np.array([1, 2, 3], dtype=np.int32)
    check(paddle.cumsum(t(ints)), [1, 3, 6], "int64")
    check(paddle.cumsum(t(ints), dtype="float64"), [1.0, 3.0, 6.0], "float64")


def test_cumprod_without_dim_flattens() -> None:
    check(paddle.cumprod(t([[1.0, 2.0], [3.0, 4.0]])), [1.0, 2.0, 6.0, 24.0])


def test_cumprod_along_dim_with_keyword_dtype() -> None:
    check(
        paddle.cumprod(t([[1, 2], [3, 4]], "int64"), 0, dtype="float32"),
        [[1, 2], [3, 8]],
        "float32",
    )


# ---- split


def test_split_into_equal_parts_returns_a_list() -> None:
    parts = paddle.split(t(X), 2, 2)
    assert isinstance(parts, list) and len(parts) == 2
    check(parts[1], X[:, :, 2:])


def test_split_by_sections_with_minus_one() -> None:
    parts = paddle.split(t(X), [1, -1], axis=1)
    check(parts[0], X[:, :1])
    check(parts[1], X[:, 1:])


def test_split_with_negative_axis_and_tensor_axis() -> None:
    check(paddle.split(t(X), 4, -1)[3], X[:, :, 3:])
    check(paddle.split(t(X), 3, t(1, "int64"))[2], X[:, 2:3])


def test_split_refuses_a_float_count() -> None:
    with pytest.raises(TypeError):
        paddle.split(t(X), 2.0)


# ---- argsort, sort, topk, argmax, argmin


def test_argsort_returns_only_the_indices() -> None:
    out = paddle.argsort(t(M))
    check(out, [[1, 2, 0], [0, 2, 1]], "int64")
    check(paddle.argsort(t(M), axis=0, descending=True), [[0, 1, 1], [1, 0, 0]])


def test_sort_returns_only_the_values() -> None:
    check(paddle.sort(t(M)), np.sort(M, axis=-1))
    check(paddle.sort(t(M), descending=True), -np.sort(-M, axis=-1))


def test_topk_returns_named_values_and_indices_along_the_last_axis() -> None:
    result = paddle.topk(t(M), 2)
    assert isinstance(result, tuple) and len(result) == 2
    check(result.values, [[3.0, 2.0], [5.0, 4.0]])
    check(result.indices, [[0, 2], [1, 2]], "int64")
    values, indices = paddle.topk(t(M), 1, axis=0, largest=False)
    check(values, [[0.0, 1.0, 2.0]])
    check(indices, [[1, 0, 0]])


def test_argmax_without_axis_is_over_the_flattened_tensor() -> None:
    out = paddle.argmax(t(M))
    assert out.shape == [] and int(out.numpy()) == 4
    assert out.dtype == paddle.int64
    assert int(paddle.argmin(t(M)).numpy()) == 3


def test_argmax_along_axis_with_keepdim_and_dtype() -> None:
    check(paddle.argmax(t(M), axis=1, keepdim=True), [[0], [1]])
    check(paddle.argmin(t(M), 0, dtype="int32"), [1, 0, 0], "int32")


def test_argmax_refuses_dtype_none() -> None:
    with pytest.raises(ValueError):
        paddle.argmax(t(M), dtype=None)


# ---- creation


def test_arange_with_one_argument_is_the_end() -> None:
    check(paddle.arange(5), [0, 1, 2, 3, 4], "int64")


def test_arange_with_a_float_is_float32() -> None:
    check(paddle.arange(0, 1, 0.25), [0.0, 0.25, 0.5, 0.75], "float32")
    check(paddle.arange(1, 7, 2), [1, 3, 5], "int64")
    check(paddle.arange(end=3, dtype="float64"), [0.0, 1.0, 2.0], "float64")


def test_linspace_defaults_to_float32() -> None:
    check(paddle.linspace(0, 1, 5), [0.0, 0.25, 0.5, 0.75, 1.0], "float32")
    check(paddle.linspace(0, 10, 3, dtype="int64"), [0, 5, 10], "int64")


def test_full_takes_fill_value_by_keyword_and_infers_the_dtype() -> None:
    check(paddle.full([2], fill_value=3), [3.0, 3.0], "float32")
    check(paddle.full([2, 1], True), [[True], [True]], "bool")
    check(paddle.full([1], 2, dtype="int32"), [2], "int32")


def test_full_refuses_a_list_value() -> None:
    with pytest.raises(TypeError):
        paddle.full([2], [1, 2])


def test_full_like_keeps_the_dtype_unless_given() -> None:
    ints = t([1, 2], "int32")
    check(paddle.full_like(ints, 7), [7, 7], "int32")
    check(paddle.full_like(ints, fill_value=1.5, dtype="float64"), [1.5, 1.5], "float64")


def test_zeros_and_ones_default_to_float32() -> None:
    check(paddle.zeros([2, 2]), np.zeros((2, 2)), "float32")
    check(paddle.ones([3], "int64"), [1, 1, 1], "int64")
    check(paddle.ones(shape=[1], dtype="bool"), [True], "bool")


# ---- clip, where


def test_clip_with_only_a_minimum() -> None:
    check(paddle.clip(t(M), min=2), np.clip(M, 2, None))


def test_clip_with_only_a_maximum_and_alias_clamp() -> None:
    check(paddle.clip(t(M), max=1.5), np.clip(M, None, 1.5))
    check(paddle.clamp(t(M), 1, 3), np.clip(M, 1, 3))


def test_clip_of_int_tensor_with_float_bound_is_float32() -> None:
    check(paddle.clip(t([1, 5, 9], "int64"), 2.5, 6), [2.5, 5.0, 6.0], "float32")
    check(paddle.clip(t([1, 5, 9], "int32"), 2, 6), [2, 5, 6], "int32")


def test_where_with_one_argument_is_nonzero_as_tuple() -> None:
    cond = M > 1.5
    rows, cols = paddle.where(t(cond))
    expected_rows, expected_cols = np.nonzero(cond)
    check(rows, expected_rows, "int64")
    check(cols, expected_cols, "int64")


def test_where_with_one_dimension_gives_a_one_tuple() -> None:
    result = paddle.where(t([False, True, True]))
    assert isinstance(result, tuple) and len(result) == 1
    check(result[0], [1, 2])


def test_where_chooses_and_broadcasts_scalars() -> None:
    check(paddle.where(t(M > 2), t(M), 0.0), np.where(M > 2, M, 0.0))


def test_where_needs_both_or_neither() -> None:
    with pytest.raises(ValueError):
        paddle.where(t(M > 2), t(M))


def test_where_needs_a_bool_condition() -> None:
    with pytest.raises(ValueError):
        paddle.where(t(M), t(M), t(M))


# ---- reductions


def test_sum_defaults_to_every_axis() -> None:
    out = paddle.sum(t(X))
    assert out.shape == [] and float(out.numpy()) == X.sum()


def test_sum_axis_keepdim_and_dtype() -> None:
    check(paddle.sum(t(X), axis=[0, 2], keepdim=True), X.sum(axis=(0, 2), keepdims=True))
    check(paddle.sum(t(X), 1, "float64"), X.sum(axis=1), "float64")


def test_sum_of_int32_and_bool_is_int64() -> None:
    check(paddle.sum(t([1, 2, 3], "int32")), 6, "int64")
    check(paddle.sum(t([True, False, True])), 2, "int64")


def test_mean_defaults_to_every_axis_and_takes_dtype_by_keyword() -> None:
    check(paddle.mean(t(X)), X.mean())
    check(paddle.mean(t(X), axis=-1, keepdim=True), X.mean(axis=-1, keepdims=True))
    check(paddle.mean(t([1, 2], "int64"), dtype="float64"), 1.5, "float64")


def test_max_and_min_default_to_every_axis() -> None:
    check(paddle.max(t(M)), 5.0)
    check(paddle.min(t(M)), 0.0)
    check(paddle.max(t(M), axis=0), M.max(axis=0))
    check(paddle.min(t(M), 1, True), M.min(axis=1, keepdims=True))


# ---- concat, stack, gather


def test_concat_and_cat() -> None:
    check(paddle.concat([t(M), t(M)]), np.concatenate([M, M]))
    check(paddle.concat([t(M), t(M)], axis=1), np.concatenate([M, M], axis=1))
    assert paddle.cat is paddle.concat


def test_stack_defaults_to_a_new_first_axis() -> None:
    check(paddle.stack([t(M), t(M)]), np.stack([M, M]))
    check(paddle.stack([t(M), t(M)], axis=-1), np.stack([M, M], axis=-1))


def test_gather_defaults_to_axis_zero() -> None:
    index = t([1, 0, 1], "int64")
    check(paddle.gather(t(M), index), M[[1, 0, 1]])
    check(paddle.gather(t(M), t([2, 0], "int64"), axis=1), M[:, [2, 0]])


# ---- scale, pow, matmul, softmax


def test_scale_defaults_and_bias_before_scale() -> None:
    check(paddle.scale(t(M)), M)
    check(paddle.scale(t(M), 2.0, 1.0), M * 2 + 1)
    check(paddle.scale(t(M), scale=2.0, bias=1.0, bias_after_scale=False), (M + 1) * 2)


def test_scale_applies_act() -> None:
    check(paddle.scale(t(M), -1.0, act="relu"), np.maximum(-M, 0))


def test_pow_with_a_number_and_with_a_tensor() -> None:
    check(paddle.pow(t(M), 2), M**2)
    check(paddle.pow(t(M), t(np.full((2, 3), 3.0, np.float32))), M**3)


def test_pow_refuses_a_string() -> None:
    with pytest.raises(TypeError):
        paddle.pow(t(M), "2")


def test_matmul_with_transposes() -> None:
    check(paddle.matmul(t(M), t(M), transpose_y=True), M @ M.T)
    check(paddle.matmul(t(M), t(M), True), M.T @ M)


def _softmax(a, axis):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_softmax_default_dim_is_one_for_2d_and_zero_for_1d_and_3d() -> None:
    check(paddle.softmax(t(M)), _softmax(M, 1))
    check(paddle.softmax(t(M[0])), _softmax(M[0], 0))
    check(paddle.softmax(t(X)), _softmax(X, 0))


def test_softmax_with_dim_and_dtype() -> None:
    out = paddle.softmax(t(M), dim=0, dtype="float64")
    check(out, _softmax(M.astype(np.float64), 0), "float64")


# ---- Tensor methods and _C_ops


def test_tensor_methods_take_paddles_signatures() -> None:
    x = t(X)
    check(x.flatten(1), X.reshape(2, 12))
    check(t(M).argmax(axis=1, keepdim=True), [[0], [1]])
    check(t(M).cumsum(), np.cumsum(M))
    check(t(M).sum(), M.sum())
    check(t(M).argsort(), [[1, 2, 0], [0, 2, 1]])
    assert [p.shape for p in x.split(3, 1)] == [[2, 1, 4]] * 3
    check(t(M).clip(min=2), np.clip(M, 2, None))
    check(t(M).clamp(max=1), np.clip(M, None, 1))
    assert t(M).topk(1).values.shape == [2, 1]
    check(t(M).softmax(), _softmax(M, 1))
    check(t(M > 2).where(t(M), t(-M)), np.where(M > 2, M, -M))


def test_c_ops_keep_the_op_signatures() -> None:
    assert list(inspect.signature(_C_ops.flatten).parameters) == [
        "x",
        "start_axis",
        "stop_axis",
        "name",
    ]
    assert inspect.signature(_C_ops.flatten).parameters["start_axis"].default == 1
    out, indices = _C_ops.argsort(t(M))
    check(out, np.sort(M, axis=-1))
    assert len(_C_ops.split(t(X), [3], 1)) == 1


def test_top_level_names_are_the_paddle_functions() -> None:
    from phiops import _paddle_api
    from phiops.generated import python_api

    for name in python_api.__all__:
        assert getattr(paddle, name) is getattr(python_api, name)
    for name in _paddle_api.__all__:
        assert getattr(paddle, name) is getattr(_paddle_api, name)


def test_every_paddle_tensor_method_is_installed() -> None:
    from phiops import _api

    for name, function in _api.PADDLE_TENSOR_METHODS.items():
        assert getattr(paddle.Tensor, name) is function


# ---- PaddlePaddle's other keyword names


def test_keyword_aliases_of_declared_functions() -> None:
    check(paddle.flatten(input=t(X), start_dim=1, end_dim=2), X.reshape(2, 12))
    check(paddle.concat(tensors=[t(M), t(M)], dim=1), np.concatenate([M, M], axis=1))
    check(paddle.squeeze(input=t(np.zeros((1, 2), np.float32)), dim=0), np.zeros(2))
    check(paddle.zeros(size=[2]), np.zeros(2))
    check(paddle.linspace(0, end=1, steps=3), [0.0, 0.5, 1.0])


def test_keyword_aliases_of_hand_written_functions() -> None:
    check(paddle.cumsum(input=t(M), dim=0), np.cumsum(M, axis=0))
    check(paddle.pow(input=t(M), exponent=2), M**2)
    check(paddle.full(size=[2], fill_value=1.5), [1.5, 1.5])
    check(paddle.topk(input=t(M), k=1, dim=0).values, [[3.0, 5.0, 4.0]])
    check(paddle.where(t(M > 2), input=t(M), other=t(-M)), np.where(M > 2, M, -M))


def test_keyword_alias_works_on_tensor_methods() -> None:
    check(t(X).flatten(start_dim=1), X.reshape(2, 12))
    check(t(M).cumsum(dim=1), np.cumsum(M, axis=1))


def test_argument_and_its_alias_together_are_refused() -> None:
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and its alias 'dim'"):
        paddle.argsort(t(M), axis=0, dim=1)


# ---- out=: the result is written into the given tensor, which is returned


def test_out_of_a_declared_function_is_written_and_returned() -> None:
    out = paddle.zeros([3])
    result = paddle.sum(t(M), axis=0, out=out)
    assert result is out
    check(out, M.sum(axis=0))


def test_out_taken_positionally_where_paddle_takes_it_so() -> None:
    out = paddle.zeros([1, 3])
    assert paddle.gather(t(M), t([1], "int64"), 0, None, out) is out
    check(out, M[[1]])


def test_out_of_a_hand_written_function_is_written_and_returned() -> None:
    out = paddle.zeros([2, 3])
    assert paddle.cumsum(t(M), axis=1, out=out) is out
    check(out, np.cumsum(M, axis=1))


def test_out_of_topk_is_a_pair_of_tensors() -> None:
    values, indices = paddle.zeros([2, 1]), paddle.zeros([2, 1], "int64")
    result = paddle.topk(t(M), 1, out=(values, indices))
    assert result.values is values and result.indices is indices
    check(values, [[3.0], [5.0]])
    check(indices, [[0], [1]])


def test_out_of_another_shape_is_an_error_naming_out() -> None:
    with pytest.raises(ValueError, match=r"paddle.sum: 'out' has shape \[2\]"):
        paddle.sum(t(M), axis=0, out=paddle.zeros([2]))


def test_out_of_another_dtype_is_an_error_naming_out() -> None:
    with pytest.raises(ValueError, match=r"'out' has shape \[3\] and dtype .*int64"):
        paddle.sum(t(M), axis=0, out=paddle.zeros([3], "int64"))
