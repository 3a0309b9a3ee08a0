"""InferMeta functions of the quant24b ops (issue 24): average_accumulates_ (the running sums
of ModelAverage), dpsgd and dgc_clip_by_norm (PHI's ClipByNormInferMeta), following
PaddlePaddle 3.3.1's functions of the same names in paddle/phi/infermeta/ and refusing, with a
named argument, the inputs 3.3.1's kernels would read out of bounds or misread (sums or a
gradient of another size than param, counters that are not one int64 each, a
min_average_window above max_average_window, a learning rate of more than one element, a
max_norm that is not positive)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import extents_match, numel, set_output as _set
from phiops.runtime.infermeta.quant24 import _check_like_param
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "average_accumulates_infer_meta",
    "dpsgd_infer_meta",
    "clip_by_norm_infer_meta",
]

_RUNTIME = MetaConfig()


def _check_counter(tensor: MetaTensor, name: str, config: MetaConfig) -> None:
    if tensor.dtype != DataType.INT64:
        raise InvalidArgumentError(
            f"argument '{name}' must be an int64 counter, got {tensor.dtype.name.lower()}"
        )
    if not extents_match(numel(tensor.dims), 1, config):
        raise InvalidArgumentError(
            f"argument '{name}' must hold exactly one element, got dims {list(tensor.dims)}"
        )


def average_accumulates_infer_meta(
    param: MetaTensor,
    in_sum_1: MetaTensor,
    in_sum_2: MetaTensor,
    in_sum_3: MetaTensor,
    in_num_accumulates: MetaTensor,
    in_old_num_accumulates: MetaTensor,
    in_num_updates: MetaTensor,
    average_window: float,
    max_average_window: int,
    min_average_window: int,
    out_sum_1: MetaTensor,
    out_sum_2: MetaTensor,
    out_sum_3: MetaTensor,
    out_num_accumulates: MetaTensor,
    out_old_num_accumulates: MetaTensor,
    out_num_updates: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The sums keep their dims and dtype; the three counters are int64 of dims [1], as PHI
    sets them."""
    if min_average_window > max_average_window:
        raise InvalidArgumentError(
            f"argument 'min_average_window' ({min_average_window}) must not exceed "
            f"'max_average_window' ({max_average_window})"
        )
    for tensor, name in ((in_sum_1, "in_sum_1"), (in_sum_2, "in_sum_2"), (in_sum_3, "in_sum_3")):
        _check_like_param(tensor, name, param, config)
    for tensor, name in (
        (in_num_accumulates, "in_num_accumulates"),
        (in_old_num_accumulates, "in_old_num_accumulates"),
        (in_num_updates, "in_num_updates"),
    ):
        _check_counter(tensor, name, config)
    _set(out_sum_1, in_sum_1.dims, in_sum_1.dtype, in_sum_1)
    _set(out_sum_2, in_sum_2.dims, in_sum_2.dtype, in_sum_2)
    _set(out_sum_3, in_sum_3.dims, in_sum_3.dtype, in_sum_3)
    for out, like in (
        (out_num_accumulates, in_num_accumulates),
        (out_old_num_accumulates, in_old_num_accumulates),
        (out_num_updates, in_num_updates),
    ):
        _set(out, (1,), like.dtype, like)


def dpsgd_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    clip: float,
    batch_size: float,
    sigma: float,
    seed: int,
    param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """param_out has param's dims and dtype; learning_rate holds one element and grad has
    param's dims, as 3.3.1's DpsgdInferMeta requires."""
    if not extents_match(numel(learning_rate.dims), 1, config):
        raise InvalidArgumentError(
            "argument 'learning_rate' must hold exactly one element, got dims "
            f"{list(learning_rate.dims)}"
        )
    _check_like_param(grad, "grad", param, config)
    if learning_rate.dtype != param.dtype:
        raise InvalidArgumentError(
            f"argument 'learning_rate' must have param's dtype {param.dtype.name.lower()}, got "
            f"{learning_rate.dtype.name.lower()}"
        )
    _set(param_out, param.dims, param.dtype, param)


def clip_by_norm_infer_meta(
    x: MetaTensor, max_norm: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """out has x's dims and dtype; max_norm must be positive (3.3.1's ClipByNormInferMeta)."""
    if not max_norm > 0:
        raise InvalidArgumentError(f"argument 'max_norm' must be greater than 0, got {max_norm}")
    _set(out, x.dims, x.dtype, x)
