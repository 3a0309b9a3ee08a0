"""conv2d_transpose, depthwise_conv2d_transpose and conv3d_transpose against a direct float64
numpy reference (each input element scatters ``x * filter`` onto the output, the definition of
a transposed convolution)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance


def reference_conv_transpose(x, w, strides, pads, dilations, groups, out_spatial=None):
    """x [N, C, *sp] (channels first), w [C, M/g, *k]; ``pads`` (before, after) per spatial dim;
    ``out_spatial`` the output extents (default: (in - 1) * s - pads + dilated kernel)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c = x.shape[:2]
    sp, kernel = x.shape[2:], w.shape[2:]
    cg, mg = c // groups, w.shape[1]
    full = tuple(
        (i - 1) * s + d * (k - 1) + 1 for i, s, d, k in zip(sp, strides, dilations, kernel)
    )
    if out_spatial is None:
        out_spatial = tuple(f - p0 - p1 for f, (p0, p1) in zip(full, pads))
    size = tuple(max(f, o + p0) for f, o, (p0, _) in zip(full, out_spatial, pads))
    canvas = np.zeros((n, groups * mg) + size)
    for tap in itertools.product(*(range(k) for k in kernel)):
        target = tuple(
            slice(t * d, t * d + s * (i - 1) + 1, s)
            for t, d, s, i in zip(tap, dilations, strides, sp)
        )
        for g in range(groups):
            patch = x[:, g * cg : (g + 1) * cg]
            weight = w[(slice(g * cg, (g + 1) * cg), slice(None)) + tap]
            canvas[(slice(None), slice(g * mg, (g + 1) * mg)) + target] += np.einsum(
                "nc...,cm->nm...", patch, weight
            )
    crop = tuple(slice(p0, p0 + o) for (p0, _), o in zip(pads, out_spatial))
    return canvas[(slice(None), slice(None)) + crop]


def assert_close(out, expected, dtype):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


def t(array):
    return phi.to_tensor(array)


# Every registered dtype ------------------------------------------------------------------------


@op_test("conv2d_transpose", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("conv2d_transpose"))
def test_conv2d_transpose_matches_the_reference(dtype):
    x, w = sample((2, 4, 4, 5), dtype), sample((4, 3, 3, 2), dtype, seed=1)
    out = phi.conv2d_transpose(t(x), t(w), [2, 1], [1, 0, 2, 1], [], [], "EXPLICIT", 2, [1, 2])
    expected = reference_conv_transpose(x, w, (2, 1), ((1, 0), (2, 1)), (1, 2), 2)
    assert_close(out, expected, dtype)


@op_test("depthwise_conv2d_transpose", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("depthwise_conv2d_transpose"))
def test_depthwise_conv2d_transpose_matches_the_reference(dtype):
    x, w = sample((2, 3, 4, 4), dtype), sample((3, 2, 3, 3), dtype, seed=1)
    out = phi.depthwise_conv2d_transpose(t(x), t(w), [2, 2], [1, 1], [], [], "EXPLICIT", 3)
    assert_close(out, reference_conv_transpose(x, w, (2, 2), ((1, 1), (1, 1)), (1, 1), 3), dtype)


@op_test("conv3d_transpose", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("conv3d_transpose"))
def test_conv3d_transpose_matches_the_reference(dtype):
    x, w = sample((1, 2, 3, 4, 2), dtype), sample((2, 3, 2, 3, 2), dtype, seed=1)
    out = phi.conv3d_transpose(t(x), t(w), [1, 2, 1], [1, 0, 1], data_format="NCDHW")
    expected = reference_conv_transpose(x, w, (1, 2, 1), ((1, 1), (0, 0), (1, 1)), (1, 1, 1), 1)
    assert_close(out, expected, dtype)


def test_the_transposed_convolutions_have_paddles_cpu_dtypes():
    float_types = [DataType.FLOAT32, DataType.FLOAT64]
    for op in ("conv2d_transpose", "depthwise_conv2d_transpose", "conv3d_transpose"):
        assert cpu_dtypes(op) == float_types
        assert cpu_dtypes(op + "_grad") == float_types


# Edge cases ------------------------------------------------------------------------------------


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_output_padding_adds_rows_and_columns_at_the_end():
    x, w = sample((1, 2, 3, 3), DataType.FLOAT64), sample((2, 1, 3, 3), DataType.FLOAT64, seed=2)
    out = phi.conv2d_transpose(t(x), t(w), [2, 3], [1, 1], [1, 2])
    expected = reference_conv_transpose(x, w, (2, 3), ((1, 1), (1, 1)), (1, 1), 1, (6, 9))
    assert_close(out, expected, DataType.FLOAT64)


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_output_size_picks_one_of_the_stride_many_sizes():
    x, w = sample((1, 2, 3, 3), DataType.FLOAT64), sample((2, 2, 3, 3), DataType.FLOAT64, seed=2)
    for size in (5, 6):
        out = phi.conv2d_transpose(t(x), t(w), [2, 2], [1, 1], [], [size, size])
        expected = reference_conv_transpose(x, w, (2, 2), ((1, 1), (1, 1)), (1, 1), 1, (size, size))
        assert_close(out, expected, DataType.FLOAT64)


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_output_size_may_be_a_tensor():
    x, w = sample((1, 2, 3, 3), DataType.FLOAT32), sample((2, 2, 3, 3), DataType.FLOAT32, seed=2)
    size = phi.to_tensor(np.array([6, 5], np.int32))
    out = phi.conv2d_transpose(t(x), t(w), [2, 2], [1, 1], [], size)
    assert out.shape == [1, 2, 6, 5]


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_same_pads_from_the_input_and_ignores_dilations():
    x, w = sample((1, 2, 3, 4), DataType.FLOAT64), sample((2, 2, 2, 3), DataType.FLOAT64, seed=3)
    out = phi.conv2d_transpose(t(x), t(w), [2, 2], [5, 5], [], [], "SAME", 1, [3, 3])
    # SAME as for a convolution of the 3x4 input: out = ceil(in / 2) = (2, 2), pads (0, 1), (0, 1)
    expected = reference_conv_transpose(x, w, (2, 2), ((0, 1), (0, 1)), (1, 1), 1)
    assert out.shape == [1, 2, 5, 8]
    assert_close(out, expected, DataType.FLOAT64)


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_valid_ignores_paddings():
    x, w = sample((1, 2, 3, 3), DataType.FLOAT64), sample((2, 2, 2, 2), DataType.FLOAT64, seed=3)
    out = phi.conv2d_transpose(t(x), t(w), [1, 2], [3, 3], [], [], "VALID")
    assert_close(
        out, reference_conv_transpose(x, w, (1, 2), ((0, 0), (0, 0)), (1, 1), 1), DataType.FLOAT64
    )


@op_test("conv2d_transpose", "depthwise_conv2d_transpose", kind="edge")
def test_conv2d_transpose_nhwc_equals_nchw_transposed():
    x, w = sample((2, 4, 3, 5), DataType.FLOAT64), sample((4, 3, 3, 2), DataType.FLOAT64, seed=4)
    nchw = phi.conv2d_transpose(t(x), t(w), [2, 1], [1, 0], [1, 0], [], "EXPLICIT", 2)
    nhwc = phi.conv2d_transpose(
        t(x.transpose(0, 2, 3, 1)), t(w), [2, 1], [1, 0], [1, 0], [], "EXPLICIT", 2, [1, 1], "NHWC"
    )
    np.testing.assert_allclose(nhwc.numpy(), nchw.numpy().transpose(0, 2, 3, 1), rtol=1e-12)
    dw = sample((4, 1, 3, 3), DataType.FLOAT64, seed=5)
    depthwise = phi.depthwise_conv2d_transpose(
        t(x.transpose(0, 2, 3, 1)), t(dw), [1, 1], [1, 1], [], [], "EXPLICIT", 4, [1, 1], "NHWC"
    )
    expected = reference_conv_transpose(x, dw, (1, 1), ((1, 1), (1, 1)), (1, 1), 4)
    np.testing.assert_allclose(depthwise.numpy(), expected.transpose(0, 2, 3, 1), rtol=1e-12)


@op_test("conv3d_transpose", kind="edge")
def test_conv3d_transpose_channels_last_and_dilation():
    x, w = sample((1, 2, 3, 2, 4), DataType.FLOAT64), sample(
        (2, 2, 2, 2, 2), DataType.FLOAT64, seed=6
    )
    expected = reference_conv_transpose(x, w, (2, 1, 1), ((0, 0), (1, 1), (0, 1)), (1, 2, 1), 2)
    # PaddlePaddle's conv3d_transpose takes "NHWC" (or "NDHWC") for channels last
    for layout in ("NHWC", "NDHWC"):
        out = phi.conv3d_transpose(
            t(x.transpose(0, 2, 3, 4, 1)),
            t(w),
            [2, 1, 1],
            [0, 0, 1, 1, 0, 1],
            [],
            [],
            "EXPLICIT",
            2,
            [1, 2, 1],
            layout,
        )
        np.testing.assert_allclose(out.numpy(), expected.transpose(0, 2, 3, 4, 1), rtol=1e-12)


@op_test("conv2d_transpose", "conv3d_transpose", kind="edge")
def test_transposed_convolution_of_an_empty_batch_is_empty():
    out = phi.conv2d_transpose(
        t(np.zeros((0, 2, 3, 3), np.float32)), t(np.ones((2, 3, 2, 2), np.float32))
    )
    assert out.shape == [0, 3, 4, 4]
    out = phi.conv3d_transpose(
        t(np.zeros((0, 2, 1, 3, 3))), t(np.ones((2, 1, 2, 2, 2))), data_format="NCDHW"
    )
    assert out.shape == [0, 1, 2, 4, 4]


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_rejects_bad_channels_and_groups():
    x = t(np.zeros((1, 4, 3, 3), np.float32))
    with pytest.raises(
        InvalidArgumentError, match=r"conv2d_transpose.*input channels \(4.*dim 0 \(3"
    ):
        phi.conv2d_transpose(x, t(np.zeros((3, 2, 2, 2), np.float32)))
    with pytest.raises(InvalidArgumentError, match=r"divisible by groups \(3\)"):
        phi.conv2d_transpose(x, t(np.zeros((4, 2, 2, 2), np.float32)), groups=3)
    with pytest.raises(InvalidArgumentError, match="'groups' must be positive"):
        phi.conv2d_transpose(x, t(np.zeros((4, 2, 2, 2), np.float32)), groups=0)


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_rejects_sizes_paddle_rejects():
    x, w = t(np.zeros((1, 2, 3, 3), np.float32)), t(np.zeros((2, 3, 2, 2), np.float32))
    with pytest.raises(InvalidArgumentError, match=r"'output_size' must be less than .* 6 \+ 2"):
        phi.conv2d_transpose(x, w, [2, 2], [0, 0], [], [8, 8])
    with pytest.raises(InvalidArgumentError, match=r"'output_size' must not be less .* 6"):
        phi.conv2d_transpose(x, w, [2, 2], [0, 0], [], [5, 6])
    with pytest.raises(InvalidArgumentError, match=r"'output_padding' must be in \[0, max"):
        phi.conv2d_transpose(x, w, [2, 2], [0, 0], [2, 0])
    with pytest.raises(InvalidArgumentError, match=r"'output_size' must hold 2 values"):
        phi.conv2d_transpose(x, w, [1, 1], [0, 0], [], [6])
    with pytest.raises(InvalidArgumentError, match=r"'dilations' must hold 2 values"):
        phi.conv2d_transpose(x, w, dilations=[1])
    with pytest.raises(InvalidArgumentError, match=r"would be -2 .* must not be negative"):
        phi.conv2d_transpose(x, w, paddings=[3, 3])


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_rejects_bad_ranks_and_layouts():
    w = t(np.zeros((2, 3, 2, 2), np.float32))
    with pytest.raises(InvalidArgumentError, match="'x' must be a 4-D or 5-D tensor"):
        phi.conv2d_transpose(t(np.zeros((2, 3, 3), np.float32)), w)
    with pytest.raises(InvalidArgumentError, match="'filter' must have the rank"):
        phi.conv2d_transpose(
            t(np.zeros((1, 2, 3, 3), np.float32)), t(np.zeros((2, 3, 2), np.float32))
        )
    with pytest.raises(InvalidArgumentError, match="'data_format' must be one of"):
        phi.conv2d_transpose(t(np.zeros((1, 2, 3, 3), np.float32)), w, data_format="CHWN")
    with pytest.raises(InvalidArgumentError, match="'padding_algorithm'"):
        phi.conv2d_transpose(t(np.zeros((1, 2, 3, 3), np.float32)), w, padding_algorithm="FULL")


@op_test("conv2d_transpose", kind="edge")
def test_conv2d_transpose_of_an_integer_tensor_has_no_cpu_kernel_as_in_paddle():
    x, w = t(np.zeros((1, 2, 3, 3), np.int32)), t(np.zeros((2, 3, 2, 2), np.int32))
    with pytest.raises(NotFoundError):
        phi.conv2d_transpose(x, w)


@pytest.mark.parametrize(
    "n, c_in, c_out, spatial, k, s, pads, output_padding, d, algorithm",
    [
        (1, 3, 3, (2, 2), 4, 2, [1, 1], [], 1, "EXPLICIT"),  # FCN's 2x upsampling
        (1, 3, 3, (8, 8), 16, 8, [4, 4], [], 1, "EXPLICIT"),  # FCN's 8x upsampling
        (1, 8, 8, (16, 16), 2, 2, [0, 0], [], 1, "EXPLICIT"),  # U-Net's
        (2, 5, 4, (3, 4), 3, 2, [1, 1], [1, 1], 1, "EXPLICIT"),
        (2, 4, 6, (5, 5), 3, 1, [0, 0], [], 2, "EXPLICIT"),
        (1, 4, 2, (5, 6), 3, 2, [0, 0], [], 1, "SAME"),
        (1, 2, 3, (4, 4), 3, 3, [1, 2], [2, 1], 1, "EXPLICIT"),
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_compiled_channels_first_path_gives_the_numpy_paths_bits(
    monkeypatch, n, c_in, c_out, spatial, k, s, pads, output_padding, d, algorithm, dtype
):
    """conv2d_transpose of NCHW float arrays (groups 1) through the compiled col2im: the numpy
    (channels-last) path's numbers to the bit, and the reference's."""
    from phiops.runtime import flags
    from phiops.runtime.kernels import native

    if not native.NATIVE_BUILT:
        pytest.skip("the extension is not built")
    rng = np.random.default_rng(5)
    x = rng.standard_normal((n, c_in) + spatial).astype(dtype)
    w = rng.standard_normal((c_in, c_out, k, k)).astype(dtype)
    args = ([s, s], pads, output_padding, [], algorithm, 1, [d, d], "NCHW")
    calls: list[str] = []
    module = native._native

    class Spy:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(module, name)

    monkeypatch.setattr(native, "_native", Spy())
    compiled = phi.conv2d_transpose(phi.to_tensor(x), phi.to_tensor(w), *args).numpy()
    assert calls == ["col2im_2d"]
    with flags.flags_guard({"use_native_kernels": False}):
        plain = phi.conv2d_transpose(phi.to_tensor(x), phi.to_tensor(w), *args).numpy()
    assert compiled.dtype == dtype and np.array_equal(compiled, plain)
    if algorithm == "EXPLICIT":
        both = [(pads[0], pads[0]), (pads[1], pads[1])] if len(pads) == 2 else None
        expected = reference_conv_transpose(x, w, (s, s), both, (d, d), 1, compiled.shape[2:])
        np.testing.assert_allclose(compiled, expected, **tolerance(DataType.FLOAT32))
