"""batch_norm, batch_norm_ and layer_norm against float64 numpy references."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def bn_inputs(shape, dtype, channel_axis=1):
    c = shape[channel_axis]
    x = sample(shape, dtype)
    mean, variance = sample((c,), dtype, seed=1), sample((c,), dtype, seed=2, low=0.5, high=2)
    scale, bias = sample((c,), dtype, seed=3), sample((c,), dtype, seed=4)
    return x, mean, variance, scale, bias


def reference_bn_train(x, mean, variance, scale, bias, momentum, eps, channel_axis=1):
    # float attributes are float32 in PHI, also in a float64 kernel
    momentum, eps = float(np.float32(momentum)), float(np.float32(eps))
    x64 = x.astype(np.float64)
    axes = tuple(a for a in range(x.ndim) if a != channel_axis)
    shape = [1] * x.ndim
    shape[channel_axis] = -1
    mu, var = x64.mean(axis=axes), x64.var(axis=axes)
    inv_std = 1 / np.sqrt(var + eps)
    out = (x64 - mu.reshape(shape)) * (inv_std * scale).reshape(shape) + bias.reshape(shape)
    return (
        out,
        mean * momentum + mu * (1 - momentum),
        variance * momentum + var * (1 - momentum),
        mu,
        inv_std,
    )


def run_bn(
    op, x, mean, variance, scale, bias, is_test=False, use_global_stats=False, data_format="NCHW"
):
    tensors = [phi.to_tensor(a) for a in (x, mean, variance, scale, bias)]
    outs = op(*tensors, is_test, 0.9, 1e-5, data_format, use_global_stats, False)
    return tensors, outs


@op_test("batch_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("batch_norm"))
def test_batch_norm_training_matches_the_reference(dtype):
    x, mean, variance, scale, bias = bn_inputs((4, 3, 2, 5), dtype)
    _, outs = run_bn(phi.batch_norm, x, mean, variance, scale, bias)
    expected = reference_bn_train(x, mean, variance, scale, bias, 0.9, 1e-5)
    for got, want in zip(outs[:5], expected):
        np.testing.assert_allclose(got.numpy(), want, **tolerance(dtype))
    assert outs[5] is None


@op_test("batch_norm_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("batch_norm"))
def test_batch_norm_inplace_updates_the_running_statistics(dtype):
    x, mean, variance, scale, bias = bn_inputs((6, 4), dtype)
    tensors, outs = run_bn(phi.batch_norm_, x, mean, variance, scale, bias)
    _, mean_out, variance_out, _, _ = reference_bn_train(x, mean, variance, scale, bias, 0.9, 1e-5)
    np.testing.assert_allclose(tensors[1].numpy(), mean_out, **tolerance(dtype))
    np.testing.assert_allclose(tensors[2].numpy(), variance_out, **tolerance(dtype))
    assert outs[1] is tensors[1] and outs[2] is tensors[2]


@op_test("batch_norm", kind="edge")
def test_batch_norm_writes_the_running_statistics_into_mean_and_variance():
    x, mean, variance, scale, bias = bn_inputs((4, 3, 5), D.FLOAT64)
    tensors, outs = run_bn(phi.batch_norm, x, mean, variance, scale, bias)
    _, mean_out, variance_out, _, _ = reference_bn_train(x, mean, variance, scale, bias, 0.9, 1e-5)
    np.testing.assert_allclose(tensors[1].numpy(), mean_out, rtol=1e-12)
    np.testing.assert_allclose(tensors[2].numpy(), variance_out, rtol=1e-12)


@op_test("batch_norm", kind="edge")
@pytest.mark.parametrize("is_test, use_global_stats", [(True, False), (False, True)])
def test_batch_norm_inference_uses_and_keeps_the_running_statistics(is_test, use_global_stats):
    x, mean, variance, scale, bias = bn_inputs((4, 3, 2, 2), D.FLOAT64)
    tensors, outs = run_bn(
        phi.batch_norm, x, mean, variance, scale, bias, is_test, use_global_stats
    )
    shape = (1, 3, 1, 1)
    expected = (x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + 1e-5) * scale.reshape(
        shape
    ) + bias.reshape(shape)
    np.testing.assert_allclose(outs[0].numpy(), expected, rtol=1e-12)
    np.testing.assert_array_equal(tensors[1].numpy(), mean)
    np.testing.assert_array_equal(tensors[2].numpy(), variance)


@op_test("batch_norm", kind="edge")
def test_batch_norm_nhwc_normalises_the_last_axis():
    x, mean, variance, scale, bias = bn_inputs((2, 3, 4, 5), D.FLOAT64, channel_axis=3)
    _, outs = run_bn(phi.batch_norm, x, mean, variance, scale, bias, data_format="NHWC")
    expected = reference_bn_train(x, mean, variance, scale, bias, 0.9, 1e-5, channel_axis=3)
    np.testing.assert_allclose(outs[0].numpy(), expected[0], rtol=1e-10)


@op_test("batch_norm", kind="edge")
def test_batch_norm_without_scale_and_bias():
    x, mean, variance, _, _ = bn_inputs((5, 2), D.FLOAT64)
    outs = phi.batch_norm(
        phi.to_tensor(x),
        phi.to_tensor(mean),
        phi.to_tensor(variance),
        None,
        None,
        False,
        0.9,
        1e-5,
        "NCHW",
        False,
        False,
    )
    expected = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5)
    np.testing.assert_allclose(outs[0].numpy(), expected, rtol=1e-10)


@op_test("batch_norm", kind="edge")
def test_batch_norm_rejects_statistics_of_the_wrong_size():
    x, mean, variance, scale, bias = bn_inputs((4, 3, 2), D.FLOAT64)
    with pytest.raises(
        InvalidArgumentError, match=r"batch_norm\(\): argument 'scale' must be 1-D with 3 elements"
    ):
        run_bn(phi.batch_norm, x, mean, variance, np.ones(4), bias)


@op_test("batch_norm_", kind="edge")
def test_batch_norm_inplace_rejects_a_1d_input():
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'x' must have 2 to 5 dims, got dims \[3\]"
    ):
        run_bn(phi.batch_norm_, np.ones(3), np.ones(3), np.ones(3), np.ones(3), np.ones(3))


def reference_ln(x, scale, bias, axis, eps=1e-5):
    rows = x.astype(np.float64).reshape(int(np.prod(x.shape[:axis])), -1)
    mean, var = rows.mean(1), rows.var(1)
    out = (rows - mean[:, None]) / np.sqrt(var[:, None] + eps)
    if scale is not None:
        out = out * scale
    if bias is not None:
        out = out + bias
    return out.reshape(x.shape), mean, var


@op_test("layer_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("layer_norm"))
def test_layer_norm_matches_the_reference(dtype):
    x, scale, bias = (
        sample((3, 4, 5), dtype),
        sample((20,), dtype, seed=1),
        sample((20,), dtype, seed=2),
    )
    out = phi.layer_norm(phi.to_tensor(x), phi.to_tensor(scale), phi.to_tensor(bias), 1e-5, 1)
    np.testing.assert_allclose(out.numpy(), reference_ln(x, scale, bias, 1)[0], **tolerance(dtype))


@op_test("layer_norm", kind="edge")
def test_layer_norm_last_axis_without_scale_or_bias():
    x = sample((2, 3, 6), D.FLOAT64)
    out = phi.layer_norm(phi.to_tensor(x), None, None, 1e-5, 2)
    np.testing.assert_allclose(out.numpy(), reference_ln(x, None, None, 2)[0], rtol=1e-12)


@op_test("layer_norm", kind="edge")
def test_layer_norm_rejects_a_scale_of_the_wrong_size_and_a_bad_axis():
    x = phi.to_tensor(np.ones((2, 3)))
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'scale' with dims \[2\] must have 3 elements"
    ):
        phi.layer_norm(x, phi.to_tensor(np.ones(2)), None, 1e-5, 1)
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'begin_norm_axis' must be in \[1, 2\)"
    ):
        phi.layer_norm(x, None, None, 1e-5, 2)


def reference_group_norm(x, scale, bias, groups, eps=1e-5):
    n, c = x.shape[:2]
    rows = x.astype(np.float64).reshape(n * groups, -1)
    mean, var = rows.mean(1), rows.var(1)
    eps = float(np.float32(eps))
    y = ((rows - mean[:, None]) / np.sqrt(var[:, None] + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if scale is not None:
        y = y * scale.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y, mean.reshape(n, groups), var.reshape(n, groups)


@op_test("group_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("group_norm"))
def test_group_norm_matches_the_reference(dtype):
    x, scale, bias = (
        sample((2, 6, 3, 2), dtype),
        sample((6,), dtype, seed=1),
        sample((6,), dtype, seed=2),
    )
    y = phi.group_norm(phi.to_tensor(x), phi.to_tensor(scale), phi.to_tensor(bias), 1e-5, 3)
    np.testing.assert_allclose(
        y.numpy(), reference_group_norm(x, scale, bias, 3)[0], **tolerance(dtype)
    )


@op_test("group_norm", kind="edge")
def test_group_norm_nhwc_without_affine():
    x = sample((2, 3, 2, 4), D.FLOAT64)
    y = phi.group_norm(phi.to_tensor(x), None, None, 1e-5, 2, "NHWC")
    expected = reference_group_norm(x.transpose(0, 3, 1, 2), None, None, 2)[0]
    np.testing.assert_allclose(y.numpy(), expected.transpose(0, 2, 3, 1), rtol=1e-10)


@op_test("group_norm", kind="edge")
def test_group_norm_rejects_channels_not_divisible_by_groups():
    with pytest.raises(InvalidArgumentError, match=r"must be divisible by argument 'groups' \(4\)"):
        phi.group_norm(phi.to_tensor(np.ones((1, 6, 2))), None, None, 1e-5, 4)


@op_test("instance_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("instance_norm"))
def test_instance_norm_matches_the_reference(dtype):
    x, scale, bias = (
        sample((2, 3, 4, 2), dtype),
        sample((3,), dtype, seed=1),
        sample((3,), dtype, seed=2),
    )
    y = phi.instance_norm(phi.to_tensor(x), phi.to_tensor(scale), phi.to_tensor(bias), 1e-5)
    np.testing.assert_allclose(
        y.numpy(), reference_group_norm(x, scale, bias, 3)[0], **tolerance(dtype)
    )


@op_test("instance_norm", kind="edge")
def test_instance_norm_of_a_3d_input_without_affine():
    x = sample((2, 3, 5), D.FLOAT64)
    y = phi.instance_norm(phi.to_tensor(x), None, None, 1e-5)
    np.testing.assert_allclose(y.numpy(), reference_group_norm(x, None, None, 3)[0], rtol=1e-10)


@op_test("instance_norm", kind="edge")
def test_instance_norm_rejects_a_scale_of_the_wrong_size():
    with pytest.raises(InvalidArgumentError, match=r"argument 'scale' must be 1-D with 3 elements"):
        phi.instance_norm(phi.to_tensor(np.ones((2, 3, 4))), phi.to_tensor(np.ones(4)), None, 1e-5)
