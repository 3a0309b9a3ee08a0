"""``phiops.vision.ops`` (``paddle.vision.ops``): nms, roi_align, roi_pool and the RoIAlign and
RoIPool layers, with PaddlePaddle 3.3.1's signatures, over the ops of the same names
(phiops._C_ops). The rest of PaddlePaddle's module (yolo_box, prior_box, box_coder,
matrix_nms, psroi_pool, deform_conv2d, distribute_fpn_proposals, generate_proposals, yolo_loss,
read_file, decode_jpeg) is not here yet: their ops are not implemented."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import phiops.generated as _phi
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer

__all__ = ["nms", "roi_align", "RoIAlign", "roi_pool", "RoIPool"]


def _pair(output_size: Any, function: str) -> tuple[int, int]:
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        return output_size, output_size
    if isinstance(output_size, (list, tuple)) and len(output_size) == 2:
        return int(output_size[0]), int(output_size[1])
    raise InvalidArgumentError(
        f"{function}(): argument 'output_size' must be an int or a pair of ints, "
        f"got {output_size!r}"
    )


def _by_score(indices: Tensor, scores: Tensor) -> Tensor:
    """``indices`` ordered by descending ``scores[indices]``."""
    _, order = _phi.argsort(_phi.gather(scores, indices), -1, True)
    return _phi.gather(indices, order)


def nms(
    boxes: Tensor,
    iou_threshold: float = 0.3,
    scores: Tensor | None = None,
    category_idxs: Tensor | None = None,
    categories: Sequence[int] | None = None,
    top_k: int | None = None,
) -> Tensor:
    """Non-maximum suppression: the int64 indices of the boxes [N, 4] kept. Without scores the
    boxes are taken in their order; with scores by descending score, the result in that order;
    with category_idxs (and the list of categories) each category separately, the kept boxes
    of all categories then ordered by score and cut to top_k."""
    if scores is None:
        return _phi.nms(boxes, iou_threshold)
    if category_idxs is None:
        _, order = _phi.argsort(scores, -1, True)
        kept = _phi.nms(_phi.gather(boxes, order), iou_threshold)
        return _phi.gather(order, kept)
    if categories is None:
        raise InvalidArgumentError(
            "nms(): argument 'categories' is required with category_idxs: the list of the "
            "category ids to suppress within"
        )
    if top_k is not None and top_k > scores.shape[0]:
        raise InvalidArgumentError(
            f"nms(): argument 'top_k' ({top_k}) must not exceed the number of boxes "
            f"({scores.shape[0]})"
        )
    labels = category_idxs.numpy().reshape(-1)
    kept_all: list[np.ndarray] = []
    for category in categories:
        members = np.flatnonzero(labels == category)
        if members.size <= 1:
            kept_all.append(members)
            continue
        member_tensor = _phi.to_tensor(members.astype(np.int64))
        ordered = _by_score(member_tensor, scores)
        kept = _phi.gather(ordered, _phi.nms(_phi.gather(boxes, ordered), iou_threshold))
        kept_all.append(kept.numpy())
    chosen = np.unique(np.concatenate(kept_all)).astype(np.int64) if kept_all else np.zeros(0)
    result = _by_score(_phi.to_tensor(chosen.astype(np.int64)), scores)
    return result if top_k is None else result[:top_k]


def roi_align(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: Any,
    spatial_scale: float = 1.0,
    sampling_ratio: int = -1,
    aligned: bool = True,
    name: str | None = None,
) -> Tensor:
    """RoIAlign: each box pooled into an output_size map of averaged bilinear samples
    (op roi_align; output_size an int or (height, width))."""
    height, width = _pair(output_size, "roi_align")
    return _phi.roi_align(
        x, boxes, boxes_num, height, width, spatial_scale, sampling_ratio, aligned
    )


def roi_pool(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: Any,
    spatial_scale: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """RoIPool: each box max-pooled into an output_size map (op roi_pool; output_size an int or
    (height, width))."""
    height, width = _pair(output_size, "roi_pool")
    return _phi.roi_pool(x, boxes, boxes_num, height, width, spatial_scale)


class RoIAlign(Layer):
    """The layer of roi_align: ``RoIAlign(output_size)(x, boxes, boxes_num, aligned=True)``."""

    def __init__(self, output_size: Any, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor, aligned: bool = True) -> Tensor:
        return roi_align(
            x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned
        )


class RoIPool(Layer):
    """The layer of roi_pool: ``RoIPool(output_size)(x, boxes, boxes_num)``."""

    def __init__(self, output_size: Any, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor) -> Tensor:
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)
