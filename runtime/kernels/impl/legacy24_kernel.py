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



# -- yolo_loss ----------------------------------------------------------------------------------


def yolo_sce(xp: Any, x: Array, label: Any) -> Array:
    """PHI's SigmoidCrossEntropy: max(x, 0) - x * label + log(1 + exp(-|x|))."""
    return xp.maximum(x, 0) - x * label + xp.log1p(xp.exp(-xp.abs(x)))


def yolo_box_iou(xp: Any, b1: tuple, b2: tuple) -> Array:
    """PHI's CalcBoxIoU of (cx, cy, w, h) boxes, broadcast: 0 intersection where they miss."""
    def overlap(c1, w1, c2, w2):
        return xp.minimum(c1 + w1 / 2, c2 + w2 / 2) - xp.maximum(c1 - w1 / 2, c2 - w2 / 2)

    iw = overlap(b1[0], b1[2], b2[0], b2[2])
    ih = overlap(b1[1], b1[3], b2[1], b2[3])
    inter = xp.where((iw < 0) | (ih < 0), 0, iw * ih)
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / (b1[2] * b1[3] + b2[2] * b2[3] - inter)


def yolo_label_targets(dtype: Any, class_num: int, use_label_smooth: bool) -> tuple[Any, Any]:
    """(positive, negative) class targets: 1 - s and s with s = min(1 / class_num, 1 / 40)."""
    if not use_label_smooth:
        return dtype.type(1.0), dtype.type(0.0)
    smooth = min(1.0 / float(dtype.type(class_num)), 1.0 / 40)
    return dtype.type(1.0 - smooth), dtype.type(smooth)


def yolo_assignments(
    gt_box: np.ndarray, anchors, anchor_mask, height: int, width: int, input_size: int
) -> list[tuple[int, int, int, int, int, int]]:
    """For each valid ground truth (image, box): (i, t, mask_idx, best_n, gi, gj) as PHI's kernel
    assigns them, on host arrays; mask_idx -1 where the best anchor is not in anchor_mask. A
    center at the image's edge (gi or gj past the grid) is kept on the last cell."""
    dtype = gt_box.dtype
    pairs = np.asarray(anchors, np.float64).reshape(-1, 2)
    out = []
    for i, t in zip(*np.nonzero(~yolo_invalid(gt_box))):
        gx, gy, gw, gh = gt_box[i, t]
        gi = min(int(gx * dtype.type(width)), width - 1)
        gj = min(int(gy * dtype.type(height)), height - 1)
        an_w = (pairs[:, 0] / input_size).astype(dtype)
        an_h = (pairs[:, 1] / input_size).astype(dtype)
        zero = np.zeros_like(an_w)
        iou = yolo_box_iou(np, (zero, zero, an_w, an_h), (dtype.type(0), dtype.type(0), gw, gh))
        iou = iou.astype(np.float32)  # PHI keeps it in a float
        best_n = int(np.argmax(iou)) if iou.max() > 0 else 0
        mask_idx = list(anchor_mask).index(best_n) if best_n in anchor_mask else -1
        out.append((int(i), int(t), mask_idx, best_n, gi, gj))
    return out


def yolo_invalid(gt_box: Array) -> Array:
    """Boxes of width or height below 1e-6, which PHI's kernel skips."""
    return (gt_box[..., 2].astype(np.float64) < 1e-6) | (gt_box[..., 3].astype(np.float64) < 1e-6)


def yolo_location_targets(gt, best_n: int, gi: int, gj: int, grid: int, input_size: int, anchors, score):
    """(tx, ty, tw, th, weight) of a ground truth at its cell, as PHI's CalcBoxLocationLoss."""
    gx, gy, gw, gh = gt
    dtype = gt.dtype.type
    tx = gx * dtype(grid) - dtype(gi)
    ty = gy * dtype(grid) - dtype(gj)
    tw = np.log(gw * dtype(input_size) / dtype(anchors[2 * best_n]))
    th = np.log(gh * dtype(input_size) / dtype(anchors[2 * best_n + 1]))
    weight = dtype((2.0 - float(gw * gh)) * float(score))
    return tx, ty, tw, th, weight


@register_kernel(
    "yolo_loss",
    dtypes=FLOATS,
    configure=lambda k: k.output_at(2).set_dtype(D.INT32),
)
def yolo_loss_kernel(
    ctx: KernelContext,
    x: Array,
    gt_box: Array,
    gt_label: Array,
    gt_score: Array | None,
    anchors: tuple[int, ...],
    anchor_mask: tuple[int, ...],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    use_label_smooth: bool,
    scale_x_y: float,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    dtype = x.dtype
    n, _, height, width = x.shape
    masks = len(anchor_mask)
    boxes = gt_box.shape[1]
    input_size = downsample_ratio * height
    head = x.reshape(n, masks, 5 + class_num, height, width)
    scale = dtype.type(np.float32(scale_x_y))
    bias = dtype.type(np.float32(-0.5 * (float(np.float32(scale_x_y)) - 1.0)))
    pairs = np.asarray(anchors, np.int64).reshape(-1, 2)[list(anchor_mask)]
    cols = xp.arange(width, dtype=dtype).reshape(1, 1, 1, width)
    rows = xp.arange(height, dtype=dtype).reshape(1, 1, height, 1)
    sig = lambda a: 1 / (1 + xp.exp(-a))  # noqa: E731
    with np.errstate(over="ignore"):
        pred = (
            (cols + sig(head[:, :, 0]) * scale + bias) / dtype.type(height),
            (rows + sig(head[:, :, 1]) * scale + bias) / dtype.type(height),
            xp.exp(head[:, :, 2]) * xp.asarray(pairs[:, 0], dtype).reshape(1, masks, 1, 1) / dtype.type(input_size),
            xp.exp(head[:, :, 3]) * xp.asarray(pairs[:, 1], dtype).reshape(1, masks, 1, 1) / dtype.type(input_size),
        )  # fmt: skip
    invalid = yolo_invalid(gt_box)
    gt = tuple(gt_box[:, None, None, None, :, k] for k in range(4))  # [N, 1, 1, 1, B]
    iou = yolo_box_iou(xp, tuple(p[..., None] for p in pred), gt)  # [N, M, H, W, B]
    iou = xp.where(invalid[:, None, None, None, :] | xp.isnan(iou), 0, iou)
    best = iou.max(axis=-1) if boxes else xp.zeros(pred[0].shape, dtype)
    objectness = xp.where(best > dtype.type(np.float32(ignore_thresh)), dtype.type(-1), dtype.type(0))
    loss = xp.zeros((n,), dtype)
    match = xp.full((n, boxes), -1, np.int32)
    host_box = to_numpy(gt_box)
    host_label = to_numpy(gt_label)
    host_score = None if gt_score is None else to_numpy(gt_score)
    pos, neg = yolo_label_targets(dtype, class_num, use_label_smooth)
    classes = np.arange(class_num)
    for i, t, mask_idx, best_n, gi, gj in yolo_assignments(
        host_box, anchors, anchor_mask, height, width, input_size
    ):
        match[i, t] = mask_idx
        if mask_idx < 0:
            continue
        score = dtype.type(1) if host_score is None else host_score[i, t]
        tx, ty, tw, th, weight = yolo_location_targets(
            host_box[i, t], best_n, gi, gj, height, input_size, anchors, score
        )
        cell = head[i, mask_idx, :, gj, gi]
        targets = xp.asarray(np.where(classes == host_label[i, t], pos, neg).astype(dtype))
        loss[i] += (
            (yolo_sce(xp, cell[0], tx) + yolo_sce(xp, cell[1], ty)) * weight
            + (xp.abs(tw - cell[2]) + xp.abs(th - cell[3])) * weight
            + (yolo_sce(xp, cell[5:], targets) * score).sum()
        )
        objectness[i, mask_idx, gj, gi] = score
    conf = head[:, :, 4]
    positive = objectness > dtype.type(1e-5)
    negative = ~positive & (objectness > dtype.type(-0.5))
    obj_loss = xp.where(positive, yolo_sce(xp, conf, dtype.type(1)) * objectness, 0) + xp.where(
        negative, yolo_sce(xp, conf, dtype.type(0)), 0
    )
    loss = loss + obj_loss.reshape(n, -1).sum(axis=1).astype(dtype)
    return loss.astype(dtype, copy=False), objectness, match
