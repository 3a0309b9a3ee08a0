"""Kernels of the legacy24 ops of issue 24 (PaddlePaddle's legacy RNN, sequence and
detection-loss ops), for the dtypes PaddlePaddle 3.3.1 registers on CPU.

gru_unit (paddle/phi/kernels/impl/gru_unit_kernel_impl.h): one GRU step from projected
inputs. ``weight`` [D, 3D] is read as PaddlePaddle reads its buffer: the first 2 D * D elements
as W_ur [D, 2D] (update and reset columns), the last D * D as W_c [D, D]. With
g = input + bias, u and r = gate_act(g[:, :2D] + h_prev @ W_ur), c = act(g[:, 2D:] +
(r * h_prev) @ W_c), hidden = u * (c - h_prev) + h_prev, or c + u * (h_prev - c) with
``origin_mode``. ``gate`` keeps the activated u, r and c, ``reset_hidden_prev`` r * h_prev. The
sigmoid is rnn's (runtime/kernels/impl/rnn_kernel.py); relu is max(x, 0), as PHI's CPU functor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.infermeta.legacy24 import im2sequence_output_size
from phiops.runtime.kernels.impl.rnn_kernel import sigmoid
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
FLOATS = (D.FLOAT32, D.FLOAT64)


def gru_activate(xp: Any, kind: int, a: Array) -> Array:
    """PHI's GRUActivationType: 0 identity, 1 sigmoid, 2 tanh, 3 relu."""
    if kind == 0:
        return a
    if kind == 1:
        return sigmoid(xp, a)
    if kind == 2:
        return xp.tanh(a)
    return xp.maximum(a, a.dtype.type(0))


def gru_unit_weights(weight: Array, frame: int) -> tuple[Array, Array]:
    """(W_ur [D, 2D], W_c [D, D]) from weight's buffer, as PHI's GEMMs read it."""
    flat = weight.reshape(-1)
    split = 2 * frame * frame
    return flat[:split].reshape(frame, 2 * frame), flat[split:].reshape(frame, frame)


@register_kernel("gru_unit", dtypes=FLOATS)
def gru_unit_kernel(
    ctx: KernelContext,
    input: Array,
    hidden_prev: Array,
    weight: Array,
    bias: Array | None,
    activation: int,
    gate_activation: int,
    origin_mode: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    frame = hidden_prev.shape[1]
    w_ur, w_c = gru_unit_weights(weight, frame)
    g = input + bias if bias is not None else input.copy()
    ur = gru_activate(xp, gate_activation, g[:, : 2 * frame] + hidden_prev @ w_ur)
    u, r = ur[:, :frame], ur[:, frame:]
    reset_hidden_prev = r * hidden_prev
    c = gru_activate(xp, activation, g[:, 2 * frame :] + reset_hidden_prev @ w_c)
    if origin_mode:
        hidden = c + u * (hidden_prev - c)
    else:
        hidden = u * (c - hidden_prev) + hidden_prev
    gate = xp.concatenate([ur, c], axis=1)
    return gate, reset_hidden_prev, hidden


# -- im2sequence --------------------------------------------------------------------------------


def im2sequence_patches(xp: Any, x: Array, kernels, strides, paddings, out_h: int, out_w: int) -> Array:
    """[N, out_h, out_w, C, kh, kw]: PHI's OCF im2col of each image, position (i, j) reading rows
    i * strides[0] + r - paddings[0] and columns j * strides[1] + c - paddings[1], zero outside."""
    n, channels, height, width = x.shape
    kh, kw = kernels
    bottom = max(0, (out_h - 1) * strides[0] + kh - height - paddings[0])
    right = max(0, (out_w - 1) * strides[1] + kw - width - paddings[1])
    padded = xp.pad(x, ((0, 0), (0, 0), (paddings[0], bottom), (paddings[1], right)))
    rows = (xp.arange(out_h) * strides[0])[:, None] + xp.arange(kh)[None, :]
    cols = (xp.arange(out_w) * strides[1])[:, None] + xp.arange(kw)[None, :]
    patches = padded[:, :, rows[:, None, :, None], cols[None, :, None, :]]  # [N, C, oh, ow, kh, kw]
    return patches.transpose(0, 2, 3, 1, 4, 5)


def im2sequence_real_sizes(y: Array, kernels, strides, paddings, out_stride) -> list[tuple[int, int]]:
    """Each image's (out_h, out_w) from its real size in y, as PHI's kernel counts them."""
    sizes = []
    for real_h, real_w in to_numpy(y).astype(np.int64).tolist():
        real_h = -(-int(real_h) // out_stride[0])
        real_w = -(-int(real_w) // out_stride[1])
        sizes.append((
            im2sequence_output_size(real_h, kernels[0], paddings[0], paddings[2], strides[0]),
            im2sequence_output_size(real_w, kernels[1], paddings[1], paddings[3], strides[1]),
        ))  # fmt: skip
    return sizes


@register_kernel("im2sequence", dtypes=(D.FLOAT32,))
def im2sequence_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array | None,
    kernels: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    out_stride: tuple[int, ...],
) -> Array:
    xp = ctx.xp
    n, channels, height, width = x.shape
    patch = channels * kernels[0] * kernels[1]
    if y is None or n <= 1:
        out_h = im2sequence_output_size(height, kernels[0], paddings[0], paddings[2], strides[0])
        out_w = im2sequence_output_size(width, kernels[1], paddings[1], paddings[3], strides[1])
        return im2sequence_patches(xp, x, kernels, strides, paddings, out_h, out_w).reshape(-1, patch)
    pieces = []
    for i, (out_h, out_w) in enumerate(im2sequence_real_sizes(y, kernels, strides, paddings, out_stride)):
        if out_h <= 0 or out_w <= 0:
            continue
        image = im2sequence_patches(xp, x[i : i + 1], kernels, strides, paddings, out_h, out_w)
        pieces.append(image.reshape(-1, patch))
    if not pieces:
        return xp.zeros((0, patch), x.dtype)
    return xp.concatenate(pieces, axis=0)

