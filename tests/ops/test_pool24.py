"""lp_pool2d, fractional_max_pool2d/3d and their grads against loop references written from
PaddlePaddle 3.3.1's definitions (paddle/phi/kernels/funcs/pooling.{h,cc}), per registered CPU
dtype, with their edges; the Python functions and layers of paddle.nn.functional / paddle.nn."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

# lp_pool2d's powers are float32 (powf) for every dtype, as PaddlePaddle's
LP_TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}


def lp_windows(size: int, kernel: int, stride: int, pad: int, ceil: bool) -> list[range]:
    span = size - kernel + 2 * pad + (stride - 1 if ceil else 0)
    out = span // stride + 1
    return [
        range(max(o * stride - pad, 0), min(o * stride - pad + kernel, size)) for o in range(out)
    ]


def lp_reference(x, kernel, stride, pad, ceil, p):
    """(out, windows) of the power mean over [N, C, H, W] in float64, PHI's clipped windows."""
    rows = lp_windows(x.shape[2], kernel[0], stride[0], pad[0], ceil)
    cols = lp_windows(x.shape[3], kernel[1], stride[1], pad[1], ceil)
    out = np.zeros(x.shape[:2] + (len(rows), len(cols)))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            window = x[:, :, r.start : r.stop, c.start : c.stop].astype(np.float64)
            out[:, :, i, j] = (window**p).sum(axis=(2, 3)) ** (1.0 / p)
    return out, rows, cols


def lp_grad_reference(x, out, dout, rows, cols, p):
    grad = np.zeros(x.shape)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            window = x[:, :, r.start : r.stop, c.start : c.stop].astype(np.float64)
            ratio = window / out[:, :, i, j][:, :, None, None]
            grad[:, :, r.start : r.stop, c.start : c.stop] += dout[:, :, i, j][
                :, :, None, None
            ] * ratio ** (p - 1)
    return grad


def lp_op(x, kernel, stride, pad, ceil=False, p=2.0, pooling="lp", fmt="NCHW", adaptive=False):
    return C.lp_pool2d(
        x, kernel, stride, pad, ceil, True, fmt, pooling, False, adaptive, "EXPLICIT", p
    )


@op_test("lp_pool2d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lp_pool2d"), ids=lambda d: d.name.lower())
def test_lp_pool2d_is_the_power_mean_of_each_clipped_window(dtype: DataType) -> None:
    x = sample((2, 3, 5, 6), dtype, low=0.1, high=1.0)
    expected, _, _ = lp_reference(x, (2, 3), (2, 2), (1, 1), True, 3.0)
    out = lp_op(phiops.to_tensor(x), [2, 3], [2, 2], [1, 1], True, 3.0)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), expected, **LP_TOLERANCE)


@pytest.mark.parametrize("dtype", cpu_dtypes("lp_pool2d_grad"), ids=lambda d: d.name.lower())
def test_lp_pool2d_grad_passes_dy_times_the_ratio_power(dtype: DataType) -> None:
    x_np = sample((1, 2, 4, 5), dtype, low=0.2, high=1.0)
    expected, rows, cols = lp_reference(x_np, (2, 2), (1, 2), (0, 1), False, 2.5)
    dout = sample(expected.shape, dtype, seed=1, low=0.5, high=1.5)
    x = phiops.to_tensor(x_np, stop_gradient=False)
    (grad,) = phiops.grad(
        [lp_op(x, [2, 2], [1, 2], [0, 1], False, 2.5)], [x], [phiops.to_tensor(dout)]
    )
    assert grad.dtype == dtype
    want = lp_grad_reference(x_np, expected, dout, rows, cols, 2.5)
    np.testing.assert_allclose(grad.numpy(), want, rtol=1e-4, atol=1e-5)


@op_test("lp_pool2d", kind="edge")
def test_lp_pool2d_with_inf_norm_is_max_pooling_and_its_first_max_gradient() -> None:
    x_np = np.array([[[[1.0, 3.0, 3.0], [3.0, 0.0, -2.0]]]])
    x = phiops.to_tensor(x_np, stop_gradient=False)
    out = lp_op(x, [2, 2], [1, 1], [0, 0], p=math.inf)
    np.testing.assert_array_equal(out.numpy(), [[[[3.0, 3.0]]]])
    (grad,) = phiops.grad([out], [x])
    np.testing.assert_array_equal(grad.numpy(), [[[[0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]]])


@op_test("lp_pool2d", kind="edge")
def test_lp_pool2d_refuses_a_zero_norm_type() -> None:
    x = phiops.to_tensor(np.ones((1, 1, 2, 2)))
    with pytest.raises(InvalidArgumentError, match="norm_type"):
        lp_op(x, [2, 2], [1, 1], [0, 0], p=0.0)
    with pytest.raises(InvalidArgumentError, match="norm_type cannot be 0"):
        F.lp_pool2d(x, 0, 2)


@op_test("lp_pool2d", kind="edge")
def test_lp_pool2d_of_a_negative_sum_with_a_fractional_root_is_nan_and_zero_gives_nan_grad() -> (
    None
):
    x = phiops.to_tensor(np.array([[[[-1.0, 2.0], [3.0, -4.0]]]]))
    assert np.isnan(lp_op(x, [2, 2], [2, 2], [0, 0], p=3.0).numpy()).all()
    zero = phiops.to_tensor(np.zeros((1, 1, 2, 2)), stop_gradient=False)
    out = lp_op(zero, [2, 2], [2, 2], [0, 0], p=2.0)
    assert out.numpy().item() == 0.0
    (grad,) = phiops.grad([out], [zero])
    assert np.isnan(grad.numpy()).all()


@op_test("lp_pool2d", kind="edge")
def test_lp_pool2d_nhwc_and_non_contiguous_inputs_match_nchw() -> None:
    x = sample((2, 3, 6, 5), DataType.FLOAT64, low=0.1, high=1.0)
    nchw = lp_op(phiops.to_tensor(x), [3, 2], [2, 1], [1, 0], p=2.0).numpy()
    nhwc = lp_op(
        phiops.to_tensor(x.transpose(0, 2, 3, 1)), [3, 2], [2, 1], [1, 0], p=2.0, fmt="NHWC"
    )
    np.testing.assert_allclose(nhwc.numpy().transpose(0, 3, 1, 2), nchw, rtol=1e-12)
    strided = phiops.to_tensor(x)[:, :, :, ::2]
    expected, _, _ = lp_reference(x[:, :, :, ::2], (3, 2), (2, 1), (1, 0), False, 2.0)
    np.testing.assert_allclose(
        lp_op(strided, [3, 2], [2, 1], [1, 0]).numpy(), expected, **LP_TOLERANCE
    )


@op_test("lp_pool2d", kind="edge")
def test_lp_pool2d_of_an_empty_batch_and_bad_inputs() -> None:
    empty = lp_op(phiops.to_tensor(np.zeros((0, 2, 4, 4), np.float32)), [2, 2], [2, 2], [0, 0])
    assert list(empty.shape) == [0, 2, 2, 2]
    with pytest.raises(InvalidArgumentError, match="4-D"):
        F.lp_pool2d(phiops.to_tensor(np.ones((2, 4, 4))), 2, 2)
    with pytest.raises(InvalidArgumentError, match="data_format"):
        F.lp_pool2d(phiops.to_tensor(np.ones((1, 1, 4, 4))), 2, 2, data_format="NCL")


@op_test("lp_pool2d", kind="edge")
def test_lp_pool1d_is_lp_pool2d_over_a_row_and_the_layers_call_the_functions() -> None:
    x = sample((2, 3, 7), DataType.FLOAT64, low=0.1, high=1.0)
    expected, _, _ = lp_reference(x[:, :, None, :], (1, 3), (1, 2), (0, 1), False, 2.0)
    out = F.lp_pool1d(phiops.to_tensor(x), 2, 3, stride=2, padding=1)
    np.testing.assert_allclose(out.numpy(), expected[:, :, 0], **LP_TOLERANCE)
    layer = phiops.nn.LPPool1D(2, 3, stride=2, padding=1)
    np.testing.assert_array_equal(layer(phiops.to_tensor(x)).numpy(), out.numpy())
    x2 = sample((1, 2, 4, 4), DataType.FLOAT32, low=0.1, high=1.0)
    layer2 = phiops.nn.LPPool2D(1.5, 2)
    np.testing.assert_array_equal(
        layer2(phiops.to_tensor(x2)).numpy(), F.lp_pool2d(phiops.to_tensor(x2), 1.5, 2).numpy()
    )
    assert "norm_type=1.5" in layer2.extra_repr()


def fractional_bounds(size: int, out: int, kernel: int, u: float) -> list[tuple[int, int]]:
    """PHI's FractionalRationalU / FractionalStartIndex / FractionalEndIndex in float32."""
    f = np.float32
    alpha = f(size - kernel) / f(out - (1 if kernel > 0 else 0))
    u = f(u)
    if kernel == 0:
        base = size // out
        u = u * min(f(base + 2) / alpha - f(1), f(size + 1 - base) / alpha - f(out - 1))
    bounds = []
    for i in range(out):
        start = int((f(i) + u) * alpha) - int(u * alpha)
        end = start + kernel if kernel else int((f(i + 1) + u) * alpha) - int(u * alpha)
        bounds.append((max(start, 0), min(end, size)))
    return bounds


def fractional_reference(x, output_size, kernel_size, u):
    spatial = x.shape[2:]
    per_axis = [fractional_bounds(*args, u) for args in zip(spatial, output_size, kernel_size)]
    out = np.zeros(x.shape[:2] + tuple(output_size), x.dtype)
    mask = np.zeros(out.shape, np.int32)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for position in itertools.product(*(range(o) for o in output_size)):
            window = [range(*per_axis[d][position[d]]) for d in range(len(spatial))]
            best, index = None, -1
            for element in itertools.product(*window):
                value = x[(n, c) + element]
                if best is None or value > best:
                    best, index = value, int(np.ravel_multi_index(element, spatial))
            out[(n, c) + position], mask[(n, c) + position] = best, index
    return out, mask


FRACTIONAL = {
    "fractional_max_pool2d": ((1, 2, 7, 8), [3, 5], [0, 0], [2, 3]),
    "fractional_max_pool3d": ((1, 2, 5, 6, 5), [2, 3, 4], [0, 0, 0], [2, 2, 2]),
}


@op_test("fractional_max_pool2d", "fractional_max_pool3d", kind="dtypes")
@pytest.mark.parametrize("op", sorted(FRACTIONAL))
@pytest.mark.parametrize("dtype", cpu_dtypes("fractional_max_pool2d"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("with_kernel", [False, True], ids=["disjoint", "kernel"])
def test_fractional_max_pool_takes_the_first_maximum_of_each_window(op, dtype, with_kernel) -> None:
    shape, output_size, no_kernel, kernel = FRACTIONAL[op]
    kernel_size = kernel if with_kernel else no_kernel
    x = sample(shape, dtype, seed=3)
    out, mask = getattr(C, op)(phiops.to_tensor(x), output_size, kernel_size, 0.35, True)
    want_out, want_mask = fractional_reference(x, output_size, kernel_size, 0.35)
    assert out.dtype == dtype and mask.dtype == DataType.INT32
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(mask.numpy(), want_mask)


@pytest.mark.parametrize("op", sorted(FRACTIONAL))
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fractional_max_pool2d_grad"), ids=lambda d: d.name.lower()
)
def test_fractional_max_pool_grad_adds_each_gradient_at_its_mask(op, dtype) -> None:
    shape, output_size, _, kernel = FRACTIONAL[op]
    x_np = sample(shape, dtype, seed=4)
    x = phiops.to_tensor(x_np, stop_gradient=False)
    out, mask = getattr(C, op)(x, output_size, kernel, 0.6, True)
    dout = sample(tuple(out.shape), dtype, seed=5, low=0.5, high=1.5)
    (grad,) = phiops.grad([out], [x], [phiops.to_tensor(dout)])
    want = np.zeros((shape[0] * shape[1], int(np.prod(shape[2:]))), np.float64)
    flat_mask = mask.numpy().reshape(want.shape[0], -1)
    for plane, (indices, values) in enumerate(zip(flat_mask, dout.reshape(want.shape[0], -1))):
        np.add.at(want[plane], indices, values.astype(np.float64))
    assert grad.dtype == dtype
    np.testing.assert_allclose(grad.numpy().astype(np.float64), want.reshape(shape), rtol=2e-3)


@op_test("fractional_max_pool2d", "fractional_max_pool3d", kind="edge")
def test_fractional_max_pool_draws_u_from_the_seeded_generator() -> None:
    x = phiops.to_tensor(sample((1, 1, 9, 9), DataType.FLOAT32, seed=6))
    phiops.seed(11)
    first = [F.fractional_max_pool2d(x, 4, return_mask=True)[1].numpy() for _ in range(3)]
    phiops.seed(11)
    again = [F.fractional_max_pool2d(x, 4, return_mask=True)[1].numpy() for _ in range(3)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


@op_test("fractional_max_pool2d", kind="edge")
def test_fractional_max_pool_never_takes_nan_and_an_all_low_window_gives_index_minus_one() -> None:
    x_np = np.array([[[[np.nan, 1.0, np.nan], [-np.inf, -np.inf, -np.inf]]]], np.float32)
    out, mask = C.fractional_max_pool2d(phiops.to_tensor(x_np), [2, 2], [1, 2], 0.5, True)
    low = -np.finfo(np.float32).max
    np.testing.assert_array_equal(out.numpy(), [[[[1.0, 1.0], [low, low]]]])
    np.testing.assert_array_equal(mask.numpy(), [[[[1, 1], [-1, -1]]]])
    x = phiops.to_tensor(x_np, stop_gradient=False)
    (grad,) = phiops.grad([C.fractional_max_pool2d(x, [2, 2], [1, 2], 0.5, True)[0]], [x])
    np.testing.assert_array_equal(grad.numpy(), [[[[0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]]])


@op_test("fractional_max_pool2d", "fractional_max_pool3d", kind="edge")
def test_fractional_max_pool_refuses_bad_sizes_and_u() -> None:
    x = phiops.to_tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(InvalidArgumentError, match="output_size"):
        C.fractional_max_pool2d(x, [5, 2], [0, 0], 0.5, True)
    with pytest.raises(InvalidArgumentError, match="output_size - 1 \\+ kernel_size"):
        C.fractional_max_pool2d(x, [3, 3], [3, 3], 0.5, True)
    with pytest.raises(InvalidArgumentError, match="random_u"):
        C.fractional_max_pool2d(x, [2, 2], [0, 0], 1.5, True)
    with pytest.raises(InvalidArgumentError, match="random_u"):
        F.fractional_max_pool2d(x, 2, random_u=0.0)
    with pytest.raises(InvalidArgumentError, match="5-D"):
        F.fractional_max_pool3d(x, 2)
    with pytest.raises(InvalidArgumentError, match="kernel_size"):
        C.fractional_max_pool3d(
            phiops.to_tensor(np.ones((1, 1, 4, 4, 4))), [2, 2, 2], [0, 0], 0.5, True
        )


@op_test("fractional_max_pool3d", kind="edge")
def test_fractional_max_pool_of_an_empty_batch_and_the_layers() -> None:
    empty = F.fractional_max_pool3d(phiops.to_tensor(np.zeros((0, 2, 4, 4, 4))), 2, random_u=0.5)
    assert list(empty.shape) == [0, 2, 2, 2, 2]
    x = phiops.to_tensor(sample((1, 2, 6, 6), DataType.FLOAT64, seed=7))
    layer = phiops.nn.FractionalMaxPool2D([3, None], random_u=0.3, return_mask=True)
    out, mask = layer(x)
    want_out, want_mask = F.fractional_max_pool2d(x, [3, 6], None, 0.3, True)
    np.testing.assert_array_equal(out.numpy(), want_out.numpy())
    np.testing.assert_array_equal(mask.numpy(), want_mask.numpy())
    volume = phiops.to_tensor(sample((1, 1, 4, 5, 6), DataType.FLOAT32, seed=8))
    layer3 = phiops.nn.FractionalMaxPool3D(2, random_u=0.7)
    np.testing.assert_array_equal(
        layer3(volume).numpy(), F.fractional_max_pool3d(volume, 2, random_u=0.7).numpy()
    )
