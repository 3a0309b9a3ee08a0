"""The remaining losses of ``paddle.nn.functional`` and ``paddle.nn``: l1_loss, square_error_cost,
margin_ranking_loss, soft_margin_loss, multi_label_soft_margin_loss, cosine_embedding_loss,
triplet_margin_loss, triplet_margin_with_distance_loss, multi_margin_loss, poisson_nll_loss,
gaussian_nll_loss, sigmoid_focal_loss, dice_loss and npair_loss, and their layers.

PaddlePaddle 3.3.1 writes each of these as a Python composite of ops in
python/paddle/nn/functional/loss.py; each function here calls the same ops in the same order (so
results, gradients and the ops a static program records agree). Where PaddlePaddle calls an op
phiops lacks, the composite uses an equivalent op and says which (multi_margin_loss gathers the
target scores with take_along_axis where PaddlePaddle calls index_sample). ctc_loss runs the op
warpctc, as PaddlePaddle's.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from phiops.runtime.autograd import no_grad
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.build_mode import in_static_mode
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer

__all__ = [
    "l1_loss",
    "square_error_cost",
    "margin_ranking_loss",
    "soft_margin_loss",
    "multi_label_soft_margin_loss",
    "cosine_embedding_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "multi_margin_loss",
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "sigmoid_focal_loss",
    "dice_loss",
    "npair_loss",
    "ctc_loss",
    "L1Loss",
    "MarginRankingLoss",
    "SoftMarginLoss",
    "MultiLabelSoftMarginLoss",
    "CosineEmbeddingLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "MultiMarginLoss",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "CTCLoss",
]

FUNCTIONAL_NAMES = __all__[:15]
LAYER_NAMES = __all__[15:]

_REDUCTIONS = ("sum", "mean", "none")
_FLOATS = (DataType.FLOAT32, DataType.FLOAT64)


def _check_reduction(reduction: str, where: str) -> None:
    if reduction not in _REDUCTIONS:
        raise InvalidArgumentError(
            f"{where}: argument 'reduction' must be one of 'sum', 'mean', 'none', got "
            f"{reduction!r}"
        )


def _check_float(tensor: Any, where: str, argument: str) -> None:
    if tensor.dtype not in _FLOATS:
        raise InvalidArgumentError(
            f"{where}: argument '{argument}' must be float32 or float64, got "
            f"{tensor.dtype.name.lower()}"
        )


def _check_same_shape(a: Any, b: Any, where: str, first: str, second: str) -> None:
    if list(a.shape) != list(b.shape):
        raise InvalidArgumentError(
            f"{where}: arguments '{first}' and '{second}' must have the same shape, got "
            f"{list(a.shape)} and {list(b.shape)}"
        )


def _reduce_all(out: Tensor, reduction: str) -> Tensor:
    """PaddlePaddle's dynamic-mode reductions: sum over everything or mean_all."""
    if reduction == "sum":
        return op_api("sum")(out, [], DataType.UNDEFINED, False)
    if reduction == "mean":
        return op_api("mean_all")(out)
    return out


def _reduce_mean(out: Tensor, reduction: str) -> Tensor:
    """``paddle.mean``/``paddle.sum`` as the composites call them (op mean over all axes)."""
    if reduction == "sum":
        return op_api("sum")(out, [], DataType.UNDEFINED, False)
    if reduction == "mean":
        return op_api("mean")(out, [], False)
    return out


def _full_like_scalar(value: float, like: Tensor) -> Tensor:
    return op_api("full")([1], float(value), like.dtype)


def l1_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``|input - label|`` (ops subtract, abs), reduced by 'mean', 'sum' or 'none'."""
    _check_reduction(reduction, "l1_loss")
    return _reduce_all(op_api("abs")(op_api("subtract")(input, label)), reduction)


def square_error_cost(input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
    """``(input - label) ** 2`` element by element (ops subtract, square), not reduced."""
    return op_api("square")(op_api("subtract")(input, label))


def margin_ranking_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    other: Tensor,
    label: Tensor,
    margin: float = 0.0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``relu(label * (other - input) + margin)``, reduced by ``reduction``."""
    _check_reduction(reduction, "margin_ranking_loss")
    out = op_api("multiply")(op_api("subtract")(other, input), label)
    if margin != 0.0:
        out = op_api("add")(out, _full_like_scalar(margin, out))
    return _reduce_all(op_api("relu")(out), reduction)


def soft_margin_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``log(1 + exp(-label * input))`` (label cast to input's dtype), reduced by ``reduction``."""
    _check_reduction(reduction, "soft_margin_loss")
    _check_same_shape(input, label, "soft_margin_loss", "input", "label")
    label = op_api("cast")(label, input.dtype)
    product = op_api("multiply")(op_api("scale")(label, -1.0, 0.0, True), input)
    out = op_api("log")(op_api("scale")(op_api("exp")(product), 1.0, 1.0, True))
    return _reduce_mean(out, reduction)


def multi_label_soft_margin_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``-(label * log_sigmoid(input) + (1 - label) * log_sigmoid(-input))`` times ``weight``,
    averaged over the last axis, then reduced by ``reduction``."""
    _check_reduction(reduction, "multi_label_soft_margin_loss")
    _check_same_shape(input, label, "multi_label_soft_margin_loss", "input", "label")
    logsig = op_api("logsigmoid")
    positive = op_api("multiply")(label, logsig(input))
    negative = op_api("multiply")(
        op_api("scale")(label, -1.0, 1.0, True), logsig(op_api("scale")(input, -1.0, 0.0, True))
    )
    loss = op_api("scale")(op_api("add")(positive, negative), -1.0, 0.0, True)
    if weight is not None:
        loss = op_api("multiply")(loss, weight)
    loss = op_api("mean")(loss, [-1], False)
    return _reduce_mean(loss, reduction)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    label: Tensor,
    margin: float = 0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``1 - cos(input1, input2)`` where ``label`` is 1, ``max(0, cos - margin)`` where it is -1,
    0 elsewhere; inputs of rank 1 or 2, ``label`` of rank 1."""
    _check_reduction(reduction, "cosine_embedding_loss")
    where = "cosine_embedding_loss"
    if len(label.shape) != 1:
        raise InvalidArgumentError(
            f"{where}: argument 'label' must be 1-D, got shape {label.shape}"
        )
    _check_same_shape(input1, input2, where, "input1", "input2")
    if len(input1.shape) > 2:
        raise InvalidArgumentError(
            f"{where}: arguments 'input1' and 'input2' must be 1-D or 2-D, got shape {input1.shape}"
        )
    _check_float(input1, where, "input1")
    sum_last = lambda t: op_api("sum")(t, [-1], DataType.UNDEFINED, False)  # noqa: E731
    prod_sum = sum_last(op_api("multiply")(input1, input2))
    mag1 = op_api("scale")(sum_last(op_api("square")(input1)), 1.0, 1e-11, True)
    mag2 = op_api("scale")(sum_last(op_api("square")(input2)), 1.0, 1e-11, True)
    cos = op_api("divide")(prod_sum, op_api("sqrt")(op_api("multiply")(mag1, mag2)))
    zeros = op_api("zeros_like")(cos)
    pos = op_api("scale")(cos, -1.0, 1.0, True)
    neg = op_api("clip")(op_api("scale")(cos, 1.0, -float(margin), True), 0.0, float("inf"))
    out_pos = op_api("where")(op_api("equal")(label, op_api("full_like")(label, 1)), pos, zeros)
    out_neg = op_api("where")(op_api("equal")(label, op_api("full_like")(label, -1)), neg, zeros)
    return _reduce_mean(op_api("add")(out_pos, out_neg), reduction)


def _pairwise_distance(x: Tensor, y: Tensor, p: float, epsilon: float) -> Tensor:
    """``paddle.nn.functional.pairwise_distance``: p_norm(x - y + epsilon) over the last axis."""
    sub = op_api("subtract")(x, y)
    if epsilon != 0.0:
        sub = op_api("add")(sub, _full_like_scalar(epsilon, sub))
    return op_api("p_norm")(sub, float(p), -1, 0.0, False, False)


def _triplet(
    where: str,
    input: Tensor,  # noqa: A002
    positive: Tensor,
    negative: Tensor,
    distance: Callable[[Tensor, Tensor], Tensor],
    margin: float,
    swap: bool,
    reduction: str,
    check_distances: bool,
) -> Tensor:
    _check_reduction(reduction, where)
    if margin < 0:
        raise InvalidArgumentError(f"{where}: argument 'margin' must be >= 0, got {margin}")
    if not list(input.shape) == list(positive.shape) == list(negative.shape):
        raise InvalidArgumentError(
            f"{where}: arguments 'input', 'positive' and 'negative' must have the same shape, got "
            f"{list(input.shape)}, {list(positive.shape)} and {list(negative.shape)}"
        )
    positive_dist = distance(input, positive)
    negative_dist = distance(input, negative)
    if swap:
        negative_dist = op_api("minimum")(negative_dist, distance(positive, negative))
    if check_distances and not in_static_mode():
        for dist in (positive_dist, negative_dist):
            if bool((dist.numpy() < 0).any()):
                raise InvalidArgumentError(
                    f"{where}: the distance function gave a negative distance; distances must "
                    "be >= 0"
                )
    loss = op_api("clip")(
        op_api("scale")(op_api("subtract")(positive_dist, negative_dist), 1.0, float(margin), True),
        0.0,
        float("inf"),
    )
    return _reduce_mean(loss, reduction)


def triplet_margin_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    epsilon: float = 1e-06,
    swap: bool = False,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``max(d(input, positive) - d(input, negative) + margin, 0)`` with ``d`` the p-norm
    pairwise distance (``epsilon`` added to the difference); ``swap`` takes the smaller of
    d(input, negative) and d(positive, negative)."""
    return _triplet(
        "triplet_margin_loss",
        input,
        positive,
        negative,
        lambda a, b: _pairwise_distance(a, b, p, epsilon),
        margin,
        swap,
        reduction,
        check_distances=False,
    )


def triplet_margin_with_distance_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    positive: Tensor,
    negative: Tensor,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``triplet_margin_loss`` with any ``distance_function`` (default: the 2-norm pairwise
    distance with epsilon 1e-6); a negative distance is an error in dynamic mode."""
    distance = distance_function or (lambda a, b: _pairwise_distance(a, b, 2.0, 1e-6))
    return _triplet(
        "triplet_margin_with_distance_loss",
        input,
        positive,
        negative,
        distance,
        margin,
        swap,
        reduction,
        check_distances=True,
    )


def multi_margin_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Multi-class hinge loss of the scores ``input`` ([N, C]) for the classes ``label`` ([N]):
    ``mean_j(w[y] * max(0, margin - x[y] + x[j]) ** p) - w[y] * margin ** p / C`` (the second
    term removes j = y, as PaddlePaddle does)."""
    where = "multi_margin_loss"
    _check_reduction(reduction, where)
    if len(input.shape) != 2:
        raise InvalidArgumentError(
            f"{where}: argument 'input' must be 2-D, got shape {input.shape}"
        )
    if input.shape[0] != label.shape[0]:
        raise InvalidArgumentError(
            f"{where}: label's shape[0] must equal input's shape[0], got {label.shape[0]} and "
            f"{input.shape[0]}"
        )
    classes = input.shape[1]
    label = op_api("reshape")(label, [-1, 1])
    target = op_api("take_along_axis")(input, label, 1)
    hinge = op_api("clip")(
        op_api("scale")(op_api("subtract")(input, target), 1.0, float(margin), True),
        0.0,
        float("inf"),
    )
    powered = op_api("pow")(hinge, float(p))
    offset = float(margin) ** p / classes
    if weight is None:
        loss = op_api("scale")(op_api("mean")(powered, [1], False), 1.0, -offset, True)
    else:
        if weight.shape[0] != classes:
            raise InvalidArgumentError(
                f"{where}: weight's shape[0] must equal input's shape[1], got {weight.shape[0]} "
                f"and {classes}"
            )
        w = op_api("reshape")(op_api("gather")(weight, label, 0), [-1, 1])
        loss = op_api("subtract")(
            op_api("mean")(op_api("multiply")(w, powered), [1], False),
            op_api("squeeze")(op_api("scale")(w, offset, 0.0, True), []),
        )
    return _reduce_mean(loss, reduction)


def poisson_nll_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    log_input: bool = True,
    full: bool = False,
    epsilon: float = 1e-08,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Poisson negative log-likelihood: ``exp(input) - label * input`` when ``log_input``, else
    ``input - label * log(input + epsilon)``; ``full`` adds Stirling's term where label > 1."""
    where = "poisson_nll_loss"
    if epsilon <= 0:
        raise InvalidArgumentError(f"{where}: argument 'epsilon' must be > 0, got {epsilon}")
    _check_reduction(reduction, where)
    _check_same_shape(input, label, where, "input", "label")
    if log_input:
        loss = op_api("subtract")(op_api("exp")(input), op_api("multiply")(label, input))
    else:
        shifted = op_api("scale")(input, 1.0, float(epsilon), True)
        loss = op_api("subtract")(input, op_api("multiply")(label, op_api("log")(shifted)))
    if full:
        stirling = op_api("add")(
            op_api("subtract")(op_api("multiply")(label, op_api("log")(label)), label),
            op_api("scale")(
                op_api("log")(op_api("scale")(label, 2 * math.pi, 0.0, True)), 0.5, 0.0, True
            ),
        )
        mask = op_api("greater_than")(label, op_api("full_like")(label, 1))
        loss = op_api("add")(loss, op_api("where")(mask, stirling, op_api("zeros_like")(stirling)))
    return _reduce_mean(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    variance: Tensor,
    full: bool = False,
    epsilon: float = 1e-06,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Gaussian negative log-likelihood ``0.5 * (log(var) + (input - label) ** 2 / var)`` (plus
    ``0.5 * log(2 pi)`` when ``full``), ``var`` the variance clipped to ``epsilon``. As in
    PaddlePaddle, the clipping runs without gradient, so no gradient reaches ``variance``."""
    where = "gaussian_nll_loss"
    if list(variance.shape) != list(input.shape):
        if list(input.shape[:-1]) == list(variance.shape):
            variance = op_api("unsqueeze")(variance, [-1])
        elif not (list(input.shape[:-1]) == list(variance.shape[:-1]) and variance.shape[-1] == 1):
            raise InvalidArgumentError(
                f"{where}: argument 'variance' has shape {list(variance.shape)}, which matches "
                f"neither input's {list(input.shape)} nor it without its last axis"
            )
    _check_reduction(reduction, where)
    for tensor, argument in ((input, "input"), (label, "label"), (variance, "variance")):
        _check_float(tensor, where, argument)
    if not in_static_mode() and bool((variance.numpy() < 0).any()):
        raise InvalidArgumentError(f"{where}: argument 'variance' has negative entries")
    with no_grad():
        variance = op_api("clip")(variance, float(epsilon), float("inf"))
    loss = op_api("scale")(
        op_api("add")(
            op_api("log")(variance),
            op_api("divide")(op_api("square")(op_api("subtract")(input, label)), variance),
        ),
        0.5,
        0.0,
        True,
    )
    if full:
        loss = op_api("scale")(loss, 1.0, 0.5 * math.log(2 * math.pi), True)
    return _reduce_mean(loss, reduction)


def sigmoid_focal_loss(
    logit: Tensor,
    label: Tensor,
    normalizer: Tensor | None = None,
    alpha: float = 0.25,
    gamma: float = 2.0,
    reduction: str = "sum",
    name: str | None = None,
) -> Tensor:
    """Focal loss ``alpha_t * (1 - p_t) ** gamma * bce_with_logits(logit, label)`` (divided by
    ``normalizer`` when given), reduced by ``reduction`` (default 'sum')."""
    where = "sigmoid_focal_loss"
    _check_reduction(reduction, where)
    if normalizer is not None:
        _check_float(normalizer, where, "normalizer")
        if len(normalizer.shape) > 1:
            raise InvalidArgumentError(
                f"{where}: argument 'normalizer' must have 0 or 1 dimensions, got "
                f"{len(normalizer.shape)}"
            )
    one = op_api("full_like")(logit, 1.0)
    loss = op_api("sigmoid_cross_entropy_with_logits")(logit, label, None, False, -100)
    pred = op_api("sigmoid")(logit)
    sub, mul, add = op_api("subtract"), op_api("multiply"), op_api("add")
    p_t = add(mul(pred, label), mul(sub(one, pred), sub(one, label)))
    alpha_t = add(
        op_api("scale")(label, float(alpha), 0.0, True),
        op_api("scale")(sub(one, label), 1.0 - float(alpha), 0.0, True),
    )
    loss = mul(alpha_t, loss)
    loss = mul(op_api("pow")(sub(one, p_t), float(gamma)), loss)
    if normalizer is not None:
        loss = op_api("divide")(loss, normalizer)
    return _reduce_all(loss, reduction)


def dice_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    epsilon: float = 1e-05,
    name: str | None = None,
) -> Tensor:
    """Dice loss ``mean(1 - 2 |X ∩ Y| / (|X| + |Y| + epsilon))`` of the probabilities ``input``
    ([N, ..., C]) against the class ids ``label`` ([N, ..., 1], int32/int64)."""
    where = "dice_loss"
    _check_float(input, where, "input")
    if label.dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"{where}: argument 'label' must be int32 or int64, got {label.dtype.name.lower()}"
        )
    if len(input.shape) < 2:
        raise InvalidArgumentError(
            f"{where}: argument 'input' must have rank >= 2, got {input.shape}"
        )
    if len(input.shape) != len(label.shape) or label.shape[-1] != 1:
        raise InvalidArgumentError(
            f"{where}: argument 'label' must have input's rank and a last extent of 1, got "
            f"{list(label.shape)} for input {list(input.shape)}"
        )
    if list(input.shape[:-1]) != list(label.shape[:-1]):
        raise InvalidArgumentError(
            f"{where}: input and label must agree on all but the last extent, got "
            f"{list(input.shape)} and {list(label.shape)}"
        )
    onehot = op_api("one_hot")(op_api("squeeze")(label, [-1]), input.shape[-1])
    axes = list(range(1, len(input.shape)))
    total = lambda t: op_api("sum")(t, axes, DataType.UNDEFINED, False)  # noqa: E731
    inse = total(op_api("multiply")(input, onehot))
    denominator = op_api("add")(total(input), total(onehot))
    ratio = op_api("divide")(
        op_api("scale")(inse, 2.0, 0.0, True),
        op_api("scale")(denominator, 1.0, float(epsilon), True),
    )
    return op_api("mean")(op_api("scale")(ratio, -1.0, 1.0, True), [], False)


def npair_loss(anchor: Tensor, positive: Tensor, labels: Tensor, l2_reg: float = 0.002) -> Tensor:
    """N-pair loss: softmax cross entropy of ``anchor @ positive.T`` against the soft labels
    "same class" (``labels``, [N]), plus ``l2_reg * 0.25`` times the mean squared norms."""
    where = "npair_loss"
    if not in_static_mode():
        if anchor.size == 0:
            raise InvalidArgumentError(f"{where}: argument 'anchor' must not be empty")
        if positive.size == 0:
            raise InvalidArgumentError(f"{where}: argument 'positive' must not be empty")
    _check_float(anchor, where, "anchor")
    _check_float(positive, where, "positive")
    batch = labels.shape[0]
    tiled = op_api("tile")(op_api("reshape")(labels, [batch, 1]), [1, batch])
    same = op_api("cast")(
        op_api("equal")(tiled, op_api("transpose")(tiled, [1, 0])), DataType.FLOAT32
    )
    same = op_api("divide")(same, op_api("sum")(same, [1], DataType.UNDEFINED, True))
    squared_norm = lambda t: op_api("mean")(  # noqa: E731
        op_api("sum")(op_api("square")(t), [1], DataType.UNDEFINED, False), [], False
    )
    l2loss = op_api("add")(squared_norm(anchor), squared_norm(positive))
    l2loss = op_api("scale")(op_api("scale")(l2loss, 0.25, 0.0, True), float(l2_reg), 0.0, True)
    similarity = op_api("matmul")(anchor, positive, False, True)
    _, softmax_ce = op_api("cross_entropy_with_softmax")(
        similarity, same, True, True, True, -100, -1
    )
    cross_entropy = op_api("sum")(
        op_api("multiply")(same, softmax_ce), [0], DataType.UNDEFINED, False
    )
    return op_api("add")(l2loss, op_api("mean")(cross_entropy, [], False))


def ctc_loss(
    log_probs: Tensor,
    labels: Tensor,
    input_lengths: Tensor,
    label_lengths: Tensor,
    blank: int = 0,
    reduction: str = "mean",
    norm_by_times: bool = False,
    zero_infinity: bool = False,
) -> Tensor:
    """CTC loss (op warpctc) of ``log_probs`` ([max_logit_length, batch, num_classes + 1]; a
    softmax is taken inside, so logits work too) against the padded ``labels`` ([batch,
    max_label_length], int32), with ``input_lengths``/``label_lengths`` ([batch], int64).
    'mean' averages the losses divided by their label lengths; ``zero_infinity`` turns infinite
    losses into 0; ``norm_by_times`` divides each sequence's gradient by its length."""
    _check_reduction(reduction, "ctc_loss")
    if input_lengths is None or label_lengths is None:
        raise InvalidArgumentError(
            "ctc_loss: arguments 'input_lengths' and 'label_lengths' must not be None"
        )
    loss = op_api("warpctc")(log_probs, labels, input_lengths, label_lengths, blank, norm_by_times)
    loss = op_api("squeeze")(loss, [-1])
    if zero_infinity:
        loss = op_api("where")(op_api("isinf")(loss), op_api("zeros_like")(loss), loss)
    if reduction == "mean":
        lengths = op_api("cast")(label_lengths, loss.dtype)
        return op_api("mean")(op_api("divide")(loss, lengths), [], False)
    if reduction == "sum":
        return op_api("sum")(loss, [], DataType.UNDEFINED, False)
    return loss


# -- layers ----------------------------------------------------------------------------------------


class L1Loss(Layer):
    """``l1_loss`` as a layer."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        _check_reduction(reduction, "L1Loss")
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return l1_loss(input, label, self.reduction, self.name)


class MarginRankingLoss(Layer):
    """``margin_ranking_loss`` as a layer."""

    def __init__(
        self, margin: float = 0.0, reduction: str = "mean", name: str | None = None
    ) -> None:
        _check_reduction(reduction, "MarginRankingLoss")
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input: Tensor, other: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return margin_ranking_loss(input, other, label, self.margin, self.reduction, self.name)


class SoftMarginLoss(Layer):
    """``soft_margin_loss`` as a layer."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        _check_reduction(reduction, "SoftMarginLoss")
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return soft_margin_loss(input, label, self.reduction, self.name)


class MultiLabelSoftMarginLoss(Layer):
    """``multi_label_soft_margin_loss`` as a layer."""

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", name: str | None = None
    ) -> None:
        _check_reduction(reduction, "MultiLabelSoftMarginLoss")
        super().__init__()
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return multi_label_soft_margin_loss(input, label, self.weight, self.reduction, self.name)


class CosineEmbeddingLoss(Layer):
    """``cosine_embedding_loss`` as a layer; ``margin`` must be in [-1, 1]."""

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None) -> None:
        if margin > 1 or margin < -1:
            raise InvalidArgumentError(
                f"CosineEmbeddingLoss: argument 'margin' must be in [-1, 1], got {margin}"
            )
        _check_reduction(reduction, "CosineEmbeddingLoss")
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input1: Tensor, input2: Tensor, label: Tensor) -> Tensor:
        return cosine_embedding_loss(input1, input2, label, self.margin, self.reduction, self.name)


class TripletMarginLoss(Layer):
    """``triplet_margin_loss`` as a layer."""

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        epsilon: float = 1e-06,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "TripletMarginLoss")
        super().__init__()
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap
        self.reduction, self.name = reduction, name

    def forward(self, input: Tensor, positive: Tensor, negative: Tensor) -> Tensor:  # noqa: A002
        return triplet_margin_loss(
            input,
            positive,
            negative,
            self.margin,
            self.p,
            self.epsilon,
            self.swap,
            self.reduction,
            self.name,
        )


class TripletMarginWithDistanceLoss(Layer):
    """``triplet_margin_with_distance_loss`` as a layer. PaddlePaddle 3.3.1's ``forward`` does
    not pass ``distance_function`` on (it always uses the 2-norm distance); phiops passes it."""

    def __init__(
        self,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "TripletMarginWithDistanceLoss")
        super().__init__()
        self.distance_function, self.margin, self.swap = distance_function, margin, swap
        self.reduction, self.name = reduction, name

    def forward(self, input: Tensor, positive: Tensor, negative: Tensor) -> Tensor:  # noqa: A002
        return triplet_margin_with_distance_loss(
            input,
            positive,
            negative,
            self.distance_function,
            self.margin,
            self.swap,
            self.reduction,
            self.name,
        )


class MultiMarginLoss(Layer):
    """``multi_margin_loss`` as a layer."""

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "MultiMarginLoss")
        super().__init__()
        self.p, self.margin, self.weight, self.reduction, self.name = (
            p,
            margin,
            weight,
            reduction,
            name,
        )

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return multi_margin_loss(
            input, label, self.p, self.margin, self.weight, self.reduction, self.name
        )


class PoissonNLLLoss(Layer):
    """``poisson_nll_loss`` as a layer."""

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        epsilon: float = 1e-08,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        if epsilon <= 0:
            raise InvalidArgumentError(
                f"PoissonNLLLoss: argument 'epsilon' must be > 0, got {epsilon}"
            )
        _check_reduction(reduction, "PoissonNLLLoss")
        super().__init__()
        self._log_input, self._full, self._epsilon = log_input, full, epsilon
        self._reduction, self._name = reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return poisson_nll_loss(
            input, label, self._log_input, self._full, self._epsilon, self._reduction, self._name
        )


class GaussianNLLLoss(Layer):
    """``gaussian_nll_loss`` as a layer."""

    def __init__(
        self,
        full: bool = False,
        epsilon: float = 1e-06,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "GaussianNLLLoss")
        super().__init__()
        self.full, self.epsilon, self.reduction, self.name = full, epsilon, reduction, name

    def forward(self, input: Tensor, label: Tensor, variance: Tensor) -> Tensor:  # noqa: A002
        return gaussian_nll_loss(
            input, label, variance, self.full, self.epsilon, self.reduction, self.name
        )


class CTCLoss(Layer):
    """``ctc_loss`` as a layer (``norm_by_times`` is an argument of ``forward``, as in
    PaddlePaddle)."""

    def __init__(
        self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False
    ) -> None:
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(
        self,
        log_probs: Tensor,
        labels: Tensor,
        input_lengths: Tensor,
        label_lengths: Tensor,
        norm_by_times: bool = False,
    ) -> Tensor:
        return ctc_loss(
            log_probs,
            labels,
            input_lengths,
            label_lengths,
            self.blank,
            self.reduction,
            norm_by_times=norm_by_times,
            zero_infinity=self.zero_infinity,
        )
