"""conv2d_transpose, depthwise_conv2d_transpose and conv3d_transpose.

A transposed convolution is the input gradient of the convolution whose input is its output and
whose output is ``x``, with the same filter [C_in, C_out/groups, *kernel]: one batched matmul
``x @ filter^T`` per call gives the columns, col2im adds them onto the (padded) output, as PHI's
CPU kernel does with gemm + col2im. Sizes, paddings ("SAME" from ``x``'s extents, dilations reset
to 1) and ``output_padding``/``output_size`` are PHI's (ConvTransposeInferMeta).

A 2-D channels-first transposed convolution with groups 1 on numpy float32/float64 arrays takes
the compiled col2im instead (`_channels_first_2d`): the columns [C_out * kh * kw, H * W] per
image in the output's own layout, one GEMM, and one native pass adding them onto each output
plane, where the channels-last path makes a transposed copy, a strided add per kernel tap (or
phase block) and a transposed copy back (FCN's upsampling: 150-350 -> 20-60 us).
"""

from __future__ import annotations

from typing import Any

import numpy

from phiops.runtime.kernels import blas
from phiops.runtime.kernels.impl.conv_grad_kernel import dout_matrix, input_grad_of
from phiops.runtime.kernels.impl.conv_kernel import CONV_DTYPES, ConvGeometry, check_columns
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_kernels
from phiops.runtime.kernels.registration import register_kernel


@register_kernel("conv2d_transpose", dtypes=CONV_DTYPES)
@register_kernel("depthwise_conv2d_transpose", dtypes=CONV_DTYPES)
@register_kernel("conv3d_transpose", dtypes=CONV_DTYPES)
def conv_transpose_kernel(
    ctx: KernelContext,
    x: Array,
    filter: Array,
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    output_padding: tuple[int, ...],
    output_size: tuple[int, ...],
    padding_algorithm: str,
    groups: int,
    dilations: tuple[int, ...],
    data_format: str,
) -> Array:
    """One kernel for the three ops: they differ only in their InferMeta checks."""
    xp = ctx.xp
    geometry, out_shape = ConvGeometry.of_transpose(
        x.shape,
        filter.shape,
        strides,
        paddings,
        output_padding,
        output_size,
        padding_algorithm,
        dilations,
        groups,
        data_format,
    )
    if x.size == 0 or filter.size == 0 or 0 in out_shape:
        return xp.zeros(out_shape, x.dtype)
    last = geometry.channel_last
    out_last_shape = out_shape if last else (out_shape[0],) + out_shape[2:] + (out_shape[1],)
    check_columns(x.shape[0], out_last_shape[-1], geometry, x.itemsize)
    native = native_kernels(x) if len(out_shape) == 4 and not last and groups == 1 else None
    if native is not None and filter.dtype == x.dtype:
        return _channels_first_2d(native, x, filter, geometry, out_shape)
    out = input_grad_of(xp, dout_matrix(xp, x, groups, last), filter, geometry, out_last_shape)
    return xp.ascontiguousarray(out if last else xp.moveaxis(out, -1, 1))


def _channels_first_2d(
    native: Any, x: Array, filter: Array, geometry: ConvGeometry, out_shape: tuple[int, ...]
) -> Array:
    """The transposed convolution of numpy ``x`` [N, C_in, H, W] with ``filter`` [C_in, C_out,
    kh, kw] (groups 1): columns = filter^T @ x per image, [N, C_out * kh * kw, H * W], then the
    compiled col2im adds each plane's taps onto the output [N, C_out, *out spatial]."""
    n, c_in = x.shape[:2]
    c_out = filter.shape[1]
    pixels = x.shape[2] * x.shape[3]
    weights = filter.reshape(c_in, -1).T  # [C_out * kh * kw, C_in]
    columns = blas.matmul(numpy, weights, numpy.ascontiguousarray(x).reshape(n, c_in, pixels))
    out = numpy.empty(out_shape, x.dtype)
    native.col2im_2d(
        numpy.ascontiguousarray(columns),
        n * c_out,
        *out_shape[2:],
        *geometry.kernel,
        *geometry.out,
        *geometry.strides,
        *geometry.dilations,
        *(before for before, _ in geometry.pads),
        out,
    )
    return out
