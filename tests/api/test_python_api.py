"""``import phiops as paddle``: the top-level functions take PaddlePaddle 3.3.1's signatures,
defaults and return structure (python/paddle/tensor/*.py of that release), and so do the Tensor
methods of the same names, while ``phiops._C_ops`` keeps the op-level signatures. Expected
values come from numpy or are worked out by hand."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import phiops as paddle
from phiops import _api, _C_ops, _paddle_api
from phiops.generated import python_api as _python_api
from tests import paddle_api

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
        if p["name"] != "self"
    ]


@pytest.mark.parametrize("name", PADDLE_NAMES)
def test_signature_is_paddles(name: str) -> None:
    assert _ours(getattr(paddle, name)) == _theirs(f"paddle.{name}")


@pytest.mark.parametrize("name", sorted(_api.PADDLE_TENSOR_METHODS))
def test_tensor_method_signature_is_paddles(name: str) -> None:
    """The parameters after the tensor's own (``self`` on both sides is not compared); a
    property where 3.3.1 has one; a callable where 3.3.1's builtin has no signature."""
    recorded = paddle_api.entry(f"paddle.Tensor.{name}")
    if recorded["kind"] == "property":
        assert isinstance(inspect.getattr_static(paddle.Tensor, name), property)
        return
    method = getattr(paddle.Tensor, name)
    if recorded["signature"] is None:
        assert callable(method)
        return
    ours = [p for p in _ours(method) if p[0] != "self"]
    assert ours == _theirs(f"paddle.Tensor.{name}")


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
        if name in _paddle_api.__all__:  # a creation function, given device= etc. there
            assert getattr(paddle, name).__wrapped__ is getattr(python_api, name)
        else:
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


# ---- random: phiops' generator (phiops.seed replays them); shape, dtype, range, statistics


def test_rand_is_uniform_on_0_1_in_float32() -> None:
    values = paddle.rand([4000]).numpy()
    assert values.dtype == np.float32 and values.shape == (4000,)
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.03


def test_rand_takes_dtype_and_size_keyword() -> None:
    assert paddle.rand(size=[2, 3], dtype="float64").numpy().dtype == np.float64


def test_uniform_draws_from_min_to_max() -> None:
    values = paddle.uniform([4000], min=-2.0, max=3.0).numpy()
    assert values.min() >= -2.0 and values.max() < 3.0
    assert abs(values.mean() - 0.5) < 0.15


def test_randn_and_standard_normal_are_standard_normal() -> None:
    for function in (paddle.randn, paddle.standard_normal):
        values = function([4000]).numpy()
        assert values.dtype == np.float32
        assert abs(values.mean()) < 0.1 and abs(values.std() - 1.0) < 0.1


def test_normal_of_numbers_has_that_mean_and_std() -> None:
    values = paddle.normal(3.0, 2.0, [4000]).numpy()
    assert values.shape == (4000,)
    assert abs(values.mean() - 3.0) < 0.2 and abs(values.std() - 2.0) < 0.2


def test_normal_of_a_mean_tensor_draws_one_sample_per_element() -> None:
    means = np.array([-100.0, 0.0, 100.0], dtype=np.float32)
    values = paddle.normal(t(means), 0.01).numpy()
    assert values.shape == (3,) and values.dtype == np.float32
    np.testing.assert_allclose(values, means, atol=0.1)


def test_normal_of_a_std_tensor_has_its_shape() -> None:
    values = paddle.normal(5.0, t(np.zeros((2, 2), dtype=np.float32))).numpy()
    np.testing.assert_allclose(values, np.full((2, 2), 5.0))


def test_randint_draws_from_low_to_high_in_int64() -> None:
    values = paddle.randint(-3, 4, [2000]).numpy()
    assert values.dtype == np.int64
    assert values.min() == -3 and values.max() == 3


def test_randint_with_one_bound_draws_from_zero() -> None:
    values = paddle.randint(5, shape=[2000]).numpy()
    assert set(values.tolist()) == {0, 1, 2, 3, 4}
    assert paddle.randint(5).shape == [1]


def test_randint_with_one_nonpositive_bound_is_an_error() -> None:
    with pytest.raises(ValueError, match="low must be greater than 0"):
        paddle.randint(0)


def test_randperm_is_a_permutation() -> None:
    values = paddle.randperm(10).numpy()
    assert values.dtype == np.int64
    assert sorted(values.tolist()) == list(range(10))
    assert paddle.randperm(4, "int32").numpy().dtype == np.int32


def test_bernoulli_of_probabilities_zero_and_one() -> None:
    check(paddle.bernoulli(t([0.0, 1.0, 1.0, 0.0], "float32")), [0.0, 1.0, 1.0, 0.0], "float32")


def test_bernoulli_with_p_draws_with_that_probability() -> None:
    values = paddle.bernoulli(paddle.zeros([4000]), p=0.25).numpy()
    assert set(values.tolist()) <= {0.0, 1.0}
    assert abs(values.mean() - 0.25) < 0.03


def test_seed_replays_the_random_functions() -> None:
    draws = []
    for _ in range(2):
        paddle.seed(123)
        draws.append(
            [
                paddle.rand([3]).numpy(),
                paddle.randn([3]).numpy(),
                paddle.uniform([3]).numpy(),
                paddle.normal(shape=[3]).numpy(),
                paddle.randint(10, shape=[3]).numpy(),
                paddle.randperm(5).numpy(),
            ]
        )
    for first, second in zip(*draws):
        np.testing.assert_array_equal(first, second)


# ---- creation


def test_empty_and_empty_like_have_the_shape_and_dtype() -> None:
    assert paddle.empty([2, 3]).shape == [2, 3]
    assert paddle.empty([2], "int32").numpy().dtype == np.int32
    like = paddle.empty_like(t(M), dtype="float64")
    assert like.shape == [2, 3] and like.numpy().dtype == np.float64


def test_zeros_like_and_ones_like_keep_or_change_the_dtype() -> None:
    check(paddle.zeros_like(t(M)), np.zeros((2, 3)), "float32")
    check(paddle.ones_like(t(M), "int64"), np.ones((2, 3)), "int64")


def test_eye_is_square_without_num_columns() -> None:
    check(paddle.eye(3), np.eye(3), "float32")
    check(paddle.eye(2, 3, "int32"), np.eye(2, 3), "int32")


def test_eye_refuses_a_negative_size() -> None:
    with pytest.raises(TypeError, match="num_rows should be a non-negative int"):
        paddle.eye(-1)


# ---- shape and reduction


def test_tril_and_triu_with_diagonal() -> None:
    square = np.arange(9, dtype=np.float32).reshape(3, 3)
    check(paddle.tril(t(square)), np.tril(square))
    check(paddle.triu(t(square), 1), np.triu(square, 1))
    check(t(square).tril(-1), np.tril(square, -1))


def test_tile_flip_roll_expand() -> None:
    check(paddle.tile(t(M), [2, 1]), np.tile(M, (2, 1)))
    check(paddle.flip(t(M), [1]), M[:, ::-1])
    check(paddle.roll(t(M), 1), np.roll(M, 1))
    check(paddle.roll(t(M), 1, axis=1), np.roll(M, 1, axis=1))
    check(paddle.expand(t([1.0, 2.0, 3.0]), [2, 3]), np.tile([1.0, 2.0, 3.0], (2, 1)))


def test_all_and_any_over_every_axis_or_one() -> None:
    flags = np.array([[True, False], [True, True]])
    check(paddle.all(t(flags)), np.all(flags))
    check(paddle.any(t(flags), axis=1), np.any(flags, axis=1))
    check(paddle.all(t(flags), axis=0, keepdim=True), np.all(flags, axis=0, keepdims=True))


def test_prod_over_every_axis_or_one_with_dtype() -> None:
    check(paddle.prod(t(M + 1)), np.prod(M + 1))
    check(paddle.prod(t(M + 1), 1, keepdim=True), np.prod(M + 1, axis=1, keepdims=True))
    check(paddle.prod(t([[1, 2], [3, 4]], "int32"), dtype="int64"), 24, "int64")
    check(t(M + 1).prod(axis=[0, 1]), np.prod(M + 1))


def test_logsumexp_over_every_axis_or_one() -> None:
    expected = np.log(np.exp(M.astype(np.float64)).sum())
    np.testing.assert_allclose(paddle.logsumexp(t(M)).numpy(), expected, rtol=1e-6)
    by_row = np.log(np.exp(M.astype(np.float64)).sum(axis=1))
    np.testing.assert_allclose(paddle.logsumexp(t(M), 1).numpy(), by_row, rtol=1e-6)
    assert paddle.logsumexp(t(M), axis=[1], keepdim=True).shape == [2, 1]


# ---- elementwise


UNARY = {
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "sign": np.sign,
    "square": np.square,
    "rsqrt": lambda a: 1 / np.sqrt(a),
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "erf": lambda a: np.array([math.erf(v) for v in a], dtype=a.dtype),
}
POSITIVE = np.array([0.25, 1.5, 4.0], dtype=np.float32)
SIGNED = np.array([-1.5, 0.0, 2.25], dtype=np.float32)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_function_matches_numpy(name: str) -> None:
    data = POSITIVE if name in ("log", "sqrt", "rsqrt") else SIGNED
    np.testing.assert_allclose(getattr(paddle, name)(t(data)).numpy(), UNARY[name](data), rtol=1e-6)


BINARY = {
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "greater_than": np.greater,
    "greater_equal": np.greater_equal,
    "less_than": np.less,
    "less_equal": np.less_equal,
    "fmax": np.fmax,
    "fmin": np.fmin,
    "floor_divide": np.floor_divide,
    "remainder": np.mod,
}
A = np.array([1.0, 2.0, 3.0], dtype=np.float32)
B = np.array([3.0, 2.0, 1.0], dtype=np.float32)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_function_matches_numpy(name: str) -> None:
    check(getattr(paddle, name)(t(A), t(B)), BINARY[name](A, B))


def test_logical_functions_match_numpy() -> None:
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    check(paddle.logical_and(t(p), t(q)), p & q)
    check(paddle.logical_or(t(p), t(q)), p | q)
    check(paddle.logical_xor(t(p), t(q)), p ^ q)
    check(paddle.logical_not(t(p)), ~p)


def test_comparison_takes_input_and_other_keywords() -> None:
    check(paddle.equal(input=t(A), other=t(B)), A == B)


def test_add_and_subtract_scale_y_by_alpha() -> None:
    check(paddle.add(t(A), t(B)), A + B)
    check(paddle.add(t(A), t(B), alpha=2), A + 2 * B)
    check(paddle.subtract(t(A), t(B), alpha=0.5), A - 0.5 * B)
    check(t(A).add(t(B), alpha=-1), A - B)


def test_divide_rounding_modes() -> None:
    x, y = np.array([7.0, -7.0, 5.0], dtype=np.float32), np.array(
        [2.0, 2.0, -4.0], dtype=np.float32
    )
    check(paddle.divide(t(x), t(y)), x / y)
    check(paddle.divide(t(x), t(y), rounding_mode="floor"), np.floor(x / y))
    check(paddle.divide(t(x), t(y), rounding_mode="trunc"), np.trunc(x / y))


def test_divide_trunc_of_integers_rounds_toward_zero() -> None:
    x, y = np.array([7, -7, 7, -7]), np.array([2, 2, -2, -2])
    check(paddle.divide(t(x), t(y), rounding_mode="trunc"), [3, -3, -3, 3], "int64")


def test_divide_refuses_an_unknown_rounding_mode() -> None:
    with pytest.raises(ValueError, match="rounding_mode to be one of None, 'trunc', or 'floor'"):
        paddle.divide(t(A), t(B), rounding_mode="round")


def test_out_of_an_elementwise_function_is_written_and_returned() -> None:
    out = paddle.zeros([3])
    assert paddle.abs(t(SIGNED), out=out) is out
    check(out, np.abs(SIGNED))
    flags = paddle.zeros([3], "bool")
    assert paddle.less_than(t(A), t(B), out=flags) is flags
    check(flags, A < B)


def test_isnan_isinf_isfinite() -> None:
    data = np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32)
    check(paddle.isnan(t(data)), np.isnan(data))
    check(paddle.isinf(t(data)), np.isinf(data))
    check(paddle.isfinite(t(data)), np.isfinite(data))


def test_floor_divide_and_remainder_of_negative_integers_round_down() -> None:
    x, y = np.array([7, -7, 7, -7]), np.array([2, 2, -2, -2])
    check(paddle.floor_divide(t(x), t(y)), np.floor_divide(x, y), "int64")
    check(paddle.remainder(input=t(x), other=t(y)), np.mod(x, y), "int64")
