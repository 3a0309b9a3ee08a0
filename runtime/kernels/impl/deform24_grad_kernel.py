"""deformable_conv_grad (issue 24, deform24), following PaddlePaddle 3.3.1's CPU kernel
(impl/deformable_conv_grad_kernel_impl.h) for float32 and float64.

With the sampled columns ``cols`` of the forward (deform24_kernel.py) and the column gradient
``col_grad = filter^T @ out_grad`` (one batched GEMM per group):

- filter_grad = sum over images of ``out_grad @ cols^T`` per group;
- x_grad: each column's gradient times the mask, spread over the four bilinear neighbours of its
  sampling point with their weights (PHI's col2im; a neighbour outside the map gets nothing),
  one scatter-add for all of them;
- offset_grad: the column gradient times the mask times the derivative of the bilinear value by
  the point's h (w), summed over the group's channels (PHI's col2im_coord; 0 for a point
  outside ``-1 < h < H``, ``-1 < w < W``);
- mask_grad: the column gradient times the bilinear value, summed over the group's channels
  (None without a mask).
"""

from __future__ import annotations

from phiops.runtime.backends import scatter_at
from phiops.runtime.kernels.impl.deform24_kernel import (
    REAL,
    columns_of,
    gather_corners,
    sample,
    sampling,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("deformable_conv_grad", dtypes=REAL)
def deformable_conv_grad_kernel(
    ctx: KernelContext,
    x: Array,
    offset: Array,
    filter: Array,
    mask: Array | None,
    out_grad: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
    deformable_groups: int,
    groups: int,
    im2col_step: int,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    dtype = x.dtype
    batch, channels, height, width = x.shape
    out_ch, _, kh, kw = filter.shape
    want_x, want_offset, want_filter = ctx.wants(0), ctx.wants(1), ctx.wants(2)
    want_mask = mask is not None and ctx.wants(3)
    if x.size == 0 or filter.size == 0 or offset.size == 0:
        return (
            xp.zeros(x.shape, dtype) if want_x else None,
            xp.zeros(offset.shape, dtype) if want_offset else None,
            xp.zeros(filter.shape, dtype) if want_filter else None,
            xp.zeros(mask.shape, dtype) if want_mask else None,
        )
    where = sampling(xp, x.shape, offset, (kh, kw), strides, paddings, dilations, deformable_groups)
    batch_, dg, taps, positions = where.weight[0].shape
    per_group = channels // deformable_groups
    corners = gather_corners(xp, x, deformable_groups, where.index)
    corners = [c.reshape(batch, dg, taps, positions, per_group) for c in corners]
    mask_b = None if mask is None else mask.reshape(batch, dg, taps, positions, 1)
    dout = out_grad.reshape(batch, groups, out_ch // groups, positions)
    weight = filter.reshape(groups, out_ch // groups, -1)

    filter_grad = None
    if want_filter:
        sampled = sample(corners, where)
        if mask_b is not None:
            sampled = sampled * mask_b
        cols = columns_of(xp, sampled, groups)  # [N, groups, C/groups * K, L]
        filter_grad = xp.matmul(dout, cols.transpose(0, 1, 3, 2)).sum(axis=0)
        filter_grad = filter_grad.reshape(filter.shape).astype(dtype, copy=False)
    x_grad = offset_grad = mask_grad = None
    if not (want_x or want_offset or want_mask):
        return x_grad, offset_grad, filter_grad, mask_grad
    col_grad = xp.matmul(weight.transpose(0, 2, 1), dout)  # [N, groups, C/groups * K, L]
    # back to the sampling layout [N, dg, K, L, C/dg]
    col_grad = col_grad.reshape(batch, dg, per_group, taps, positions).transpose(0, 1, 3, 4, 2)
    if want_mask:
        mask_grad = (col_grad * sample(corners, where)).sum(axis=-1)
        mask_grad = mask_grad.reshape(mask.shape).astype(dtype, copy=False)
    masked_grad = col_grad if mask_b is None else col_grad * mask_b
    if want_offset:
        grad_h = grad_w = None
        for value, d_h, d_w in zip(corners, where.dweight_h, where.dweight_w):
            term_h = d_h[..., None] * value
            term_w = d_w[..., None] * value
            grad_h = term_h if grad_h is None else grad_h + term_h
            grad_w = term_w if grad_w is None else grad_w + term_w
        off_h = (masked_grad * grad_h).sum(axis=-1)  # [N, dg, K, L]
        off_w = (masked_grad * grad_w).sum(axis=-1)
        offset_grad = (
            xp.stack([off_h, off_w], axis=3).reshape(offset.shape).astype(dtype, copy=False)
        )
    if want_x:
        table = xp.zeros((batch * dg * height * width, per_group), dtype)
        indices = xp.concatenate([idx.reshape(-1) for idx in where.index])
        values = xp.concatenate(
            [(masked_grad * w[..., None]).reshape(-1, per_group) for w in where.weight]
        )
        scatter_at("add", table, indices, values)
        x_grad = (
            table.reshape(batch, dg, height * width, per_group)
            .transpose(0, 1, 3, 2)
            .reshape(x.shape)
        )
        x_grad = xp.ascontiguousarray(x_grad)
    return x_grad, offset_grad, filter_grad, mask_grad
