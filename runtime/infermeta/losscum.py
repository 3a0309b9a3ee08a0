"""InferMeta functions of the losscum ops (issue 24): the losses (bce_loss, kldiv_loss, nll_loss,
...) and the reductions and index ops beside them, following PaddlePaddle 3.3.1's functions of
the same names in paddle/phi/infermeta/."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match, extents_match, numel
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "bce_loss_infer_meta",
    "sigmoid_cross_entropy_with_logits_infer_meta",
    "kl_div_infer_meta",
    "huber_loss_infer_meta",
    "nll_loss_raw_infer_meta",
    "nll_loss_grad_infer_meta",
    "log_loss_infer_meta",
    "hinge_loss_infer_meta",
    "identity_loss_infer_meta",
    "identity_loss_grad_infer_meta",
    "mean_all_infer_meta",
    "unchanged_except_layout_infer_meta",
    "cum_infer_meta",
    "cum_with_indices_infer_meta",
    "is_empty_infer_meta",
    "compare_all_infer_meta",
]

_RUNTIME = MetaConfig()

KLDIV_REDUCTIONS = ("none", "batchmean", "sum", "mean")
NLL_REDUCTIONS = ("none", "sum", "mean")


def _same_dims(x: MetaTensor, y: MetaTensor, x_name: str, y_name: str, config: MetaConfig) -> None:
    if len(x.dims) != len(y.dims):
        raise InvalidArgumentError(
            f"argument '{y_name}' must have the rank of argument '{x_name}' ({len(x.dims)}), got "
            f"rank {len(y.dims)} (dims {list(y.dims)})"
        )
    if not dims_match(tuple(x.dims), tuple(y.dims), config):
        raise InvalidArgumentError(
            f"argument '{y_name}' must have the dims of argument '{x_name}' ({list(x.dims)}), got "
            f"{list(y.dims)}"
        )


def _like(out: MetaTensor, x: MetaTensor, dims: tuple[int, ...] | None = None) -> None:
    out.set_dims(tuple(x.dims) if dims is None else dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def bce_loss_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BCELossInferMeta: ``label`` has ``input``'s dims; ``out`` is like ``input``."""
    _same_dims(input, label, "input", "label", config)
    _like(out, input)


def sigmoid_cross_entropy_with_logits_infer_meta(
    x: MetaTensor,
    label: MetaTensor,
    pos_weight: MetaTensor | None,
    normalize: bool,
    ignore_index: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's SigmoidCrossEntropyWithLogitsInferMeta: ``label`` (and ``pos_weight`` when given)
    have ``x``'s dims; ``out`` is like ``x``."""
    _same_dims(x, label, "x", "label", config)
    if pos_weight is not None:
        _same_dims(x, pos_weight, "x", "pos_weight", config)
    _like(out, x)


def kl_div_infer_meta(
    x: MetaTensor,
    label: MetaTensor,
    reduction: str,
    log_target: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's KLDivInferMeta: ``label`` has ``x``'s dims; ``out`` is like ``x`` for reduction
    'none' and 0-D otherwise."""
    _same_dims(x, label, "x", "label", config)
    if reduction not in KLDIV_REDUCTIONS:
        raise InvalidArgumentError(
            f"argument 'reduction' must be one of {list(KLDIV_REDUCTIONS)}, got {reduction!r}"
        )
    _like(out, x, None if reduction == "none" else ())


def huber_loss_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    delta: float,
    out: MetaTensor,
    residual: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's HuberLossInferMeta: ``label`` has ``input``'s dims; ``out`` and ``residual`` are
    like ``input``."""
    _same_dims(input, label, "input", "label", config)
    _like(out, input)
    _like(residual, input)


def nll_loss_raw_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    weight: MetaTensor | None,
    ignore_index: int,
    reduction: str,
    out: MetaTensor,
    total_weight: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's NllLossRawInferMeta: ``input`` is [N, C] or [N, C, H, W]; ``label`` holds one
    class per entry ([N], or [N, H, W]); ``weight`` is [C]. ``out`` is [N] or [N, H, W] for
    reduction 'none', else 0-D; ``total_weight`` is 0-D."""
    dims = tuple(input.dims)
    if len(dims) not in (2, 4):
        raise InvalidArgumentError(
            f"argument 'input' must have rank 2 ([N, C]) or 4 ([N, C, H, W]), got dims {list(dims)}"
        )
    if reduction not in NLL_REDUCTIONS:
        raise InvalidArgumentError(
            f"argument 'reduction' must be one of {list(NLL_REDUCTIONS)}, got {reduction!r}"
        )
    label_dims = tuple(label.dims)
    expected = (dims[0],) if len(dims) == 2 else (dims[0], dims[2], dims[3])
    accepted = dims_match(label_dims, expected, config) or (
        len(dims) == 2 and dims_match(label_dims, (dims[0], 1), config)
    )
    if not accepted:
        raise InvalidArgumentError(
            f"argument 'label' must have dims {list(expected)} (one class per entry of argument "
            f"'input' with dims {list(dims)}), got {list(label_dims)}"
        )
    if label.dtype is not DataType.INT64:
        raise InvalidArgumentError(
            f"argument 'label' must be int64 class indices, got {label.dtype.name.lower()}"
        )
    if weight is not None:
        if len(weight.dims) != 1 or not extents_match(weight.dims[0], dims[1], config):
            raise InvalidArgumentError(
                f"argument 'weight' must have dims [{dims[1]}] (one weight per class of argument "
                f"'input'), got {list(weight.dims)}"
            )
    _like(out, input, expected if reduction == "none" else ())
    _like(total_weight, input, ())


def nll_loss_grad_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    weight: MetaTensor | None,
    total_weight: MetaTensor,
    out_grad: MetaTensor,
    ignore_index: int,
    reduction: str,
    input_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's NllLossGradInferMeta: ``input_grad`` is like ``input``."""
    _like(input_grad, input)


def _column(
    x: MetaTensor, label: MetaTensor, x_name: str, label_name: str, config: MetaConfig
) -> None:
    if len(x.dims) != 2:
        raise InvalidArgumentError(
            f"argument '{x_name}' must have rank 2 ([N, 1]), got dims {list(x.dims)}"
        )
    if not extents_match(x.dims[1], 1, config):
        raise InvalidArgumentError(
            f"argument '{x_name}' must have dims [N, 1] (one value per row), got {list(x.dims)}"
        )
    _same_dims(x, label, x_name, label_name, config)


def log_loss_infer_meta(
    input: MetaTensor,  # noqa: A002 - the YAML argument's name
    label: MetaTensor,
    epsilon: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LogLossInferMeta: ``input`` and ``label`` are [N, 1]; ``out`` is like ``input``."""
    _column(input, label, "input", "label", config)
    _like(out, input)


def hinge_loss_infer_meta(
    logits: MetaTensor, labels: MetaTensor, loss: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's HingeLossInferMeta: ``logits`` and ``labels`` are [N, 1]; ``loss`` is like
    ``logits``."""
    _column(logits, labels, "logits", "labels", config)
    _like(loss, logits)


def identity_loss_infer_meta(
    x: MetaTensor, reduction: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's IdentityLossInferMeta: 0-D for reduction 0 (sum) and 1 (mean), ``x``'s dims for
    2 (none)."""
    if reduction not in (0, 1, 2):
        raise InvalidArgumentError(
            f"argument 'reduction' must be 0 (sum), 1 (mean) or 2 (none), got {reduction}"
        )
    _like(out, x, None if reduction == 2 else ())


def identity_loss_grad_infer_meta(
    x: MetaTensor,
    out_grad: MetaTensor,
    reduction: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's IdentityLossGradInferMeta: ``x_grad`` has ``x``'s dims and ``out_grad``'s dtype."""
    _like(x_grad, x)
    x_grad.set_dtype(out_grad.dtype)


def mean_all_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's MeanAllInferMeta: a 0-D ``out`` of ``x``'s dtype."""
    _like(out, x, ())


def unchanged_except_layout_infer_meta(
    x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's UnchangedExceptLayoutInferMeta: ``out`` has ``x``'s dims and dtype."""
    out.set_dims(tuple(x.dims))
    out.set_dtype(x.dtype)


# -- the cumulative ops: logcumsumexp, cummax, cummin ------------------------------------------


def _check_cum_axis(axis: int, rank: int) -> None:
    # PHI: axis in [-rank, rank); a 0-D x takes -1 and 0
    bound = max(rank, 1)
    if not -bound <= axis < bound:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-bound}, {bound}) for a tensor of rank {rank}, got {axis}"
        )


def cum_infer_meta(
    x: MetaTensor,
    axis: int,
    flatten: bool,
    exclusive: bool,
    reverse: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's CumInferMeta: ``out`` like ``x``, 1-D of x's element count with ``flatten`` (axis
    then unchecked); otherwise ``axis`` must be an axis of ``x``."""
    if not flatten:
        _check_cum_axis(axis, len(x.dims))
    _like(out, x, (numel(tuple(x.dims)),) if flatten else None)


def cum_with_indices_infer_meta(
    x: MetaTensor,
    axis: int,
    dtype: DataType,
    out: MetaTensor,
    indices: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's CumWithIndicesInferMeta: ``out`` like ``x``, ``indices`` of x's dims and ``dtype``,
    which must be INT32 or INT64; ``axis`` must be an axis of ``x``."""
    if dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(f"argument 'dtype' must be INT32 or INT64, got {dtype.name}")
    _check_cum_axis(axis, len(x.dims))
    _like(out, x)
    _like(indices, x)
    indices.set_dtype(dtype)


# -- whole-tensor predicates: is_empty, equal_all ----------------------------------------------


def is_empty_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's IsEmptyInferMeta: a 0-D bool ``out``."""
    out.set_dims(())
    out.set_dtype(DataType.BOOL)
    out.set_layout(x.layout)


def compare_all_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's CompareAllInferMeta: a 0-D bool ``out``; ``y`` must have ``x``'s dtype (PHI's
    kernel reads both as x's); shapes may differ (the result is then false)."""
    if y.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype of argument 'x' ({x.dtype.name}), got {y.dtype.name}"
        )
    out.set_dims(())
    out.set_dtype(DataType.BOOL)
    out.set_layout(x.layout)
