"""InferMeta functions of ops with a Tensor[] input or more than three tensor inputs."""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType, promote_types
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import (
    UNKNOWN,
    dims_match,
    extents_match,
    merge_dims,
    numel,
    sum_extents,
)
from phiops.runtime.infermeta.unary import check_axis

_RUNTIME = MetaConfig()


def _require_tensors(x: list[MetaTensor]) -> None:
    if not x:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor, got an empty list")


def concat_infer_meta(
    x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Join ``x`` along ``axis``: every tensor has the same rank (at least 1) and the same
    dims except along ``axis``; the dtype is the highest of the inputs' (the kernel runs on
    inputs cast to it)."""
    _require_tensors(x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise InvalidArgumentError(
            f"argument 'axis' must be an integer, got {type(axis).__name__} {axis!r}"
        )
    first = x[0].dims
    rank = len(first)
    if rank == 0:
        raise InvalidArgumentError(
            "argument 'x' holds 0-D tensors, which cannot be concatenated; use stack, or tensors "
            "of rank >= 1"
        )
    index = check_axis(axis, rank, "axis")
    merged = first
    for position, item in enumerate(x):
        dims = item.dims
        if len(dims) != rank:
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(dims)} must have the rank of 'x[0]' "
                f"with dims {list(first)}"
            )
        for i, (extent, expected) in enumerate(zip(dims, first)):
            if i != index and not extents_match(extent, expected, config):
                raise InvalidArgumentError(
                    f"argument 'x[{position}]' with dims {list(dims)} does not match 'x[0]' with "
                    f"dims {list(first)} outside axis {index}: dimension {i} differs "
                    f"({extent} vs {expected})"
                )
        merged = merge_dims(merged, dims)
    total = sum_extents(item.dims[index] for item in x)
    out.set_dims(merged[:index] + (total,) + merged[index + 1 :])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)


def stack_infer_meta(
    x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Stack ``x``, tensors of equal dims, along a new dimension ``axis`` in
    [-(rank + 1), rank + 1); the dtype is the highest of the inputs'."""
    _require_tensors(x)
    first = x[0].dims
    for position, item in enumerate(x):
        if not dims_match(item.dims, first, config):
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(item.dims)} must have the dims of "
                f"'x[0]' {list(first)}"
            )
        first = merge_dims(first, item.dims)
    rank = len(first)
    if not -(rank + 1) <= axis <= rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-(rank + 1)}, {rank + 1}) for stacking tensors of rank "
            f"{rank}, got {axis}"
        )
    index = axis + rank + 1 if axis < 0 else axis
    out.set_dims(first[:index] + (len(x),) + first[index:])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)


# Optimizers ----------------------------------------------------------------------------------
# PaddlePaddle's SgdInferMeta / AdamInferMeta. An optional output whose input is None
# (master_param_out without master_param) is left without dims and dtype: the op returns None.


def _require_one_element(tensor: MetaTensor, name: str, config: MetaConfig) -> None:
    if not extents_match(numel(tensor.dims), 1, config):
        raise InvalidArgumentError(
            f"argument '{name}' must hold exactly one element, got dims {list(tensor.dims)} "
            f"({numel(tensor.dims)} elements)"
        )


def _require_param_dims(
    tensor: MetaTensor, name: str, param: MetaTensor, config: MetaConfig, param_name: str = "param"
) -> None:
    if not dims_match(tensor.dims, param.dims, config):
        raise InvalidArgumentError(
            f"argument '{name}' with dims {list(tensor.dims)} must have the dims of argument "
            f"'{param_name}' {list(param.dims)}"
        )


def _master_param_out(
    param: MetaTensor, master_param: MetaTensor | None, multi_precision: bool, out: MetaTensor
) -> None:
    """With ``multi_precision`` and a master copy: ``param``'s dims in float32 for a half
    precision ``param``, else in ``param``'s dtype."""
    if master_param is None or not multi_precision:
        return
    half = (DataType.FLOAT16, DataType.BFLOAT16)
    out.set_dims(param.dims)
    out.set_dtype(DataType.FLOAT32 if param.dtype in half else param.dtype)
    out.set_layout(param.layout)


def sgd_infer_meta(
    param: MetaTensor,
    learning_rate: MetaTensor,
    grad: MetaTensor,
    master_param: MetaTensor | None,
    multi_precision: bool,
    param_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``param_out`` like ``param``; ``learning_rate`` holds one element, ``grad`` (and
    ``master_param`` when given) have ``param``'s dims."""
    _require_one_element(learning_rate, "learning_rate", config)
    _require_param_dims(grad, "grad", param, config)
    if master_param is not None:
        _require_param_dims(master_param, "master_param", param, config)
    param_out.share_meta(param)
    _master_param_out(param, master_param, multi_precision, master_param_out)


def adam_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    moment2_max: MetaTensor | None,
    beta1_pow: MetaTensor,
    beta2_pow: MetaTensor,
    master_param: MetaTensor | None,
    skip_update: MetaTensor | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
    param_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    moment2_max_out: MetaTensor,
    beta1_pow_out: MetaTensor,
    beta2_pow_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``learning_rate``, ``beta1_pow``, ``beta2_pow`` and
    ``skip_update`` hold one element; ``grad``, the moments and ``master_param`` have
    ``param``'s dims; ``amsgrad`` needs ``moment2_max`` (``moment2_max_out`` is None
    without amsgrad, as in PaddlePaddle)."""
    if amsgrad:
        if moment2_max is None:
            raise InvalidArgumentError(
                "argument 'moment2_max' is None, but amsgrad is true (it needs the running "
                "maximum of moment2)"
            )
        _require_param_dims(moment2_max, "moment2_max", param, config)
        moment2_max_out.share_meta(moment2_max)
    _require_one_element(learning_rate, "learning_rate", config)
    _require_one_element(beta1_pow, "beta1_pow", config)
    _require_one_element(beta2_pow, "beta2_pow", config)
    if skip_update is not None:
        _require_one_element(skip_update, "skip_update", config)
    for value, name in ((beta1, "beta1"), (beta2, "beta2"), (epsilon, "epsilon")):
        if isinstance(value, complex):
            raise InvalidArgumentError(f"argument '{name}' must be a real number, got {value!r}")
    for tensor, name in ((grad, "grad"), (moment1, "moment1"), (moment2, "moment2")):
        _require_param_dims(tensor, name, param, config)
    if master_param is not None:
        _require_param_dims(master_param, "master_param", param, config)
    param_out.share_meta(param)
    moment1_out.share_meta(moment1)
    moment2_out.share_meta(moment2)
    beta1_pow_out.share_meta(beta1_pow)
    beta2_pow_out.share_meta(beta2_pow)
    _master_param_out(param, master_param, multi_precision, master_param_out)


def adamw_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    moment2_max: MetaTensor | None,
    beta1_pow: MetaTensor,
    beta2_pow: MetaTensor,
    master_param: MetaTensor | None,
    skip_update: MetaTensor | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lr_ratio: float,
    coeff: float,
    with_decay: bool,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
    param_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    moment2_max_out: MetaTensor,
    beta1_pow_out: MetaTensor,
    beta2_pow_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Adam's checks and outputs (``adam_infer_meta``); the decay attributes need none."""
    adam_infer_meta(
        param,
        grad,
        learning_rate,
        moment1,
        moment2,
        moment2_max,
        beta1_pow,
        beta2_pow,
        master_param,
        skip_update,
        beta1,
        beta2,
        epsilon,
        lazy_mode,
        min_row_size_to_use_multithread,
        multi_precision,
        use_global_beta_pow,
        amsgrad,
        param_out,
        moment1_out,
        moment2_out,
        moment2_max_out,
        beta1_pow_out,
        beta2_pow_out,
        master_param_out,
        config,
    )


def momentum_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    velocity: MetaTensor,
    learning_rate: MetaTensor,
    master_param: MetaTensor | None,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    multi_precision: bool,
    rescale_grad: float,
    param_out: MetaTensor,
    velocity_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``param_out`` like ``param``, ``velocity_out`` like ``velocity``; ``learning_rate``
    holds one element; ``grad``, ``velocity`` (and ``master_param``) have ``param``'s dims;
    ``regularization_method`` is ``""`` or ``"l2_decay"``."""
    _require_one_element(learning_rate, "learning_rate", config)
    _require_regularization_method(regularization_method, "regularization_method")
    for tensor, name in ((grad, "grad"), (velocity, "velocity")):
        _require_param_dims(tensor, name, param, config)
    if master_param is not None:
        _require_param_dims(master_param, "master_param", param, config)
    param_out.share_meta(param)
    velocity_out.share_meta(velocity)
    _master_param_out(param, master_param, multi_precision, master_param_out)


def _require_regularization_method(method: str, name: str) -> None:
    if method not in ("", "l2_decay"):
        raise InvalidArgumentError(
            f"argument '{name}' must be '' (none) or 'l2_decay', got {method!r}"
        )


def _require_list_size(tensors: list[MetaTensor], name: str, size: int) -> None:
    if len(tensors) != size:
        raise InvalidArgumentError(
            f"argument '{name}' must hold {size} tensors (one per tensor of argument 'param'), "
            f"got {len(tensors)}"
        )


def _require_learning_rates(learning_rate: list[MetaTensor], size: int, config: MetaConfig) -> None:
    """One learning rate for every parameter, or one per parameter; each holds one element."""
    if len(learning_rate) not in (1, size):
        raise InvalidArgumentError(
            f"argument 'learning_rate' must hold 1 tensor or {size} (one per tensor of "
            f"argument 'param'), got {len(learning_rate)}"
        )
    for position, rate in enumerate(learning_rate):
        _require_one_element(rate, f"learning_rate[{position}]", config)


def _merged_master_param_out(
    param: list[MetaTensor],
    master_param: list[MetaTensor] | None,
    master_param_out: list[MetaTensor] | None,
    config: MetaConfig,
) -> None:
    """The merged ops return the master copies they were given (updated with
    ``multi_precision``, untouched without), so each output is like its master copy. An empty
    list is no master copies, as PHI reads an empty optional Tensor[]."""
    if not master_param:
        return
    _require_list_size(master_param, "master_param", len(param))
    for position, (item, master) in enumerate(zip(param, master_param)):
        _require_param_dims(master, f"master_param[{position}]", item, config, f"param[{position}]")
        if master_param_out is not None:
            master_param_out[position].share_meta(master)


def merged_adam_infer_meta(
    param: list[MetaTensor],
    grad: list[MetaTensor],
    learning_rate: list[MetaTensor],
    moment1: list[MetaTensor],
    moment2: list[MetaTensor],
    beta1_pow: list[MetaTensor],
    beta2_pow: list[MetaTensor],
    master_param: list[MetaTensor] | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    multi_precision: bool,
    use_global_beta_pow: bool,
    param_out: list[MetaTensor],
    moment1_out: list[MetaTensor],
    moment2_out: list[MetaTensor],
    beta1_pow_out: list[MetaTensor],
    beta2_pow_out: list[MetaTensor],
    master_param_out: list[MetaTensor] | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Adam's checks for each parameter ``i`` (``grad[i]``, ``moment1[i]``, ``moment2[i]`` with
    ``param[i]``'s dims, one-element beta powers), every list as long as ``param`` except
    ``learning_rate``, which holds 1 tensor or one per parameter; each output like its input."""
    _require_param_list(param)
    size = len(param)
    for tensors, name in (
        (grad, "grad"),
        (moment1, "moment1"),
        (moment2, "moment2"),
        (beta1_pow, "beta1_pow"),
        (beta2_pow, "beta2_pow"),
    ):
        _require_list_size(tensors, name, size)
    _require_learning_rates(learning_rate, size, config)
    for value, name in ((beta1, "beta1"), (beta2, "beta2"), (epsilon, "epsilon")):
        if isinstance(value, complex):
            raise InvalidArgumentError(f"argument '{name}' must be a real number, got {value!r}")
    for position, item in enumerate(param):
        for tensors, name in ((grad, "grad"), (moment1, "moment1"), (moment2, "moment2")):
            _require_param_dims(
                tensors[position], f"{name}[{position}]", item, config, f"param[{position}]"
            )
        _require_one_element(beta1_pow[position], f"beta1_pow[{position}]", config)
        _require_one_element(beta2_pow[position], f"beta2_pow[{position}]", config)
        param_out[position].share_meta(item)
        moment1_out[position].share_meta(moment1[position])
        moment2_out[position].share_meta(moment2[position])
        beta1_pow_out[position].share_meta(beta1_pow[position])
        beta2_pow_out[position].share_meta(beta2_pow[position])
    _merged_master_param_out(param, master_param, master_param_out, config)


def merged_momentum_infer_meta(
    param: list[MetaTensor],
    grad: list[MetaTensor],
    velocity: list[MetaTensor],
    learning_rate: list[MetaTensor],
    master_param: list[MetaTensor] | None,
    mu: float,
    use_nesterov: bool,
    regularization_method: list[str],
    regularization_coeff: list[float],
    multi_precision: bool,
    rescale_grad: float,
    param_out: list[MetaTensor],
    velocity_out: list[MetaTensor],
    master_param_out: list[MetaTensor] | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Momentum's checks for each parameter ``i``; ``grad`` and ``velocity`` as long as
    ``param``, ``learning_rate`` 1 tensor or one per parameter, ``regularization_method`` and
    ``regularization_coeff`` empty or one entry per parameter; each output like its input."""
    _require_param_list(param)
    size = len(param)
    _require_list_size(grad, "grad", size)
    _require_list_size(velocity, "velocity", size)
    _require_learning_rates(learning_rate, size, config)
    if len(regularization_method) not in (0, size):
        raise InvalidArgumentError(
            f"argument 'regularization_method' must be empty or hold {size} entries (one per "
            f"tensor of argument 'param'), got {len(regularization_method)}"
        )
    if len(regularization_coeff) != len(regularization_method):
        raise InvalidArgumentError(
            f"argument 'regularization_coeff' must hold as many entries as argument "
            f"'regularization_method' ({len(regularization_method)}), got "
            f"{len(regularization_coeff)}"
        )
    for position, method in enumerate(regularization_method):
        _require_regularization_method(method, f"regularization_method[{position}]")
    for position, item in enumerate(param):
        _require_param_dims(grad[position], f"grad[{position}]", item, config, f"param[{position}]")
        _require_param_dims(
            velocity[position], f"velocity[{position}]", item, config, f"param[{position}]"
        )
        param_out[position].share_meta(item)
        velocity_out[position].share_meta(velocity[position])
    _merged_master_param_out(param, master_param, master_param_out, config)


def _require_param_list(param: list[MetaTensor]) -> None:
    if not param:
        raise InvalidArgumentError(
            "argument 'param' must hold at least one tensor, got an empty list"
        )


# Batch normalization --------------------------------------------------------------------------


def batch_norm_infer_meta(
    x: MetaTensor,
    mean: MetaTensor,
    variance: MetaTensor,
    scale: MetaTensor | None,
    bias: MetaTensor | None,
    is_test: bool,
    momentum: float,
    epsilon: float,
    data_format: str,
    use_global_stats: bool,
    trainable_statistics: bool,
    out: MetaTensor,
    mean_out: MetaTensor,
    variance_out: MetaTensor,
    saved_mean: MetaTensor,
    saved_variance: MetaTensor,
    reserve_space: MetaTensor | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's BatchNormInferMeta: a 2-D to 5-D ``x`` with C channels (dim 1, or the last for
    NHWC/NDHWC/NLC); ``mean``, ``variance``, ``scale`` and ``bias`` 1-D of C; ``out`` like
    ``x``, the statistics [C]. ``reserve_space`` is cuDNN's: a program types it [-1] uint8, as
    PaddlePaddle's does; when running it stays absent here."""
    dims = tuple(x.dims)
    if not 2 <= len(dims) <= 5:
        raise InvalidArgumentError(f"argument 'x' must have 2 to 5 dims, got dims {list(dims)}")
    if data_format not in ("NCHW", "NHWC", "NCDHW", "NDHWC", "NCL", "NLC", "NC", "AnyLayout"):
        raise InvalidArgumentError(
            f"argument 'data_format' must be a channels-first or channels-last layout "
            f"(NCHW, NHWC, ...), got {data_format!r}"
        )
    channels = dims[-1] if data_format in ("NHWC", "NDHWC", "NLC") else dims[1]
    for name, param in (("mean", mean), ("variance", variance), ("scale", scale), ("bias", bias)):
        if param is None:
            continue
        if len(param.dims) != 1 or not extents_match(param.dims[0], channels, config):
            raise InvalidArgumentError(
                f"argument '{name}' must be 1-D with {channels} elements (the channels of "
                f"argument 'x' with dims {list(dims)}, data_format {data_format}), got dims "
                f"{list(param.dims)}"
            )
    out.share_meta(x)
    for stat, source in (
        (mean_out, mean),
        (variance_out, variance),
        (saved_mean, mean),
        (saved_variance, variance),
    ):
        stat.set_dims((channels,))
        stat.set_dtype(source.dtype)
        stat.set_layout(x.layout)
    if reserve_space is not None and not config.is_runtime:
        reserve_space.set_dims((UNKNOWN,))
        reserve_space.set_dtype(DataType.UINT8)
        reserve_space.set_layout(x.layout)


# Index_put (paddle/phi/infermeta/multiary.cc IndexPutInferMeta) -------------------------------


def index_put_infer_meta(
    x: MetaTensor,
    indices: list[MetaTensor],
    value: MetaTensor,
    accumulate: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` like ``x``; ``indices`` are integer or bool tensors, at most one per axis."""
    if len(indices) > len(x.dims):
        raise InvalidArgumentError(
            f"argument 'indices' holds {len(indices)} index tensors, more than the rank of 'x' "
            f"({len(x.dims)})"
        )
    for position, index in enumerate(indices):
        if index.dtype not in (DataType.INT32, DataType.INT64, DataType.BOOL):
            raise InvalidArgumentError(
                f"argument 'indices[{position}]' must be int32, int64 or bool, got "
                f"{index.dtype.name.lower()}"
            )
    if value.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'value' must have the dtype of 'x' ({x.dtype.name.lower()}), got "
            f"{value.dtype.name.lower()}"
        )
    out.share_meta(x)


# Interpolation --------------------------------------------------------------------------------


def interpolate_out_sizes(
    spatial: tuple[int, ...],
    out_d: int,
    out_h: int,
    out_w: int,
    scale: tuple[float, ...] | list[float],
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(output spatial sizes, scale per spatial dim or 0) as PHI's interpolate kernels:
    ``scale`` (one positive value per spatial dim) gives int(in * scale), computed in float as
    PHI does, otherwise the out_d/out_h/out_w attributes."""
    rank = len(spatial)
    scales = interpolate_scales(scale, rank)
    attrs = (out_d, out_h, out_w)[3 - rank :]
    sizes = []
    for axis, (size, factor, attr) in enumerate(zip(spatial, scales, attrs)):
        if factor > 0:
            sizes.append(scaled_size(size, factor) if size >= 0 else -1)
        else:
            sizes.append(attr)
        if sizes[-1] == 0 or sizes[-1] < -1:
            raise InvalidArgumentError(
                f"the output size along spatial dim {axis} must be positive, got {sizes[-1]} "
                f"(out_d/out_h/out_w {list(attrs)}, scale {list(scale)})"
            )
    return tuple(sizes), scales


def interpolate_scales(scale: tuple[float, ...] | list[float], rank: int) -> tuple[float, ...]:
    """The ``scale`` attribute as one factor per spatial dim, 0 where it is empty."""
    if len(scale) == 0:
        return (0.0,) * rank
    if len(scale) == rank and all(s > 0 for s in scale):
        return tuple(float(s) for s in scale)
    raise InvalidArgumentError(
        f"argument 'scale' must be empty or hold {rank} positive values, got {list(scale)}"
    )


def scaled_size(size: int, factor: float) -> int:
    """int(size * factor) in float32 arithmetic, PHI's static_cast<int>(in_h * scale_h) with a
    float scale."""
    return int(np.float32(size) * np.float32(factor))


def check_interpolate_size_tensors(
    out_size: MetaTensor | None,
    size_tensor: list[MetaTensor] | None,
    scale_tensor: MetaTensor | None,
    rank: int,
    config: MetaConfig = _RUNTIME,
) -> bool:
    """Whether the output size comes from tensor values (``size_tensor``, then ``scale_tensor``
    and ``out_size``, as PHI's kernels read them); checks their dims and dtypes as PHI's
    InterpolateInferMeta and kernels do."""
    if size_tensor:
        if len(size_tensor) != rank:
            raise InvalidArgumentError(
                f"argument 'size_tensor' must hold {rank} tensors, one per spatial dim, got "
                f"{len(size_tensor)}"
            )
        for position, item in enumerate(size_tensor):
            if item.dtype not in (DataType.INT32, DataType.INT64):
                raise InvalidArgumentError(
                    f"argument 'size_tensor[{position}]' must be int32 or int64, got "
                    f"{item.dtype.name.lower()}"
                )
            if numel(item.dims) not in (1, -1):
                raise InvalidArgumentError(
                    f"argument 'size_tensor[{position}]' must hold one value, got dims "
                    f"{list(item.dims)}"
                )
    if scale_tensor is not None:
        if scale_tensor.dtype is not DataType.FLOAT32:
            raise InvalidArgumentError(
                f"argument 'scale_tensor' must be float32, got {scale_tensor.dtype.name.lower()}"
            )
        count = numel(scale_tensor.dims)
        if len(scale_tensor.dims) > 1 or count not in (1, rank, -1):
            raise InvalidArgumentError(
                f"argument 'scale_tensor' must be 0-D or 1-D with 1 or {rank} values, got dims "
                f"{list(scale_tensor.dims)}"
            )
    if out_size is not None:
        if out_size.dtype is not DataType.INT32:
            raise InvalidArgumentError(
                f"argument 'out_size' must be int32, got {out_size.dtype.name.lower()}"
            )
        if len(out_size.dims) != 1 or not extents_match(out_size.dims[0], rank, config):
            raise InvalidArgumentError(
                f"argument 'out_size' must be 1-D with {rank} values, got dims "
                f"{list(out_size.dims)}"
            )
    return bool(size_tensor) or scale_tensor is not None or out_size is not None


# The input ranks each interpolation method takes, as PHI's InterpolateInferMeta dispatches them
INTERP_RANKS: dict[str, tuple[int, ...]] = {
    "nearest": (4, 5),
    "bilinear": (4,),
    "bicubic": (4,),
    "linear": (3,),
    "trilinear": (5,),
}


def interpolate_infer_meta(
    x: MetaTensor,
    out_size: MetaTensor | None,
    size_tensor: list[MetaTensor] | None,
    scale_tensor: MetaTensor | None,
    data_format: str,
    out_d: int,
    out_h: int,
    out_w: int,
    scale: tuple[float, ...],
    interp_method: str,
    align_corners: bool,
    align_mode: int,
    output: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's InterpolateInferMeta: the input's rank must be one ``interp_method`` takes
    (``INTERP_RANKS``: linear 3-D, bilinear and bicubic 4-D, trilinear 5-D, nearest 4-D or
    5-D); output size from ``scale`` or ``out_d``/``out_h``/``out_w``; sizes given as tensors
    (``out_size``, ``size_tensor``, ``scale_tensor``) are values, so the spatial extents are -1
    here and the kernel's result gives them."""
    dims = tuple(x.dims)
    if interp_method not in INTERP_RANKS:
        raise InvalidArgumentError(
            f"argument 'interp_method' must be one of {list(INTERP_RANKS)}, got "
            f"{interp_method!r}"
        )
    if len(dims) not in INTERP_RANKS[interp_method]:
        expected = " or ".join(f"{rank}-D" for rank in INTERP_RANKS[interp_method])
        raise InvalidArgumentError(
            f"argument 'x': {interp_method} interpolation takes a {expected} input, got a "
            f"{len(dims)}-D one (dims {list(dims)})"
        )
    # The op's layout is what F.interpolate passes: "NCHW" for channels first and "NHWC" (or
    # "NDHWC" for a 5-D input) for channels last, whatever the rank. PHI's kernel reads any
    # layout but NCHW as channels last, "NCDHW" included: refused here rather than silently
    # read that way.
    formats = ("NCHW", "NHWC") if len(dims) < 5 else ("NCHW", "NHWC", "NDHWC")
    if data_format not in formats:
        hint = (
            "; PaddlePaddle's op reads 'NCDHW' as channels last: pass 'NCHW' for channels "
            "first, as F.interpolate does"
            if data_format == "NCDHW"
            else ""
        )
        raise InvalidArgumentError(
            f"argument 'data_format' must be one of {list(formats)} for a {len(dims)}-D "
            f"input, got {data_format!r}{hint}"
        )
    if align_mode not in (0, 1):
        raise InvalidArgumentError(f"argument 'align_mode' must be 0 or 1, got {align_mode}")
    channel_last = data_format in ("NHWC", "NDHWC")
    spatial = dims[1:-1] if channel_last else dims[2:]
    if check_interpolate_size_tensors(out_size, size_tensor, scale_tensor, len(spatial), config):
        sizes: tuple[int, ...] = (-1,) * len(spatial)
    else:
        sizes, _ = interpolate_out_sizes(spatial, out_d, out_h, out_w, scale)
    if channel_last:
        output.set_dims((dims[0],) + sizes + (dims[-1],))
    else:
        output.set_dims(dims[:2] + sizes)
    output.set_dtype(x.dtype)
    output.set_layout(x.layout)


# add_n and more multi-input ops --------------------------------------------------------------


def add_n_infer_meta(
    inputs: list[MetaTensor], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """The elementwise sum of ``inputs``: all the same dims (empty ones aside), the first
    input's dtype."""
    _require_tensors(inputs)
    dims = None
    for position, item in enumerate(inputs):
        if numel(item.dims) == 0 and len(inputs) > 1:
            continue
        if dims is None:
            dims = item.dims
        elif dims_match(item.dims, dims, config):
            dims = merge_dims(dims, item.dims)
        else:
            raise InvalidArgumentError(
                f"argument 'inputs[{position}]' must have the dims of the inputs before it, "
                f"{list(dims)}, got {list(item.dims)}"
            )
    out.set_dims(inputs[0].dims if dims is None else dims)
    out.set_dtype(inputs[0].dtype)
    out.set_layout(inputs[0].layout)


def meshgrid_infer_meta(
    inputs: list[MetaTensor], outputs: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """Grids of the 0-D or 1-D ``inputs``: each output has dims [len(inputs[0]), ...]."""
    _require_tensors(inputs)
    sizes = []
    for position, item in enumerate(inputs):
        if len(item.dims) > 1:
            raise InvalidArgumentError(
                f"argument 'inputs[{position}]' must be 0-D or 1-D, got dims {list(item.dims)}"
            )
        sizes.append(item.dims[0] if item.dims else 1)
    for item, out in zip(inputs, outputs):
        out.set_dims(tuple(sizes))
        out.set_dtype(item.dtype)
        out.set_layout(item.layout)


# -- PaddlePaddle 3.3.1's other in-place optimizer ops (issues 24 and 25) -------------------------


def _optimizer_meta(
    param: MetaTensor,
    same_dims: tuple[tuple[MetaTensor | None, str], ...],
    one_element: tuple[tuple[MetaTensor | None, str], ...],
    outputs: tuple[tuple[MetaTensor | None, MetaTensor | None], ...],
    config: MetaConfig,
) -> None:
    """The checks every optimizer op shares: the tensors of ``same_dims`` (None: absent) have
    ``param``'s dims, those of ``one_element`` hold one element; each output of ``outputs``
    takes its input's meta (an absent input leaves its output unset)."""
    for tensor, name in same_dims:
        if tensor is not None:
            _require_param_dims(tensor, name, param, config)
    for tensor, name in one_element:
        if tensor is not None:
            _require_one_element(tensor, name, config)
    for source, out in outputs:
        if source is not None and out is not None:
            out.share_meta(source)


def adagrad_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    moment: MetaTensor,
    learning_rate: MetaTensor,
    master_param: MetaTensor | None,
    epsilon: float,
    multi_precision: bool,
    param_out: MetaTensor,
    moment_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``grad``, ``moment`` and ``master_param`` have ``param``'s
    dims, ``learning_rate`` holds one element."""
    _optimizer_meta(
        param,
        ((grad, "grad"), (moment, "moment"), (master_param, "master_param")),
        ((learning_rate, "learning_rate"),),
        ((param, param_out), (moment, moment_out)),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def rmsprop_infer_meta(
    param: MetaTensor,
    mean_square: MetaTensor,
    grad: MetaTensor,
    moment: MetaTensor,
    learning_rate: MetaTensor,
    mean_grad: MetaTensor | None,
    master_param: MetaTensor | None,
    epsilon: float,
    decay: float,
    momentum: float,
    centered: bool,
    multi_precision: bool,
    param_out: MetaTensor,
    moment_out: MetaTensor,
    mean_square_out: MetaTensor,
    mean_grad_out: MetaTensor,
    master_param_outs: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; the state tensors have ``param``'s dims,
    ``learning_rate`` holds one element; ``centered`` needs ``mean_grad``."""
    if centered and mean_grad is None:
        raise InvalidArgumentError(
            "argument 'mean_grad' is None, but centered is true (it needs the running mean of "
            "the gradient)"
        )
    _optimizer_meta(
        param,
        (
            (mean_square, "mean_square"),
            (grad, "grad"),
            (moment, "moment"),
            (mean_grad, "mean_grad"),
            (master_param, "master_param"),
        ),
        ((learning_rate, "learning_rate"),),
        (
            (param, param_out),
            (moment, moment_out),
            (mean_square, mean_square_out),
            (mean_grad, mean_grad_out),
        ),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_outs)


def adamax_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    moment: MetaTensor,
    inf_norm: MetaTensor,
    beta1_pow: MetaTensor,
    master_param: MetaTensor | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    multi_precision: bool,
    param_out: MetaTensor,
    moment_out: MetaTensor,
    inf_norm_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``grad``, ``moment``, ``inf_norm`` and ``master_param``
    have ``param``'s dims, ``learning_rate`` and ``beta1_pow`` hold one element."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (moment, "moment"),
            (inf_norm, "inf_norm"),
            (master_param, "master_param"),
        ),
        ((learning_rate, "learning_rate"), (beta1_pow, "beta1_pow")),
        ((param, param_out), (moment, moment_out), (inf_norm, inf_norm_out)),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def adadelta_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    avg_squared_grad: MetaTensor,
    avg_squared_update: MetaTensor,
    learning_rate: MetaTensor,
    master_param: MetaTensor | None,
    rho: float,
    epsilon: float,
    multi_precision: bool,
    param_out: MetaTensor,
    moment_out: MetaTensor,
    inf_norm_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input (``moment_out`` is ``avg_squared_grad``'s, ``inf_norm_out``
    ``avg_squared_update``'s, PaddlePaddle's names); the state has ``param``'s dims,
    ``learning_rate`` holds one element."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (avg_squared_grad, "avg_squared_grad"),
            (avg_squared_update, "avg_squared_update"),
            (master_param, "master_param"),
        ),
        ((learning_rate, "learning_rate"),),
        (
            (param, param_out),
            (avg_squared_grad, moment_out),
            (avg_squared_update, inf_norm_out),
        ),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def lamb_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    beta1_pow: MetaTensor,
    beta2_pow: MetaTensor,
    master_param: MetaTensor | None,
    skip_update: MetaTensor | None,
    weight_decay: float,
    beta1: float,
    beta2: float,
    epsilon: float,
    always_adapt: bool,
    multi_precision: bool,
    param_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    beta1_pow_out: MetaTensor | None,
    beta2_pow_out: MetaTensor | None,
    master_param_outs: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``grad``, the moments and ``master_param`` have
    ``param``'s dims; ``learning_rate``, the beta powers and ``skip_update`` hold one
    element."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (moment1, "moment1"),
            (moment2, "moment2"),
            (master_param, "master_param"),
        ),
        (
            (learning_rate, "learning_rate"),
            (beta1_pow, "beta1_pow"),
            (beta2_pow, "beta2_pow"),
            (skip_update, "skip_update"),
        ),
        (
            (param, param_out),
            (moment1, moment1_out),
            (moment2, moment2_out),
            (beta1_pow, beta1_pow_out),
            (beta2_pow, beta2_pow_out),
        ),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_outs)


def n_adam_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    momentum_decay_pow: MetaTensor,
    beta2_pow: MetaTensor,
    mu_product: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    master_param: MetaTensor | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    momentum_decay: float,
    multi_precision: bool,
    param_out: MetaTensor,
    momentum_decay_pow_out: MetaTensor,
    beta2_pow_out: MetaTensor,
    mu_product_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """NAdam's (PHI's ``NAdamInferMeta``): every output like its input; the state tensors
    (PaddlePaddle keeps the powers per element) have ``param``'s dims, ``learning_rate``
    holds one element."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (momentum_decay_pow, "momentum_decay_pow"),
            (beta2_pow, "beta2_pow"),
            (mu_product, "mu_product"),
            (moment1, "moment1"),
            (moment2, "moment2"),
            (master_param, "master_param"),
        ),
        ((learning_rate, "learning_rate"),),
        (
            (param, param_out),
            (momentum_decay_pow, momentum_decay_pow_out),
            (beta2_pow, beta2_pow_out),
            (mu_product, mu_product_out),
            (moment1, moment1_out),
            (moment2, moment2_out),
        ),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def r_adam_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    beta1_pow: MetaTensor,
    beta2_pow: MetaTensor,
    rho: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    master_param: MetaTensor | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    multi_precision: bool,
    param_out: MetaTensor,
    beta1_pow_out: MetaTensor,
    beta2_pow_out: MetaTensor,
    rho_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """RAdam's (PHI's ``RAdamInferMeta``): every output like its input; the state tensors
    have ``param``'s dims, ``learning_rate`` holds one element."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (beta1_pow, "beta1_pow"),
            (beta2_pow, "beta2_pow"),
            (rho, "rho"),
            (moment1, "moment1"),
            (moment2, "moment2"),
            (master_param, "master_param"),
        ),
        ((learning_rate, "learning_rate"),),
        (
            (param, param_out),
            (beta1_pow, beta1_pow_out),
            (beta2_pow, beta2_pow_out),
            (rho, rho_out),
            (moment1, moment1_out),
            (moment2, moment2_out),
        ),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def rprop_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    prev: MetaTensor,
    learning_rate: MetaTensor,
    master_param: MetaTensor | None,
    learning_rate_range: MetaTensor,
    etas: MetaTensor,
    multi_precision: bool,
    param_out: MetaTensor,
    prev_out: MetaTensor,
    learning_rate_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``grad``, ``prev``, ``learning_rate`` (one rate per
    element) and ``master_param`` have ``param``'s dims; ``learning_rate_range`` (min, max)
    and ``etas`` (negative, positive) hold two elements."""
    _optimizer_meta(
        param,
        (
            (grad, "grad"),
            (prev, "prev"),
            (learning_rate, "learning_rate"),
            (master_param, "master_param"),
        ),
        (),
        ((param, param_out), (prev, prev_out), (learning_rate, learning_rate_out)),
        config,
    )
    for tensor, name in ((learning_rate_range, "learning_rate_range"), (etas, "etas")):
        if not extents_match(numel(tensor.dims), 2, config):
            raise InvalidArgumentError(
                f"argument '{name}' must hold exactly two elements, got dims "
                f"{list(tensor.dims)} ({numel(tensor.dims)} elements)"
            )
    _master_param_out(param, master_param, multi_precision, master_param_out)


def asgd_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    d: MetaTensor,
    y: MetaTensor,
    n: MetaTensor,
    master_param: MetaTensor | None,
    multi_precision: bool,
    param_out: MetaTensor,
    d_out: MetaTensor,
    y_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``grad``, ``d``, ``y`` and ``master_param`` have
    ``param``'s dims; ``learning_rate`` and ``n`` hold one element."""
    _optimizer_meta(
        param,
        ((grad, "grad"), (d, "d"), (y, "y"), (master_param, "master_param")),
        ((learning_rate, "learning_rate"), (n, "n")),
        ((param, param_out), (d, d_out), (y, y_out)),
        config,
    )
    _master_param_out(param, master_param, multi_precision, master_param_out)


# Rnn (paddle/phi/infermeta/multiary.cc RnnInferMeta; the reserve and dropout-state extents are
# those paddle/phi/kernels/cpu/rnn_functor.h allocates) ------------------------------------------

_RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def rnn_reserve_rows(mode: str, num_layers: int) -> int:
    """Rows of the rnn op's ``reserve`` (each D*T*B*H wide), as PaddlePaddle's CPU kernel sizes
    it: the gate values of every layer, the cell values (LSTM, GRU) and cell activations (LSTM),
    and the hidden outputs of every layer but the last."""
    gates = _RNN_GATES[mode]
    extra = 2 if mode == "LSTM" else 1 if mode == "GRU" else 0
    return (gates + extra) * num_layers + num_layers - 1


def rnn_infer_meta(
    x: MetaTensor,
    pre_state: list[MetaTensor],
    weight_list: list[MetaTensor],
    sequence_length: MetaTensor | None,
    dropout_prob: float,
    is_bidirec: bool,
    input_size: int,
    hidden_size: int,
    num_layers: int,
    mode: str,
    seed: int,
    is_test: bool,
    out: MetaTensor,
    dropout_state: MetaTensor,
    state: list[MetaTensor],
    reserve: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's RnnInferMeta: ``x`` [T, B, input_size] (time-major), ``pre_state`` two (LSTM) or
    one tensors [num_layers * D, B, hidden_size], ``weight_list`` 4 * num_layers * D tensors in
    PaddlePaddle's flattened order; ``out`` [T, B, D * hidden_size], ``state`` like
    ``pre_state``. When training, ``dropout_state`` is a uint8 mask of ``out``'s dims and
    ``reserve`` [rows, D*T*B*H] of x's dtype (rnn_reserve_rows); at inference both are empty."""
    if mode not in _RNN_GATES:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of 'LSTM', 'GRU', 'RNN_TANH' and 'RNN_RELU', got {mode!r}"
        )
    dims = tuple(x.dims)
    if len(dims) != 3:
        raise InvalidArgumentError(
            f"argument 'x' must be 3-D [time_steps, batch_size, input_size], got dims {list(dims)}"
        )
    if num_layers < 1 or hidden_size < 1 or input_size < 1:
        raise InvalidArgumentError(
            f"arguments 'num_layers', 'hidden_size' and 'input_size' must be positive, got "
            f"{num_layers}, {hidden_size} and {input_size}"
        )
    if not 0.0 <= dropout_prob <= 1.0:
        raise InvalidArgumentError(f"argument 'dropout_prob' must be in [0, 1], got {dropout_prob}")
    if not extents_match(dims[2], input_size, config):
        raise InvalidArgumentError(
            f"argument 'x' has {dims[2]} features (dims {list(dims)}), but input_size is {input_size}"
        )
    directions = 2 if is_bidirec else 1
    if sequence_length is not None:
        if len(sequence_length.dims) != 1 or not extents_match(
            sequence_length.dims[0], dims[1], config
        ):
            raise InvalidArgumentError(
                f"argument 'sequence_length' must be 1-D with the batch size {dims[1]} of "
                f"argument 'x', got dims {list(sequence_length.dims)}"
            )
        if sequence_length.dtype not in (DataType.INT32, DataType.INT64):
            raise InvalidArgumentError(
                f"argument 'sequence_length' must be int32 or int64, got {sequence_length.dtype.name.lower()}"
            )
    states = 2 if mode == "LSTM" else 1
    if len(pre_state) != states:
        raise InvalidArgumentError(
            f"argument 'pre_state' of {mode} must hold {states} tensors, got {len(pre_state)}"
        )
    expected_state = (num_layers * directions, dims[1], hidden_size)
    for index, tensor in enumerate(pre_state):
        if len(tensor.dims) != 3 or not dims_match(tuple(tensor.dims), expected_state, config):
            raise InvalidArgumentError(
                f"argument 'pre_state'[{index}] must have dims [num_layers * num_directions, "
                f"batch_size, hidden_size] = {list(expected_state)}, got {list(tensor.dims)}"
            )
        if not dims_match(tuple(tensor.dims), tuple(pre_state[0].dims), config):
            raise InvalidArgumentError(
                f"the tensors of argument 'pre_state' must have the same dims, got "
                f"{list(pre_state[0].dims)} and {list(tensor.dims)} (pre_state[{index}])"
            )
    if len(weight_list) != 4 * num_layers * directions:
        raise InvalidArgumentError(
            f"argument 'weight_list' must hold {4 * num_layers * directions} tensors (weight_ih, "
            f"weight_hh, bias_ih and bias_hh of each of {num_layers} layers and {directions} "
            f"directions), got {len(weight_list)}"
        )
    gate_rows = _RNN_GATES[mode] * hidden_size
    half = 2 * num_layers * directions
    for index, tensor in enumerate(weight_list):
        layer = index // (2 * directions) if index < half else (index - half) // (2 * directions)
        if index >= half:
            expected: tuple[int, ...] = (gate_rows,)
        elif index % 2:
            expected = (gate_rows, hidden_size)
        else:
            expected = (gate_rows, input_size if layer == 0 else directions * hidden_size)
        if not dims_match(tuple(tensor.dims), expected, config):
            raise InvalidArgumentError(
                f"argument 'weight_list'[{index}] of {mode} must have dims {list(expected)}, got "
                f"{list(tensor.dims)}"
            )
    out_dims = (dims[0], dims[1], directions * hidden_size)
    out.set_dims(out_dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)
    for source, target in zip(pre_state, state):
        target.set_dims(tuple(source.dims))
        target.set_dtype(x.dtype)
        target.set_layout(x.layout)
    dropout_state.set_dims((0,) if is_test else out_dims)
    dropout_state.set_dtype(DataType.UINT8)
    dropout_state.set_layout(x.layout)
    if reserve is not None:
        if is_test:
            reserve.set_dims((0,))
        else:
            reserve.set_dims((rnn_reserve_rows(mode, num_layers), numel(out_dims)))
        reserve.set_dtype(x.dtype)
        reserve.set_layout(x.layout)
