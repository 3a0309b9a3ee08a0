"""unfold (im2col), fold (col2im) and affine_grid: every registered dtype against numpy
references written element by element from the ops' definitions, paddings, strides and
dilations, empty and non-contiguous inputs, paddle.nn.functional's forms, paddle.unfold (the
sliding slices along one axis) and bad input. tests/ops/test_vision_paddle.py compares with
PaddlePaddle's recorded results."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops as paddle
import phiops.generated as phi
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests import paddle_api
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def blocks_of(size, kernel, stride, pad_before, pad_after, dilation):
    return (size + pad_before + pad_after - dilation * (kernel - 1) - 1) // stride + 1


def unfold_reference(x, kernel, strides, pads, dilations):
    """out[n, c * kh * kw + i * kw + j, bh * BW + bw] = x at (bh * sh - top + i * dh,
    bw * sw - left + j * dw), 0 outside."""
    n, c, h, w = x.shape
    bh = blocks_of(h, kernel[0], strides[0], pads[0], pads[2], dilations[0])
    bw = blocks_of(w, kernel[1], strides[1], pads[1], pads[3], dilations[1])
    out = np.zeros((n, c * kernel[0] * kernel[1], bh * bw), x.dtype)
    for ch in range(c):
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                row = ch * kernel[0] * kernel[1] + i * kernel[1] + j
                for a in range(bh):
                    for b in range(bw):
                        y = a * strides[0] - pads[0] + i * dilations[0]
                        z = b * strides[1] - pads[1] + j * dilations[1]
                        if 0 <= y < h and 0 <= z < w:
                            out[:, row, a * bw + b] = x[:, ch, y, z]
    return out


def fold_reference(cols, output_sizes, kernel, strides, pads, dilations):
    """Each column entry added to the image element unfold takes it from."""
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    h, w = output_sizes
    bh = blocks_of(h, kernel[0], strides[0], pads[0], pads[2], dilations[0])
    bw = blocks_of(w, kernel[1], strides[1], pads[1], pads[3], dilations[1])
    out = np.zeros((n, c, h, w), cols.dtype)
    for ch in range(c):
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                row = ch * kernel[0] * kernel[1] + i * kernel[1] + j
                for a in range(bh):
                    for b in range(bw):
                        y = a * strides[0] - pads[0] + i * dilations[0]
                        z = b * strides[1] - pads[1] + j * dilations[1]
                        if 0 <= y < h and 0 <= z < w:
                            out[:, ch, y, z] += cols[:, row, a * bw + b]
    return out


def coordinates(count, align_corners):
    values = np.linspace(-1.0, 1.0, count)
    return values if align_corners else values * (count - 1) / count


def affine_grid_reference(theta, shape, align_corners):
    """grid[n, h, w] = theta[n] @ (x_w, y_h, 1) (and z_d for 3-D)."""
    spatial = shape[2:]
    axes = [coordinates(size, align_corners) for size in spatial]
    out = np.zeros((theta.shape[0], *spatial, len(spatial)))
    for index in np.ndindex(*spatial):
        point = [axes[k][index[k]] for k in reversed(range(len(spatial)))] + [1.0]
        out[(slice(None), *index)] = theta @ np.array(point)
    return out


UNFOLD = ((2, 3), (1, 2), (1, 0, 2, 1), (1, 2))


@op_test("unfold", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unfold"), ids=lambda d: d.name.lower())
def test_unfold_matches_the_reference_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 5, 7), dtype, seed=21)
    out = phi.unfold(phi.to_tensor(x), *UNFOLD)
    assert out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), unfold_reference(x, *UNFOLD))


@op_test("fold", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fold"), ids=lambda d: d.name.lower())
def test_fold_matches_the_reference_for_each_dtype(dtype: DataType) -> None:
    # output 5 x 6, kernel 2 x 3, strides 1 x 2, paddings 1 x 1, dilations 2 x 1: 5 x 3 blocks
    x = sample((2, 2 * 6, 15), dtype, seed=22)
    args = ((5, 6), (2, 3), (1, 2), (1, 1, 1, 1), (2, 1))
    out = phi.fold(phi.to_tensor(x), *args)
    assert out.dtype is dtype
    tolerance = {"rtol": 1e-6} if dtype in (D.FLOAT32, D.COMPLEX64) else {"rtol": 1e-14}
    np.testing.assert_allclose(out.numpy(), fold_reference(x, *args), **tolerance)


@op_test("affine_grid", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("affine_grid"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("align_corners", [True, False])
def test_affine_grid_matches_the_reference_for_each_dtype(
    dtype: DataType, align_corners: bool
) -> None:
    theta = sample((2, 2, 3), dtype, seed=23)
    out = phi.affine_grid(phi.to_tensor(theta), [2, 1, 3, 4], align_corners)
    assert out.dtype is dtype and out.shape == [2, 3, 4, 2]
    expected = affine_grid_reference(theta.astype(np.float64), (2, 1, 3, 4), align_corners)
    rtol = 1e-6 if dtype is D.FLOAT32 else 1e-14
    np.testing.assert_allclose(out.numpy(), expected, rtol=rtol, atol=rtol)


def test_affine_grid_in_3d() -> None:
    theta = sample((2, 3, 4), D.FLOAT64, seed=24)
    out = phi.affine_grid(phi.to_tensor(theta), [2, 5, 2, 3, 4], False)
    assert out.shape == [2, 2, 3, 4, 3]
    expected = affine_grid_reference(theta, (2, 5, 2, 3, 4), False)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-14, atol=1e-14)


@op_test("affine_grid", kind="edge")
def test_affine_grid_of_a_size_one_axis_is_nan_as_paddles() -> None:
    # PaddlePaddle 3.3.1 gives [[[[nan, nan], [nan, nan], [nan, nan]]]] for this call
    theta = np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], np.float32)
    out = phi.affine_grid(phi.to_tensor(theta), [1, 1, 1, 3], True)
    assert out.shape == [1, 1, 3, 2] and np.isnan(out.numpy()).all()


def test_affine_grid_of_an_empty_batch_is_empty() -> None:
    out = phi.affine_grid(phi.to_tensor(np.zeros((0, 2, 3), np.float32)), [0, 1, 2, 2], True)
    assert out.shape == [0, 2, 2, 2]


@op_test("unfold", "fold", kind="edge")
def test_fold_is_the_adjoint_of_unfold() -> None:
    x = sample((1, 2, 6, 5), D.FLOAT64, seed=25)
    cols = sample((1, 2 * 4, 4 * 3), D.FLOAT64, seed=26)
    args = ((2, 2), (2, 2), (1, 1, 1, 1), (1, 1))
    unfolded = phi.unfold(phi.to_tensor(x), *args).numpy()
    folded = phi.fold(phi.to_tensor(cols), (6, 5), *args).numpy()
    np.testing.assert_allclose((unfolded * cols).sum(), (x * folded).sum(), rtol=1e-12)


def test_unfold_of_an_empty_batch_and_a_non_contiguous_input() -> None:
    out = phi.unfold(phi.to_tensor(np.zeros((0, 3, 5, 7), np.float32)), *UNFOLD)
    assert out.shape == [0, 18, unfold_reference(np.zeros((1, 3, 5, 7)), *UNFOLD).shape[2]]
    wide = sample((2, 3, 5, 14), D.FLOAT64, seed=27)
    out = phi.unfold(phi.to_tensor(wide)[:, :, :, ::2], *UNFOLD)
    np.testing.assert_array_equal(out.numpy(), unfold_reference(wide[:, :, :, ::2], *UNFOLD))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: phi.unfold(x[0], [2, 2], [1, 1], [0] * 4, [1, 1]), "'x' must be a 4-D"),
        (lambda x: phi.unfold(x, [2], [1, 1], [0] * 4, [1, 1]), "'kernel_sizes' must hold 2"),
        (lambda x: phi.unfold(x, [0, 2], [1, 1], [0] * 4, [1, 1]), "'kernel_sizes' must hold pos"),
        (lambda x: phi.unfold(x, [2, 2], [0, 1], [0] * 4, [1, 1]), "'strides' must hold positive"),
        (lambda x: phi.unfold(x, [2, 2], [1, 1], [0, 0], [1, 1]), "'paddings' must hold 4"),
        (lambda x: phi.unfold(x, [2, 2], [1, 1], [-1, 0, 0, 0], [1, 1]), "'paddings' must hold 4"),
        (lambda x: phi.unfold(x, [2, 2], [1, 1], [0] * 4, [0, 1]), "'dilations' must hold pos"),
        (lambda x: phi.unfold(x, [7, 2], [1, 1], [0] * 4, [1, 1]), "which must be positive"),
    ],
)
def test_unfold_refuses_bad_input_naming_the_argument(call, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call(phi.to_tensor(np.zeros((2, 3, 5, 6), np.float32)))


@pytest.mark.parametrize(
    "shape, args, message",
    [
        ((2, 12), ((4, 5), (2, 2), (1, 1), (0,) * 4, (1, 1)), "'x' must be a 3-D"),
        ((2, 12, 11), ((4, 5), (2, 2), (1, 1), (0,) * 4, (1, 1)), "must hold 3 \\* 4 sliding"),
        ((2, 13, 12), ((4, 5), (2, 2), (1, 1), (0,) * 4, (1, 1)), "dimension 1 \\(13\\)"),
        ((2, 12, 20), ((4, 5), (2, 2), (1, 1), (1, 0, 0, 0), (1, 1)), "top and bottom alike"),
        ((2, 12, 12), ((4,), (2, 2), (1, 1), (0,) * 4, (1, 1)), "'output_sizes' must hold 2"),
    ],
)
def test_fold_refuses_bad_input_naming_the_argument(shape, args, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        phi.fold(phi.to_tensor(np.zeros(shape, np.float32)), *args)


@pytest.mark.parametrize(
    "theta_shape, output_shape, message",
    [
        ((2, 3), [2, 1, 4, 5], "must be a 3-D tensor \\[N, 2, 3\\]"),
        ((2, 3, 3), [2, 1, 4, 5], "must be a 3-D tensor \\[N, 2, 3\\]"),
        ((2, 2, 3), [2, 1, 4, 5, 6], "\\[N, 3, 4\\]"),
        ((2, 2, 3), [2, 1, 4], "'output_shape' must hold 4 values"),
        ((2, 2, 3), [2, 1, 0, 4], "positive spatial sizes"),
    ],
)
def test_affine_grid_refuses_bad_input_naming_the_argument(
    theta_shape, output_shape, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        phi.affine_grid(phi.to_tensor(np.zeros(theta_shape, np.float32)), output_shape, True)


@pytest.mark.parametrize("name", ["unfold", "fold", "affine_grid"])
def test_functional_signature_is_paddles(name: str) -> None:
    ours = [
        (p.name, p.kind.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in inspect.signature(getattr(F, name)).parameters.values()
    ]
    theirs = [
        (p["name"], p["kind"], p.get("default"))
        for p in paddle_api.parameters(f"paddle.nn.functional.{name}")
    ]
    assert ours == theirs


def test_functional_forms_expand_ints_and_padding_pairs() -> None:
    x = sample((1, 2, 5, 6), D.FLOAT64, seed=28)
    out = F.unfold(phi.to_tensor(x), 2, strides=[1, 2], paddings=[1, 0], dilations=1)
    expected = unfold_reference(x, (2, 2), (1, 2), (1, 0, 1, 0), (1, 1))
    np.testing.assert_array_equal(out.numpy(), expected)
    cols = sample((1, 8, 12), D.FLOAT64, seed=29)
    out = F.fold(phi.to_tensor(cols), [4, 5], 2, paddings=[0, 0])
    np.testing.assert_allclose(
        out.numpy(), fold_reference(cols, (4, 5), (2, 2), (1, 1), (0,) * 4, (1, 1))
    )
    theta = phi.to_tensor(sample((1, 2, 3), D.FLOAT32, seed=30))
    by_tensor = F.affine_grid(theta, phi.to_tensor(np.array([1, 1, 2, 3], np.int32)))
    np.testing.assert_array_equal(by_tensor.numpy(), F.affine_grid(theta, [1, 1, 2, 3]).numpy())
    with pytest.raises(InvalidArgumentError, match="unfold: argument 'paddings'"):
        F.unfold(phi.to_tensor(x), 2, paddings=[1, 2, 3])


def windows_reference(x: np.ndarray, axis: int, size: int, step: int) -> np.ndarray:
    axis %= x.ndim
    moved = np.moveaxis(x, axis, -1)
    count = (moved.shape[-1] - size) // step + 1
    slices = np.stack([moved[..., k * step : k * step + size] for k in range(count)], axis=-2)
    return np.moveaxis(slices, -2, axis)


@pytest.mark.parametrize("axis, size, step", [(0, 1, 1), (1, 2, 1), (2, 3, 2), (-1, 4, 3)])
def test_paddle_unfold_takes_the_slices_along_an_axis(axis: int, size: int, step: int) -> None:
    x = sample((2, 3, 4), D.FLOAT32, seed=31)
    out = paddle.unfold(paddle.to_tensor(x), axis, size, step)
    np.testing.assert_array_equal(out.numpy(), windows_reference(x, axis, size, step))
    np.testing.assert_array_equal(paddle.to_tensor(x).unfold(axis, size, step).numpy(), out.numpy())


def test_paddle_unfold_has_gradients() -> None:
    x = paddle.to_tensor(sample((5,), D.FLOAT64, seed=32), stop_gradient=False)
    out = paddle.unfold(x, 0, 2, 1)
    (grad,) = paddle.grad(out, [x], grad_outputs=paddle.ones_like(out))
    np.testing.assert_array_equal(grad.numpy(), [1.0, 2.0, 2.0, 2.0, 1.0])


def test_paddle_unfold_signature_is_paddles_and_refuses_bad_arguments() -> None:
    ours = [p.name for p in inspect.signature(paddle.unfold).parameters.values()]
    assert ours == [p["name"] for p in paddle_api.parameters("paddle.unfold")]
    x = paddle.to_tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(InvalidArgumentError, match="'axis'"):
        paddle.unfold(x, 2, 1, 1)
    with pytest.raises(InvalidArgumentError, match="'size'"):
        paddle.unfold(x, 1, 4, 1)
    with pytest.raises(InvalidArgumentError, match="'step'"):
        paddle.unfold(x, 1, 2, 0)
    # windows of size 0: PaddlePaddle 3.3.1 gives [2, 4, 0]
    assert paddle.unfold(x, 1, 0, 1).shape == [2, 4, 0]
