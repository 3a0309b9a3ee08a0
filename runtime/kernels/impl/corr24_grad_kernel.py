"""Grad kernel of the corr24 op (issue 24): ``correlation_grad``.

The exact adjoint of ``correlation_kernel`` (corr24_kernel.py): each output's gradient, divided
by ``kernel_size ** 2 * C``, flows to the input1 pixels of its window times the input2 pixels
displaced from them, and back; the gradient of the zero padding is dropped.

PaddlePaddle 3.3.1 registers ``correlation_grad`` for GPU only (and its forward's CPU kernel
refuses to run). Its GPU kernel (paddle/phi/kernels/gpu/correlation_grad_kernel.cu) finds the
outputs whose window covers a pixel by truncating integer division, which is exact for
``stride1 == 1`` (the configuration FlowNet and PWC-Net use); for ``stride1 > 1`` it also adds
the gradients of outputs whose window does not cover the pixel, so it is not the derivative of
its own forward kernel there. phiops returns the derivative in every case.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.corr24_kernel import correlation_geometry
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["correlation_grad_kernel"]


# PaddlePaddle 3.3.1 registers correlation_grad for GPU only, for float32 and float64; phiops runs
# it on CPU too, as it runs the forward there.
@register_kernel("correlation_grad", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def correlation_grad_kernel(
    ctx: KernelContext,
    input1: Array,
    input2: Array,
    out_grad: Array,
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
    corr_type_multiply: int,
) -> tuple[Array, Array]:
    xp = ctx.xp
    # the spec's GeneralBinaryGradInferMeta checks nothing: what the forward's InferMeta would
    # refuse, and an out_grad of another shape than the forward's output, are refused here
    _check(input1, input2, out_grad, pad_size, kernel_size, max_displacement, stride1, stride2)
    geo = correlation_geometry(
        input1.shape, pad_size, kernel_size, max_displacement, stride1, stride2
    )
    moves = geo.displacements()
    n, _, height, width = input1.shape
    if input1.size == 0 or geo.oh == 0 or geo.ow == 0:
        return xp.zeros_like(input1), xp.zeros_like(input2)
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = out_grad.astype(input1.dtype, copy=False) / input1.dtype.type(geo.nelems)
    # the gradient of each displacement's span map: every output's gradient spread over its window
    maps = xp.zeros((n, len(moves), geo.span_h, geo.span_w), dtype=input1.dtype)
    for rows, cols in geo.window_slices():
        maps[:, :, rows, cols] += scaled
    padded1, padded2 = geo.pad(xp, input1), geo.pad(xp, input2)
    grad1, grad2 = xp.zeros_like(padded1), xp.zeros_like(padded2)
    here = geo.region()
    first = padded1[here]
    for t, (dy, dx) in enumerate(moves):
        spread = maps[:, t : t + 1]
        there = geo.region(dy, dx)
        grad1[here] += spread * padded2[there]
        grad2[there] += spread * first
    m = geo.margin
    inner = (slice(None), slice(None), slice(m, m + height), slice(m, m + width))
    return grad1[inner], grad2[inner]


def _check(
    input1: Array,
    input2: Array,
    out_grad: Array,
    pad_size: int,
    kernel_size: int,
    max_displacement: int,
    stride1: int,
    stride2: int,
) -> None:
    if input1.ndim != 4:
        raise InvalidArgumentError(
            f"argument 'input1' must be 4-D [N, C, H, W], got dims "
            f"{list(input1.shape)}"
        )
    if input2.shape != input1.shape:
        raise InvalidArgumentError(
            f"argument 'input2' must have the shape of argument 'input1' "
            f"{list(input1.shape)}, got {list(input2.shape)}"
        )
    for name, value, least in (
        ("pad_size", pad_size, 0),
        ("kernel_size", kernel_size, 1),
        ("max_displacement", max_displacement, 0),
        ("stride1", stride1, 1),
        ("stride2", stride2, 1),
    ):
        if value < least:
            raise InvalidArgumentError(
                f"argument '{name}' must be at least {least}, got {value}"
            )
    geo = correlation_geometry(
        input1.shape, pad_size, kernel_size, max_displacement, stride1, stride2
    )
    want = (input1.shape[0], geo.side * geo.side, geo.oh, geo.ow)
    if tuple(out_grad.shape) != want:
        raise InvalidArgumentError(
            f"argument 'out_grad' must have the forward output's shape "
            f"{list(want)}, got {list(out_grad.shape)}"
        )
