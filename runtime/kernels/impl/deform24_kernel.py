"""deformable_conv (issue 24, deform24): deformable convolution v1 (no mask) and v2 (mask).

Follows PaddlePaddle 3.3.1's CPU kernel (impl/deformable_conv_kernel_impl.h,
funcs/deformable_conv_functor.h), for the dtypes it registers (float32, float64): for output
position (ho, wo) and kernel tap (i, j) of deformable group g, the sampling point is
``(ho * stride_h - pad_h + i * dil_h + dh, wo * stride_w - pad_w + j * dil_w + dw)`` with
``(dh, dw) = offset[n, g * 2 * kh * kw + 2 * (i * kw + j) + (0, 1), ho, wo]``; a point with
``-1 < h < H`` and ``-1 < w < W`` is read bilinearly from its four neighbours (a neighbour
outside the map reads 0), any other point reads 0; the value is multiplied by
``mask[n, g * kh * kw + i * kw + j, ho, wo]`` when there is a mask. Input channel c belongs to
deformable group ``c // (C / deformable_groups)``.

Vectorised: the sampled columns (deformable im2col, rows ``c * kh * kw + i * kw + j`` as
PHI's) are built for every image and output position at once by gathering the four
neighbours, then one batched GEMM per group multiplies them with the filter. im2col_step only
chunks the batch in PHI; the result does not depend on it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from phiops.runtime.common import DataType
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

REAL = (DataType.FLOAT32, DataType.FLOAT64)


class Sampling(NamedTuple):
    """The bilinear sampling of every (image, deformable group, tap, output position).

    ``index[c]`` [N, dg, K * L] is the flat position in the (image, group) block of
    ``x.transpose(0, 1, 3, 4, 2)`` reshaped [N * dg * H * W, C / dg] of corner c (clipped to the
    map), ``weight[c]`` [N, dg, K, L] its bilinear weight (0 where the corner or the point is
    outside the map), ``dweight_h[c]``/``dweight_w[c]`` the weight's derivatives by the point's h
    and w (0 outside)."""

    index: list[Array]
    weight: list[Array]
    dweight_h: list[Array]
    dweight_w: list[Array]


def sampling(
    xp: Any,
    x_shape: tuple[int, ...],
    offset: Array,
    kernel: tuple[int, int],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    deformable_groups: int,
) -> Sampling:
    batch, _, height, width = x_shape
    kh, kw = kernel
    out_h, out_w = offset.shape[2], offset.shape[3]
    dtype = offset.dtype
    taps = kh * kw
    off = offset.reshape(batch, deformable_groups, taps, 2, out_h, out_w)
    tap_i = xp.repeat(xp.arange(kh), kw).reshape(taps, 1, 1)
    tap_j = xp.tile(xp.arange(kw), kh).reshape(taps, 1, 1)
    base_h = xp.arange(out_h).reshape(1, out_h, 1) * strides[0] - paddings[0] + tap_i * dilations[0]
    base_w = xp.arange(out_w).reshape(1, 1, out_w) * strides[1] - paddings[1] + tap_j * dilations[1]
    h = base_h.astype(dtype) + off[:, :, :, 0]  # [N, dg, K, Ho, Wo]
    w = base_w.astype(dtype) + off[:, :, :, 1]
    inside = (h > -1) & (w > -1) & (h < height) & (w < width)
    h_low = xp.floor(h)
    w_low = xp.floor(w)
    lh = h - h_low
    lw = w - w_low
    hh = 1 - lh
    hw = 1 - lw
    h_low = xp.where(inside, h_low, -2).astype(xp.int64)
    w_low = xp.where(inside, w_low, -2).astype(xp.int64)
    zero = xp.zeros((), dtype)
    block = (xp.arange(batch).reshape(batch, 1) * deformable_groups
             + xp.arange(deformable_groups).reshape(1, deformable_groups)) * (height * width)  # fmt: skip
    index, weight, dweight_h, dweight_w = [], [], [], []
    # corners (low, low), (low, high), (high, low), (high, high), PHI's v1..v4
    for dy, dx, wgt, d_h, d_w in (
        (0, 0, hh * hw, -hw, -hh),
        (0, 1, hh * lw, -lw, hh),
        (1, 0, lh * hw, hw, -lh),
        (1, 1, lh * lw, lw, lh),
    ):
        ch = h_low + dy
        cw = w_low + dx
        valid = inside & (ch >= 0) & (cw >= 0) & (ch <= height - 1) & (cw <= width - 1)
        flat = xp.clip(ch, 0, height - 1) * width + xp.clip(cw, 0, width - 1)
        index.append(flat.reshape(batch, deformable_groups, -1) + block[:, :, None])
        shape = (batch, deformable_groups, taps, out_h * out_w)
        weight.append(xp.where(valid, wgt, zero).reshape(shape))
        dweight_h.append(xp.where(valid, d_h, zero).reshape(shape))
        dweight_w.append(xp.where(valid, d_w, zero).reshape(shape))
    return Sampling(index, weight, dweight_h, dweight_w)


def gather_corners(xp: Any, x: Array, deformable_groups: int, index: list[Array]) -> list[Array]:
    """The four corners' values, each [N, dg, K, L, C / dg]."""
    batch, channels, height, width = x.shape
    per_group = channels // deformable_groups
    table = xp.ascontiguousarray(
        x.reshape(batch, deformable_groups, per_group, height * width).transpose(0, 1, 3, 2)
    ).reshape(-1, per_group)
    return [table[idx] for idx in index]


def sample(values: list[Array], sampling_: Sampling) -> Array:
    """The bilinear values [N, dg, K, L, C / dg] (without the mask), PHI's w1 v1 + ... + w4 v4."""
    out = None
    for value, weight in zip(values, sampling_.weight):
        batch, groups, taps, positions = weight.shape
        term = weight[..., None] * value.reshape(batch, groups, taps, positions, -1)
        out = term if out is None else out + term
    return out


def columns_of(xp: Any, sampled: Array, groups: int) -> Array:
    """[N, dg, K, L, C / dg] sampled values as PHI's columns [N, groups, C / groups * K, L]."""
    batch, deformable_groups, taps, positions, per_group = sampled.shape
    cols = sampled.transpose(0, 1, 4, 2, 3)  # [N, dg, C/dg, K, L]: row c * K + k
    return xp.ascontiguousarray(cols).reshape(batch, groups, -1, positions)


@register_kernel("deformable_conv", dtypes=REAL)
def deformable_conv_kernel(
    ctx: KernelContext,
    x: Array,
    offset: Array,
    filter: Array,
    mask: Array | None,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    deformable_groups: int,
    groups: int,
    im2col_step: int,
) -> Array:
    xp = ctx.xp
    batch = x.shape[0]
    out_ch, _, kh, kw = filter.shape
    out_h, out_w = offset.shape[2], offset.shape[3]
    if x.size == 0 or filter.size == 0 or offset.size == 0:
        return xp.zeros((batch, out_ch, out_h, out_w), x.dtype)
    where = sampling(xp, x.shape, offset, (kh, kw), strides, paddings, dilations, deformable_groups)
    sampled = sample(gather_corners(xp, x, deformable_groups, where.index), where)
    if mask is not None:
        sampled = sampled * mask.reshape(*where.weight[0].shape, 1)
    cols = columns_of(xp, sampled, groups)
    weight = filter.reshape(groups, out_ch // groups, -1)
    out = xp.matmul(weight, cols)  # [N, groups, M / groups, L]
    return out.reshape(batch, out_ch, out_h, out_w)
