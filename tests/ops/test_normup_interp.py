"""linear_interp, bicubic_interp and trilinear_interp (normup family) against numpy references
written from PaddlePaddle's formulas (paddle/phi/kernels/cpu/interpolate_kernel.cc): source
position ratio * k (align_corners or align_mode 1) or ratio * (k + 0.5) - 0.5 (half-pixel
centres), the two neighbours weighted 1 - d and d (linear, trilinear), the 4 x 4 neighbours
clamped to the edge weighted by Keys' cubic kernel with A = -0.75 (bicubic). Outputs and
gradients against PaddlePaddle 3.3.1 itself are in tests/nn/test_normup.py (recorded) and
tests/parity/test_normup_paddle.py (live)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def call(op, x, sizes=(), scale=(), align_corners=False, align_mode=0, data_format="NCHW", **kw):
    """The op with the output sizes as out_d/out_h/out_w (the last len(sizes) of them)."""
    outs = [0, 0, 0]
    outs[3 - len(sizes) :] = list(sizes)
    method = kw.pop("method", op.replace("_interp", ""))
    return getattr(phi, op)(
        x if isinstance(x, phi.Tensor) else phi.to_tensor(x),
        kw.get("out_size"),
        kw.get("size_tensor"),
        kw.get("scale_tensor"),
        data_format,
        *outs,
        list(scale),
        method,
        align_corners,
        align_mode,
    )


def ratio(size, out, align_corners, scale=0.0):
    """PHI's ratio, a float32 (positions are then computed in double)."""
    if out <= 1:
        return 0.0
    if align_corners:
        return float(np.float32(size - 1) / np.float32(out - 1))
    return float(np.float32(1.0 / scale) if scale else np.float32(size) / np.float32(out))


def linear_weights(size, out, align_corners, align_mode, scale=0.0):
    """[out, size] weights of PaddlePaddle's linear interpolation along one dim."""
    r = ratio(size, out, align_corners, scale)
    matrix = np.zeros((out, size))
    for k in range(out):
        if align_mode == 0 and not align_corners:
            source = max(r * (k + 0.5) - 0.5, 0.0)
        else:
            source = float(np.float32(r) * np.float32(k))  # a float product in PHI
        low = int(source)
        high = min(low + 1, size - 1)
        matrix[k, low] += 1 - (source - low)
        matrix[k, high] += source - low
    return matrix


def keys_cubic(distance):
    """Keys' cubic convolution kernel with A = -0.75."""
    a, d = -0.75, abs(distance)
    if d <= 1:
        return (a + 2) * d**3 - (a + 3) * d**2 + 1
    if d < 2:
        return a * d**3 - 5 * a * d**2 + 8 * a * d - 4 * a
    return 0.0


def cubic_weights(size, out, align_corners):
    r = ratio(size, out, align_corners)
    matrix = np.zeros((out, size))
    for k in range(out):
        # ratio * k is a float product in PHI, ratio * (k + 0.5) - 0.5 a double one
        source = float(np.float32(r) * np.float32(k)) if align_corners else r * (k + 0.5) - 0.5
        base = int(np.floor(source))
        for tap in range(-1, 3):
            index = min(max(base + tap, 0), size - 1)
            matrix[k, index] += keys_cubic(source - (base + tap))
    return matrix


def reference_linear(x, out_w, align_corners=False, align_mode=0):
    return np.einsum(
        "ncw,ow->nco",
        x.astype(np.float64),
        linear_weights(x.shape[2], out_w, align_corners, align_mode),
    )


def reference_bicubic(x, out_h, out_w, align_corners=False):
    wh = cubic_weights(x.shape[2], out_h, align_corners)
    ww = cubic_weights(x.shape[3], out_w, align_corners)
    return np.einsum("nchw,oh,pw->ncop", x.astype(np.float64), wh, ww)


def reference_trilinear(x, sizes, align_corners=False, align_mode=0, scales=(0.0, 0.0, 0.0)):
    """The sum over the 8 corners of each output voxel, PHI's formula (a given scale sets the
    ratio 1 / scale)."""
    x = x.astype(np.float64)
    axes = []
    for size, out, scale in zip(x.shape[2:], sizes, scales):
        r = ratio(size, out, align_corners, scale)
        source = np.array(
            [
                (
                    max(r * (k + 0.5) - 0.5, 0.0)
                    if align_mode == 0 and not align_corners
                    else float(np.float32(r) * np.float32(k))
                )
                for k in range(out)
            ]
        )
        low = source.astype(int)
        axes.append((low, np.minimum(low + 1, size - 1), source - low))
    result = 0.0
    for corner in np.ndindex(2, 2, 2):
        index, weight = [], 1.0
        for axis, pick in enumerate(corner):
            low, high, frac = axes[axis]
            index.append(high if pick else low)
            shape = [1, 1, 1]
            shape[axis] = -1
            weight = weight * (frac if pick else 1 - frac).reshape(shape)
        result = result + x[(slice(None), slice(None)) + np.ix_(*index)] * weight
    return result


def _floating(op):
    return [d for d in cpu_dtypes(op) if d.is_floating_point]


@op_test("linear_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", _floating("linear_interp"), ids=lambda d: d.name.lower())
def test_linear_interp_matches_the_reference(dtype):
    x = sample((2, 3, 5), dtype)
    out = call("linear_interp", x, (8,))
    assert out.dtype == dtype and out.shape == [2, 3, 8]
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), reference_linear(x, 8), **tolerance(dtype)
    )


@op_test("bicubic_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", _floating("bicubic_interp"), ids=lambda d: d.name.lower())
def test_bicubic_interp_matches_the_reference(dtype):
    x = sample((2, 2, 4, 5), dtype)
    out = call("bicubic_interp", x, (7, 3))
    assert out.dtype == dtype and out.shape == [2, 2, 7, 3]
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), reference_bicubic(x, 7, 3), **tolerance(dtype)
    )


@op_test("trilinear_interp", kind="dtypes")
@pytest.mark.parametrize("dtype", _floating("trilinear_interp"), ids=lambda d: d.name.lower())
def test_trilinear_interp_matches_the_reference(dtype):
    x = sample((1, 2, 3, 4, 2), dtype)
    out = call("trilinear_interp", x, (5, 3, 4), align_corners=True)
    assert out.dtype == dtype and out.shape == [1, 2, 5, 3, 4]
    np.testing.assert_allclose(
        out.numpy().astype(np.float64),
        reference_trilinear(x, (5, 3, 4), align_corners=True),
        **tolerance(dtype),
    )


@op_test("linear_interp", "trilinear_interp", kind="dtypes")
@pytest.mark.parametrize("op", ["linear_interp", "trilinear_interp"])
def test_uint8_interpolation_truncates_the_float_result(op):
    x = sample((1, 2, 4) if op == "linear_interp" else (1, 1, 2, 3, 4), D.UINT8, low=0, high=200)
    sizes = (7,) if op == "linear_interp" else (3, 5, 6)
    out = call(op, x, sizes, align_mode=1)
    assert out.dtype == D.UINT8
    expected = (
        reference_linear(x, 7, align_mode=1)
        if op == "linear_interp"
        else reference_trilinear(x, sizes, align_mode=1)
    )
    # float32 sums in PHI's and phiops's order may land either side of an integer
    assert np.abs(out.numpy().astype(np.int64) - np.trunc(expected)).max() <= 1


@op_test("linear_interp", kind="edge")
def test_linear_interp_modes_scales_and_channels_last():
    x = sample((2, 6, 3), D.FLOAT64)  # NWC: width 6, 3 channels
    nwc = call("linear_interp", x, scale=(1.5,), align_mode=1, data_format="NHWC")
    assert nwc.shape == [2, 9, 3]
    # align_mode 1 samples at k / scale
    weights = linear_weights(6, 9, False, 1, scale=1.5)
    np.testing.assert_allclose(
        nwc.numpy(), np.einsum("nwc,ow->noc", x, weights), rtol=1e-6, atol=1e-6
    )
    ncw = x.transpose(0, 2, 1)
    for align_corners, mode in ((True, 0), (False, 0), (False, 1)):
        out = call("linear_interp", ncw, (4,), align_corners=align_corners, align_mode=mode)
        np.testing.assert_allclose(
            out.numpy(), reference_linear(ncw, 4, align_corners, mode), rtol=1e-6, atol=1e-7
        )
    # equal sizes copy x, as PHI does
    np.testing.assert_array_equal(call("linear_interp", ncw, (6,)).numpy(), ncw)
    # one output sample: ratio 0, the first input sample
    np.testing.assert_array_equal(call("linear_interp", ncw, (1,)).numpy(), ncw[:, :, :1])


@op_test("linear_interp", "bicubic_interp", "trilinear_interp", kind="edge")
def test_interp_rejects_ranks_its_method_does_not_take():
    for op, shape, sizes in (
        ("linear_interp", (1, 2, 3, 4), (5, 5)),
        ("bicubic_interp", (1, 2, 3), (5,)),
        ("bicubic_interp", (1, 2, 3, 4, 5), (5, 5, 5)),
        ("trilinear_interp", (1, 2, 3, 4), (5, 5)),
    ):
        method = op.replace("_interp", "")
        with pytest.raises(InvalidArgumentError, match=f"{op}.*argument 'x': {method} .*takes"):
            call(op, np.ones(shape, np.float32), sizes)
    with pytest.raises(InvalidArgumentError, match="'interp_method' must be one of"):
        call("bicubic_interp", np.ones((1, 1, 2, 2), np.float32), (3, 3), method="cubic")
    with pytest.raises(InvalidArgumentError, match=r"'data_format' must be one of \['NCHW'"):
        call("linear_interp", np.ones((1, 2, 3), np.float32), (5,), data_format="NCW")
    with pytest.raises(InvalidArgumentError, match="'align_mode' must be 0 or 1"):
        call("trilinear_interp", np.ones((1, 1, 2, 2, 2), np.float32), (3, 3, 3), align_mode=2)
    with pytest.raises(InvalidArgumentError, match="spatial dim 1 must be positive"):
        call("bicubic_interp", np.ones((1, 1, 2, 2), np.float32), (3, 0))


@op_test("bicubic_interp", kind="edge")
def test_bicubic_interp_corners_edges_and_size_tensors():
    x = sample((1, 2, 4, 4), D.FLOAT64, seed=3)
    aligned = call("bicubic_interp", x, (7, 7), align_corners=True).numpy()
    # aligned corners keep the corner pixels; the cubic weights of an integer position are 1, 0
    np.testing.assert_allclose(aligned[..., ::2, ::2], x, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        aligned, reference_bicubic(x, 7, 7, align_corners=True), rtol=1e-12, atol=1e-12
    )
    # half-pixel downsampling reads clamped neighbours past the edges
    np.testing.assert_allclose(
        call("bicubic_interp", x, (2, 3)).numpy(), reference_bicubic(x, 2, 3), atol=1e-12
    )
    # a constant image stays constant (the weights sum to 1)
    flat = call("bicubic_interp", np.full((1, 1, 3, 3), 2.5), (5, 4)).numpy()
    np.testing.assert_allclose(flat, 2.5, rtol=1e-12)
    # sizes from tensors: size_tensor, out_size
    sizes = [phi.to_tensor(np.array([5], np.int32)), phi.to_tensor(np.array([6], np.int64))]
    from_sizes = call("bicubic_interp", x, size_tensor=sizes)
    np.testing.assert_allclose(from_sizes.numpy(), reference_bicubic(x, 5, 6), atol=1e-12)
    from_out = call("bicubic_interp", x, out_size=phi.to_tensor(np.array([3, 2], np.int32)))
    np.testing.assert_allclose(from_out.numpy(), reference_bicubic(x, 3, 2), atol=1e-12)
    # an empty batch resizes to an empty batch
    assert call("bicubic_interp", np.ones((0, 2, 3, 3)), (4, 4)).shape == [0, 2, 4, 4]


@op_test("trilinear_interp", kind="edge")
def test_trilinear_interp_layouts_and_scales():
    x = sample((2, 2, 3, 4, 3), D.FLOAT64, seed=5)  # NDHWC: 3 channels
    ncdhw = np.ascontiguousarray(np.moveaxis(x, -1, 1))
    expected = reference_trilinear(ncdhw, (4, 6, 3), align_mode=0)
    for layout in ("NHWC", "NDHWC"):
        out = call("trilinear_interp", x, (4, 6, 3), data_format=layout)
        assert out.shape == [2, 4, 6, 3, 3]
        # PHI's linear weights are float32, also for a float64 input
        np.testing.assert_allclose(out.numpy(), np.moveaxis(expected, 1, -1), rtol=1e-6, atol=1e-6)
    scaled = call("trilinear_interp", ncdhw, scale=(2.0, 1.5, 0.5), align_mode=1)
    assert scaled.shape == [2, 3, 4, 4, 2]
    # PHI's linear weights are float32, also for a float64 input
    np.testing.assert_allclose(
        scaled.numpy(),
        reference_trilinear(ncdhw, (4, 4, 2), align_mode=1, scales=(2.0, 1.5, 0.5)),
        atol=1e-6,
    )
    with pytest.raises(InvalidArgumentError, match="reads 'NCDHW' as channels last"):
        call("trilinear_interp", ncdhw, (4, 6, 2), data_format="NCDHW")


@op_test("bicubic_interp", "linear_interp", "trilinear_interp", kind="edge")
@pytest.mark.parametrize(
    "op, shape, sizes",
    [
        ("linear_interp", (2, 3, 5), (8,)),
        ("bicubic_interp", (1, 2, 4, 3), (6, 5)),
        ("trilinear_interp", (1, 2, 2, 3, 2), (3, 4, 5)),
    ],
)
def test_interp_grads_are_the_transposed_weights(op, shape, sizes):
    x = phi.to_tensor(sample(shape, D.FLOAT64, seed=9), stop_gradient=False)
    out = call(op, x, sizes, align_corners=True)
    out_grad = sample(tuple(out.shape), D.FLOAT64, seed=10)
    (grad,) = phi.grad([out], [x], [phi.to_tensor(out_grad)])
    # the output is a [out, in] weight matrix per spatial dim applied to x: the gradient is
    # out_grad through their transposes
    weights = [
        (
            cubic_weights(size, out, True)
            if op == "bicubic_interp"
            else linear_weights(size, out, True, 0)
        )
        for size, out in zip(shape[2:], sizes)
    ]
    outs, ins = "opq"[: len(sizes)], "hwd"[: len(sizes)]
    spec = f"nc{outs}," + ",".join(o + i for o, i in zip(outs, ins)) + f"->nc{ins}"
    # PHI's linear weights are float32 even for a float64 input, its cubic ones float64
    tol = 1e-12 if op == "bicubic_interp" else 1e-6
    np.testing.assert_allclose(
        grad.numpy(), np.einsum(spec, out_grad, *weights), rtol=tol, atol=tol
    )


def test_an_interp_op_follows_the_method_it_is_given() -> None:
    """PHI's kernels take interp_method from the attribute: bilinear_interp asked for bicubic
    resamples bicubically (as bicubic_interp does), and its gradient follows."""
    import phiops.generated as phi_ops
    import phiops.generated.backward as phi_backward

    x = phi_ops.to_tensor(np.random.default_rng(2).standard_normal((1, 2, 3, 4)).astype("float32"))
    args = (None, None, None, "NCHW", -1, 6, 8, (), "bicubic", False, 1)
    by_bilinear = phi_ops.bilinear_interp(x, *args).numpy()
    by_bicubic = phi_ops.bicubic_interp(x, *args).numpy()
    np.testing.assert_array_equal(by_bilinear, by_bicubic)
    dout = phi_ops.to_tensor(np.ones((1, 2, 6, 8), "float32"))
    grads = [
        getattr(phi_backward, f"{op}_grad")(x, None, None, None, dout, *args[3:]).numpy()
        for op in ("bilinear_interp", "bicubic_interp")
    ]
    np.testing.assert_array_equal(grads[0], grads[1])
