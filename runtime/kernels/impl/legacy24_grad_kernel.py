"""Grad kernels of the legacy24 ops of issue 24 (runtime/kernels/impl/legacy24_kernel.py), for
the dtypes PaddlePaddle 3.3.1 registers on CPU.

gru_unit_grad (paddle/phi/kernels/impl/gru_unit_kernel_impl.h): the activations' gradients
from their outputs kept in ``gate`` (sigmoid y (1 - y), tanh 1 - y^2, relu y > 0, identity 1),
then the GEMMs of the forward step transposed; input_grad is the gradient of the pre-activation
gates, bias_grad its column sums.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.infermeta.legacy24 import im2sequence_output_size
from phiops.runtime.kernels.impl.legacy24_kernel import (
    FLOATS,
    gru_unit_weights,
    yolo_label_targets,
    yolo_location_targets,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType


def gru_activate_grad(xp: Any, kind: int, out: Array, out_grad: Array) -> Array:
    """The gradient through PHI's GRU activation ``kind`` from its output ``out``."""
    if kind == 0:
        return out_grad
    if kind == 1:
        return out_grad * out * (1 - out)
    if kind == 2:
        return out_grad * (1 - out * out)
    return out_grad * (out > 0).astype(out.dtype)


@register_kernel("gru_unit_grad", dtypes=FLOATS)
def gru_unit_grad_kernel(
    ctx: KernelContext,
    input: Array,
    hidden_prev: Array,
    weight: Array,
    bias: Array | None,
    gate: Array,
    reset_hidden_prev: Array,
    hidden_grad: Array,
    activation: int,
    gate_activation: int,
    origin_mode: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    frame = hidden_prev.shape[1]
    w_ur, w_c = gru_unit_weights(weight, frame)
    u, r, c = gate[:, :frame], gate[:, frame : 2 * frame], gate[:, 2 * frame :]
    if origin_mode:
        du = gru_activate_grad(xp, gate_activation, u, hidden_grad * (hidden_prev - c))
        dc = gru_activate_grad(xp, activation, c, hidden_grad * (1 - u))
    else:
        du = gru_activate_grad(xp, gate_activation, u, hidden_grad * (c - hidden_prev))
        dc = gru_activate_grad(xp, activation, c, hidden_grad * u)
    reset_grad = dc @ w_c.T
    dr = gru_activate_grad(xp, gate_activation, r, reset_grad * hidden_prev)
    gate_grad = xp.concatenate([du, dr, dc], axis=1)
    weight_grad = xp.concatenate(
        [(hidden_prev.T @ gate_grad[:, : 2 * frame]).reshape(-1), (reset_hidden_prev.T @ dc).reshape(-1)]
    ).reshape(weight.shape)
    keep = u if origin_mode else 1 - u
    hidden_prev_grad = reset_grad * r + hidden_grad * keep + gate_grad[:, : 2 * frame] @ w_ur.T
    bias_grad = gate_grad.sum(axis=0, keepdims=True) if bias is not None else None
    return gate_grad, hidden_prev_grad, weight_grad.astype(weight.dtype, copy=False), bias_grad


@register_kernel("im2sequence_grad", dtypes=(D.FLOAT32,))
def im2sequence_grad_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array | None,
    out_grad: Array,
    kernels: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    out_stride: tuple[int, ...],
) -> Array:
    """PHI's col2im of out_grad: each patch element's gradient added to the pixel it read."""
    xp = ctx.xp
    n, channels, height, width = x.shape
    if y is not None and n > 1:
        raise UnimplementedError(
            "im2sequence_grad: the gradient with y (real image sizes) for more than one image is "
            "not implemented; PaddlePaddle 3.3.1's kernel reads out_grad as if y were absent and "
            "fails on the size mismatch"
        )
    kh, kw = kernels
    out_h = im2sequence_output_size(height, kh, paddings[0], paddings[2], strides[0])
    out_w = im2sequence_output_size(width, kw, paddings[1], paddings[3], strides[1])
    grad = out_grad.reshape(n, out_h, out_w, channels, kh, kw)
    bottom = max(0, (out_h - 1) * strides[0] + kh - height - paddings[0])
    right = max(0, (out_w - 1) * strides[1] + kw - width - paddings[1])
    padded = xp.zeros(
        (n, channels, height + paddings[0] + bottom, width + paddings[1] + right), out_grad.dtype
    )
    for r in range(kh):
        for c in range(kw):
            padded[
                :, :,
                r : r + (out_h - 1) * strides[0] + 1 : strides[0],
                c : c + (out_w - 1) * strides[1] + 1 : strides[1],
            ] += grad[:, :, :, :, r, c].transpose(0, 3, 1, 2)  # fmt: skip
    return padded[:, :, paddings[0] : paddings[0] + height, paddings[1] : paddings[1] + width]


@register_kernel("yolo_loss_grad", dtypes=FLOATS)
def yolo_loss_grad_kernel(
    ctx: KernelContext,
    x: Array,
    gt_box: Array,
    gt_label: Array,
    gt_score: Array | None,
    objectness_mask: Array,
    gt_match_mask: Array,
    loss_grad: Array,
    anchors: tuple[int, ...],
    anchor_mask: tuple[int, ...],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    use_label_smooth: bool,
    scale_x_y: float,
) -> tuple[Array, Array, Array, Array]:
    """PHI's YoloLossGradKernel: the assigned cells' location and class gradients written (a
    later ground truth at the same cell and anchor replaces an earlier one's, as PHI's kernel
    writes them), then the objectness gradient of every sample the mask keeps; each image scaled
    by its loss_grad. gt_box, gt_label and gt_score get zero gradients (PHI's kernel writes
    none)."""
    xp = ctx.xp
    dtype = x.dtype
    n, channels, height, width = x.shape
    masks = len(anchor_mask)
    input_size = downsample_ratio * height
    head = x.reshape(n, masks, 5 + class_num, height, width)
    grad = xp.zeros(head.shape, dtype)
    sig = lambda a: 1 / (1 + xp.exp(-a))  # noqa: E731
    host_box = to_numpy(gt_box)
    host_label = to_numpy(gt_label)
    host_match = to_numpy(gt_match_mask)
    host_score = None if gt_score is None else to_numpy(gt_score)
    pos, neg = yolo_label_targets(dtype, class_num, use_label_smooth)
    classes = np.arange(class_num)
    with np.errstate(over="ignore"):
        for i, t in zip(*np.nonzero(host_match >= 0)):
            mask_idx = int(host_match[i, t])
            gx, gy = host_box[i, t, 0], host_box[i, t, 1]
            gi = min(int(gx * dtype.type(width)), width - 1)
            gj = min(int(gy * dtype.type(height)), height - 1)
            score = dtype.type(1) if host_score is None else host_score[i, t]
            tx, ty, tw, th, weight = yolo_location_targets(
                host_box[i, t], anchor_mask[mask_idx], gi, gj, height, input_size, anchors, score
            )
            cell = head[i, mask_idx, :, gj, gi]
            scale = loss_grad[i]
            grad[i, mask_idx, 0, gj, gi] = (sig(cell[0]) - tx) * weight * scale
            grad[i, mask_idx, 1, gj, gi] = (sig(cell[1]) - ty) * weight * scale
            grad[i, mask_idx, 2, gj, gi] = xp.where(cell[2] > tw, 1, -1).astype(dtype) * weight * scale
            grad[i, mask_idx, 3, gj, gi] = xp.where(cell[3] > th, 1, -1).astype(dtype) * weight * scale
            targets = xp.asarray(np.where(classes == host_label[i, t], pos, neg).astype(dtype))
            grad[i, mask_idx, 5:, gj, gi] = (sig(cell[5:]) - targets) * score * scale
        conf = head[:, :, 4]
        scale = loss_grad.reshape(n, 1, 1, 1)
        positive = objectness_mask > dtype.type(1e-5)
        negative = ~positive & (objectness_mask > dtype.type(-0.5))
        grad[:, :, 4] = xp.where(
            positive, (sig(conf) - 1) * objectness_mask * scale,
            xp.where(negative, sig(conf) * scale, 0),
        )  # fmt: skip
    score_grad = None if gt_score is None else xp.zeros_like(gt_score)
    return (
        grad.reshape(n, channels, height, width),
        xp.zeros_like(gt_box),
        xp.zeros_like(gt_label),
        score_grad,
    )
