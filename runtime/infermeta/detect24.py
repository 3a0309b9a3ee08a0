"""InferMeta functions of the detect24 ops (issue 24): detection and vision ops (box_clip,
bipartite_match, matrix_nms, ...), following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/. Where PaddlePaddle's function gives a shape its kernel then resizes
(bipartite_match's [1, cols], matrix_nms's data-dependent row count), the shape here is the
kernel's: the dispatcher allocates what InferMeta says."""

from __future__ import annotations

import math

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "box_clip_infer_meta",
    "bipartite_match_infer_meta",
    "matrix_nms_infer_meta",
    "generate_proposals_v2_infer_meta",
    "collect_fpn_proposals_infer_meta",
    "psroi_pool_infer_meta",
    "affine_channel_infer_meta",
]

_RUNTIME = MetaConfig()


def box_clip_infer_meta(
    input: MetaTensor, im_info: MetaTensor, output: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """box_clip: boxes [M, ..., 4] of the images im_info [N, 3] keep their shape; M must split
    evenly among the N images (phiops's stand-in for PaddlePaddle's LoD)."""
    box_dims, info_dims = tuple(input.dims), tuple(im_info.dims)
    if len(box_dims) < 2 or not extents_match(box_dims[-1], 4, config):
        raise InvalidArgumentError(
            f"argument 'input' must be boxes [M, ..., 4] of (x1, y1, x2, y2), "
            f"got dims {list(box_dims)}"
        )
    if len(info_dims) != 2 or not extents_match(info_dims[1], 3, config):
        raise InvalidArgumentError(
            f"argument 'im_info' must be [N, 3] rows of (height, width, scale), "
            f"got dims {list(info_dims)}"
        )
    if im_info.dtype != input.dtype:
        raise InvalidArgumentError(
            f"argument 'im_info' must have input's dtype {input.dtype.name.lower()}, "
            f"got {im_info.dtype.name.lower()}"
        )
    boxes, images = box_dims[0], info_dims[0]
    if is_known(boxes) and is_known(images):
        if images == 0 or boxes % images:
            raise InvalidArgumentError(
                f"argument 'input' ({boxes} rows) must split evenly among the {images} images "
                f"of im_info (phiops tensors carry no LoD: each image owns an equal run of rows)"
            )
    output.set_dims(box_dims)
    output.set_dtype(input.dtype)
    output.set_layout(input.layout)


def bipartite_match_infer_meta(
    dist_mat: MetaTensor,
    match_type: str,
    dist_threshold: float,
    col_to_row_match_indices: MetaTensor,
    col_to_row_match_dist: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """bipartite_match: dist_mat [rows, cols] (one instance) gives int32 indices and distances
    [1, cols]."""
    dims = tuple(dist_mat.dims)
    if len(dims) != 2:
        raise InvalidArgumentError(
            f"argument 'dist_mat' must be a 2-D [rows, cols] distance matrix, got dims {list(dims)}"
        )
    if match_type not in ("bipartite", "per_prediction"):
        raise InvalidArgumentError(
            f"argument 'match_type' must be 'bipartite' or 'per_prediction', got {match_type!r}"
        )
    col_to_row_match_indices.set_dims((1, dims[1]))
    col_to_row_match_indices.set_dtype(DataType.INT32)
    col_to_row_match_indices.set_layout(dist_mat.layout)
    col_to_row_match_dist.set_dims((1, dims[1]))
    col_to_row_match_dist.set_dtype(dist_mat.dtype)
    col_to_row_match_dist.set_layout(dist_mat.layout)


def matrix_nms_infer_meta(
    bboxes: MetaTensor,
    scores: MetaTensor,
    score_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    post_threshold: float,
    use_gaussian: bool,
    gaussian_sigma: float,
    background_label: int,
    normalized: bool,
    out: MetaTensor,
    index: MetaTensor,
    roisnum: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """matrix_nms: bboxes [N, M, 4] and scores [N, C, M] give out [kept, 6] of bboxes' dtype,
    index int32 [kept, 1] and roisnum int32 [N]; kept comes from the data (-1)."""
    box_dims, score_dims = tuple(bboxes.dims), tuple(scores.dims)
    if len(score_dims) != 3:
        raise InvalidArgumentError(
            f"argument 'scores' must be 3-D [N, C, M], got dims {list(score_dims)}"
        )
    if len(box_dims) != 3 or not extents_match(box_dims[2], 4, config):
        raise InvalidArgumentError(
            f"argument 'bboxes' must be 3-D [N, M, 4] of (x1, y1, x2, y2), "
            f"got dims {list(box_dims)}"
        )
    if not (
        extents_match(box_dims[0], score_dims[0], config)
        and extents_match(box_dims[1], score_dims[2], config)
    ):
        raise InvalidArgumentError(
            f"arguments 'bboxes' [N, M, 4] and 'scores' [N, C, M] must agree in N and M, got "
            f"bboxes dims {list(box_dims)} and scores dims {list(score_dims)}"
        )
    if nms_top_k == 0:
        raise InvalidArgumentError(
            "argument 'nms_top_k' must be positive, or negative for every candidate, got 0 "
            "(PaddlePaddle 3.3.1's kernel crashes on it)"
        )
    if scores.dtype != bboxes.dtype:
        raise InvalidArgumentError(
            f"argument 'scores' must have bboxes' dtype {bboxes.dtype.name.lower()}, "
            f"got {scores.dtype.name.lower()}"
        )
    out.set_dims((UNKNOWN, 6))
    out.set_dtype(bboxes.dtype)
    out.set_layout(bboxes.layout)
    index.set_dims((UNKNOWN, 1))
    index.set_dtype(DataType.INT32)
    index.set_layout(bboxes.layout)
    if roisnum is not None:
        roisnum.set_dims((score_dims[0],))
        roisnum.set_dtype(DataType.INT32)
        roisnum.set_layout(bboxes.layout)


def generate_proposals_v2_infer_meta(
    scores: MetaTensor,
    bbox_deltas: MetaTensor,
    im_shape: MetaTensor,
    anchors: MetaTensor,
    variances: MetaTensor,
    pre_nms_top_n: int,
    post_nms_top_n: int,
    nms_thresh: float,
    min_size: float,
    eta: float,
    pixel_offset: bool,
    rpn_rois: MetaTensor,
    rpn_roi_probs: MetaTensor,
    rpn_rois_num: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """generate_proposals: scores [N, A, H, W], bbox_deltas [N, 4A, H, W], im_shape [N, 2],
    anchors and variances [H, W, A, 4] give rpn_rois [P, 4], rpn_roi_probs [P, 1] and
    rpn_rois_num int32 [N]; P comes from the data (-1)."""
    score_dims, delta_dims = tuple(scores.dims), tuple(bbox_deltas.dims)
    shape_dims, anchor_dims = tuple(im_shape.dims), tuple(anchors.dims)
    if len(score_dims) != 4:
        raise InvalidArgumentError(
            f"argument 'scores' must be 4-D [N, A, H, W], got dims {list(score_dims)}"
        )
    images, count, height, width = score_dims
    expected = (images, 4 * count if is_known(count) else UNKNOWN, height, width)
    if len(delta_dims) != 4 or not all(
        extents_match(a, b, config) for a, b in zip(delta_dims, expected)
    ):
        raise InvalidArgumentError(
            f"argument 'bbox_deltas' must be [N, 4A, H, W] for scores [N, A, H, W] "
            f"{list(score_dims)}, got dims {list(delta_dims)}"
        )
    if len(shape_dims) != 2 or not (
        extents_match(shape_dims[0], images, config) and extents_match(shape_dims[1], 2, config)
    ):
        raise InvalidArgumentError(
            f"argument 'im_shape' must be [N, 2] rows of (height, width) with N = {images}, "
            f"got dims {list(shape_dims)}"
        )
    wanted = (height, width, count, 4)
    if len(anchor_dims) != 4 or not all(
        extents_match(a, b, config) for a, b in zip(anchor_dims, wanted)
    ):
        raise InvalidArgumentError(
            f"argument 'anchors' must be [H, W, A, 4] = {list(wanted)}, got dims {list(anchor_dims)}"
        )
    variance_dims = tuple(variances.dims)
    if len(variance_dims) != 4 or not all(
        extents_match(a, b, config) for a, b in zip(variance_dims, anchor_dims)
    ):
        raise InvalidArgumentError(
            f"argument 'variances' must have anchors' dims {list(anchor_dims)}, "
            f"got dims {list(variance_dims)}"
        )
    for name, tensor in (("bbox_deltas", bbox_deltas), ("im_shape", im_shape),
                         ("anchors", anchors), ("variances", variances)):  # fmt: skip
        if tensor.dtype != anchors.dtype or scores.dtype != anchors.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' and scores must have anchors' dtype "
                f"{anchors.dtype.name.lower()}, got {tensor.dtype.name.lower()} and "
                f"{scores.dtype.name.lower()}"
            )
    rpn_rois.set_dims((UNKNOWN, 4))
    rpn_rois.set_dtype(anchors.dtype)
    rpn_rois.set_layout(anchors.layout)
    rpn_roi_probs.set_dims((UNKNOWN, 1))
    rpn_roi_probs.set_dtype(anchors.dtype)
    rpn_roi_probs.set_layout(anchors.layout)
    if rpn_rois_num is not None:
        rpn_rois_num.set_dims((images,))
        rpn_rois_num.set_dtype(DataType.INT32)
        rpn_rois_num.set_layout(anchors.layout)


def collect_fpn_proposals_infer_meta(
    multi_level_rois: list[MetaTensor],
    multi_level_scores: list[MetaTensor],
    multi_level_rois_num: list[MetaTensor] | None,
    post_nms_topn: int,
    fpn_rois: MetaTensor,
    rois_num: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """collect_fpn_proposals: levels of rois [R_l, 4] and scores [R_l, 1] (and per-image counts
    [N]) give fpn_rois [K, 4] and rois_num int32 [N]; K comes from the data (-1)."""
    if not multi_level_rois or len(multi_level_rois) != len(multi_level_scores):
        raise InvalidArgumentError(
            f"arguments 'multi_level_rois' and 'multi_level_scores' must hold one tensor per "
            f"level, as many of each, got {len(multi_level_rois)} and {len(multi_level_scores)}"
        )
    if post_nms_topn < 0:
        raise InvalidArgumentError(f"argument 'post_nms_topn' must be >= 0, got {post_nms_topn}")
    dtype = multi_level_rois[0].dtype
    for level, (rois, scores) in enumerate(zip(multi_level_rois, multi_level_scores)):
        box_dims, score_dims = tuple(rois.dims), tuple(scores.dims)
        if len(box_dims) != 2 or not extents_match(box_dims[1], 4, config):
            raise InvalidArgumentError(
                f"argument 'multi_level_rois' must hold [R, 4] boxes, got dims {list(box_dims)} "
                f"at level {level}"
            )
        if len(score_dims) != 2 or not (
            extents_match(score_dims[0], box_dims[0], config)
            and extents_match(score_dims[1], 1, config)
        ):
            raise InvalidArgumentError(
                f"argument 'multi_level_scores' must hold [R, 1] scores of the level's R rois, "
                f"got dims {list(score_dims)} for rois {list(box_dims)} at level {level}"
            )
        if rois.dtype != dtype or scores.dtype != dtype:
            raise InvalidArgumentError(
                f"arguments 'multi_level_rois' and 'multi_level_scores' must share one dtype, "
                f"got {rois.dtype.name.lower()} and {scores.dtype.name.lower()} at level {level}"
            )
    images = 1
    if multi_level_rois_num is not None:
        if len(multi_level_rois_num) != len(multi_level_rois):
            raise InvalidArgumentError(
                f"argument 'multi_level_rois_num' must hold one tensor per level "
                f"({len(multi_level_rois)}), got {len(multi_level_rois_num)}"
            )
        for counts in multi_level_rois_num:
            if len(counts.dims) != 1 or counts.dtype != DataType.INT32:
                raise InvalidArgumentError(
                    f"argument 'multi_level_rois_num' must hold 1-D int32 per-image counts, got "
                    f"dims {list(counts.dims)} and dtype {counts.dtype.name.lower()}"
                )
        images = multi_level_rois_num[0].dims[0]
    fpn_rois.set_dims((UNKNOWN, 4))
    fpn_rois.set_dtype(dtype)
    fpn_rois.set_layout(multi_level_rois[0].layout)
    if rois_num is not None:
        rois_num.set_dims((images,))
        rois_num.set_dtype(DataType.INT32)
        rois_num.set_layout(multi_level_rois[0].layout)


def psroi_pool_infer_meta(
    x: MetaTensor,
    boxes: MetaTensor,
    boxes_num: MetaTensor | None,
    pooled_height: int,
    pooled_width: int,
    output_channels: int,
    spatial_scale: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """psroi_pool: x [N, C, H, W] with C = output_channels * pooled_height * pooled_width and
    boxes [R, 4] give [R, output_channels, pooled_height, pooled_width]."""
    x_dims, box_dims = tuple(x.dims), tuple(boxes.dims)
    if len(x_dims) != 4:
        raise InvalidArgumentError(f"argument 'x' must be 4-D [N, C, H, W], got dims {list(x_dims)}")
    if len(box_dims) != 2 or not extents_match(box_dims[1], 4, config):
        raise InvalidArgumentError(
            f"argument 'boxes' must be [R, 4] of (x1, y1, x2, y2), got dims {list(box_dims)}"
        )
    for value, name in ((pooled_height, "pooled_height"), (pooled_width, "pooled_width"),
                        (output_channels, "output_channels")):  # fmt: skip
        if value <= 0:
            raise InvalidArgumentError(f"argument '{name}' must be positive, got {value}")
    channels = output_channels * pooled_height * pooled_width
    if not extents_match(x_dims[1], channels, config):
        raise InvalidArgumentError(
            f"argument 'x' must have output_channels * pooled_height * pooled_width = "
            f"{channels} channels, got dims {list(x_dims)}"
        )
    if not 0 < spatial_scale < math.inf:
        raise InvalidArgumentError(
            f"argument 'spatial_scale' must be positive and finite, got {spatial_scale}"
        )
    if boxes_num is not None:
        if len(boxes_num.dims) != 1 or boxes_num.dtype not in (DataType.INT32, DataType.INT64):
            raise InvalidArgumentError(
                f"argument 'boxes_num' must be a 1-D int32 or int64 tensor, got dims "
                f"{list(boxes_num.dims)} and dtype {boxes_num.dtype.name.lower()}"
            )
        if not extents_match(boxes_num.dims[0], x_dims[0], config):
            raise InvalidArgumentError(
                f"argument 'boxes_num' must give one count per image of x ({x_dims[0]}), got "
                f"dims {list(boxes_num.dims)}"
            )
    if boxes.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'boxes' must have x's dtype {x.dtype.name.lower()}, "
            f"got {boxes.dtype.name.lower()}"
        )
    out.set_dims((box_dims[0], output_channels, pooled_height, pooled_width))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


AFFINE_CHANNEL_LAYOUTS = ("NCHW", "NHWC", "AnyLayout")


def affine_channel_infer_meta(
    x: MetaTensor,
    scale: MetaTensor,
    bias: MetaTensor,
    data_layout: str,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """affine_channel: x [N, C, ...] (NCHW) or [N, ..., C] with scale and bias [C] keeps x's
    dims."""
    dims = tuple(x.dims)
    if data_layout not in AFFINE_CHANNEL_LAYOUTS:
        raise InvalidArgumentError(
            f"argument 'data_layout' must be one of {list(AFFINE_CHANNEL_LAYOUTS)}, "
            f"got {data_layout!r}"
        )
    if len(dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must be at least 2-D [N, C, ...], got dims {list(dims)}"
        )
    channels = dims[1] if data_layout == "NCHW" else dims[-1]
    for name, tensor in (("scale", scale), ("bias", bias)):
        if len(tensor.dims) != 1 or not extents_match(tensor.dims[0], channels, config):
            raise InvalidArgumentError(
                f"argument '{name}' must be [C] with C = {channels} (x's channels in "
                f"{data_layout}), got dims {list(tensor.dims)}"
            )
        if tensor.dtype != x.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have x's dtype {x.dtype.name.lower()}, "
                f"got {tensor.dtype.name.lower()}"
            )
    out.set_dims(dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
