"""conv2d, depthwise_conv2d and conv3d against a direct float64 numpy reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def reference_conv(x, w, strides, pads, dilations, groups):
    """Direct convolution of x [N, C, *sp] (channels first) with w [M, C/g, *k]; ``pads`` holds
    (before, after) per spatial dim. One multiply-add per kernel tap and group."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    rank = x.ndim - 2
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    kernel = w.shape[2:]
    out_sp = tuple(
        (xp.shape[2 + d] - (dilations[d] * (kernel[d] - 1) + 1)) // strides[d] + 1
        for d in range(rank)
    )
    n, c = x.shape[:2]
    m = w.shape[0]
    cg, mg = c // groups, m // groups
    out = np.zeros((n, m) + out_sp)
    for tap in itertools.product(*(range(k) for k in kernel)):
        sl = tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(tap, dilations, strides, out_sp)
        )
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            weight = w[(slice(g * mg, (g + 1) * mg), slice(None)) + tap]
            out[:, g * mg : (g + 1) * mg] += np.einsum("nc...,mc->nm...", patch, weight)
    return out


def assert_close(out, expected, dtype):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


# Every registered dtype ------------------------------------------------------------------------


@op_test("conv2d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("conv2d"))
def test_conv2d_matches_the_reference(dtype):
    x, w = sample((2, 4, 6, 5), dtype), sample((6, 2, 3, 2), dtype, seed=1)
    out = phi.conv2d(
        phi.to_tensor(x), phi.to_tensor(w), [2, 1], [1, 0, 2, 1], "EXPLICIT", [1, 2], 2
    )
    expected = reference_conv(x, w, (2, 1), ((1, 0), (2, 1)), (1, 2), 2)
    assert_close(out, expected, dtype)


@op_test("depthwise_conv2d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("depthwise_conv2d"))
def test_depthwise_conv2d_matches_the_reference(dtype):
    x, w = sample((2, 3, 5, 5), dtype), sample((6, 1, 3, 3), dtype, seed=1)
    out = phi.depthwise_conv2d(phi.to_tensor(x), phi.to_tensor(w), [1, 1], [1, 1], "EXPLICIT", 3)
    assert_close(out, reference_conv(x, w, (1, 1), ((1, 1), (1, 1)), (1, 1), 3), dtype)


@op_test("conv3d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("conv3d"))
def test_conv3d_matches_the_reference(dtype):
    x, w = sample((1, 2, 4, 5, 3), dtype), sample((3, 2, 2, 3, 2), dtype, seed=1)
    out = phi.conv3d(phi.to_tensor(x), phi.to_tensor(w), [1, 2, 1], [1, 0, 1])
    expected = reference_conv(x, w, (1, 2, 1), ((1, 1), (0, 0), (1, 1)), (1, 1, 1), 1)
    assert_close(out, expected, dtype)


# Edge cases ------------------------------------------------------------------------------------


@op_test("conv2d", kind="edge")
def test_conv2d_nhwc_equals_nchw_transposed():
    x, w = sample((2, 5, 4, 3), D.FLOAT64), sample((4, 3, 3, 3), D.FLOAT64, seed=1)
    out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), [1, 1], [1, 1], data_format="NHWC")
    expected = reference_conv(x.transpose(0, 3, 1, 2), w, (1, 1), ((1, 1), (1, 1)), (1, 1), 1)
    assert_close(out, expected.transpose(0, 2, 3, 1), D.FLOAT64)


@op_test("conv2d", kind="edge")
def test_conv2d_same_padding_keeps_ceil_of_input_over_stride_and_ignores_dilations():
    x, w = sample((1, 2, 7, 6), D.FLOAT64), sample((3, 2, 3, 2), D.FLOAT64, seed=1)
    out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), [2, 2], [5, 5], "SAME", [3, 3])
    # out = ceil(7/2), ceil(6/2); pad totals (4-1)*2+3-7 = 2 and (3-1)*2+2-6 = 0
    expected = reference_conv(x, w, (2, 2), ((1, 1), (0, 0)), (1, 1), 1)
    assert out.shape == [1, 3, 4, 3]
    assert_close(out, expected, D.FLOAT64)


@op_test("conv2d", kind="edge")
def test_conv2d_valid_padding_ignores_paddings():
    x, w = sample((1, 1, 5, 5), D.FLOAT64), sample((1, 1, 3, 3), D.FLOAT64, seed=1)
    out = phi.conv2d(phi.to_tensor(x), phi.to_tensor(w), [1, 1], [2, 2], "VALID")
    assert_close(out, reference_conv(x, w, (1, 1), ((0, 0), (0, 0)), (1, 1), 1), D.FLOAT64)


@op_test("conv2d", kind="edge")
def test_conv2d_of_an_empty_batch_is_empty():
    out = phi.conv2d(phi.to_tensor(np.zeros((0, 2, 4, 4))), phi.to_tensor(np.ones((3, 2, 3, 3))))
    assert out.shape == [0, 3, 2, 2]


@op_test("conv2d", kind="edge")
def test_conv2d_rejects_channels_that_do_not_match_groups():
    with pytest.raises(
        InvalidArgumentError,
        match=r"conv2d\(\): the input channels \(4, .*\) must equal the filter channels \(3, "
        r".*\) times groups \(2\)",
    ):
        phi.conv2d(
            phi.to_tensor(np.ones((1, 4, 5, 5))), phi.to_tensor(np.ones((2, 3, 3, 3))), groups=2
        )


@op_test("conv2d", kind="edge")
def test_conv2d_rejects_a_kernel_larger_than_the_padded_input():
    with pytest.raises(
        InvalidArgumentError,
        match=r"the padded input size 4 \(input 2 \+ paddings 1 and 1\) of spatial dim 0 is "
        r"smaller than the dilated kernel size 5",
    ):
        phi.conv2d(
            phi.to_tensor(np.ones((1, 1, 2, 9))),
            phi.to_tensor(np.ones((1, 1, 3, 3))),
            [1, 1],
            [1, 1],
            "EXPLICIT",
            [2, 2],
        )


@op_test("conv2d", kind="edge")
def test_conv2d_rejects_an_unknown_padding_algorithm_and_bad_paddings():
    x, w = phi.to_tensor(np.ones((1, 1, 4, 4))), phi.to_tensor(np.ones((1, 1, 3, 3)))
    with pytest.raises(InvalidArgumentError, match="argument 'padding_algorithm' must be one of"):
        phi.conv2d(x, w, padding_algorithm="FULL")
    with pytest.raises(InvalidArgumentError, match=r"argument 'paddings' must hold 2 or 4 values"):
        phi.conv2d(x, w, paddings=[1, 1, 1])


@op_test("conv2d", kind="edge")
def test_conv2d_of_an_integer_tensor_has_no_cpu_kernel_as_in_paddle():
    with pytest.raises(NotFoundError, match="conv2d"):
        phi.conv2d(
            phi.to_tensor(np.ones((1, 1, 3, 3), np.int32)),
            phi.to_tensor(np.ones((1, 1, 1, 1), np.int32)),
        )


@op_test("depthwise_conv2d", kind="edge")
def test_depthwise_conv2d_nhwc_with_a_channel_multiplier_and_stride():
    x, w = sample((1, 5, 6, 2), D.FLOAT64), sample((4, 1, 2, 2), D.FLOAT64, seed=1)
    out = phi.depthwise_conv2d(
        phi.to_tensor(x), phi.to_tensor(w), [2, 2], [0, 0], "EXPLICIT", 2, [1, 1], "NHWC"
    )
    expected = reference_conv(x.transpose(0, 3, 1, 2), w, (2, 2), ((0, 0), (0, 0)), (1, 1), 2)
    assert_close(out, expected.transpose(0, 2, 3, 1), D.FLOAT64)


@op_test("conv3d", kind="edge")
def test_conv3d_ndhwc_with_groups_and_dilation():
    x, w = sample((1, 4, 5, 4, 4), D.FLOAT64), sample((2, 2, 2, 2, 2), D.FLOAT64, seed=1)
    out = phi.conv3d(
        phi.to_tensor(x), phi.to_tensor(w), [1, 1, 1], [0, 0, 0], "EXPLICIT", 2, [2, 1, 1], "NDHWC"
    )
    expected = reference_conv(x.transpose(0, 4, 1, 2, 3), w, (1, 1, 1), ((0, 0),) * 3, (2, 1, 1), 2)
    assert_close(out, expected.transpose(0, 2, 3, 4, 1), D.FLOAT64)


@op_test("conv3d", kind="edge")
def test_conv3d_rejects_a_4d_filter():
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'filter' must have the rank of argument 'input' \(5\)",
    ):
        phi.conv3d(phi.to_tensor(np.ones((1, 1, 3, 3, 3))), phi.to_tensor(np.ones((1, 1, 3, 3))))


@pytest.mark.parametrize("data_format", ["AnyLayout", "NCDHW", "NCHW"])
def test_conv2d_reads_any_channels_first_layout_name_as_nchw(data_format: str) -> None:
    # PaddlePaddle 3.3.1's _C_ops.conv2d on ones [1,1,4,4] with a ones [1,1,3,3] filter gives
    # [1,1,2,2] of 9.0 for each of these (legacy programs pass AnyLayout, wrappers NCDHW).
    x = phi.to_tensor(np.ones((1, 1, 4, 4), "float32"))
    w = phi.to_tensor(np.ones((1, 1, 3, 3), "float32"))
    out = phi.conv2d(x, w, [1, 1], [0, 0], "EXPLICIT", [1, 1], 1, data_format)
    np.testing.assert_array_equal(out.numpy(), np.full((1, 1, 2, 2), 9.0, np.float32))


def test_conv2d_refuses_a_layout_name_that_is_none() -> None:
    x = phi.to_tensor(np.ones((1, 1, 4, 4), "float32"))
    w = phi.to_tensor(np.ones((1, 1, 3, 3), "float32"))
    with pytest.raises(InvalidArgumentError, match="data_format"):
        phi.conv2d(x, w, [1, 1], [0, 0], "EXPLICIT", [1, 1], 1, "NCWH")
