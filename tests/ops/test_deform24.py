"""deformable_conv (issue 24, deform24): every registered dtype against a numpy loop reference
written from PaddlePaddle 3.3.1's CPU kernel (funcs/deformable_conv_functor.h), the
registrations against PaddlePaddle's, edges (empty batch, points past every border, zero
offsets equal to conv2d, non-contiguous inputs, bad input) and paddle.vision.ops.deform_conv2d
and DeformConv2D. tests/ops/test_deform24_paddle.py compares PaddlePaddle 3.3.1's recorded
results and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from phiops.vision import ops as vision_ops
from tests.ops.op_testing import cpu_dtypes, op_test


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def bilinear(image: np.ndarray, h: float, w: float) -> np.ndarray:
    """PHI's DmcnIm2colBilinear over all channels of image [C, H, W]."""
    height, width = image.shape[1:]
    if not (h > -1 and w > -1 and h < height and w < width):
        return np.zeros(image.shape[0], image.dtype)
    h_low, w_low = int(np.floor(h)), int(np.floor(w))
    lh, lw = h - h_low, w - w_low
    total = np.zeros(image.shape[0], image.dtype)
    for y, x, weight in (
        (h_low, w_low, (1 - lh) * (1 - lw)),
        (h_low, w_low + 1, (1 - lh) * lw),
        (h_low + 1, w_low, lh * (1 - lw)),
        (h_low + 1, w_low + 1, lh * lw),
    ):
        if 0 <= y < height and 0 <= x < width:
            total = total + weight * image[:, y, x]
    return total


def deformable_conv_reference(x, offset, filt, mask, strides, paddings, dilations, dg, groups):
    n, c, _, _ = x.shape
    m, cg, kh, kw = filt.shape
    oh, ow = offset.shape[2:]
    per_dg = c // dg
    cols = np.zeros((n, c, kh * kw, oh, ow), x.dtype)
    for b in range(n):
        for g in range(dg):
            channels = slice(g * per_dg, (g + 1) * per_dg)
            for i in range(kh):
                for j in range(kw):
                    k = i * kw + j
                    for y in range(oh):
                        for xo in range(ow):
                            dh = offset[b, g * 2 * kh * kw + 2 * k, y, xo]
                            dw = offset[b, g * 2 * kh * kw + 2 * k + 1, y, xo]
                            h = y * strides[0] - paddings[0] + i * dilations[0] + dh
                            w = xo * strides[1] - paddings[1] + j * dilations[1] + dw
                            value = bilinear(x[b, channels], h, w)
                            if mask is not None:
                                value = value * mask[b, g * kh * kw + k, y, xo]
                            cols[b, channels, k, y, xo] = value
    out = np.zeros((n, m, oh, ow), x.dtype)
    mg = m // groups
    for g in range(groups):
        col = cols[:, g * cg : (g + 1) * cg].reshape(n, cg * kh * kw, oh * ow)
        weight = filt[g * mg : (g + 1) * mg].reshape(mg, -1)
        out[:, g * mg : (g + 1) * mg] = np.einsum("mk,nkl->nml", weight, col).reshape(n, mg, oh, ow)
    return out


def _inputs(dtype: str, seed: int = 0, groups: int = 2, dg: int = 2, spread: float = 1.5):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (2, 4, 5, 5)).astype(dtype)
    filt = rng.uniform(-0.5, 0.5, (4, 4 // groups, 3, 2)).astype(dtype)
    # strides (1, 2), paddings (1, 0), dilations (1, 1): Ho = 5, Wo = 2
    offset = rng.uniform(-spread, spread, (2, 2 * dg * 6, 5, 2)).astype(dtype)
    mask = rng.uniform(0, 1, (2, dg * 6, 5, 2)).astype(dtype)
    return x, offset, filt, mask


ATTRS = ([1, 2], [1, 0], [1, 1])


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in ("deformable_conv", "deformable_conv_grad"):
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


@op_test("deformable_conv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("deformable_conv"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("with_mask", [True, False], ids=["v2", "v1"])
def test_deformable_conv_matches_numpy(dtype: DataType, with_mask: bool) -> None:
    name = dtype.name.lower()
    x, offset, filt, mask = _inputs(name)
    mask = mask if with_mask else None
    got = C.deformable_conv(
        t(x), t(offset), t(filt), None if mask is None else t(mask), *ATTRS, 2, 2, 1
    )
    want = deformable_conv_reference(x, offset, filt, mask, *ATTRS, 2, 2)
    assert got.dtype == phi.to_tensor(x).dtype and list(got.shape) == list(want.shape)
    tol = 1e-5 if name == "float32" else 1e-12
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


@op_test("deformable_conv", kind="edge")
def test_deformable_conv_edges() -> None:
    x, offset, filt, mask = _inputs("float64", seed=1, groups=1, dg=1, spread=0.0)
    # zero offsets and a mask of ones: the plain convolution
    zero = np.zeros_like(offset)
    ones = np.ones_like(mask)
    got = C.deformable_conv(t(x), t(zero), t(filt), t(ones), *ATTRS, 1, 1, 1).numpy()
    conv = phi.conv2d(t(x), t(filt), [1, 2], [1, 0], "EXPLICIT", [1, 1], 1, "NCHW").numpy()
    np.testing.assert_allclose(got, conv, rtol=1e-12, atol=1e-12)
    # every point far past the borders reads 0
    far = np.full_like(offset, 100.0)
    assert not C.deformable_conv(t(x), t(far), t(filt), None, *ATTRS, 1, 1, 1).numpy().any()
    # non-contiguous inputs
    x_wide = np.repeat(x, 2, axis=3)[:, :, :, ::2]
    assert not x_wide.flags.c_contiguous
    got = C.deformable_conv(t(x_wide), t(offset), t(filt), t(mask), *ATTRS, 1, 1, 1).numpy()
    want = deformable_conv_reference(x, offset, filt, mask, *ATTRS, 1, 1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    # an empty batch
    out = C.deformable_conv(t(x[:0]), t(offset[:0]), t(filt), t(mask[:0]), *ATTRS, 1, 1, 1)
    assert list(out.shape) == [0, 4, 5, 2]
    # im2col_step does not change the result
    again = C.deformable_conv(t(x), t(offset), t(filt), t(mask), *ATTRS, 1, 1, 2).numpy()
    np.testing.assert_allclose(again, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"x": np.zeros((2, 4, 5))}, "'x' must be 4-D"),
        ({"offset": np.zeros((2, 11, 5, 2))}, "'offset' must be"),
        ({"mask": np.zeros((2, 6, 5, 3))}, "'mask' must be"),
        ({"filter": np.zeros((4, 3, 3, 2))}, "'x' must have filter's input channels"),
        ({"groups": 3}, "'x' must have filter's input channels"),
        ({"deformable_groups": 3}, "divisible by deformable_groups"),
        ({"strides": [0, 1]}, "'strides' must be positive"),
        ({"paddings": [1]}, "'paddings' must have 2 values"),
        ({"filter": np.zeros((4, 4, 9, 2))}, "output extent"),
        ({"im2col_step": 0}, "'im2col_step' must be positive"),
    ],
)
def test_deformable_conv_bad_input(change: dict, message: str) -> None:
    x, offset, filt, mask = _inputs("float64", groups=1, dg=1)
    args = {"x": x, "offset": offset, "filter": filt, "mask": mask, "strides": [1, 2],
            "paddings": [1, 0], "dilations": [1, 1], "deformable_groups": 1, "groups": 1,
            "im2col_step": 1}  # fmt: skip
    args.update(change)
    tensors = [t(args[k]) for k in ("x", "offset", "filter", "mask")]
    rest = [args[k] for k in ("strides", "paddings", "dilations", "deformable_groups", "groups")]
    with pytest.raises(InvalidArgumentError, match="deformable_conv") as info:
        C.deformable_conv(*tensors, *rest, args["im2col_step"])
    assert message in str(info.value)


def test_deformable_conv_rejects_mixed_dtypes() -> None:
    x, offset, filt, mask = _inputs("float64", groups=1, dg=1)
    with pytest.raises(InvalidArgumentError, match="'offset' must have x's dtype"):
        C.deformable_conv(t(x), t(offset, "float32"), t(filt), t(mask), *ATTRS, 1, 1, 1)


def test_deform_conv2d_adds_the_bias_and_takes_ints() -> None:
    x, offset, filt, mask = _inputs("float64", groups=1, dg=1)
    bias = np.array([0.5, -1.0, 0.25, 2.0])
    got = vision_ops.deform_conv2d(
        t(x), t(offset), t(filt), t(bias), stride=(1, 2), padding=[1, 0], dilation=1, mask=t(mask)
    ).numpy()
    want = deformable_conv_reference(x, offset, filt, mask, *ATTRS, 1, 1)
    np.testing.assert_allclose(got, want + bias.reshape(1, 4, 1, 1), rtol=1e-12, atol=1e-12)
    with pytest.raises(InvalidArgumentError, match="deform_conv2d.*'stride'"):
        vision_ops.deform_conv2d(t(x), t(offset), t(filt), stride=(1, 2, 3))


def test_deform_conv2d_layer() -> None:
    layer = vision_ops.DeformConv2D(4, 4, (3, 2), stride=(1, 2), padding=(1, 0))
    assert list(layer.weight.shape) == [4, 4, 3, 2] and list(layer.bias.shape) == [4]
    assert not layer.bias.numpy().any()
    x, offset, _, mask = _inputs("float32", groups=1, dg=1)
    got = layer(t(x), t(offset), t(mask)).numpy()
    want = deformable_conv_reference(x, offset, layer.weight.numpy(), mask, *ATTRS, 1, 1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert vision_ops.DeformConv2D(4, 2, 3, bias_attr=False).bias is None
    with pytest.raises(InvalidArgumentError, match="divisible by groups"):
        vision_ops.DeformConv2D(3, 2, 3, groups=2)
