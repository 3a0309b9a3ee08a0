"""Kernels of the vision ops: pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold,
affine_grid.

The shuffles are PHI's (paddle/phi/kernels/impl/*_kernel_impl.h): a reshape of ``x`` to six
(five) axes, a transpose, and a reshape to the output's dims. unfold (im2col) and fold (col2im)
take one strided slice per kernel offset. affine_grid multiplies the base grid of normalised
coordinates, (x, y, 1) per output position, by theta; its coordinates are PHI's Linspace from -1
to 1 (scaled by (n - 1) / n without align_corners), which for a size of 1 divides by zero and
gives NaN, as PaddlePaddle 3.3.1 does. The dtype lists are PaddlePaddle 3.3.1's CPU
registrations.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.vision import sliding_blocks
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)
REAL_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def shuffle_pixels(xp, x: Array, factor: int, channel_last: bool) -> Array:
    """pixel_shuffle of ``x`` (and pixel_unshuffle's gradient): [N, C, H, W] ->
    [N, C / r^2, H * r, W * r]."""
    if channel_last:
        n, h, w, c = x.shape
        c_out = c // (factor * factor)
        blocks = x.reshape(n, h, w, c_out, factor, factor).transpose(0, 1, 4, 2, 5, 3)
        return xp.ascontiguousarray(blocks).reshape(n, h * factor, w * factor, c_out)
    n, c, h, w = x.shape
    c_out = c // (factor * factor)
    blocks = x.reshape(n, c_out, factor, factor, h, w).transpose(0, 1, 4, 2, 5, 3)
    return xp.ascontiguousarray(blocks).reshape(n, c_out, h * factor, w * factor)


def unshuffle_pixels(xp, x: Array, factor: int, channel_last: bool) -> Array:
    """pixel_unshuffle of ``x`` (and pixel_shuffle's gradient): [N, C, H, W] ->
    [N, C * r^2, H / r, W / r]."""
    if channel_last:
        n, h, w, c = x.shape
        h_out, w_out = h // factor, w // factor
        blocks = x.reshape(n, h_out, factor, w_out, factor, c).transpose(0, 1, 3, 5, 2, 4)
        return xp.ascontiguousarray(blocks).reshape(n, h_out, w_out, c * factor * factor)
    n, c, h, w = x.shape
    h_out, w_out = h // factor, w // factor
    blocks = x.reshape(n, c, h_out, factor, w_out, factor).transpose(0, 1, 3, 5, 2, 4)
    return xp.ascontiguousarray(blocks).reshape(n, c * factor * factor, h_out, w_out)


def shuffle_channels(xp, x: Array, groups: int, channel_last: bool) -> Array:
    """Channel c = g * (C / groups) + k of ``x`` goes to k * groups + g."""
    if channel_last:
        n, h, w, c = x.shape
        parts = x.reshape(n, h, w, groups, c // groups).transpose(0, 1, 2, 4, 3)
    else:
        n, c, h, w = x.shape
        parts = x.reshape(n, groups, c // groups, h, w).transpose(0, 2, 1, 3, 4)
    return xp.ascontiguousarray(parts).reshape(x.shape)


@register_kernel("pixel_shuffle", dtypes=REAL)
def pixel_shuffle_kernel(
    ctx: KernelContext, x: Array, upscale_factor: int, data_format: str
) -> Array:
    return shuffle_pixels(ctx.xp, x, upscale_factor, data_format == "NHWC")


@register_kernel("pixel_unshuffle", dtypes=REAL)
def pixel_unshuffle_kernel(
    ctx: KernelContext, x: Array, downscale_factor: int, data_format: str
) -> Array:
    return unshuffle_pixels(ctx.xp, x, downscale_factor, data_format == "NHWC")


@register_kernel("channel_shuffle", dtypes=REAL)
def channel_shuffle_kernel(ctx: KernelContext, x: Array, groups: int, data_format: str) -> Array:
    return shuffle_channels(ctx.xp, x, groups, data_format == "NHWC")


def _window_slices(
    offset: tuple[int, int], blocks: tuple[int, int], strides: Sequence[int]
) -> tuple[slice, slice]:
    """The strided slices of a padded image that kernel position ``offset`` (dilated) reads
    for each of the ``blocks`` windows."""
    return tuple(
        slice(start, start + stride * (count - 1) + 1, stride)
        for start, count, stride in zip(offset, blocks, strides)
    )


def im2col(
    xp,
    x: Array,
    kernel_sizes: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[int],
    dilations: Sequence[int],
    blocks: tuple[int, int],
) -> Array:
    """[N, C, H, W] -> [N, C * kh * kw, bh * bw]; ``pads`` (top, left, bottom, right)."""
    n, c = x.shape[:2]
    kh, kw = kernel_sizes
    padded = xp.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    cols = xp.empty((n, c, kh, kw) + blocks, dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows, columns = _window_slices((i * dilations[0], j * dilations[1]), blocks, strides)
            cols[:, :, i, j] = padded[:, :, rows, columns]
    return cols.reshape(n, c * kh * kw, blocks[0] * blocks[1])


def col2im(
    xp,
    cols: Array,
    image_shape: tuple[int, int, int, int],
    kernel_sizes: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[int],
    dilations: Sequence[int],
    blocks: tuple[int, int],
) -> Array:
    """The adjoint of im2col: [N, C * kh * kw, bh * bw] summed back onto [N, C, H, W]."""
    n, c, h, w = image_shape
    kh, kw = kernel_sizes
    cols = cols.reshape((n, c, kh, kw) + blocks)
    padded = xp.zeros((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), dtype=cols.dtype)
    for i in range(kh):
        for j in range(kw):
            rows, columns = _window_slices((i * dilations[0], j * dilations[1]), blocks, strides)
            padded[:, :, rows, columns] += cols[:, :, i, j]
    return padded[:, :, pads[0] : pads[0] + h, pads[1] : pads[1] + w]


def unfold_blocks(
    size: Sequence[int],
    kernel_sizes: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[int],
    dilations: Sequence[int],
) -> tuple[int, int]:
    """The sliding blocks along the height and width; ``pads`` (top, left, bottom, right)."""
    return tuple(
        sliding_blocks(
            size[axis],
            kernel_sizes[axis],
            strides[axis],
            dilations[axis],
            pads[axis],
            pads[axis + 2],
        )
        for axis in range(2)
    )


@register_kernel("unfold", dtypes=REAL)
def unfold_kernel(
    ctx: KernelContext,
    x: Array,
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    blocks = unfold_blocks(x.shape[2:], kernel_sizes, strides, paddings, dilations)
    return im2col(ctx.xp, x, kernel_sizes, strides, paddings, dilations, blocks)


def fold_pads(paddings: Sequence[int]) -> tuple[int, int, int, int]:
    """PHI's fold pads top and bottom by paddings[0], left and right by paddings[1]."""
    return (paddings[0], paddings[1], paddings[0], paddings[1])


@register_kernel("fold", dtypes=REAL_AND_COMPLEX)
def fold_kernel(
    ctx: KernelContext,
    x: Array,
    output_sizes: tuple[int, ...],
    kernel_sizes: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    dilations: tuple[int, ...],
) -> Array:
    pads = fold_pads(paddings)
    blocks = unfold_blocks(output_sizes, kernel_sizes, strides, pads, dilations)
    channels = x.shape[1] // (kernel_sizes[0] * kernel_sizes[1])
    shape = (x.shape[0], channels, output_sizes[0], output_sizes[1])
    return col2im(ctx.xp, x, shape, kernel_sizes, strides, pads, dilations, blocks)


def grid_coordinates(xp, count: int, align_corners: bool, dtype) -> Array:
    """PHI's Linspace(-1, 1, count): ``count`` points from -1 to 1, scaled by (count - 1) /
    count without ``align_corners``; NaN for a count of 1 (PHI divides by count - 1)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.asarray(2.0, dtype) / np.asarray(count - 1, dtype)
        start = np.asarray(-1.0, dtype)
        if not align_corners:
            scale = np.asarray(count - 1, dtype) / np.asarray(count, dtype)
            step, start = step * scale, start * scale
        values = start + np.arange(count, dtype=dtype) * step
    return xp.asarray(values)


def base_grid(xp, spatial: Sequence[int], align_corners: bool, dtype) -> Array:
    """[*spatial, rank + 1]: the normalised coordinates (x, y[, z], 1) of each output position,
    x running along the last axis."""
    axes = [grid_coordinates(xp, size, align_corners, dtype) for size in spatial]
    mesh = xp.meshgrid(*axes, indexing="ij")
    ones = xp.ones(tuple(spatial), dtype=dtype)
    return xp.stack(list(reversed(mesh)) + [ones], axis=-1)


@register_kernel("affine_grid", dtypes=REAL)
def affine_grid_kernel(
    ctx: KernelContext, input: Array, output_shape: tuple[int, ...], align_corners: bool
) -> Array:
    xp = ctx.xp
    spatial = tuple(output_shape[2:])
    base = base_grid(xp, spatial, align_corners, input.dtype).reshape(-1, len(spatial) + 1)
    grid = xp.matmul(base[None], xp.swapaxes(input, 1, 2))
    return grid.reshape((input.shape[0],) + spatial + (len(spatial),))
