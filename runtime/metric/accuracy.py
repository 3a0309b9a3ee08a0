"""The metric functions on ops: ``accuracy(input, label, k)``, the fraction of samples whose label
is among the ``k`` highest scores, as ``paddle.metric.accuracy`` (and ``paddle.static.accuracy``)
computes it, ``topk`` then the ``accuracy`` op; and ``auc``, ``paddle.static.auc`` on the ``auc``
op. Both build the same ops in eager and static mode."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Value

__all__ = ["accuracy", "auc"]

_SCORES = (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)
_LABELS = (DataType.INT32, DataType.INT64)


def accuracy(
    input: Tensor,
    label: Tensor,
    k: int = 1,
    correct: Tensor | None = None,
    total: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Top-``k`` accuracy of ``input`` (scores, [N, D]) against ``label`` (class ids, int32 or
    int64, [N, 1]): a float32 0-d tensor. ``correct`` and ``total``, when given (int32 tensors
    of one element), receive the number of samples whose label is among their ``k`` best scores,
    and N."""
    for label_name, value in (("input", input), ("label", label)):
        if not isinstance(value, (Tensor, Value)):
            raise InvalidArgumentError(
                f"accuracy: {label_name} must be a Tensor, got {type(value).__name__}"
            )
    if input.dtype not in _SCORES:
        raise InvalidArgumentError(
            f"accuracy: input must be float16, bfloat16, float32 or float64, got {input.dtype}"
        )
    if label.dtype not in _LABELS:
        raise InvalidArgumentError(f"accuracy: label must be int32 or int64, got {label.dtype}")
    if input.ndim != 2:
        raise InvalidArgumentError(
            f"accuracy: input must have 2 dimensions [N, D], got shape {input.shape}"
        )
    if label.ndim != 2 or label.shape[1] != 1:
        raise InvalidArgumentError(
            f"accuracy: label must have shape [N, 1], got shape {label.shape}"
        )
    if label.shape[0] != input.shape[0]:
        raise InvalidArgumentError(
            f"accuracy: input has {input.shape[0]} samples, label {label.shape[0]}"
        )
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= input.shape[1]:
        raise InvalidArgumentError(
            f"accuracy: k must be an int in [1, {input.shape[1]}] (the number of classes), "
            f"got {k!r}"
        )
    for label_name, value in (("correct", correct), ("total", total)):
        if value is not None and (not isinstance(value, Tensor) or value.size != 1):
            raise InvalidArgumentError(
                f"accuracy: {label_name} must be a Tensor of one element, got "
                f"{value.shape if isinstance(value, Tensor) else type(value).__name__}"
            )
    if label.dtype == DataType.INT32:
        label = op_api("cast")(label, DataType.INT64)
    values, indices = op_api("topk")(input, k, -1, True, True)
    rate, count, samples = op_api("accuracy")(values, indices, label)
    # PaddlePaddle's dygraph path writes the counts into ``correct``/``total`` (its static one
    # ignores them); here they keep their own shape
    if correct is not None:
        correct.set_value(count.numpy().reshape(correct.shape))
    if total is not None:
        total.set_value(samples.numpy().reshape(total.shape))
    return rate


_PREDICTIONS = (DataType.FLOAT32, DataType.FLOAT64)


def auc(
    input: Tensor | Value,
    label: Tensor | Value,
    curve: str = "ROC",
    num_thresholds: int = 2**12 - 1,
    topk: int = 1,
    slide_steps: int = 1,
    ins_tag_weight: Tensor | Value | None = None,
) -> tuple[Tensor | Value, Tensor | Value, Tensor | Value]:
    """``paddle.static.auc``: the area under the ROC (or PR) curve of one batch, from the ``auc``
    op on statistics that start at zero, as PaddlePaddle 3.3.1 builds it in a PIR program.

    ``input`` holds [N, 2] probabilities (the second column is the positive class's), ``label``
    the [N, 1] 0/1 labels. Returns ``(auc, stat_pos, stat_neg)``: the AUC (float64, 0-D) and the
    batch's positive and negative counts per threshold bucket ([1, num_thresholds + 1], int64).
    ``topk`` and ``slide_steps`` are accepted and unused, as in PaddlePaddle's PIR path (its
    accumulation over batches is ``paddle.metric.Auc``). Works in eager mode too."""
    for name, value in (("input", input), ("label", label)):
        if not isinstance(value, (Tensor, Value)):
            raise InvalidArgumentError(f"auc: {name} must be a Tensor, got {type(value).__name__}")
    if input.dtype not in _PREDICTIONS:
        raise InvalidArgumentError(f"auc: input must be float32 or float64, got {input.dtype}")
    if label.dtype not in _LABELS:
        raise InvalidArgumentError(f"auc: label must be int32 or int64, got {label.dtype}")
    if curve not in ("ROC", "PR"):
        raise InvalidArgumentError(f"auc: curve must be 'ROC' or 'PR', got {curve!r}")
    if (
        isinstance(num_thresholds, bool)
        or not isinstance(num_thresholds, int)
        or num_thresholds < 1
    ):
        raise InvalidArgumentError(
            f"auc: num_thresholds must be a positive int, got {num_thresholds!r}"
        )
    place = (input.place,) if isinstance(input, Tensor) else ()  # a Value's comes at run time
    if ins_tag_weight is None:
        ins_tag_weight = op_api("full")([1, 1], 1.0, DataType.FLOAT32, *place)
    elif (
        not isinstance(ins_tag_weight, (Tensor, Value)) or ins_tag_weight.dtype not in _PREDICTIONS
    ):
        raise InvalidArgumentError(
            "auc: ins_tag_weight must be a float32 or float64 Tensor, got "
            f"{getattr(ins_tag_weight, 'dtype', type(ins_tag_weight).__name__)}"
        )
    zeros = [op_api("full")([1, num_thresholds + 1], 0, DataType.INT64, *place) for _ in range(2)]
    return op_api("auc")(input, label, *zeros, ins_tag_weight, curve, num_thresholds, 0)
