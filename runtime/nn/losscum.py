"""The losses of ``paddle.nn.functional`` and ``paddle.nn`` over the losscum ops of issue 24
(bce_loss, sigmoid_cross_entropy_with_logits, kldiv_loss, huber_loss, nll_loss, log_loss,
label_smooth, mean_all), each following the dynamic-mode branch of its namesake in PaddlePaddle
3.3.1's python/paddle/nn/functional/loss.py and common.py and python/paddle/nn/layer/loss.py."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "kl_div",
    "smooth_l1_loss",
    "nll_loss",
    "log_loss",
    "label_smooth",
    "hinge_embedding_loss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "KLDivLoss",
    "SmoothL1Loss",
    "NLLLoss",
    "HingeEmbeddingLoss",
]

FUNCTIONAL_NAMES = __all__[:8]
LAYER_NAMES = __all__[8:]

_REDUCTIONS = ("sum", "mean", "none")


def _check_reduction(reduction: str, where: str, allowed: tuple[str, ...] = _REDUCTIONS) -> None:
    if reduction not in allowed:
        quoted = ", ".join(repr(r) for r in allowed)
        raise InvalidArgumentError(
            f"{where}: argument 'reduction' must be one of {quoted}, got {reduction!r}"
        )


def _sum_or_mean_all(out: Tensor, reduction: str) -> Tensor:
    if reduction == "sum":
        return op_api("sum")(out, [], DataType.UNDEFINED, False)
    if reduction == "mean":
        return op_api("mean_all")(out)
    return out


def binary_cross_entropy(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Binary cross entropy of the probabilities ``input`` against ``label`` (op bce_loss),
    times ``weight`` when given, reduced by ``reduction`` ('mean', 'sum' or 'none')."""
    _check_reduction(reduction, "binary_cross_entropy")
    out = op_api("bce_loss")(input, label)
    if weight is not None:
        out = op_api("multiply")(out, weight)
    return _sum_or_mean_all(out, reduction)


def binary_cross_entropy_with_logits(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Binary cross entropy of sigmoid(``logit``) against ``label`` computed from the logits
    (op sigmoid_cross_entropy_with_logits); ``pos_weight`` weighs the positive term, ``weight``
    each element, then ``reduction``."""
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    if pos_weight is not None:
        one = op_api("full")([1], 1.0, logit.dtype)
        pos_weight = op_api("add")(
            op_api("multiply")(label, op_api("subtract")(pos_weight, one)), one
        )
    out = op_api("sigmoid_cross_entropy_with_logits")(logit, label, pos_weight, False, -100)
    if weight is not None:
        out = op_api("multiply")(out, weight)
    return _sum_or_mean_all(out, reduction)


def kl_div(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    reduction: str = "mean",
    log_target: bool = False,
    name: str | None = None,
) -> Tensor:
    """Kullback-Leibler divergence of the log-probabilities ``input`` from ``label`` (op
    kldiv_loss), reduced by 'mean', 'batchmean' (sum over the first extent), 'sum' or 'none'.
    A float32 and a float64 argument are both computed in float64."""
    _check_reduction(reduction, "kl_div", ("none", "batchmean", "sum", "mean"))
    if input.dtype is DataType.FLOAT32 and label.dtype is DataType.FLOAT64:
        input = op_api("cast")(input, DataType.FLOAT64)
    elif input.dtype is DataType.FLOAT64 and label.dtype is DataType.FLOAT32:
        label = op_api("cast")(label, DataType.FLOAT64)
    out = op_api("kldiv_loss")(input, label, "none", log_target)
    if reduction == "mean":
        return op_api("mean")(out)
    if reduction == "sum":
        return op_api("sum")(out)
    if reduction == "batchmean" and input.ndim > 0:
        return op_api("scale")(op_api("sum")(out), 1.0 / input.shape[0], 0.0, True)
    return out


def smooth_l1_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    is_huber: bool = True,
    name: str | None = None,
) -> Tensor:
    """The Huber loss of ``input`` against ``label`` with threshold ``delta`` (op huber_loss),
    divided by ``delta`` when ``is_huber`` is false, reduced by ``reduction``."""
    _check_reduction(reduction, "smooth_l1_loss")
    out = op_api("huber_loss")(input, label, delta)
    if not is_huber:
        out = op_api("scale")(out, 1.0 / delta, 0.0, True)
    if reduction == "mean":
        return op_api("mean")(out)
    if reduction == "sum":
        return op_api("sum")(out)
    return out


def nll_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Negative log-likelihood of the log-probabilities ``input`` ([N, C, d1, ...]) at the
    classes ``label`` ([N, d1, ...], int64) (op nll_loss); inputs of rank other than 2 and 4
    are reshaped to [N, C, 1, -1] first, as PaddlePaddle does."""
    _check_reduction(reduction, "nll_loss")
    input_shape = list(input.shape)
    rank, label_rank = len(input_shape), label.ndim
    if rank - 1 != label_rank and rank != label_rank:
        raise InvalidArgumentError(
            f"nll_loss: argument 'label' must have rank {rank - 1} or {rank} (that of argument "
            f"'input' of rank {rank}, less its class dimension), got rank {label_rank}"
        )
    if rank < 2:
        raise InvalidArgumentError(
            f"nll_loss: argument 'input' must have at least 2 dimensions [N, C], got {input_shape}"
        )
    if input_shape[1] < 1:
        raise InvalidArgumentError(
            f"nll_loss: argument 'input' must have at least 1 class (dimension 1), got {input_shape}"
        )
    n, c = input_shape[0], input_shape[1]
    reshaped = rank not in (2, 4)
    if reshaped:
        input = op_api("reshape")(input, [n, c, 1, -1])
        label = op_api("reshape")(label, [n, 1, -1])
    out, _ = op_api("nll_loss")(input, label, weight, ignore_index, reduction)
    if reshaped and reduction == "none":
        out = op_api("reshape")(out, [n, *input_shape[2:]])
    return out


def log_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    epsilon: float = 0.0001,
    name: str | None = None,
) -> Tensor:
    """Negative log-likelihood of the Bernoulli predictions ``input`` ([N, 1]) against
    ``label`` (op log_loss), ``epsilon`` added inside the logarithms."""
    return op_api("log_loss")(input, label, epsilon)


def label_smooth(
    label: Tensor,
    prior_dist: Tensor | None = None,
    epsilon: float = 0.1,
    name: str | None = None,
) -> Tensor:
    """``(1 - epsilon) * label + epsilon * prior_dist`` (uniform over the last dimension when
    ``prior_dist`` is None) (op label_smooth); ``epsilon`` must be in [0, 1]."""
    if epsilon > 1.0 or epsilon < 0.0:
        raise InvalidArgumentError(
            f"label_smooth: argument 'epsilon' must be in [0, 1], got {epsilon}"
        )
    return op_api("label_smooth")(label, prior_dist, float(epsilon))


def hinge_embedding_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    margin: float = 1.0,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``input`` where ``label`` is 1 plus ``max(0, margin - input)`` where it is -1, reduced by
    ``reduction``; a composition of ops, as in PaddlePaddle."""
    _check_reduction(reduction, "hinge_embedding_loss")
    zero = op_api("full_like")(input, 0.0)
    one = op_api("full_like")(label, 1.0)
    positive = op_api("where")(op_api("equal")(label, one), input, zero)
    hinge = op_api("relu")(op_api("scale")(input, -1.0, float(margin), True))
    negative = op_api("where")(
        op_api("equal")(label, op_api("scale")(one, -1.0, 0.0, True)), hinge, zero
    )
    loss = op_api("add")(positive, negative)
    if reduction == "mean":
        return op_api("mean")(loss)
    if reduction == "sum":
        return op_api("sum")(loss)
    return loss


class BCELoss(Layer):
    """``binary_cross_entropy`` as a layer."""

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", name: str | None = None
    ) -> None:
        _check_reduction(reduction, "BCELoss")
        super().__init__()
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return binary_cross_entropy(input, label, self.weight, self.reduction, self.name)


class BCEWithLogitsLoss(Layer):
    """``binary_cross_entropy_with_logits`` as a layer."""

    def __init__(
        self,
        weight: Tensor | None = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "BCEWithLogitsLoss")
        super().__init__()
        self.weight, self.reduction, self.pos_weight, self.name = (
            weight,
            reduction,
            pos_weight,
            name,
        )

    def forward(self, logit: Tensor, label: Tensor) -> Tensor:
        return binary_cross_entropy_with_logits(
            logit, label, self.weight, self.reduction, self.pos_weight, self.name
        )


class KLDivLoss(Layer):
    """``kl_div`` as a layer."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return kl_div(input, label, self.reduction, self.log_target)


class SmoothL1Loss(Layer):
    """``smooth_l1_loss`` as a layer."""

    def __init__(
        self,
        reduction: str = "mean",
        delta: float = 1.0,
        is_huber: bool = True,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.reduction, self.delta, self.is_huber, self.name = reduction, delta, is_huber, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber, self.name)


class NLLLoss(Layer):
    """``nll_loss`` as a layer."""

    def __init__(
        self,
        weight: Tensor | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        _check_reduction(reduction, "NLLLoss")
        super().__init__()
        self._weight, self._ignore_index, self._reduction, self._name = (
            weight,
            ignore_index,
            reduction,
            name,
        )

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return nll_loss(input, label, self._weight, self._ignore_index, self._reduction, self._name)


class HingeEmbeddingLoss(Layer):
    """``hinge_embedding_loss`` as a layer."""

    def __init__(
        self, margin: float = 1.0, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return hinge_embedding_loss(input, label, self.margin, self.reduction, self.name)
