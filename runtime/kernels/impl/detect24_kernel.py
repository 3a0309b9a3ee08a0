"""Kernels of the detect24 ops (issue 24): box_clip, bipartite_match, matrix_nms,
generate_proposals, collect_fpn_proposals.

Each follows PaddlePaddle 3.3.1's CPU kernel of the same name (paddle/phi/kernels/cpu/,
impl/box_clip_kernel_impl.h, funcs/detection/bbox_util.h), for the dtypes it registers (float32,
float64). phiops tensors carry no LoD: box_clip splits its boxes evenly among the images of
im_info, bipartite_match reads its matrix as one instance.

- box_clip clips x to [0, round(width / scale) - 1] and y to [0, round(height / scale) - 1],
  rounding half away from zero as C's ``round``, with ``std::min``/``std::max``'s NaN rule (a NaN
  box coordinate stays NaN, a NaN bound leaves the coordinate).
- bipartite_match matches greedily, the largest distance first: below 130 rows among the pairs of
  distance >= 1e-6, the first of equal distances by column then row (PHI's scan); from 130 rows on
  among the pairs of distance > 0 in descending order, stopping after ``rows`` matches (PHI's
  sort; it leaves ties in an unspecified order, here by row then column). "per_prediction" then
  gives each unmatched column its first row of largest distance >= max(1e-6, dist_threshold).
- matrix_nms keeps, per class, the candidates above score_threshold by descending score (at most
  nms_top_k), decays each score by min over the higher-scoring boxes j of
  decay(iou, max_iou_j), linear ``(1 - iou) / (1 - max_iou_j)`` in double precision as PHI's
  ``1.`` makes it, or Gaussian ``exp((max_iou_j^2 - iou^2) * sigma)`` in the dtype, keeps those
  above post_threshold, then the image's keep_top_k best. PHI orders candidates with
  ``std::partial_sort``, which leaves equal scores in an unspecified order; here they keep their
  box (then class) order.
- generate_proposals follows ProposalForOneImage per image: the pre_nms_top_n best anchors
  (libstdc++'s ``std::nth_element`` order, as phiops's topk replays it; all of them by
  descending score otherwise), decoded by the variance-weighted deltas (log-sizes capped at
  log(1000 / 16)), clipped to the image less the pixel offset, those smaller than
  max(min_size, 1) or (pixel_offset) centred outside the image dropped, then NMS (PHI's: equal
  scores the later first; nms_thresh <= 0 skips it) and the post_nms_top_n first. An image left
  with no box proposes one zero box of score 0, as PHI's kernel does.
- psroi_pool rounds each box half away from zero, takes x2 and y2 one past, scales by
  spatial_scale (in the dtype, with PHI's float arithmetic), makes it at least 0.1 wide and
  high, and averages each bin's pixels [floor(start), ceil(end)) clipped to the map (0 for an
  empty bin); psroi_pool_grad (psroi_pool_grad_kernel.py) spreads each bin's gradient evenly
  over those pixels.
- affine_channel computes x * scale + bias per channel, the channels at dimension 1 with
  "NCHW" and last otherwise ("AnyLayout" too, as PHI's StringToDataLayout makes it);
  affine_channel_grad gives out_grad * scale, the sum of out_grad * x and of out_grad per
  channel.
- collect_fpn_proposals keeps the post_nms_topn best rois of all levels and groups them by
  image (both sorts stable); each image's count is its own (PHI's misattributes the counts
  once an image other than the first keeps none).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.detect_kernel import keep_boxes_num_dtype, roi_batch_ids
from phiops.runtime.kernels.impl.nth_element import nth_element
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

REAL = (DataType.FLOAT32, DataType.FLOAT64)

# bipartite_match switches from PHI's scan to its sort at this many rows
_SORTED_MATCH_ROWS = 130


def _to_host(array: Array) -> np.ndarray:
    return np.asarray(array.get() if hasattr(array, "get") else array)


def _round_half_away(xp: Any, value: Array) -> Array:
    magnitude = xp.abs(value)
    floor = xp.floor(magnitude)
    rounded = floor + (magnitude - floor >= 0.5).astype(value.dtype)
    return xp.where(value < 0, -rounded, rounded)


@register_kernel("box_clip", dtypes=REAL)
def box_clip_kernel(ctx: KernelContext, input: Array, im_info: Array) -> Array:
    xp = ctx.xp
    images = im_info.shape[0]
    one = input.dtype.type(1)
    width = _round_half_away(xp, im_info[:, 1] / im_info[:, 2]) - one
    height = _round_half_away(xp, im_info[:, 0] / im_info[:, 2]) - one
    bounds = xp.stack([width, height, width, height], axis=1).reshape(images, 1, 4)
    boxes = input.reshape(images, -1, 4)
    clipped = xp.where(bounds < boxes, bounds, boxes)
    clipped = xp.where(clipped < 0, xp.zeros_like(clipped), clipped)
    return clipped.reshape(input.shape)


def _scan_match(dist: np.ndarray, indices: np.ndarray, matched: np.ndarray, eps: Any) -> None:
    """PHI's greedy scan (fewer than 130 rows): repeatedly the largest distance >= eps among
    free rows and columns, the first by column then row."""
    rows, cols = dist.shape
    free_rows = np.ones(rows, bool)
    candidates = dist >= eps
    for _ in range(min(rows, cols)):
        usable = candidates & free_rows[:, None] & (indices < 0)[None, :]
        if not usable.any():
            return
        by_column = np.where(usable, dist, -np.inf).T
        column, row = np.unravel_index(int(np.argmax(by_column)), by_column.shape)
        indices[column] = row
        matched[column] = dist[row, column]
        free_rows[row] = False


def _sorted_match(dist: np.ndarray, indices: np.ndarray, matched: np.ndarray) -> None:
    """PHI's sort (130 rows or more): every pair by descending distance, matched while its row
    and column are free and its distance is positive, until there are ``rows`` matches."""
    rows, cols = dist.shape
    order = np.argsort(-dist.reshape(-1), kind="stable")
    free_rows = np.ones(rows, bool)
    count = 0
    for flat in order.tolist():
        if count >= rows:
            return
        row, column = divmod(flat, cols)
        value = dist[row, column]
        if indices[column] == -1 and free_rows[row] and value > 0:
            indices[column] = row
            matched[column] = value
            free_rows[row] = False
            count += 1


def _argmax_match(
    dist: np.ndarray, indices: np.ndarray, matched: np.ndarray, eps: Any, threshold: Any
) -> None:
    """"per_prediction": each column still unmatched takes its first row of largest distance
    that is >= eps and >= threshold."""
    usable = (dist >= eps) & (dist >= threshold) & (indices < 0)[None, :]
    best = np.argmax(np.where(usable, dist, -np.inf), axis=0)
    for column in np.flatnonzero(usable.any(axis=0)).tolist():
        indices[column] = best[column]
        matched[column] = dist[best[column], column]


def _bipartite_match_dtypes(kernel: Kernel) -> None:
    kernel.output_at(0).set_dtype(DataType.INT32)


@register_kernel("bipartite_match", dtypes=REAL, configure=_bipartite_match_dtypes)
def bipartite_match_kernel(
    ctx: KernelContext, dist_mat: Array, match_type: str, dist_threshold: float
) -> tuple[Array, Array]:
    dist = _to_host(dist_mat)
    t = dist.dtype.type
    rows, cols = dist.shape
    indices = np.full(cols, -1, np.int32)
    matched = np.zeros(cols, dist.dtype)
    eps = t(1e-6)
    if rows >= _SORTED_MATCH_ROWS:
        _sorted_match(dist, indices, matched)
    else:
        _scan_match(dist, indices, matched, eps)
    if match_type == "per_prediction":
        _argmax_match(dist, indices, matched, eps, t(np.float32(dist_threshold)))
    xp = ctx.xp
    return xp.asarray(indices.reshape(1, cols)), xp.asarray(matched.reshape(1, cols))


def _pairwise_iou(boxes: np.ndarray, normalized: bool) -> np.ndarray:
    """PHI's JaccardOverlap between every two of ``boxes`` [K, 4], in their dtype."""
    t = boxes.dtype.type
    norm = t(0) if normalized else t(1)
    x1, y1, x2, y2 = (boxes[:, i] for i in range(4))
    w, h = x2 - x1, y2 - y1
    area = np.where(
        (x2 < x1) | (y2 < y1), t(0), w * h if normalized else (w + norm) * (h + norm)
    )
    apart = (
        (x1[None, :] > x2[:, None])
        | (x2[None, :] < x1[:, None])
        | (y1[None, :] > y2[:, None])
        | (y2[None, :] < y1[:, None])
    )
    inter_w = np.minimum(x2[:, None], x2[None, :]) - np.maximum(x1[:, None], x1[None, :]) + norm
    inter_h = np.minimum(y2[:, None], y2[None, :]) - np.maximum(y1[:, None], y1[None, :]) + norm
    inter = inter_w * inter_h
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None, :] - inter)
    return np.where(apart, t(0), iou)


def _image_counts(rois_num: Array, total: int, argument: str) -> list[int]:
    """The number of rois of each image, from ``rois_num``, checked to sum to ``total``."""
    counts = [int(v) for v in _to_host(rois_num).reshape(-1)]
    if any(c < 0 for c in counts) or sum(counts) != total:
        raise InvalidArgumentError(
            f"argument '{argument}' must hold non-negative counts summing to the number of "
            f"rois ({total}), got {counts}"
        )
    return counts


def _matrix_nms_class(
    boxes: np.ndarray,
    scores: np.ndarray,
    score_threshold: Any,
    post_threshold: Any,
    sigma: Any,
    top_k: int,
    normalized: bool,
    gaussian: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """One class's Matrix NMS: the kept box indices (by descending score) and decayed scores."""
    candidates = np.flatnonzero(scores > score_threshold)
    if candidates.size == 0:
        return candidates, scores[candidates]
    order = candidates[np.argsort(-scores[candidates], kind="stable")]
    if -1 < top_k < order.size:
        order = order[:top_k]
    count = order.size
    iou = _pairwise_iou(boxes[order], normalized)
    below = np.tril(np.ones((count, count), bool), -1)
    t = scores.dtype.type
    max_iou = np.where(below, iou, t(0)).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if gaussian:
            decay = np.exp((max_iou[None, :] * max_iou[None, :] - iou * iou) * sigma)
        else:
            wide = iou.astype(np.float64)
            decay = ((1.0 - wide) / (1.0 - max_iou.astype(np.float64)[None, :])).astype(
                scores.dtype
            )
    decay = np.where(below & ~np.isnan(decay), decay, t(1))
    decayed = (np.minimum(decay.min(axis=1), t(1)) * scores[order]).astype(scores.dtype)
    keep = decayed > post_threshold
    return order[keep], decayed[keep]


def _matrix_nms_dtypes(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.INT32)
    kernel.output_at(2).set_dtype(DataType.INT32)


@register_kernel("matrix_nms", dtypes=REAL, configure=_matrix_nms_dtypes)
def matrix_nms_kernel(
    ctx: KernelContext,
    bboxes: Array,
    scores: Array,
    score_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    post_threshold: float,
    use_gaussian: bool,
    gaussian_sigma: float,
    background_label: int,
    normalized: bool,
) -> tuple[Array, Array, Array]:
    host_boxes, host_scores = _to_host(bboxes), _to_host(scores)
    t = host_scores.dtype.type
    images, classes, boxes_per_image = host_scores.shape
    limits = (t(np.float32(score_threshold)), t(np.float32(post_threshold)))
    sigma = t(np.float32(gaussian_sigma))
    rows: list[np.ndarray] = []
    index: list[np.ndarray] = []
    per_image: list[int] = []
    for image in range(images):
        kept_boxes, kept_scores, kept_classes = [], [], []
        for label in range(classes):
            if label == background_label:
                continue
            kept, decayed = _matrix_nms_class(
                host_boxes[image],
                host_scores[image, label],
                limits[0],
                limits[1],
                sigma,
                nms_top_k,
                normalized,
                use_gaussian,
            )
            kept_boxes.append(kept)
            kept_scores.append(decayed)
            kept_classes.append(np.full(kept.size, label, np.int64))
        chosen = np.concatenate(kept_boxes) if kept_boxes else np.zeros(0, np.int64)
        decayed = np.concatenate(kept_scores) if kept_scores else np.zeros(0, host_scores.dtype)
        labels = np.concatenate(kept_classes) if kept_classes else np.zeros(0, np.int64)
        order = np.argsort(-decayed, kind="stable")
        if -1 < keep_top_k < order.size:
            order = order[:keep_top_k]
        picked = chosen[order]
        block = np.empty((order.size, 6), host_scores.dtype)
        block[:, 0] = labels[order]
        block[:, 1] = decayed[order]
        block[:, 2:] = host_boxes[image, picked]
        rows.append(block)
        index.append(image * boxes_per_image + picked)
        per_image.append(int(order.size))
    xp = ctx.xp
    out = np.concatenate(rows) if rows else np.zeros((0, 6), host_scores.dtype)
    flat = np.concatenate(index) if index else np.zeros(0, np.int64)
    return (
        xp.asarray(out),
        xp.asarray(flat.astype(np.int32).reshape(-1, 1)),
        xp.asarray(np.array(per_image, np.int32)),
    )


# --- generate_proposals ------------------------------------------------------------------------

# PHI's cap on the decoded log-width and log-height (exp of it scales the anchor at most 62.5x)
_BBOX_CLIP_DEFAULT = math.log(1000.0 / 16.0)


def _decode_anchors(
    anchors: np.ndarray, deltas: np.ndarray, variances: np.ndarray, offset: Any
) -> np.ndarray:
    """PHI's BoxCoder of generate_proposals: the anchors [K, 4] moved and scaled by the
    variance-weighted deltas, centres through double precision as PHI's ``0.5 *`` makes them."""
    t = anchors.dtype.type
    width = anchors[:, 2] - anchors[:, 0] + offset
    height = anchors[:, 3] - anchors[:, 1] + offset
    center_x = (anchors[:, 0].astype(np.float64) + 0.5 * width.astype(np.float64)).astype(t)
    center_y = (anchors[:, 1].astype(np.float64) + 0.5 * height.astype(np.float64)).astype(t)
    box_x = variances[:, 0] * deltas[:, 0] * width + center_x
    box_y = variances[:, 1] * deltas[:, 1] * height + center_y
    clip = t(_BBOX_CLIP_DEFAULT)
    with np.errstate(over="ignore"):
        box_w = np.exp(np.minimum(variances[:, 2] * deltas[:, 2], clip)) * width
        box_h = np.exp(np.minimum(variances[:, 3] * deltas[:, 3], clip)) * height
    two = t(2)
    return np.stack(
        [
            box_x - box_w / two,
            box_y - box_h / two,
            box_x + box_w / two - offset,
            box_y + box_h / two - offset,
        ],
        axis=1,
    )


def _proposals_nms(boxes: np.ndarray, scores: np.ndarray, threshold: Any, eta: float,
                   normalized: bool) -> list[int]:  # fmt: skip
    """PHI's funcs::NMS: by descending score (of equal scores the later first), each box kept
    unless its overlap with a kept one exceeds the threshold (a NaN overlap drops it), the
    threshold shrinking by eta after each kept box while it is above 0.5."""
    order = np.argsort(scores, kind="stable")[::-1]
    iou = _pairwise_iou(boxes, normalized)
    kept: list[int] = []
    adaptive = threshold
    for index in order.tolist():
        if all(iou[index, other] <= adaptive for other in kept):
            kept.append(index)
            if eta < 1 and adaptive > 0.5:
                with np.errstate(invalid="ignore", over="ignore"):
                    adaptive = adaptive * boxes.dtype.type(np.float32(eta))
    return kept


def _proposals_for_image(
    im_shape: np.ndarray,
    anchors: np.ndarray,
    variances: np.ndarray,
    deltas: np.ndarray,
    scores: np.ndarray,
    pre_nms_top_n: int,
    post_nms_top_n: int,
    nms_thresh: float,
    min_size: float,
    eta: float,
    pixel_offset: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """PHI's ProposalForOneImage: the boxes [P, 4] and scores [P] one image proposes."""
    t = scores.dtype.type
    count = scores.size
    if pre_nms_top_n <= 0 or pre_nms_top_n >= count:
        order = np.argsort(-scores, kind="stable")
    else:
        items = list(range(count))
        nth_element(items, pre_nms_top_n, lambda i, j: scores[i] > scores[j])
        order = np.array(items[:pre_nms_top_n], np.int64)
    offset = t(1) if pixel_offset else t(0)
    boxes = _decode_anchors(anchors[order], deltas[order], variances[order], offset)
    height, width = im_shape[0], im_shape[1]
    bounds = np.array([width, height, width, height], scores.dtype) - offset
    boxes = np.where(bounds < boxes, bounds, boxes)
    boxes = np.where(boxes < 0, t(0), boxes)
    box_w = boxes[:, 2] - boxes[:, 0] + offset
    box_h = boxes[:, 3] - boxes[:, 1] + offset
    smallest = t(max(np.float32(min_size), np.float32(1.0)))
    keep = (box_w >= smallest) & (box_h >= smallest)
    if pixel_offset:
        two = t(2)
        keep &= (boxes[:, 0] + box_w / two <= width) & (boxes[:, 1] + box_h / two <= height)
    if not keep.any():
        return np.zeros((1, 4), scores.dtype), np.zeros(1, scores.dtype)
    boxes, kept_scores = boxes[keep], scores[order][keep]
    if nms_thresh <= 0:
        return boxes, kept_scores
    chosen = _proposals_nms(boxes, kept_scores, t(np.float32(nms_thresh)), eta, not pixel_offset)
    if 0 < post_nms_top_n < len(chosen):
        chosen = chosen[:post_nms_top_n]
    return boxes[chosen], kept_scores[chosen]


def _generate_proposals_dtypes(kernel: Kernel) -> None:
    kernel.output_at(2).set_dtype(DataType.INT32)


@register_kernel("generate_proposals", dtypes=REAL, configure=_generate_proposals_dtypes)
def generate_proposals_kernel(
    ctx: KernelContext,
    scores: Array,
    bbox_deltas: Array,
    im_shape: Array,
    anchors: Array,
    variances: Array,
    pre_nms_top_n: int,
    post_nms_top_n: int,
    nms_thresh: float,
    min_size: float,
    eta: float,
    pixel_offset: bool,
) -> tuple[Array, Array, Array]:
    host_scores = _to_host(scores)
    images = host_scores.shape[0]
    per_image_scores = host_scores.transpose(0, 2, 3, 1).reshape(images, -1)
    per_image_deltas = _to_host(bbox_deltas).transpose(0, 2, 3, 1).reshape(images, -1, 4)
    flat_anchors = _to_host(anchors).reshape(-1, 4)
    flat_variances = _to_host(variances).reshape(-1, 4)
    shapes = _to_host(im_shape)
    boxes, probs, counts = [], [], []
    for image in range(images):
        image_boxes, image_scores = _proposals_for_image(
            shapes[image],
            flat_anchors,
            flat_variances,
            per_image_deltas[image],
            per_image_scores[image],
            pre_nms_top_n,
            post_nms_top_n,
            nms_thresh,
            min_size,
            eta,
            pixel_offset,
        )
        boxes.append(image_boxes)
        probs.append(image_scores)
        counts.append(image_boxes.shape[0])
    xp = ctx.xp
    dtype = host_scores.dtype
    rois = np.concatenate(boxes) if boxes else np.zeros((0, 4), dtype)
    roi_probs = np.concatenate(probs) if probs else np.zeros(0, dtype)
    return (
        xp.asarray(rois.astype(dtype)),
        xp.asarray(roi_probs.astype(dtype).reshape(-1, 1)),
        xp.asarray(np.array(counts, np.int32)),
    )


# --- collect_fpn_proposals ---------------------------------------------------------------------


def _collect_fpn_dtypes(kernel: Kernel) -> None:
    kernel.input_at(2).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(1).set_dtype(DataType.INT32)


@register_kernel("collect_fpn_proposals", dtypes=REAL, configure=_collect_fpn_dtypes)
def collect_fpn_proposals_kernel(
    ctx: KernelContext,
    multi_level_rois: list[Array],
    multi_level_scores: list[Array],
    multi_level_rois_num: list[Array] | None,
    post_nms_topn: int,
) -> tuple[Array, Array]:
    rois = [_to_host(r) for r in multi_level_rois]
    scores = np.concatenate([_to_host(s).reshape(-1) for s in multi_level_scores])
    if multi_level_rois_num is None:
        images, image_of = 1, np.zeros(scores.size, np.int64)
    else:
        per_level = [
            _image_counts(n, r.shape[0], "multi_level_rois_num")
            for n, r in zip(multi_level_rois_num, rois)
        ]
        images = len(per_level[0])
        if any(len(counts) != images for counts in per_level):
            raise InvalidArgumentError(
                f"argument 'multi_level_rois_num' must count the same images at every level, "
                f"got {[len(c) for c in per_level]} images"
            )
        image_of = np.concatenate([np.repeat(np.arange(images), c) for c in per_level])
    all_rois = np.concatenate(rois) if rois else np.zeros((0, 4), scores.dtype)
    best = np.argsort(-scores, kind="stable")[: min(post_nms_topn, scores.size)]
    kept = best[np.argsort(image_of[best], kind="stable")]
    counts = np.bincount(image_of[kept], minlength=images).astype(np.int32)
    xp = ctx.xp
    return xp.asarray(all_rois[kept]), xp.asarray(counts)


# --- psroi_pool --------------------------------------------------------------------------------


def psroi_bins(xp: Any, boxes: Array, pooled_height: int, pooled_width: int, spatial_scale: float,
               height: int, width: int) -> tuple[Array, Array, Array, Array]:  # fmt: skip
    """PHI's PSROIPool bins: row masks [R, ph, H] and column masks [R, pw, W] of the pixels of
    each bin, and the bins' pixel counts along each axis [R, ph] and [R, pw]."""
    t = boxes.dtype.type
    scale = t(np.float32(spatial_scale))
    start_w = _round_half_away(xp, boxes[:, 0]) * scale
    start_h = _round_half_away(xp, boxes[:, 1]) * scale
    end_w = (_round_half_away(xp, boxes[:, 2]) + t(1)) * scale
    end_h = (_round_half_away(xp, boxes[:, 3]) + t(1)) * scale
    least = t(0.1)
    roi_h = xp.maximum(end_h - start_h, least)
    roi_w = xp.maximum(end_w - start_w, least)
    bin_h = roi_h / t(pooled_height)
    bin_w = roi_w / t(pooled_width)

    def edges(bins: Array, size: Array, start: Array, extent: int) -> tuple[Array, Array]:
        steps = xp.arange(bins, dtype=boxes.dtype)
        low = xp.floor(steps[None, :] * size[:, None] + start[:, None])
        high = xp.ceil((steps[None, :] + t(1)) * size[:, None] + start[:, None])
        return xp.clip(low, 0, extent), xp.clip(high, 0, extent)

    h_low, h_high = edges(pooled_height, bin_h, start_h, height)
    w_low, w_high = edges(pooled_width, bin_w, start_w, width)
    rows = xp.arange(height, dtype=boxes.dtype)
    cols = xp.arange(width, dtype=boxes.dtype)
    row_mask = (rows[None, None, :] >= h_low[:, :, None]) & (rows[None, None, :] < h_high[:, :, None])
    col_mask = (cols[None, None, :] >= w_low[:, :, None]) & (cols[None, None, :] < w_high[:, :, None])
    return (
        row_mask.astype(boxes.dtype),
        col_mask.astype(boxes.dtype),
        xp.maximum(h_high - h_low, 0),
        xp.maximum(w_high - w_low, 0),
    )


@register_kernel("psroi_pool", dtypes=REAL, configure=keep_boxes_num_dtype)
def psroi_pool_kernel(
    ctx: KernelContext,
    x: Array,
    boxes: Array,
    boxes_num: Array | None,
    pooled_height: int,
    pooled_width: int,
    output_channels: int,
    spatial_scale: float,
) -> Array:
    xp = ctx.xp
    batch, _, height, width = x.shape
    images = xp.asarray(np.array(roi_batch_ids(xp, boxes_num, boxes.shape[0], batch), np.int64))
    rows, cols, count_h, count_w = psroi_bins(
        xp, boxes, pooled_height, pooled_width, spatial_scale, height, width
    )
    # input channel (c * ph + i) * pw + j feeds output channel c at bin (i, j)
    planes = x.reshape(batch, output_channels, pooled_height, pooled_width, height, width)
    picked = planes[images]
    sums = xp.einsum("rcijhw,rih,rjw->rcij", picked, rows, cols)
    area = (count_h[:, :, None] * count_w[:, None, :])[:, None, :, :]
    empty = area == 0
    out = sums / xp.where(empty, xp.ones_like(area), area)
    return xp.where(empty, xp.zeros_like(out), out).astype(x.dtype)


# --- affine_channel ----------------------------------------------------------------------------


def channel_shape(x: Array, data_layout: str) -> tuple[int, ...]:
    """The shape a [C] tensor broadcasts to along x's channel dimension."""
    shape = [1] * x.ndim
    axis = 1 if data_layout == "NCHW" else x.ndim - 1
    shape[axis] = x.shape[axis]
    return tuple(shape)


@register_kernel("affine_channel", dtypes=REAL)
def affine_channel_kernel(
    ctx: KernelContext, x: Array, scale: Array, bias: Array, data_layout: str
) -> Array:
    shape = channel_shape(x, data_layout)
    return x * scale.reshape(shape) + bias.reshape(shape)
