"""conv2d_transpose, depthwise_conv2d_transpose and conv3d_transpose.

A transposed convolution is the input gradient of the convolution whose input is its output and
whose output is ``x``, with the same filter [C_in, C_out/groups, *kernel]: one batched matmul
``x @ filter^T`` per call gives the columns, col2im adds them onto the (padded) output, as PHI's
CPU kernel does with gemm + col2im. Sizes, paddings ("SAME" from ``x``'s extents, dilations reset
to 1) and ``output_padding``/``output_size`` are PHI's (ConvTransposeInferMeta).
"""

from __future__ import annotations

from phiops.runtime.kernels.impl.conv_grad_kernel import dout_matrix, input_grad_of
from phiops.runtime.kernels.impl.conv_kernel import CONV_DTYPES, ConvGeometry, check_columns
from phiops.runtime.kernels.kernel import Array, KernelContext
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
    out = input_grad_of(xp, dout_matrix(xp, x, groups, last), filter, geometry, out_last_shape)
    return xp.ascontiguousarray(out if last else xp.moveaxis(out, -1, 1))
