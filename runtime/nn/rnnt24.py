"""The RNN-T loss of ``paddle.nn.functional`` and ``paddle.nn`` over the rnnt24 op warprnnt
(issue 24): rnnt_loss and RNNTLoss, following the dynamic-mode branch of their namesakes in
PaddlePaddle 3.3.1's python/paddle/nn/functional/loss.py and python/paddle/nn/layer/loss.py."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer

__all__ = ["rnnt_loss", "RNNTLoss"]

FUNCTIONAL_NAMES = ("rnnt_loss",)
LAYER_NAMES = ("RNNTLoss",)

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: object, where: str) -> None:
    if reduction not in _REDUCTIONS:
        raise InvalidArgumentError(
            f"{where}: argument 'reduction' must be one of 'mean', 'sum', 'none', got "
            f"{reduction!r}"
        )


def rnnt_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    input_lengths: Tensor,
    label_lengths: Tensor,
    blank: int = 0,
    fastemit_lambda: float = 0.001,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The RNN-T (transducer) loss (op warprnnt) of ``input`` ([B, Tmax, Umax + 1, D]
    log-probabilities of the joint network, float32 or float64, used as they are: no log-softmax
    is taken, as on PaddlePaddle's CPU) against the padded int32 ``label`` ([B, Umax]), with the
    int32 ``input_lengths`` and ``label_lengths`` ([B]). ``fastemit_lambda`` scales the gradient
    of the label emissions by 1 + fastemit_lambda (FastEmit) and leaves the loss unchanged.
    ``reduction``: 'none' gives the [B] losses, 'sum' their sum, 'mean' their sum divided by
    B."""
    _check_reduction(reduction, "rnnt_loss")
    for argument, value in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if value is None:
            raise InvalidArgumentError(f"rnnt_loss: argument '{argument}' must not be None")
    batch = input.shape[0]
    loss = op_api("warprnnt")(input, label, input_lengths, label_lengths, blank, fastemit_lambda)
    if reduction == "mean":
        total = op_api("sum")(loss, [], DataType.UNDEFINED, False)
        return total / batch
    if reduction == "sum":
        return op_api("sum")(loss, [], DataType.UNDEFINED, False)
    return loss


class RNNTLoss(Layer):
    """``rnnt_loss`` as a layer: ``forward(input, label, input_lengths, label_lengths)`` with
    the ``blank``, ``fastemit_lambda`` and ``reduction`` given here."""

    def __init__(
        self,
        blank: int = 0,
        fastemit_lambda: float = 0.001,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.fastemit_lambda = fastemit_lambda
        self.name = name

    def forward(
        self,
        input: Tensor,  # noqa: A002 - PaddlePaddle's name
        label: Tensor,
        input_lengths: Tensor,
        label_lengths: Tensor,
    ) -> Tensor:
        return rnnt_loss(
            input,
            label,
            input_lengths,
            label_lengths,
            blank=self.blank,
            fastemit_lambda=self.fastemit_lambda,
            reduction=self.reduction,
            name=self.name,
        )
