"""nearest_interp and bilinear_interp against numpy references of PaddlePaddle's formulas."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def interp(
    op,
    x,
    out_hw=(0, 0),
    scale=(),
    method=None,
    align_corners=True,
    align_mode=1,
    data_format="NCHW",
):
    method = method or ("nearest" if op == "nearest_interp" else "bilinear")
    return getattr(phi, op)(
        phi.to_tensor(x),
        None,
        None,
        None,
        data_format,
        0,
        out_hw[0],
        out_hw[1],
        list(scale),
        method,
        align_corners,
        align_mode,
    )


def reference_bilinear(x, out_h, out_w, align_corners):
    """Bilinear sampling at (k * (in-1)/(out-1)) with align_corners, k * in/out otherwise
    (align_mode 1)."""
    x = x.astype(np.float64)
    h, w = x.shape[2:]

    def axis(size, out):
        ratio = (size - 1) / (out - 1) if align_corners else size / out
        pos = np.arange(out) * ratio
        low = np.floor(pos).astype(int)
        return low, np.minimum(low + 1, size - 1), pos - low

    (t, b, fy), (l, r, fx) = axis(h, out_h), axis(w, out_w)
    fy, fx = fy[:, None], fx[None, :]
    return (
        x[:, :, t[:, None], l] * (1 - fy) * (1 - fx)
        + x[:, :, b[:, None], l] * fy * (1 - fx)
        + x[:, :, t[:, None], r] * (1 - fy) * fx
        + x[:, :, b[:, None], r] * fy * fx
    )


@op_test("nearest_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("nearest_interp"))
def test_nearest_interp_repeats_the_nearest_source(dtype):
    x = sample((2, 3, 2, 3), dtype)
    out = interp("nearest_interp", x, (4, 6), align_corners=False)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), x.repeat(2, axis=2).repeat(2, axis=3))


@op_test("bilinear_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", [d for d in cpu_dtypes("bilinear_interp") if d.is_floating_point])
def test_bilinear_interp_matches_the_reference(dtype):
    x = sample((2, 3, 4, 5), dtype)
    out = interp("bilinear_interp", x, (7, 3))
    expected = reference_bilinear(x, 7, 3, True)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("bilinear_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", [d for d in cpu_dtypes("bilinear_interp") if d.is_integer])
def test_bilinear_interp_of_integers_truncates(dtype):
    x = sample((1, 2, 3, 3), dtype, low=0, high=100)
    out = interp("bilinear_interp", x, (5, 5))
    assert out.dtype == dtype
    expected = reference_bilinear(x, 5, 5, True)
    assert np.abs(out.numpy() - np.trunc(expected)).max() <= 1


@op_test("bilinear_interp", kind="edge")
def test_bilinear_interp_without_align_corners_nhwc_from_scale():
    x = sample((1, 4, 6, 2), D.FLOAT64)
    out = interp("bilinear_interp", x, scale=(0.5, 1.5), align_corners=False, data_format="NHWC")
    assert out.shape == [1, 2, 9, 2]
    expected = reference_bilinear(x.transpose(0, 3, 1, 2), 2, 9, False)
    # align_mode 1 samples at k * in / out: the scale gives in/out = 1/scale, a float32 in PHI
    np.testing.assert_allclose(out.numpy(), expected.transpose(0, 2, 3, 1), atol=1e-5)


@op_test("bilinear_interp", kind="edge")
def test_bilinear_interp_half_pixel_centres_keep_the_mean_of_a_2x_upsampling():
    x = sample((1, 1, 3, 3), D.FLOAT64)
    out = interp("bilinear_interp", x, (6, 6), align_corners=False, align_mode=0).numpy()
    # half-pixel 2x upsampling of the interior keeps averages of neighbouring pairs
    np.testing.assert_allclose(
        out[0, 0, 1, 1],
        0.75**2 * x[0, 0, 0, 0]
        + 0.75 * 0.25 * (x[0, 0, 0, 1] + x[0, 0, 1, 0])
        + 0.25**2 * x[0, 0, 1, 1],
        rtol=1e-6,
    )


@op_test("nearest_interp", kind="edge")
def test_nearest_interp_with_align_corners_rounds_the_source_position():
    x = np.arange(4.0).reshape(1, 1, 1, 4)
    out = interp("nearest_interp", x, (1, 7), align_corners=True)
    # ratio 3/6: positions 0, .5, 1, 1.5, 2, 2.5, 3 rounded half up
    assert out.numpy().ravel().tolist() == [0, 1, 1, 2, 2, 3, 3]


@op_test("nearest_interp", kind="edge")
def test_interp_method_decides_the_method_as_in_paddle():
    x = sample((1, 1, 2, 2), D.FLOAT64)
    np.testing.assert_allclose(
        interp("nearest_interp", x, (3, 3), method="bilinear").numpy(),
        interp("bilinear_interp", x, (3, 3)).numpy(),
    )


@op_test("nearest_interp", kind="edge")
def test_interp_rejects_bad_sizes_and_scales():
    x = np.ones((1, 1, 2, 2))
    with pytest.raises(
        InvalidArgumentError, match="output size along spatial dim 0 must be positive"
    ):
        interp("nearest_interp", x, (0, 3))
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'scale' must be empty or hold 2 positive"
    ):
        interp("nearest_interp", x, scale=(2.0,))


def interp_from_tensors(op, x, out_size=None, size_tensor=None, scale_tensor=None, scale=()):
    method = "nearest" if op == "nearest_interp" else "bilinear"
    return getattr(phi, op)(
        phi.to_tensor(x),
        None if out_size is None else phi.to_tensor(out_size),
        None if size_tensor is None else [phi.to_tensor(v) for v in size_tensor],
        None if scale_tensor is None else phi.to_tensor(scale_tensor),
        "NCHW",
        0,
        0,
        0,
        list(scale),
        method,
        False,
        1,
    )


@op_test("bilinear_interp", "nearest_interp", kind="edge")
def test_interp_output_size_from_out_size_or_size_tensor_values():
    x = sample((2, 3, 5, 4), D.FLOAT64, seed=3)
    expected = reference_bilinear(x, 7, 9, align_corners=False)
    out = interp_from_tensors("bilinear_interp", x, out_size=np.array([7, 9], np.int32))
    # the ratio in/out is a float in PHI
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)
    sizes = [np.array([7], np.int64), np.array(9, np.int32)]
    out = interp_from_tensors("bilinear_interp", x, size_tensor=sizes)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)
    # size_tensor comes first: out_size is not read
    out = interp_from_tensors(
        "nearest_interp", x, out_size=np.array([2, 2], np.int32), size_tensor=sizes
    )
    assert out.shape == [2, 3, 7, 9]


@op_test("bilinear_interp", kind="edge")
def test_interp_scale_tensor_gives_sizes_and_ratios_and_out_size_keeps_the_ratios():
    x = sample((1, 2, 4, 6), D.FLOAT64, seed=4)
    # one value scales both dims: int(4 * 1.5) = 6, int(6 * 1.5) = 9; ratios 1 / 1.5
    out = interp_from_tensors("bilinear_interp", x, scale_tensor=np.array([1.5], np.float32))
    np.testing.assert_allclose(
        out.numpy(), reference_bilinear(x, 6, 9, align_corners=False), rtol=1e-5, atol=1e-5
    )
    # out_size 5 x 7 with scale 1.5: the source positions are still k / 1.5 (PHI's kernel)
    out = interp_from_tensors(
        "bilinear_interp", x, out_size=np.array([5, 7], np.int32), scale=(1.5, 1.5)
    )
    np.testing.assert_allclose(
        out.numpy(),
        reference_bilinear(x, 6, 9, align_corners=False)[:, :, :5, :7],
        rtol=1e-5,
        atol=1e-5,
    )


@op_test("nearest_interp", kind="edge")
def test_interp_rejects_bad_size_tensors():
    x = np.ones((1, 1, 2, 2))
    with pytest.raises(InvalidArgumentError, match="'out_size' must be int32, got int64"):
        interp_from_tensors("nearest_interp", x, out_size=np.array([3, 3]))
    with pytest.raises(InvalidArgumentError, match="'out_size' must be 1-D with 2 values"):
        interp_from_tensors("nearest_interp", x, out_size=np.array([3, 3, 3], np.int32))
    with pytest.raises(InvalidArgumentError, match="'size_tensor' must hold 2 tensors"):
        interp_from_tensors("nearest_interp", x, size_tensor=[np.array([3], np.int32)])
    with pytest.raises(InvalidArgumentError, match=r"'size_tensor\[1\]' must be int32 or int64"):
        interp_from_tensors("nearest_interp", x, size_tensor=[np.array([3]), np.array([3.0])])
    with pytest.raises(InvalidArgumentError, match="'scale_tensor' must be float32"):
        interp_from_tensors("nearest_interp", x, scale_tensor=np.array([2.0]))
    with pytest.raises(InvalidArgumentError, match="values of argument 'scale_tensor' must be"):
        interp_from_tensors("nearest_interp", x, scale_tensor=np.array([2.0, -1], np.float32))
    with pytest.raises(InvalidArgumentError, match="spatial dim 0 must be positive, got 0 .*'out"):
        interp_from_tensors("nearest_interp", x, out_size=np.array([0, 3], np.int32))


@op_test("bilinear_interp", kind="edge")
def test_bilinear_interp_of_a_5d_input_is_refused():
    # PHI's InterpolateInferMeta takes bilinear for 4-D inputs only (trilinear_interp is 5-D's)
    with pytest.raises(InvalidArgumentError, match="bilinear interpolation takes a 4-D input"):
        interp("bilinear_interp", np.ones((1, 1, 2, 2, 2)), (3, 3))


_X5 = np.arange(2 * 2 * 2 * 3 * 2, dtype="float32").reshape(2, 2, 2, 3, 2)


@op_test("nearest_interp", kind="edge")
def test_nearest_interp_of_a_5d_input_as_paddle():
    # PaddlePaddle 3.3.1: _C_ops.nearest_interp(x, None, None, None, "NCHW", 3, 4, 3, [],
    # "nearest", False, 1) on a [2, 2, 2, 3, 2] input (what F.interpolate passes for NCDHW),
    # and its gradient for out_grad = arange.
    x = phi.to_tensor(_X5, stop_gradient=False)
    out = phi.nearest_interp(x, None, None, None, "NCHW", 3, 4, 3, [], "nearest", False, 1)
    assert out.shape == [2, 2, 3, 4, 3]
    np.testing.assert_array_equal(out.numpy().ravel()[:12], [0, 0, 1, 0, 0, 1, 2, 2, 3, 4, 4, 5])
    out_grad = phi.to_tensor(np.arange(out.size, dtype="float32").reshape(out.shape))
    (grad,) = phi.grad([out], [x], [out_grad])
    np.testing.assert_array_equal(
        grad.numpy().ravel()[:12], [64, 38, 50, 28, 62, 34, 104, 55, 61, 32, 67, 35]
    )
    aligned = phi.nearest_interp(x, None, None, None, "NCHW", 3, 5, 3, [], "nearest", True, 1)
    np.testing.assert_array_equal(
        aligned.numpy().ravel()[:15], [0, 1, 1, 2, 3, 3, 2, 3, 3, 4, 5, 5, 4, 5, 5]
    )
    last = phi.nearest_interp(
        x, None, None, None, "NDHWC", 0, 0, 0, [2.0, 1.5, 2.0], "nearest", False, 1
    )
    assert last.shape == [2, 4, 3, 6, 2] and float(last.numpy().sum()) == 6480.0


@op_test("nearest_interp", kind="edge")
def test_nearest_interp_refuses_ncdhw_which_paddle_reads_as_channels_last():
    with pytest.raises(InvalidArgumentError, match="reads 'NCDHW' as channels last"):
        phi.nearest_interp(
            phi.to_tensor(_X5), None, None, None, "NCDHW", 3, 4, 3, [], "nearest", False, 1
        )
