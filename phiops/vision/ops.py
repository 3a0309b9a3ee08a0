"""``phiops.vision.ops`` (``paddle.vision.ops``): nms, roi_align, roi_pool and the RoIAlign and
RoIPool layers, yolo_box, prior_box, box_coder, matrix_nms, generate_proposals, psroi_pool and
the PSRoIPool layer, with PaddlePaddle 3.3.1's signatures, over the ops of the same names
(phiops._C_ops). yolo_loss (issue 24, legacy24), distribute_fpn_proposals (issue 24, misc24),
read_file and decode_jpeg (issue 24, frame24; decode_jpeg raises UnimplementedError, as 3.3.1's
CPU kernel does), and deform_conv2d and the DeformConv2D layer over the op deformable_conv
(issue 24, deform24) are here too: the module has all of PaddlePaddle 3.3.1's names."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import phiops.generated as _phi
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.initializer import Normal
from phiops.runtime.nn.layer import Layer

__all__ = [
    "nms",
    "roi_align",
    "RoIAlign",
    "roi_pool",
    "RoIPool",
    "yolo_box",
    "prior_box",
    "box_coder",
    "matrix_nms",
    "generate_proposals",
    "psroi_pool",
    "PSRoIPool",
    "yolo_loss",
    "distribute_fpn_proposals",
    "read_file",
    "decode_jpeg",
    "deform_conv2d",
    "DeformConv2D",
]


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


def yolo_box(
    x: Tensor,
    img_size: Tensor,
    anchors: Sequence[int],
    class_num: int,
    conf_thresh: float,
    downsample_ratio: int,
    clip_bbox: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
    iou_aware: bool = False,
    iou_aware_factor: float = 0.5,
) -> tuple[Tensor, Tensor]:
    """YOLOv3 boxes [N, A * H * W, 4] and scores [N, A * H * W, class_num] decoded from the head
    ``x`` for images of ``img_size`` [N, 2] int32 (height, width) (op yolo_box)."""
    if not isinstance(anchors, (list, tuple)):
        raise InvalidArgumentError(
            f"yolo_box(): argument 'anchors' must be a list or tuple of ints, got "
            f"{type(anchors).__name__}"
        )
    return _phi.yolo_box(
        x,
        img_size,
        list(anchors),
        class_num,
        conf_thresh,
        downsample_ratio,
        clip_bbox,
        scale_x_y,
        iou_aware,
        iou_aware_factor,
    )


def _float_list(value: Any) -> list[float]:
    return [float(item) for item in (value if isinstance(value, (list, tuple)) else [value])]


def prior_box(
    input: Tensor,
    image: Tensor,
    min_sizes: Sequence[float] | float,
    max_sizes: Sequence[float] | float | None = None,
    aspect_ratios: Sequence[float] | float = [1.0],
    variance: Sequence[float] | float = [0.1, 0.1, 0.2, 0.2],
    flip: bool = False,
    clip: bool = False,
    steps: Sequence[float] | float = [0.0, 0.0],
    offset: float = 0.5,
    min_max_aspect_ratios_order: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """SSD prior boxes [H, W, num_priors, 4] of the feature map ``input`` over ``image`` and
    their variances (op prior_box); a single number stands for a one-item list, ``steps`` is
    (step_w, step_h)."""
    steps = _float_list(steps)
    if len(steps) != 2:
        raise InvalidArgumentError(
            f"prior_box(): argument 'steps' must be (step_w, step_h), got {steps}"
        )
    max_list = [] if max_sizes is None else _float_list(max_sizes)
    return _phi.prior_box(
        input,
        image,
        _float_list(min_sizes),
        max_list,
        _float_list(aspect_ratios),
        _float_list(variance),
        flip,
        clip,
        steps[0],
        steps[1],
        offset,
        min_max_aspect_ratios_order,
    )


def box_coder(
    prior_box: Tensor,
    prior_box_var: Any,
    target_box: Tensor,
    code_type: str = "encode_center_size",
    box_normalized: bool = True,
    axis: int = 0,
    name: str | None = None,
) -> Tensor:
    """Encodes ``target_box`` against ``prior_box`` or decodes it (op box_coder);
    ``prior_box_var`` is a [P, 4] tensor or a list of 4 variances for every prior."""
    if isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise InvalidArgumentError(
                f"box_coder(): argument 'prior_box_var' must be a tensor or a list of 4 "
                f"variances, got {list(prior_box_var)}"
            )
        return _phi.box_coder(
            prior_box,
            None,
            target_box,
            code_type,
            box_normalized,
            axis,
            [float(v) for v in prior_box_var],
        )
    if prior_box_var is None or isinstance(prior_box_var, (int, float, str, np.ndarray)):
        raise InvalidArgumentError(
            f"box_coder(): argument 'prior_box_var' must be a tensor or a list of 4 "
            f"variances, got {type(prior_box_var).__name__}"
        )
    return _phi.box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized, axis, [])


def matrix_nms(
    bboxes: Tensor,
    scores: Tensor,
    score_threshold: float,
    post_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    use_gaussian: bool = False,
    gaussian_sigma: float = 2.0,
    background_label: int = 0,
    normalized: bool = True,
    return_index: bool = False,
    return_rois_num: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Matrix NMS of ``bboxes`` [N, M, 4] scored by ``scores`` [N, C, M] (op matrix_nms):
    ``(out, rois_num, index)``, out [kept, 6] rows of (label, decayed score, box), rois_num
    int32 [N] (None unless return_rois_num), index int32 [kept, 1] (None unless return_index)."""
    out, index, rois_num = _phi.matrix_nms(
        bboxes,
        scores,
        score_threshold,
        nms_top_k,
        keep_top_k,
        post_threshold,
        use_gaussian,
        gaussian_sigma,
        background_label,
        normalized,
    )
    return out, rois_num if return_rois_num else None, index if return_index else None


def generate_proposals(
    scores: Tensor,
    bbox_deltas: Tensor,
    img_size: Tensor,
    anchors: Tensor,
    variances: Tensor,
    pre_nms_top_n: int = 6000,
    post_nms_top_n: int = 1000,
    nms_thresh: float = 0.5,
    min_size: float = 0.1,
    eta: float = 1.0,
    pixel_offset: bool = False,
    return_rois_num: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """RPN proposals (op generate_proposals): ``(rpn_rois [P, 4], rpn_roi_probs [P, 1],
    rpn_rois_num int32 [N])`` from ``scores`` [N, A, H, W], ``bbox_deltas`` [N, 4A, H, W],
    ``img_size`` [N, 2] and ``anchors``/``variances`` [H, W, A, 4]. As in PaddlePaddle's
    dynamic mode, ``return_rois_num`` must be True."""
    if not return_rois_num:
        raise InvalidArgumentError(
            "generate_proposals(): argument 'return_rois_num' must be True in dynamic mode, as "
            "PaddlePaddle 3.3.1 asserts: the rois carry no LoD to give each image's count"
        )
    return _phi.generate_proposals(
        scores,
        bbox_deltas,
        img_size,
        anchors,
        variances,
        pre_nms_top_n,
        post_nms_top_n,
        nms_thresh,
        min_size,
        eta,
        pixel_offset,
    )


def psroi_pool(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: Any,
    spatial_scale: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """Position-sensitive RoI average pooling (op psroi_pool): x [N, C, H, W] pooled over boxes
    [R, 4] into [R, C / (h * w), h, w], output_size an int or (h, w)."""
    height, width = _pair(output_size, "psroi_pool")
    if len(x.shape) != 4:
        raise InvalidArgumentError(
            f"psroi_pool(): argument 'x' must be 4-D [N, C, H, W], got shape {list(x.shape)}"
        )
    if height * width == 0:
        raise InvalidArgumentError("psroi_pool(): argument 'output_size' must not contain 0")
    output_channels = int(x.shape[1] / (height * width))
    return _phi.psroi_pool(x, boxes, boxes_num, height, width, output_channels, spatial_scale)


class PSRoIPool(Layer):
    """The layer of psroi_pool: ``PSRoIPool(output_size, spatial_scale)(x, boxes, boxes_num)``."""

    def __init__(self, output_size: Any, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor) -> Tensor:
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)


def yolo_loss(
    x: Tensor,
    gt_box: Tensor,
    gt_label: Tensor,
    anchors: Sequence[int],
    anchor_mask: Sequence[int],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    gt_score: Tensor | None = None,
    use_label_smooth: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
) -> Tensor:
    """The YOLOv3 loss [N] of each image of the detection head ``x`` [N, len(anchor_mask) *
    (5 + class_num), H, W] against the ground-truth boxes ``gt_box`` [N, B, 4] (center x, center
    y, width, height relative to the image), their int32 classes ``gt_label`` [N, B] and their
    scores ``gt_score`` [N, B] (1 when None) (op yolo_loss, whose docstring says how each term
    is computed); ``anchors`` are (width, height) pixel pairs, ``anchor_mask`` the indices of
    this head's anchors among them."""
    for label, value in (("anchors", anchors), ("anchor_mask", anchor_mask)):
        if not isinstance(value, (list, tuple)):
            raise InvalidArgumentError(
                f"yolo_loss(): argument '{label}' must be a list or tuple of ints, got "
                f"{type(value).__name__}"
            )
    return _phi.yolo_loss(
        x,
        gt_box,
        gt_label,
        gt_score,
        list(anchors),
        list(anchor_mask),
        class_num,
        ignore_thresh,
        downsample_ratio,
        use_label_smooth,
        scale_x_y,
    )


def distribute_fpn_proposals(
    fpn_rois: Tensor,
    min_level: int,
    max_level: int,
    refer_level: int,
    refer_scale: int,
    pixel_offset: bool = False,
    rois_num: Tensor | None = None,
    name: str | None = None,
) -> tuple[list[Tensor], Tensor, list[Tensor]]:
    """The rois ``fpn_rois`` [R, 4] of a feature pyramid network distributed among its levels
    ``min_level`` to ``max_level`` by their scale (op distribute_fpn_proposals): ``(multi_rois,
    restore_ind, rois_num_per_level)``, the rois of each level, the int32 [R, 1] index that
    puts the levels' rois concatenated back in fpn_rois's order, and each level's int32 [N]
    per-image counts. As in PaddlePaddle's dynamic mode, ``rois_num`` (int32 [N], the rois of
    each image) is required, both levels are positive, and there are 2 to 99 levels."""
    if min_level <= 0 or max_level <= 0:
        raise InvalidArgumentError(
            "distribute_fpn_proposals(): min_level and max_level must be positive, got "
            f"{min_level} and {max_level}"
        )
    if not 1 < max_level - min_level + 1 < 100:
        raise InvalidArgumentError(
            "distribute_fpn_proposals(): there must be 2 to 99 levels (max_level - min_level + "
            f"1), got {max_level - min_level + 1}"
        )
    if rois_num is None:
        raise InvalidArgumentError(
            "distribute_fpn_proposals(): argument 'rois_num' is required, as PaddlePaddle 3.3.1 "
            "asserts in dynamic mode: the rois carry no LoD to give each image's count"
        )
    multi_rois, rois_num_per_level, restore_ind = _phi.distribute_fpn_proposals(
        fpn_rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset
    )
    return multi_rois, restore_ind, rois_num_per_level


def read_file(filename: str, name: str | None = None) -> Tensor:
    """The bytes of the file ``filename``, as a 1-D uint8 tensor on the CPU (op read_file). A
    missing file is a NotFoundError; a directory, FIFO or device an InvalidArgumentError."""
    if not isinstance(filename, str):
        raise InvalidArgumentError(
            f"read_file(): argument 'filename' must be a str, got {type(filename).__name__}"
        )
    return _phi.read_file(filename, _phi.DataType.UINT8, _phi.CPUPlace())


def decode_jpeg(x: Tensor, mode: str = "unchanged", name: str | None = None) -> Tensor:
    """The [channels, height, width] uint8 image the JPEG bytes ``x`` (1-D uint8, as read_file
    gives them) hold, with the channels ``mode`` asks for: 'unchanged', 'gray' or 'rgb'.
    PaddlePaddle 3.3.1 decodes on a GPU only ("DecodeJpeg op only supports GPU now" on the
    CPU); phiops has no decoder: every call is an UnimplementedError (the op decode_jpeg is not
    in phiops's specs)."""
    raise UnimplementedError(
        "decode_jpeg(): decoding JPEG is not implemented: PaddlePaddle 3.3.1 decodes on a GPU "
        'only (its CPU kernel raises "DecodeJpeg op only supports GPU now"), and phiops has '
        "no decoder on any device"
    )


def _deform_pair(value: Any, name: str) -> list[int]:
    """PaddlePaddle's convert_to_list(value, 2, name) for deform_conv2d's stride, padding and
    dilation: an int or two ints."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value), int(value)]
    if isinstance(value, (list, tuple)) and len(value) == 2:
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            return [int(v) for v in value]
    raise InvalidArgumentError(
        f"deform_conv2d(): argument '{name}' must be an int or a list/tuple of 2 ints, "
        f"got {value!r}"
    )


def deform_conv2d(
    x: Tensor,
    offset: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    deformable_groups: int = 1,
    groups: int = 1,
    mask: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Deformable 2-D convolution (op deformable_conv): v2 with ``mask``, v1 without.

    x [N, C, H, W] is sampled bilinearly at each kernel tap's regular position moved by
    ``offset`` [N, 2 * deformable_groups * kh * kw, Ho, Wo] (and multiplied by ``mask``
    [N, deformable_groups * kh * kw, Ho, Wo]), then convolved with ``weight``
    [M, C / groups, kh, kw]; ``bias`` [M] is added per output channel. stride, padding and
    dilation are an int or (height, width). Returns [N, M, Ho, Wo]."""
    strides = _deform_pair(stride, "stride")
    paddings = _deform_pair(padding, "padding")
    dilations = _deform_pair(dilation, "dilation")
    out = _phi.deformable_conv(
        x, offset, weight, mask, strides, paddings, dilations, deformable_groups, groups, 1
    )
    if bias is not None:
        if len(bias.shape) != 1:
            raise InvalidArgumentError(
                f"deform_conv2d(): argument 'bias' must be 1-D [out_channels], "
                f"got shape {list(bias.shape)}"
            )
        out = _phi.add(out, _phi.reshape(bias, [1, -1, 1, 1]))
    return out


class DeformConv2D(Layer):
    """The layer of deform_conv2d: weight [out_channels, in_channels // groups, kh, kw] drawn
    from Normal(0, sqrt(2 / (kh * kw * in_channels))), bias [out_channels] zeros (none for
    ``bias_attr=False``); ``forward(x, offset, mask=None)``."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        deformable_groups: int = 1,
        groups: int = 1,
        weight_attr: Any = None,
        bias_attr: Any = None,
    ) -> None:
        super().__init__()
        if weight_attr is False:
            raise InvalidArgumentError("DeformConv2D: weight_attr must not be False")
        if in_channels % groups:
            raise InvalidArgumentError(
                f"DeformConv2D: in_channels ({in_channels}) must be divisible by groups ({groups})"
            )
        kernel = _deform_pair(kernel_size, "kernel_size")
        self._stride = _deform_pair(stride, "stride")
        self._padding = _deform_pair(padding, "padding")
        self._dilation = _deform_pair(dilation, "dilation")
        self._deformable_groups = deformable_groups
        self._groups = groups
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._kernel_size = kernel
        std = (2.0 / (kernel[0] * kernel[1] * in_channels)) ** 0.5
        self.weight = self.create_parameter(
            [out_channels, in_channels // groups, *kernel],
            weight_attr,
            default_initializer=Normal(0.0, std),
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter([out_channels], bias_attr, is_bias=True)
        )

    def forward(self, x: Tensor, offset: Tensor, mask: Tensor | None = None) -> Tensor:
        return deform_conv2d(
            x,
            offset,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self._dilation,
            self._deformable_groups,
            self._groups,
            mask,
        )
