"""``accuracy(input, label, k)``: the fraction of samples whose label is among the ``k`` highest
scores, as PaddlePaddle's ``accuracy`` op computes it, built here from ops (``topk``, ``equal``,
``any``, ``sum``, ``divide``): phiops has no ``accuracy`` op."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["accuracy"]

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
        if not isinstance(value, Tensor):
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
    _, indices = op_api("topk")(input, k, -1, True, True)
    hits = op_api("any")(op_api("equal")(indices, label), [1], False)
    count = op_api("sum")(hits, [], DataType.INT32, False)
    samples = input.shape[0]
    rate = op_api("divide")(
        op_api("cast")(count, DataType.FLOAT32),
        op_api("full")([], float(samples), DataType.FLOAT32, input.place),
    )
    if correct is not None:
        correct.set_value(count.numpy().reshape(correct.shape))
    if total is not None:
        total.set_value(np.full(total.shape, samples))
    return rate
