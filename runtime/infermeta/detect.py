"""InferMeta functions of the detection ops (grid_sample, roi_align, roi_pool, nms, yolo_box, ...)
and of their grads.

Each follows PHI's function of the same CamelCase name (paddle/phi/infermeta/binary.cc,
ternary.cc, unary.cc). Extents that are unknown (-1, while a static program is built) stay
unknown, and checks that compare extents run only where both are known.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

_RUNTIME = MetaConfig()


def grid_sample_base_infer_meta(
    x: MetaTensor, grid: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """grid_sample: ``x`` [N, C, H, W] sampled at ``grid`` [N, H_out, W_out, 2] gives
    [N, C, H_out, W_out]; a 5-D ``x`` [N, C, D, H, W] with ``grid`` [N, D_out, H_out, W_out, 3]
    gives [N, C, D_out, H_out, W_out]."""
    x_dims, grid_dims = tuple(x.dims), tuple(grid.dims)
    if len(x_dims) not in (4, 5):
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, "
            f"got dims {list(x_dims)}"
        )
    if len(grid_dims) != len(x_dims):
        raise InvalidArgumentError(
            f"argument 'grid' must have x's rank {len(x_dims)} ([N, H_out, W_out, 2] for a 4-D x, "
            f"[N, D_out, H_out, W_out, 3] for a 5-D one), got dims {list(grid_dims)}"
        )
    coordinates = len(x_dims) - 2
    if not extents_match(grid_dims[-1], coordinates, config):
        raise InvalidArgumentError(
            f"argument 'grid' must hold {coordinates} coordinates in its last dimension, "
            f"got dims {list(grid_dims)}"
        )
    if not extents_match(grid_dims[0], x_dims[0], config):
        raise InvalidArgumentError(
            f"arguments 'x' and 'grid' must have the same batch size, got x dims {list(x_dims)} "
            f"and grid dims {list(grid_dims)}"
        )
    batch = x_dims[0] if is_known(x_dims[0]) else grid_dims[0]
    out.set_dims((batch, x_dims[1]) + grid_dims[1:-1])
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def _check_rois(
    x: MetaTensor,
    boxes: MetaTensor,
    boxes_num: MetaTensor | None,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    config: MetaConfig,
) -> tuple[int, ...]:
    """The checks roi_align and roi_pool share; the output's dims."""
    x_dims, boxes_dims = tuple(x.dims), tuple(boxes.dims)
    if len(x_dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D tensor [N, C, H, W], got dims {list(x_dims)}"
        )
    if len(boxes_dims) != 2 or not extents_match(boxes_dims[1], 4, config):
        raise InvalidArgumentError(
            f"argument 'boxes' must be a 2-D tensor [num_boxes, 4] of (x1, y1, x2, y2), "
            f"got dims {list(boxes_dims)}"
        )
    if boxes_num is not None:
        if len(boxes_num.dims) != 1:
            raise InvalidArgumentError(
                f"argument 'boxes_num' must be a 1-D tensor, got dims {list(boxes_num.dims)}"
            )
        if boxes_num.dtype not in (DataType.INT32, DataType.INT64):
            raise InvalidArgumentError(
                f"argument 'boxes_num' must be int32 or int64, got {boxes_num.dtype.name.lower()}"
            )
    for value, name in ((pooled_height, "pooled_height"), (pooled_width, "pooled_width")):
        if value <= 0:
            raise InvalidArgumentError(f"argument '{name}' must be positive, got {value}")
    if not 0 < spatial_scale < math.inf:
        raise InvalidArgumentError(
            f"argument 'spatial_scale' must be positive and finite, got {spatial_scale}"
        )
    return (boxes_dims[0], x_dims[1], pooled_height, pooled_width)


def roi_align_infer_meta(
    x: MetaTensor,
    boxes: MetaTensor,
    boxes_num: MetaTensor | None,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    sampling_ratio: int,
    aligned: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """roi_align: [num_boxes, C, pooled_height, pooled_width] of x's dtype."""
    dims = _check_rois(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale, config)
    out.set_dims(dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def roi_pool_infer_meta(
    x: MetaTensor,
    boxes: MetaTensor,
    boxes_num: MetaTensor | None,
    pooled_height: int,
    pooled_width: int,
    spatial_scale: float,
    out: MetaTensor,
    arg_max: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """roi_pool: out [num_boxes, C, pooled_height, pooled_width] of x's dtype and the int64
    flat index (h * W + w) of each maximum, -1 for an empty bin."""
    dims = _check_rois(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale, config)
    out.set_dims(dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
    arg_max.set_dims(dims)
    arg_max.set_dtype(DataType.INT64)
    arg_max.set_layout(x.layout)


def nms_infer_meta(
    x: MetaTensor, threshold: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """nms: the int64 indices of the boxes ``x`` [num_boxes, 4] it keeps; how many comes from
    the data (-1)."""
    dims = tuple(x.dims)
    if len(dims) != 2 or not extents_match(dims[1], 4, config):
        raise InvalidArgumentError(
            f"argument 'x' must be a 2-D tensor [num_boxes, 4] of (x1, y1, x2, y2), "
            f"got dims {list(dims)}"
        )
    out.set_dims((-1,))
    out.set_dtype(DataType.INT64)
    out.set_layout(x.layout)


def multi_class_nms_infer_meta(
    bboxes: MetaTensor,
    scores: MetaTensor,
    rois_num: MetaTensor | None,
    score_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    nms_threshold: float,
    normalized: bool,
    nms_eta: float,
    background_label: int,
    out: MetaTensor,
    index: MetaTensor,
    nms_rois_num: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """multiclass_nms3: out [kept, box_size + 2] rows of (label, score, box) of scores' dtype,
    index [kept, 1] int32 (each row's flat position in scores), nms_rois_num int32 with one
    count per image; kept comes from the data (-1). Scores [N, C, M] go with bboxes
    [N, M, box_size]; scores [M, C] with bboxes [M, C, box_size] and rois_num."""
    box_dims, score_dims = tuple(bboxes.dims), tuple(scores.dims)
    if len(score_dims) not in (2, 3):
        raise InvalidArgumentError(
            f"argument 'scores' must be 3-D [N, C, M] or 2-D [M, C], got dims {list(score_dims)}"
        )
    if len(box_dims) != 3:
        raise InvalidArgumentError(
            f"argument 'bboxes' must be 3-D ([N, M, box_size] or [M, C, box_size]), "
            f"got dims {list(box_dims)}"
        )
    if is_known(box_dims[2]) and box_dims[2] not in (4, 8, 16, 24, 32):
        raise InvalidArgumentError(
            f"argument 'bboxes' must hold boxes of 4, 8, 16, 24 or 32 coordinates in its last "
            f"dimension, got dims {list(box_dims)}"
        )
    if len(score_dims) == 3:
        pairs = ((box_dims[0], score_dims[0]), (box_dims[1], score_dims[2]))
        layout = "bboxes [N, M, box_size] and scores [N, C, M]"
    else:
        pairs = ((box_dims[0], score_dims[0]), (box_dims[1], score_dims[1]))
        layout = "bboxes [M, C, box_size] and scores [M, C]"
    if not all(extents_match(a, b, config) for a, b in pairs):
        raise InvalidArgumentError(
            f"arguments 'bboxes' and 'scores' must be {layout}, got bboxes dims "
            f"{list(box_dims)} and scores dims {list(score_dims)}"
        )
    if rois_num is not None and rois_num.dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"argument 'rois_num' must be int32 or int64, got {rois_num.dtype.name.lower()}"
        )
    width = box_dims[2] + 2 if is_known(box_dims[2]) else -1
    out.set_dims((-1, width))
    out.set_dtype(scores.dtype)
    out.set_layout(scores.layout)
    index.set_dims((-1, 1))
    index.set_dtype(DataType.INT32)
    index.set_layout(scores.layout)
    if nms_rois_num is not None:
        if len(score_dims) == 3:
            images = score_dims[0]
        else:
            images = rois_num.dims[0] if rois_num is not None and len(rois_num.dims) == 1 else -1
        nms_rois_num.set_dims((images,))
        nms_rois_num.set_dtype(DataType.INT32)
        nms_rois_num.set_layout(scores.layout)


def yolo_box_infer_meta(
    x: MetaTensor,
    img_size: MetaTensor,
    anchors: tuple[int, ...],
    class_num: int,
    conf_thresh: float,
    downsample_ratio: int,
    clip_bbox: bool,
    scale_x_y: float,
    iou_aware: bool,
    iou_aware_factor: float,
    boxes: MetaTensor,
    scores: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """yolo_box: ``x`` [N, A * (5 + class_num), H, W] (A * (6 + class_num) with ``iou_aware``)
    and ``img_size`` [N, 2] int32 give boxes [N, A * H * W, 4] and scores
    [N, A * H * W, class_num] of x's dtype, A being len(anchors) / 2."""
    dims, size_dims = tuple(x.dims), tuple(img_size.dims)
    if len(anchors) == 0 or len(anchors) % 2:
        raise InvalidArgumentError(
            f"argument 'anchors' must hold a positive, even number of values (width, height "
            f"pairs), got {len(anchors)}"
        )
    if class_num <= 0:
        raise InvalidArgumentError(f"argument 'class_num' must be positive, got {class_num}")
    if len(dims) != 4:
        raise InvalidArgumentError(
            f"argument 'x' must be a 4-D tensor [N, C, H, W], got dims {list(dims)}"
        )
    anchor_num = len(anchors) // 2
    entries = 6 + class_num if iou_aware else 5 + class_num
    if not extents_match(dims[1], anchor_num * entries, config):
        raise InvalidArgumentError(
            f"argument 'x' must have len(anchors) / 2 * ({entries - class_num} + class_num) = "
            f"{anchor_num * entries} channels{' (iou_aware)' if iou_aware else ''}, "
            f"got dims {list(dims)}"
        )
    if iou_aware and not 0 <= iou_aware_factor <= 1:
        raise InvalidArgumentError(
            f"argument 'iou_aware_factor' must be in [0, 1], got {iou_aware_factor}"
        )
    if (
        len(size_dims) != 2
        or not extents_match(size_dims[1], 2, config)
        or not extents_match(size_dims[0], dims[0], config)
    ):
        raise InvalidArgumentError(
            f"argument 'img_size' must be a 2-D tensor [N, 2] of (height, width) with x's "
            f"batch {dims[0]}, got dims {list(size_dims)}"
        )
    if img_size.dtype is not DataType.INT32:
        raise InvalidArgumentError(
            f"argument 'img_size' must be int32, got {img_size.dtype.name.lower()}"
        )
    if is_known(dims[2]) and is_known(dims[3]):
        box_num = dims[2] * dims[3] * anchor_num
    else:
        box_num = -1
    boxes.set_dims((dims[0], box_num, 4))
    boxes.set_dtype(x.dtype)
    boxes.set_layout(x.layout)
    scores.set_dims((dims[0], box_num, class_num))
    scores.set_dtype(x.dtype)
    scores.set_layout(x.layout)


def expand_aspect_ratios(aspect_ratios: tuple[float, ...], flip: bool) -> list[float]:
    """PHI's ExpandAspectRatios: 1 first, then each ratio not already within 1e-6 of one taken
    (its reciprocal after it with ``flip``), in float32 as PHI keeps them."""
    expanded = [np.float32(1.0)]
    for ratio in (np.float32(value) for value in aspect_ratios):
        if any(abs(float(ratio) - float(item)) < 1e-6 for item in expanded):
            continue
        expanded.append(ratio)
        if flip:
            expanded.append(np.float32(1.0) / ratio)
    return expanded


def prior_box_infer_meta(
    input: MetaTensor,
    image: MetaTensor,
    min_sizes: tuple[float, ...],
    max_sizes: tuple[float, ...],
    aspect_ratios: tuple[float, ...],
    variances: tuple[float, ...],
    flip: bool,
    clip: bool,
    step_w: float,
    step_h: float,
    offset: float,
    min_max_aspect_ratios_order: bool,
    out: MetaTensor,
    var: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """prior_box: out and var [H, W, num_priors, 4] of input's dtype for the feature map
    ``input`` [N, C, H, W] of ``image`` [N, C, H_image, W_image]; num_priors is
    len(expanded aspect ratios) * len(min_sizes) + len(max_sizes)."""
    for name, tensor in (("input", input), ("image", image)):
        if len(tensor.dims) != 4:
            raise InvalidArgumentError(
                f"argument '{name}' must be a 4-D tensor [N, C, H, W], got dims "
                f"{list(tensor.dims)}"
            )
    if not min_sizes or any(not size > 0 for size in min_sizes):
        raise InvalidArgumentError(
            f"argument 'min_sizes' must hold one or more positive sizes, got {list(min_sizes)}"
        )
    if max_sizes:
        if len(max_sizes) != len(min_sizes):
            raise InvalidArgumentError(
                f"argument 'max_sizes' must have min_sizes' length {len(min_sizes)}, got "
                f"{len(max_sizes)}"
            )
        for index, (low, high) in enumerate(zip(min_sizes, max_sizes)):
            if not high > low:
                raise InvalidArgumentError(
                    f"argument 'max_sizes' must be greater than min_sizes item by item, got "
                    f"max_sizes[{index}] = {high} and min_sizes[{index}] = {low}"
                )
    if any(not ratio > 0 for ratio in aspect_ratios):
        raise InvalidArgumentError(
            f"argument 'aspect_ratios' must be positive, got {list(aspect_ratios)}"
        )
    if len(variances) != 4:
        raise InvalidArgumentError(
            f"argument 'variances' must hold 4 values (x, y, width, height), got "
            f"{list(variances)}"
        )
    priors = len(expand_aspect_ratios(aspect_ratios, flip)) * len(min_sizes) + len(max_sizes)
    dims = (input.dims[2], input.dims[3], priors, 4)
    for tensor in (out, var):
        tensor.set_dims(dims)
        tensor.set_dtype(input.dtype)
        tensor.set_layout(input.layout)


BOX_CODE_TYPES = ("encode_center_size", "decode_center_size")


def box_coder_infer_meta(
    prior_box: MetaTensor,
    prior_box_var: MetaTensor | None,
    target_box: MetaTensor,
    code_type: str,
    box_normalized: bool,
    axis: int,
    variance: tuple[float, ...],
    output_box: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """box_coder: encoding target_box [M, 4] against prior_box [P, 4] gives [M, P, 4];
    decoding target_box [M, P, 4] (axis 0) or [P, M, 4] (axis 1) keeps its dims."""
    prior_dims, target_dims = tuple(prior_box.dims), tuple(target_box.dims)
    if code_type not in BOX_CODE_TYPES:
        raise InvalidArgumentError(
            f"argument 'code_type' must be one of {list(BOX_CODE_TYPES)}, got {code_type!r}"
        )
    if len(prior_dims) != 2 or not extents_match(prior_dims[1], 4, config):
        raise InvalidArgumentError(
            f"argument 'prior_box' must be a 2-D tensor [num_priors, 4], got dims "
            f"{list(prior_dims)}"
        )
    if prior_box_var is not None:
        if variance:
            raise InvalidArgumentError(
                "arguments 'prior_box_var' and 'variance' cannot both be given, got variance "
                f"{list(variance)}"
            )
        var_dims = tuple(prior_box_var.dims)
        if len(var_dims) != 2 or not all(
            extents_match(a, b, config) for a, b in zip(var_dims, prior_dims)
        ):
            raise InvalidArgumentError(
                f"argument 'prior_box_var' must have prior_box's dims {list(prior_dims)}, got "
                f"{list(var_dims)}"
            )
        if prior_box_var.dtype != prior_box.dtype:
            raise InvalidArgumentError(
                f"argument 'prior_box_var' must have prior_box's dtype "
                f"{prior_box.dtype.name.lower()}, got {prior_box_var.dtype.name.lower()}"
            )
    if variance and len(variance) != 4:
        raise InvalidArgumentError(
            f"argument 'variance' must be empty or hold 4 values, got {list(variance)}"
        )
    if target_box.dtype != prior_box.dtype:
        raise InvalidArgumentError(
            f"argument 'target_box' must have prior_box's dtype "
            f"{prior_box.dtype.name.lower()}, got {target_box.dtype.name.lower()}"
        )
    if code_type == "encode_center_size":
        if len(target_dims) != 2 or not extents_match(target_dims[1], 4, config):
            raise InvalidArgumentError(
                f"argument 'target_box' must be a 2-D tensor [num_boxes, 4] to encode, got "
                f"dims {list(target_dims)}"
            )
        dims = (target_dims[0], prior_dims[0], 4)
    else:
        if axis not in (0, 1):
            raise InvalidArgumentError(f"argument 'axis' must be 0 or 1, got {axis}")
        if len(target_dims) != 3 or not (
            extents_match(target_dims[1 - axis], prior_dims[0], config)
            and extents_match(target_dims[2], prior_dims[1], config)
        ):
            expected = "[num_boxes, num_priors, 4]" if axis == 0 else "[num_priors, num_boxes, 4]"
            raise InvalidArgumentError(
                f"argument 'target_box' must be a 3-D tensor {expected} to decode along axis "
                f"{axis} with prior_box dims {list(prior_dims)}, got dims {list(target_dims)}"
            )
        dims = target_dims
    output_box.set_dims(dims)
    output_box.set_dtype(target_box.dtype)
    output_box.set_layout(target_box.layout)
