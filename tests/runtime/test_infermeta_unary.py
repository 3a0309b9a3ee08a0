"""InferMeta functions of one-input ops, called directly on MetaTensors: dims, dtype, errors."""

from __future__ import annotations

import re

import pytest

from phiops.runtime.common import DataLayout, DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta import get_infer_meta
from phiops.runtime.infermeta.unary import (
    arg_min_max_infer_meta,
    cast_infer_meta,
    check_axis,
    create_like_infer_meta,
    expand_infer_meta,
    flatten_infer_meta,
    logical_not_infer_meta,
    real_and_imag_infer_meta,
    reduce_int_array_axis_infer_meta,
    reduce_int_array_axis_infer_meta_base,
    reshape_infer_meta,
    softmax_infer_meta,
    split_infer_meta,
    squeeze_infer_meta,
    sum_infer_meta,
    transpose_infer_meta,
    unchanged_infer_meta,
    unchanged_infer_meta_check_axis,
    unsqueeze_infer_meta,
)

D = DataType


def meta(
    dims: tuple[int, ...], dtype: DataType = D.FLOAT32, layout: DataLayout = DataLayout.NCHW
) -> MetaTensor:
    return MetaTensor(DenseTensorMeta.get(dtype, dims, layout), "x")


def raises(message: str):
    """pytest.raises for an InvalidArgumentError whose message is exactly ``message``."""
    return pytest.raises(InvalidArgumentError, match=f"^{re.escape(message)}$")


# Lookup by PHI name ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "phi_name, function",
    [
        ("SumInferMeta", sum_infer_meta),
        ("ReduceIntArrayAxisInferMeta", reduce_int_array_axis_infer_meta),
        ("ReduceIntArrayAxisInferMetaBase", reduce_int_array_axis_infer_meta_base),
        ("ArgMinMaxInferMeta", arg_min_max_infer_meta),
        ("ReshapeInferMeta", reshape_infer_meta),
        ("TransposeInferMeta", transpose_infer_meta),
        ("SqueezeInferMeta", squeeze_infer_meta),
        ("UnsqueezeInferMeta", unsqueeze_infer_meta),
        ("FlattenInferMeta", flatten_infer_meta),
        ("ExpandInferMeta", expand_infer_meta),
        ("SplitInferMeta", split_infer_meta),
        ("SoftmaxInferMeta", softmax_infer_meta),
        ("CreateLikeInferMeta", create_like_infer_meta),
        ("UnchangedInferMetaCheckAxis", unchanged_infer_meta_check_axis),
    ],
)
def test_the_yaml_name_finds_the_python_function(phi_name, function):
    assert get_infer_meta(phi_name) is function


# The lead's unary functions --------------------------------------------------------------------


def test_unchanged_copies_dims_dtype_and_layout():
    out = MetaTensor()
    unchanged_infer_meta(meta((2, 3), D.INT8, DataLayout.NHWC), out)
    assert (out.dims, out.dtype, out.layout) == ((2, 3), D.INT8, DataLayout.NHWC)


def test_unchanged_check_axis_accepts_a_negative_axis():
    out = MetaTensor()
    unchanged_infer_meta_check_axis(meta((2, 3)), -2, out)
    assert (out.dims, out.dtype) == ((2, 3), D.FLOAT32)


def test_unchanged_check_axis_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-2, 2) for a tensor of rank 2, got 2"):
        unchanged_infer_meta_check_axis(meta((2, 3)), 2, MetaTensor())


def test_check_axis_accepts_minus_one_and_zero_for_a_0d_tensor():
    assert (check_axis(-1, 0, "axis"), check_axis(0, 0, "axis")) == (0, 0)


def test_check_axis_rejects_one_for_a_0d_tensor():
    with raises("argument 'axis' must be in [-1, 1) for a tensor of rank 0, got 1"):
        check_axis(1, 0, "axis")


def test_check_axis_normalises_a_negative_axis():
    assert check_axis(-1, 3, "axis") == 2


@pytest.mark.parametrize(
    "dtype, expected", [(D.COMPLEX64, D.FLOAT32), (D.COMPLEX128, D.FLOAT64), (D.FLOAT16, D.FLOAT16)]
)
def test_real_and_imag_gives_the_real_counterpart_of_a_complex_dtype(dtype, expected):
    out = MetaTensor()
    real_and_imag_infer_meta(meta((4,), dtype), out)
    assert (out.dims, out.dtype) == ((4,), expected)


def test_cast_sets_the_requested_dtype():
    out = MetaTensor()
    cast_infer_meta(meta((2,), D.FLOAT32), D.INT16, out)
    assert (out.dims, out.dtype) == ((2,), D.INT16)


def test_cast_rejects_an_undefined_dtype():
    with raises("cast: argument 'dtype' must be a defined data type, got UNDEFINED"):
        cast_infer_meta(meta((2,)), D.UNDEFINED, MetaTensor())


def test_logical_not_gives_bool():
    out = MetaTensor()
    logical_not_infer_meta(meta((3,), D.INT64), out)
    assert (out.dims, out.dtype) == ((3,), D.BOOL)


# Reductions ------------------------------------------------------------------------------------


def reduce(dims, axis, keepdim=False, dtype=D.FLOAT32):
    out = MetaTensor()
    reduce_int_array_axis_infer_meta(meta(dims, dtype), axis, keepdim, out)
    return out


def test_reduce_removes_the_named_axes():
    assert reduce((2, 3, 4), (0, 2)).dims == (3,)


def test_reduce_with_keepdim_keeps_reduced_axes_as_one():
    assert reduce((2, 3, 4), (1,), keepdim=True).dims == (2, 1, 4)


def test_reduce_with_empty_axis_reduces_every_axis():
    assert reduce((2, 3), ()).dims == ()


def test_reduce_with_empty_axis_and_keepdim_keeps_every_axis_as_one():
    assert reduce((2, 3), (), keepdim=True).dims == (1, 1)


def test_reduce_accepts_negative_axes():
    assert reduce((2, 3, 4), (-1, -3)).dims == (3,)


def test_reduce_keeps_the_input_dtype():
    assert reduce((2, 3), (0,), dtype=D.INT32).dtype == D.INT32


def test_reduce_of_a_0d_tensor_accepts_axis_minus_one():
    assert reduce((), (-1,)).dims == ()


def test_reduce_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-2, 2) for a tensor of rank 2, got 2"):
        reduce((2, 3), (0, 2))


def test_reduce_rejects_a_dimension_named_twice():
    with raises(
        "argument 'axis' must not name a dimension twice, got [1, -1] (dimension 1 repeats) "
        "for a tensor of rank 2"
    ):
        reduce((2, 3), (1, -1))


def test_reduce_base_with_reduce_all_ignores_axis():
    out = MetaTensor()
    reduce_int_array_axis_infer_meta_base(meta((2, 3, 4)), (1,), False, True, out)
    assert out.dims == ()


def test_reduce_base_without_reduce_all_reduces_only_axis():
    out = MetaTensor()
    reduce_int_array_axis_infer_meta_base(meta((2, 3, 4)), (1,), True, False, out)
    assert out.dims == (2, 1, 4)


def test_reduce_base_still_checks_axis_under_reduce_all():
    with raises("argument 'axis' must be in [-3, 3) for a tensor of rank 3, got 7"):
        reduce_int_array_axis_infer_meta_base(meta((2, 3, 4)), (7,), False, True, MetaTensor())


def summed(dtype, requested=D.UNDEFINED, dims=(2, 3), axis=(), keepdim=False):
    out = MetaTensor()
    sum_infer_meta(meta(dims, dtype), axis, requested, keepdim, out)
    return out


@pytest.mark.parametrize("dtype", [D.BOOL, D.INT32])
def test_sum_of_bool_and_int32_is_int64(dtype):
    assert summed(dtype).dtype == D.INT64


@pytest.mark.parametrize("dtype", [D.INT8, D.UINT8, D.INT16, D.INT64, D.FLOAT16, D.COMPLEX64])
def test_sum_of_other_dtypes_keeps_the_dtype(dtype):
    assert summed(dtype).dtype == dtype


def test_sum_with_a_dtype_uses_it():
    assert summed(D.INT32, D.FLOAT64).dtype == D.FLOAT64


def test_sum_reduces_like_the_other_reductions():
    assert summed(D.FLOAT32, dims=(2, 3, 4), axis=(-1,), keepdim=True).dims == (2, 3, 1)


# argmin / argmax -------------------------------------------------------------------------------


def arg(dims, axis, keepdims=False, flatten=False, dtype=D.INT64):
    out = MetaTensor()
    arg_min_max_infer_meta(meta(dims), axis, keepdims, flatten, dtype, out)
    return out


def test_arg_removes_the_axis():
    assert arg((2, 3, 4), 1).dims == (2, 4)


def test_arg_with_keepdims_keeps_the_axis_as_one():
    assert arg((2, 3, 4), -1, keepdims=True).dims == (2, 3, 1)


def test_arg_with_flatten_gives_a_0d_result():
    assert arg((2, 3), 1, flatten=True).dims == ()


def test_arg_with_flatten_and_keepdims_keeps_every_axis_as_one():
    assert arg((2, 3), 0, keepdims=True, flatten=True).dims == (1, 1)


def test_arg_of_a_0d_tensor_is_0d():
    assert arg((), 0).dims == ()


def test_arg_of_a_0d_tensor_with_keepdims_is_one_element_as_in_paddle():
    assert arg((), -1, keepdims=True).dims == (1,)


@pytest.mark.parametrize(
    "dtype, expected", [(D.INT32, D.INT32), (D.INT64, D.INT64), (D.UNDEFINED, D.INT64)]
)
def test_arg_output_dtype_follows_dtype(dtype, expected):
    assert arg((2, 3), 0, dtype=dtype).dtype == expected


def test_arg_rejects_a_float_dtype():
    with raises("argument 'dtype' must be int32 or int64, got float32"):
        arg((2, 3), 0, dtype=D.FLOAT32)


def test_arg_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-2, 2) for a tensor of rank 2, got -3"):
        arg((2, 3), -3)


def test_arg_rejects_int32_when_the_axis_is_too_long_for_it():
    with raises(
        "argument 'dtype' int32 cannot index the 2147483648 elements along the reduced axis; use int64"
    ):
        arg((2**31,), 0, dtype=D.INT32)


# reshape ---------------------------------------------------------------------------------------


def reshaped(dims, shape):
    out = MetaTensor()
    reshape_infer_meta(meta(dims, D.INT16), shape, out)
    return out


def test_reshape_gives_the_requested_shape_and_keeps_the_dtype():
    out = reshaped((2, 3), (3, 2))
    assert (out.dims, out.dtype) == ((3, 2), D.INT16)


def test_reshape_infers_one_minus_one():
    assert reshaped((2, 3, 4), (4, -1)).dims == (4, 6)


def test_reshape_zero_copies_the_input_dimension():
    assert reshaped((2, 3, 4), (0, -1)).dims == (2, 12)


def test_reshape_zero_of_a_zero_size_tensor_stays_zero():
    assert reshaped((3, 2, 0), (0, 0)).dims == (0, 0)


def test_reshape_of_a_zero_size_tensor_infers_minus_one_as_zero():
    assert reshaped((0, 3), (-1, 3)).dims == (0, 3)


def test_reshape_to_0d_of_a_one_element_tensor():
    assert reshaped((1, 1), ()).dims == ()


def test_reshape_rejects_a_wrong_element_count():
    with raises(
        "argument 'shape' [4, 2] holds 8 elements, but argument 'x' with dims [2, 3] holds 6"
    ):
        reshaped((2, 3), (4, 2))


def test_reshape_rejects_two_minus_ones():
    with raises("argument 'shape' may contain at most one -1, got [-1, -1]"):
        reshaped((2, 3), (-1, -1))


def test_reshape_rejects_an_indivisible_minus_one():
    with raises(
        "argument 'shape' [4, -1] cannot hold argument 'x' with dims [2, 3]: 6 is not divisible by 4"
    ):
        reshaped((2, 3), (4, -1))


def test_reshape_rejects_a_negative_size():
    with raises("argument 'shape' must hold sizes >= 0 and at most one -1, got [-2, 3]"):
        reshaped((2, 3), (-2, 3))


def test_reshape_rejects_a_zero_past_the_input_rank():
    with raises(
        "argument 'shape' [6, 1, 0] has a 0 at position 2, which copies the dimension of argument "
        "'x' at that position, but 'x' has dims [2, 3]"
    ):
        reshaped((2, 3), (6, 1, 0))


def test_reshape_rejects_minus_one_next_to_a_zero_size():
    with raises(
        "argument 'shape' [0, -1] cannot hold argument 'x' with dims [0, 3]: the -1 is ambiguous next to a 0"
    ):
        reshaped((0, 3), (0, -1))


# transpose -------------------------------------------------------------------------------------


def transposed(dims, perm):
    out = MetaTensor()
    transpose_infer_meta(meta(dims), perm, out)
    return out


def test_transpose_reorders_dims():
    assert transposed((2, 3, 4), (2, 0, 1)).dims == (4, 2, 3)


def test_transpose_accepts_negative_entries():
    assert transposed((2, 3, 4), (-1, -3, -2)).dims == (4, 2, 3)


def test_transpose_of_a_0d_tensor_takes_an_empty_perm():
    assert transposed((), ()).dims == ()


def test_transpose_rejects_a_perm_of_the_wrong_length():
    with raises(
        "argument 'perm' must have one entry per dimension of argument 'x' with dims [2, 3], got [0]"
    ):
        transposed((2, 3), (0,))


def test_transpose_rejects_a_repeated_axis():
    with raises(
        "argument 'perm' must be a permutation of the axes of a tensor of rank 2, got [1, -1]"
    ):
        transposed((2, 3), (1, -1))


def test_transpose_rejects_an_axis_out_of_range():
    with raises("argument 'perm' must be in [-2, 2) for a tensor of rank 2, got 2"):
        transposed((2, 3), (0, 2))


# squeeze / unsqueeze ---------------------------------------------------------------------------


def squeezed(dims, axis):
    out = MetaTensor()
    squeeze_infer_meta(meta(dims), axis, out)
    return out


def test_squeeze_with_empty_axis_removes_every_size_one_dimension():
    assert squeezed((1, 3, 1, 2), ()).dims == (3, 2)


def test_squeeze_removes_a_named_size_one_dimension():
    assert squeezed((1, 3, 1), (-1,)).dims == (1, 3)


def test_squeeze_leaves_a_named_dimension_whose_size_is_not_one():
    assert squeezed((1, 3, 1), (1,)).dims == (1, 3, 1)


def test_squeeze_of_a_0d_tensor_stays_0d():
    assert squeezed((), (0,)).dims == ()


def test_squeeze_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-3, 3) for a tensor of rank 3, got 3"):
        squeezed((1, 3, 1), (3,))


def unsqueezed(dims, axis):
    out = MetaTensor()
    unsqueeze_infer_meta(meta(dims, D.BOOL), axis, out)
    return out


def test_unsqueeze_inserts_a_dimension():
    out = unsqueezed((2, 3), (1,))
    assert (out.dims, out.dtype) == ((2, 1, 3), D.BOOL)


def test_unsqueeze_axes_count_in_the_growing_output():
    assert unsqueezed((2, 3), (0, 3)).dims == (1, 2, 3, 1)


def test_unsqueeze_negative_axis_counts_from_the_end_of_the_output():
    assert unsqueezed((2, 3), (-1,)).dims == (2, 3, 1)


def test_unsqueeze_of_a_0d_tensor():
    assert unsqueezed((), (0, -1)).dims == (1, 1)


def test_unsqueeze_rejects_an_axis_past_the_output():
    with raises(
        "argument 'axis' must be in [-4, 4) to insert a dimension into a tensor of rank 3, got 4 "
        "(axis [0, 4])"
    ):
        unsqueezed((2, 3), (0, 4))


# flatten ---------------------------------------------------------------------------------------


def flattened(dims, start, stop):
    out = MetaTensor()
    flatten_infer_meta(meta(dims), start, stop, out)
    return out


def test_flatten_merges_start_to_stop():
    assert flattened((2, 3, 4, 5), 1, 2).dims == (2, 12, 5)


def test_flatten_accepts_negative_axes():
    assert flattened((2, 3, 4), 0, -1).dims == (24,)


def test_flatten_of_a_0d_tensor_gives_one_element():
    assert flattened((), 0, -1).dims == (1,)


def test_flatten_rejects_stop_before_start():
    with raises(
        "argument 'stop_axis' (0) must not come before argument 'start_axis' (1) for a tensor of rank 3"
    ):
        flattened((2, 3, 4), 1, 0)


def test_flatten_rejects_start_out_of_range():
    with raises("argument 'start_axis' must be in [-3, 3) for a tensor of rank 3, got 3"):
        flattened((2, 3, 4), 3, 3)


# expand ----------------------------------------------------------------------------------------


def expanded(dims, shape):
    out = MetaTensor()
    expand_infer_meta(meta(dims, D.INT64), shape, out)
    return out


def test_expand_grows_size_one_dimensions():
    out = expanded((1, 3), (4, 3))
    assert (out.dims, out.dtype) == ((4, 3), D.INT64)


def test_expand_minus_one_keeps_the_dimension():
    assert expanded((2, 1), (-1, 5)).dims == (2, 5)


def test_expand_adds_leading_dimensions():
    assert expanded((3,), (2, 4, 3)).dims == (2, 4, 3)


def test_expand_with_an_empty_shape_keeps_dims():
    assert expanded((2, 3), ()).dims == (2, 3)


def test_expand_rejects_a_non_singleton_dimension_that_differs():
    with raises(
        "argument 'shape' [4, 3] cannot expand argument 'x' with dims [2, 3]: dimension 0 of 'x' has "
        "size 2, which is not 1 and differs from 4"
    ):
        expanded((2, 3), (4, 3))


def test_expand_rejects_fewer_entries_than_the_input_rank():
    with raises(
        "argument 'shape' [3] must have at least as many entries as argument 'x' with dims [2, 3] has dimensions"
    ):
        expanded((2, 3), (3,))


def test_expand_rejects_minus_one_for_a_new_leading_dimension():
    with raises(
        "argument 'shape' [-1, 3] has -1 at position 0, a new leading dimension; sizes must be >= 0"
    ):
        expanded((3,), (-1, 3))


# split -----------------------------------------------------------------------------------------


def split_dims(dims, sections, axis):
    pieces = [MetaTensor() for _ in sections]
    split_infer_meta(meta(dims, D.FLOAT64), sections, axis, pieces)
    assert all(piece.dtype == D.FLOAT64 for piece in pieces)
    return [piece.dims for piece in pieces]


def test_split_cuts_along_axis():
    assert split_dims((2, 6), (1, 2, 3), 1) == [(2, 1), (2, 2), (2, 3)]


def test_split_minus_one_takes_what_is_left():
    assert split_dims((5, 2), (2, -1), 0) == [(2, 2), (3, 2)]


def test_split_accepts_a_negative_axis():
    assert split_dims((2, 4), (1, 3), -1) == [(2, 1), (2, 3)]


def test_split_of_a_zero_size_axis_gives_empty_pieces_as_in_paddle():
    assert split_dims((0, 2), (1, 1), 0) == [(0, 2), (0, 2)]


def test_split_rejects_sections_that_do_not_sum_to_the_axis():
    with raises(
        "argument 'sections' [1, 2] sums to 3, but argument 'x' with dims [2, 4] has size 4 along axis 1"
    ):
        split_dims((2, 4), (1, 2), 1)


def test_split_rejects_two_minus_ones():
    with raises("argument 'sections' must hold sizes >= 0 and at most one -1, got [-1, -1]"):
        split_dims((2, 4), (-1, -1), 1)


def test_split_rejects_a_minus_one_with_nothing_left():
    with raises(
        "argument 'sections' [4, -1] leaves nothing for its -1: the other sections sum to 4, but "
        "argument 'x' with dims [2, 4] has size 4 along axis 1"
    ):
        split_dims((2, 4), (4, -1), 1)


def test_split_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-2, 2) for a tensor of rank 2, got 2"):
        split_dims((2, 4), (2, 2), 2)


def test_split_rejects_a_0d_tensor():
    with raises("argument 'x' must have at least 1 dimension to be split, got a 0-D tensor"):
        split_dims((), (1,), 0)


# softmax / creation ----------------------------------------------------------------------------


def test_softmax_keeps_the_meta():
    out = MetaTensor()
    softmax_infer_meta(meta((2, 3), D.FLOAT64), -1, out)
    assert (out.dims, out.dtype) == ((2, 3), D.FLOAT64)


def test_softmax_rejects_an_axis_out_of_range():
    with raises("argument 'axis' must be in [-2, 2) for a tensor of rank 2, got -3"):
        softmax_infer_meta(meta((2, 3)), -3, MetaTensor())


def test_create_like_with_undefined_dtype_takes_the_input_dtype():
    out = MetaTensor()
    create_like_infer_meta(meta((2, 0), D.INT8), D.UNDEFINED, out)
    assert (out.dims, out.dtype) == ((2, 0), D.INT8)


def test_create_like_with_a_dtype_uses_it():
    out = MetaTensor()
    create_like_infer_meta(meta((3,), D.INT8), D.COMPLEX64, out)
    assert (out.dims, out.dtype) == ((3,), D.COMPLEX64)
