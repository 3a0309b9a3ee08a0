"""Kernels of the detection box ops: yolo_box, prior_box, box_coder.

yolo_box follows PHI's CPU kernel (paddle/phi/kernels/cpu/yolo_box_kernel.cc,
funcs/yolo_box_util.h). For each image, anchor and cell the confidence is
sigmoid(objectness) (with ``iou_aware``, conf^(1 - factor) * sigmoid(iou)^factor); a cell
whose confidence is below ``conf_thresh`` gives a zero box and zero scores. Otherwise its box
centre is ((cell + sigmoid(t) * scale_x_y + bias) * image extent / grid extent), bias being
-0.5 * (scale_x_y - 1), its extents exp(t) * anchor * image extent / (downsample_ratio * grid
extent), and its corners are clipped to [0, image extent - 1] with ``clip_bbox``; the scores are
conf * sigmoid(class logits). Everything is computed in the input's dtype in PHI's order, its
sigmoid in double precision as PHI's (1.0 / (1.0 + exp(-x))) is.

prior_box follows paddle/phi/kernels/cpu/prior_box_kernel.cc: the prior sizes are computed in
float32 (PHI's attributes) whatever the dtype, the centres and normalised corners in the dtype.
box_coder follows paddle/phi/kernels/cpu/box_coder_kernel.cc (encode_center_size and
decode_center_size, +1 extents for unnormalised boxes). One difference: decoding float64 with
the ``variance`` attribute, PHI reinterprets the float32 list as doubles (garbage values);
phiops uses the variances given. The dtype lists are PaddlePaddle 3.3.1's CPU registrations.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.detect import expand_aspect_ratios
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)


def keep_second_input_dtype(kernel: Kernel) -> None:
    """Input 1 (yolo_box's img_size) keeps its own dtype (InferMeta asks for int32)."""
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)


def phi_sigmoid(xp: Any, value: Array) -> Array:
    """PHI's sigmoid<T>: 1.0 / (1.0 + exp(-x)) with exp in T and the rest in double, then T."""
    with np.errstate(over="ignore"):
        return (1.0 / (1.0 + xp.exp(-value).astype(np.float64))).astype(value.dtype)


# --- yolo_box ------------------------------------------------------------------------------------


@register_kernel("yolo_box", dtypes=REAL, configure=keep_second_input_dtype)
def yolo_box_kernel(
    ctx: KernelContext,
    x: Array,
    img_size: Array,
    anchors: Sequence[int],
    class_num: int,
    conf_thresh: float,
    downsample_ratio: int,
    clip_bbox: bool,
    scale_x_y: float,
    iou_aware: bool,
    iou_aware_factor: float,
) -> tuple[Array, Array]:
    """YOLOv3 boxes and scores from the head ``x`` [N, A * (5 + class_num), H, W] for images of
    ``img_size`` [N, 2] (height, width)."""
    xp = ctx.xp
    dtype = x.dtype
    t = dtype.type
    n, _, h, w = (int(extent) for extent in x.shape)
    anchor_num = len(anchors) // 2
    boxes = xp.zeros((n, anchor_num * h * w, 4), dtype=dtype)
    scores = xp.zeros((n, anchor_num * h * w, class_num), dtype=dtype)
    if x.size == 0 or img_size.size == 0:
        return boxes, scores
    if iou_aware:
        iou = x[:, :anchor_num]
        body = x[:, anchor_num:].reshape(n, anchor_num, 5 + class_num, h, w)
    else:
        body = x.reshape(n, anchor_num, 5 + class_num, h, w)
    conf = phi_sigmoid(xp, body[:, :, 4])
    if iou_aware:
        factor = float(np.float32(iou_aware_factor))
        conf = xp.power(conf, t(1.0 - factor)) * xp.power(phi_sigmoid(xp, iou), t(factor))
    keep = ~(conf < t(np.float32(conf_thresh)))  # [N, A, H, W]; NaN is kept, as in PHI

    scale = np.float32(scale_x_y)
    bias = t(np.float32(-0.5) * (scale - np.float32(1)))
    scale = t(scale)
    image_h = img_size[:, 0].astype(dtype).reshape(n, 1, 1, 1)
    image_w = img_size[:, 1].astype(dtype).reshape(n, 1, 1, 1)
    cells_x = xp.arange(w, dtype=dtype).reshape(1, 1, 1, w)
    cells_y = xp.arange(h, dtype=dtype).reshape(1, 1, h, 1)
    anchor_w = xp.asarray(np.asarray(anchors[0::2], dtype=dtype).reshape(1, anchor_num, 1, 1))
    anchor_h = xp.asarray(np.asarray(anchors[1::2], dtype=dtype).reshape(1, anchor_num, 1, 1))
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN propagate as in PHI
        centre_x = (cells_x + phi_sigmoid(xp, body[:, :, 0]) * scale + bias) * image_w / t(w)
        centre_y = (cells_y + phi_sigmoid(xp, body[:, :, 1]) * scale + bias) * image_h / t(h)
        extent_w = xp.exp(body[:, :, 2]) * anchor_w * image_w / t(downsample_ratio * w)
        extent_h = xp.exp(body[:, :, 3]) * anchor_h * image_h / t(downsample_ratio * h)
    two = t(2)
    corners = [
        centre_x - extent_w / two,
        centre_y - extent_h / two,
        centre_x + extent_w / two,
        centre_y + extent_h / two,
    ]
    if clip_bbox:
        zero = t(0)
        right, bottom = image_w - t(1), image_h - t(1)
        corners[0] = xp.where(corners[0] > zero, corners[0], zero)
        corners[1] = xp.where(corners[1] > zero, corners[1], zero)
        corners[2] = xp.where(corners[2] < right, corners[2], right)
        corners[3] = xp.where(corners[3] < bottom, corners[3], bottom)
    stacked = xp.stack([xp.broadcast_to(c, keep.shape) for c in corners], axis=-1)
    boxes = xp.where(keep[..., None], stacked, t(0)).reshape(n, anchor_num * h * w, 4)
    labels = conf[:, :, None] * phi_sigmoid(xp, body[:, :, 5:])  # [N, A, C, H, W]
    labels = xp.where(keep[:, :, None], labels, t(0)).transpose(0, 1, 3, 4, 2)
    scores = labels.reshape(n, anchor_num * h * w, class_num)
    return xp.ascontiguousarray(boxes), xp.ascontiguousarray(scores)


# --- prior_box -----------------------------------------------------------------------------------


def prior_half_extents(
    min_sizes: Sequence[float],
    max_sizes: Sequence[float],
    ratios: Sequence[Any],
    min_max_aspect_ratios_order: bool,
    dtype: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Each prior's half width and half height, in PHI's order: per min size the aspect-ratio
    priors then the sqrt(min * max) square, or with ``min_max_aspect_ratios_order`` the min
    square, the max square, then the other ratios. PHI computes the sizes in float32 and
    halves them in double before storing them in T."""
    widths: list[Any] = []
    heights: list[Any] = []

    def add(width: np.float32, height: np.float32) -> None:
        widths.append(dtype.type(np.float64(width) / 2.0))
        heights.append(dtype.type(np.float64(height) / 2.0))

    for index, low in enumerate(np.float32(size) for size in min_sizes):
        square = np.sqrt(low * np.float32(max_sizes[index])) if max_sizes else None
        if min_max_aspect_ratios_order:
            add(low, low)
            if square is not None:
                add(square, square)
            for ratio in ratios:
                if abs(float(ratio) - 1.0) < 1e-6:
                    continue
                add(low * np.sqrt(ratio), low / np.sqrt(ratio))
        else:
            for ratio in ratios:
                add(low * np.sqrt(ratio), low / np.sqrt(ratio))
            if square is not None:
                add(square, square)
    return np.asarray(widths, dtype=dtype), np.asarray(heights, dtype=dtype)


@register_kernel("prior_box", dtypes=REAL)
def prior_box_kernel(
    ctx: KernelContext,
    input: Array,
    image: Array,
    min_sizes: Sequence[float],
    max_sizes: Sequence[float],
    aspect_ratios: Sequence[float],
    variances: Sequence[float],
    flip: bool,
    clip: bool,
    step_w: float,
    step_h: float,
    offset: float,
    min_max_aspect_ratios_order: bool,
) -> tuple[Array, Array]:
    """SSD prior boxes [H, W, num_priors, 4] normalised by the image's extents, and their
    variances, for the feature map ``input`` [N, C, H, W] of ``image`` [N, C, H_img, W_img]."""
    xp = ctx.xp
    dtype = np.dtype(input.dtype)
    t = dtype.type
    height, width = int(input.shape[2]), int(input.shape[3])
    image_h, image_w = int(image.shape[2]), int(image.shape[3])
    ratios = expand_aspect_ratios(tuple(aspect_ratios), flip)
    half_w, half_h = prior_half_extents(
        min_sizes, max_sizes, ratios, min_max_aspect_ratios_order, dtype
    )
    priors = half_w.shape[0]
    if input.size == 0 or image.size == 0:
        zeros = xp.zeros((height, width, priors, 4), dtype=dtype)
        return zeros, xp.zeros_like(zeros)
    step_x, step_y = t(np.float32(step_w)), t(np.float32(step_h))
    if step_x == 0 or step_y == 0:
        step_x, step_y = t(image_w) / t(width), t(image_h) / t(height)
    shift = t(np.float32(offset))
    centre_x = ((np.arange(width, dtype=dtype) + shift) * step_x).reshape(1, width, 1)
    centre_y = ((np.arange(height, dtype=dtype) + shift) * step_y).reshape(height, 1, 1)
    half_w, half_h = half_w.reshape(1, 1, priors), half_h.reshape(1, 1, priors)
    corners = [
        (centre_x - half_w) / t(image_w) + np.zeros_like(centre_y),
        (centre_y - half_h) / t(image_h) + np.zeros_like(centre_x),
        (centre_x + half_w) / t(image_w) + np.zeros_like(centre_y),
        (centre_y + half_h) / t(image_h) + np.zeros_like(centre_x),
    ]
    boxes = np.stack(corners, axis=-1).astype(dtype)
    if clip:
        boxes = np.minimum(np.maximum(boxes, t(0)), t(1))
    spread = np.broadcast_to(
        np.asarray([np.float32(v) for v in variances], dtype=dtype), boxes.shape
    )
    return xp.asarray(np.ascontiguousarray(boxes)), xp.asarray(np.ascontiguousarray(spread))


# --- box_coder -----------------------------------------------------------------------------------


@register_kernel("box_coder", dtypes=REAL)
def box_coder_kernel(
    ctx: KernelContext,
    prior_box: Array,
    prior_box_var: Array | None,
    target_box: Array,
    code_type: str,
    box_normalized: bool,
    axis: int,
    variance: Sequence[float],
) -> Array:
    """Encodes target_box [M, 4] against prior_box [P, 4] into [M, P, 4] offsets, or decodes
    target_box [M, P, 4] (axis 0; [P, M, 4] with axis 1) back into boxes."""
    xp = ctx.xp
    dtype = target_box.dtype
    t = dtype.type
    if code_type == "encode_center_size":
        shape = (int(target_box.shape[0]), int(prior_box.shape[0]), 4)
    else:
        shape = tuple(int(extent) for extent in target_box.shape)
    if prior_box.size == 0 or target_box.size == 0:
        return xp.zeros(shape, dtype=dtype)
    unit = t(0) if box_normalized else t(1)
    two = t(2)
    prior_w = prior_box[:, 2] - prior_box[:, 0] + unit
    prior_h = prior_box[:, 3] - prior_box[:, 1] + unit
    prior_x = prior_box[:, 0] + prior_w / two
    prior_y = prior_box[:, 1] + prior_h / two
    if variance:
        scales = xp.asarray(np.asarray([np.float32(v) for v in variance], dtype=dtype))
    else:
        scales = None
    if code_type == "encode_center_size":
        target_x = ((target_box[:, 2] + target_box[:, 0]) / two)[:, None]
        target_y = ((target_box[:, 3] + target_box[:, 1]) / two)[:, None]
        target_w = (target_box[:, 2] - target_box[:, 0] + unit)[:, None]
        target_h = (target_box[:, 3] - target_box[:, 1] + unit)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = xp.stack(
                [
                    (target_x - prior_x) / prior_w,
                    (target_y - prior_y) / prior_h,
                    xp.log(xp.abs(target_w / prior_w)),
                    xp.log(xp.abs(target_h / prior_h)),
                ],
                axis=-1,
            )
            if prior_box_var is not None:
                out = out / prior_box_var[None, :, :]
            elif scales is not None:
                out = out / scales
        return out
    # decode: the prior of an entry is along axis 1 (axis 0) or axis 0 (axis 1)
    expand = (lambda a: a[None, :]) if axis == 0 else (lambda a: a[:, None])
    prior_w, prior_h, prior_x, prior_y = map(expand, (prior_w, prior_h, prior_x, prior_y))
    if prior_box_var is not None:
        factors = [expand(prior_box_var[:, k]) for k in range(4)]
    elif scales is not None:
        factors = [scales[k] for k in range(4)]
    else:
        factors = [t(1)] * 4
    centre_x = factors[0] * target_box[..., 0] * prior_w + prior_x
    centre_y = factors[1] * target_box[..., 1] * prior_h + prior_y
    with np.errstate(over="ignore"):
        extent_w = xp.exp(factors[2] * target_box[..., 2]) * prior_w
        extent_h = xp.exp(factors[3] * target_box[..., 3]) * prior_h
    return xp.stack(
        [
            centre_x - extent_w / two,
            centre_y - extent_h / two,
            centre_x + extent_w / two - unit,
            centre_y + extent_h / two - unit,
        ],
        axis=-1,
    )
