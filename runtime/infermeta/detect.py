"""InferMeta functions of the detection ops (grid_sample, roi_align, roi_pool, nms, ...) and of
their grads.

Each follows PHI's function of the same CamelCase name (paddle/phi/infermeta/binary.cc,
ternary.cc, unary.cc). Extents that are unknown (-1, while a static program is built) stay
unknown, and checks that compare extents run only where both are known.
"""

from __future__ import annotations

import math

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
