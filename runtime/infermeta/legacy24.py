"""InferMeta functions of the legacy24 ops (issue 24): PaddlePaddle's legacy RNN, sequence and
detection-loss ops (gru_unit, ...), following PaddlePaddle 3.3.1's functions of the same names
in paddle/phi/infermeta/, checking ranks, extents and dtypes with errors that name the
argument."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "gru_unit_infer_meta",
    "gru_unit_grad_infer_meta",
    "im2sequence_infer_meta",
    "yolo_loss_infer_meta",
    "yolo_loss_grad_infer_meta",
]

_RUNTIME = MetaConfig()

GRU_ACTIVATIONS = {0: "identity", 1: "sigmoid", 2: "tanh", 3: "relu"}


def _set(out: MetaTensor | None, dims: tuple[int, ...], dtype: DataType, like: MetaTensor) -> None:
    if out is not None:  # an absent optional output
        set_output(out, dims, dtype, like)


def _rank(t: MetaTensor, name: str, rank: int) -> None:
    if len(t.dims) != rank:
        raise InvalidArgumentError(
            f"argument '{name}' must be a {rank}-D tensor, got shape {list(t.dims)}"
        )


def _same_dtype(t: MetaTensor, name: str, like: MetaTensor, like_name: str) -> None:
    if t.dtype is not like.dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must have the dtype of {like_name} ({like.dtype.name.lower()}), "
            f"got {t.dtype.name.lower()}"
        )


def _gru_activation(value: int, name: str) -> None:
    if value not in GRU_ACTIVATIONS:
        raise InvalidArgumentError(
            f"argument '{name}' must be 0 (identity), 1 (sigmoid), 2 (tanh) or 3 (relu), "
            f"got {value}"
        )


def gru_unit_infer_meta(
    input: MetaTensor,
    hidden_prev: MetaTensor,
    weight: MetaTensor,
    bias: MetaTensor | None,
    activation: int,
    gate_activation: int,
    origin_mode: bool,
    gate: MetaTensor,
    reset_hidden_prev: MetaTensor,
    hidden: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """gate [batch, 3 * D], reset_hidden_prev and hidden [batch, D] from input [batch, 3 * D],
    hidden_prev [batch, D], weight [D, 3 * D] and bias [1, 3 * D] (PHI's GruUnitInferMeta)."""
    _rank(input, "input", 2)
    _rank(hidden_prev, "hidden_prev", 2)
    _rank(weight, "weight", 2)
    batch, width = input.dims
    frame = hidden_prev.dims[1]
    if not extents_match(hidden_prev.dims[0], batch, config):
        raise InvalidArgumentError(
            f"argument 'hidden_prev' must have input's batch ({batch}) rows, got shape "
            f"{list(hidden_prev.dims)}"
        )
    if width >= 0 and frame >= 0 and not extents_match(width, 3 * frame, config):
        raise InvalidArgumentError(
            f"argument 'input' must have 3 * D = {3 * frame} columns (D = hidden_prev's "
            f"{frame} columns), got shape {list(input.dims)}"
        )
    triple = 3 * frame if frame >= 0 else -1
    if not extents_match(weight.dims[0], frame, config) or not extents_match(
        weight.dims[1], triple, config
    ):
        raise InvalidArgumentError(
            f"argument 'weight' must be [D, 3 * D] = [{frame}, {triple}] (D = hidden_prev's "
            f"columns), got shape {list(weight.dims)}"
        )
    _same_dtype(hidden_prev, "hidden_prev", input, "input")
    _same_dtype(weight, "weight", input, "input")
    if bias is not None:
        _rank(bias, "bias", 2)
        if not extents_match(bias.dims[0], 1, config) or not extents_match(
            bias.dims[1], triple, config
        ):
            raise InvalidArgumentError(
                f"argument 'bias' must be [1, 3 * D] = [1, {triple}], got shape {list(bias.dims)}"
            )
        _same_dtype(bias, "bias", input, "input")
    _gru_activation(activation, "activation")
    _gru_activation(gate_activation, "gate_activation")
    _set(gate, (batch, triple), input.dtype, input)
    _set(reset_hidden_prev, (batch, frame), input.dtype, input)
    _set(hidden, (batch, frame), input.dtype, input)


def gru_unit_grad_infer_meta(
    input: MetaTensor,
    hidden_prev: MetaTensor,
    weight: MetaTensor,
    bias: MetaTensor | None,
    input_grad: MetaTensor,
    hidden_prev_grad: MetaTensor,
    weight_grad: MetaTensor,
    bias_grad: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each gradient like its input; bias_grad only with a bias (PHI's GruUnitGradInferMeta)."""
    _set(input_grad, input.dims, input.dtype, input)
    _set(hidden_prev_grad, hidden_prev.dims, hidden_prev.dtype, hidden_prev)
    _set(weight_grad, weight.dims, weight.dtype, weight)
    if bias is not None:
        _set(bias_grad, bias.dims, bias.dtype, bias)


def _pair(values: tuple[int, ...], name: str, size: int, positive: bool = True) -> None:
    if len(values) != size or any(v <= 0 if positive else v < 0 for v in values):
        kind = "positive" if positive else "non-negative"
        raise InvalidArgumentError(
            f"argument '{name}' must hold {size} {kind} ints, got {list(values)}"
        )


def im2sequence_output_size(size: int, kernel: int, before: int, after: int, stride: int) -> int:
    """PHI's Im2SeqOutputSize: the positions of a kernel along one axis (C division)."""
    return int((size + before + after - kernel) / stride) + 1


def im2sequence_infer_meta(
    x: MetaTensor,
    y: MetaTensor | None,
    kernels: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    out_stride: tuple[int, ...],
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[N * out_h * out_w, C * kernels[0] * kernels[1]] for x [N, C, H, W]; with y and more
    than one image the row count comes from y's values (-1) (PHI's Im2sequenceInferMeta)."""
    _rank(x, "x", 4)
    _pair(kernels, "kernels", 2)
    _pair(strides, "strides", 2)
    _pair(paddings, "paddings", 4, positive=False)
    _pair(out_stride, "out_stride", 2)
    batch, channels, height, width = x.dims
    if y is not None:
        _rank(y, "y", 2)
        if not extents_match(y.dims[0], batch, config) or not extents_match(y.dims[1], 2, config):
            raise InvalidArgumentError(
                f"argument 'y' must be [{batch}, 2] (the real height and width of each image), "
                f"got shape {list(y.dims)}"
            )
        _same_dtype(y, "y", x, "x")
    rows = -1
    if (y is None or batch == 1) and min(batch, height, width) >= 0:
        out_h = im2sequence_output_size(height, kernels[0], paddings[0], paddings[2], strides[0])
        out_w = im2sequence_output_size(width, kernels[1], paddings[1], paddings[3], strides[1])
        if out_h <= 0 or out_w <= 0:
            raise InvalidArgumentError(
                f"argument 'kernels' {list(kernels)} must fit in x's padded {height} x {width} "
                f"images (paddings {list(paddings)}), got {out_h} x {out_w} positions"
            )
        rows = batch * out_h * out_w
    patch = channels * kernels[0] * kernels[1] if channels >= 0 else -1
    _set(out, (rows, patch), x.dtype, x)


def yolo_loss_infer_meta(
    x: MetaTensor,
    gt_box: MetaTensor,
    gt_label: MetaTensor,
    gt_score: MetaTensor | None,
    anchors: tuple[int, ...],
    anchor_mask: tuple[int, ...],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    use_label_smooth: bool,
    scale_x_y: float,
    loss: MetaTensor,
    objectness_mask: MetaTensor,
    gt_match_mask: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """loss [N], objectness_mask [N, len(anchor_mask), H, W] and the int32 gt_match_mask [N, B]
    for x [N, len(anchor_mask) * (5 + class_num), H, W] and gt_box [N, B, 4] (PHI's
    YoloLossInferMeta)."""
    _rank(x, "x", 4)
    _rank(gt_box, "gt_box", 3)
    _rank(gt_label, "gt_label", 2)
    if len(anchors) == 0 or len(anchors) % 2:
        raise InvalidArgumentError(
            f"argument 'anchors' must hold (width, height) pairs, got {len(anchors)} values"
        )
    pairs = len(anchors) // 2
    if not anchor_mask or any(not 0 <= m < pairs for m in anchor_mask):
        raise InvalidArgumentError(
            f"argument 'anchor_mask' must hold indices in [0, {pairs}) (the anchor pairs), "
            f"got {list(anchor_mask)}"
        )
    if class_num <= 0:
        raise InvalidArgumentError(f"argument 'class_num' must be positive, got {class_num}")
    if downsample_ratio <= 0:
        raise InvalidArgumentError(
            f"argument 'downsample_ratio' must be positive, got {downsample_ratio}"
        )
    n, channels, height, width = x.dims
    wanted = len(anchor_mask) * (5 + class_num)
    if not extents_match(channels, wanted, config):
        raise InvalidArgumentError(
            f"argument 'x' must have len(anchor_mask) * (5 + class_num) = {wanted} channels, "
            f"got shape {list(x.dims)}"
        )
    if not extents_match(height, width, config):
        raise InvalidArgumentError(
            f"argument 'x' must have square feature maps (H == W), got shape {list(x.dims)}"
        )
    boxes = gt_box.dims[1]
    if not extents_match(gt_box.dims[0], n, config) or not extents_match(gt_box.dims[2], 4, config):
        raise InvalidArgumentError(
            f"argument 'gt_box' must be [{n}, B, 4] (x's batch), got shape {list(gt_box.dims)}"
        )
    for name, t in (("gt_label", gt_label), ("gt_score", gt_score)):
        if t is not None and (
            not extents_match(t.dims[0], n, config) or not extents_match(t.dims[1], boxes, config)
        ):
            raise InvalidArgumentError(
                f"argument '{name}' must be [{n}, {boxes}] (gt_box's batch and boxes), got "
                f"shape {list(t.dims)}"
            )
    if gt_score is not None:
        _rank(gt_score, "gt_score", 2)
        _same_dtype(gt_score, "gt_score", x, "x")
    _same_dtype(gt_box, "gt_box", x, "x")
    if gt_label.dtype is not DataType.INT32:
        raise InvalidArgumentError(
            f"argument 'gt_label' must be int32, got {gt_label.dtype.name.lower()}"
        )
    _set(loss, (n,), x.dtype, x)
    _set(objectness_mask, (n, len(anchor_mask), height, width), x.dtype, x)
    _set(gt_match_mask, (n, boxes), DataType.INT32, x)


def yolo_loss_grad_infer_meta(
    x: MetaTensor,
    gt_box: MetaTensor,
    gt_label: MetaTensor,
    gt_score: MetaTensor | None,
    objectness_mask: MetaTensor,
    gt_match_mask: MetaTensor,
    loss_grad: MetaTensor,
    anchors: tuple[int, ...],
    anchor_mask: tuple[int, ...],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    use_label_smooth: bool,
    scale_x_y: float,
    x_grad: MetaTensor,
    gt_box_grad: MetaTensor,
    gt_label_grad: MetaTensor,
    gt_score_grad: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each gradient like its input; gt_score_grad only with a gt_score (PHI's
    YoloLossGradInferMeta)."""
    _set(x_grad, x.dims, x.dtype, x)
    _set(gt_box_grad, gt_box.dims, gt_box.dtype, gt_box)
    _set(gt_label_grad, gt_label.dims, gt_label.dtype, gt_label)
    if gt_score is not None:
        _set(gt_score_grad, gt_score.dims, gt_score.dtype, gt_score)
