"""InferMeta functions of the quant24 ops (issue 24): fake quantization and dequantization
(fake_quantize_abs_max, fake_channel_wise_quantize_abs_max, fake_quantize_range_abs_max,
fake_quantize_moving_average_abs_max, fake_dequantize_max_abs, dequantize_abs_max,
dequantize_log, ...), the quantized embedding lookup_table_dequant and the optimizer ops
decayed_adagrad, ftrl and fused_adam_, following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/ and refusing, with a named argument, the inputs 3.3.1's kernels crash on
(channels of a 0-D tensor, a missing step counter or moving average in training)."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import dims_match, extents_match, numel, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "fake_quantize_abs_max_infer_meta",
    "fake_channel_wise_quantize_abs_max_infer_meta",
    "fake_channel_wise_quantize_dequantize_abs_max_infer_meta",
    "fake_dequantize_max_abs_infer_meta",
    "fake_channel_wise_dequantize_max_abs_infer_meta",
    "fake_quantize_range_abs_max_infer_meta",
    "fake_quant_or_with_dequant_moving_average_abs_max_infer_meta",
    "dequantize_abs_max_infer_meta",
    "dequantize_log_infer_meta",
    "lookup_table_dequant_infer_meta",
    "decayed_adagrad_infer_meta",
    "ftrl_infer_meta",
    "fused_adam_infer_meta",
]

_RUNTIME = MetaConfig()

_FLOATS = (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def _check_bit_length(bit_length: int) -> None:
    if not 1 <= bit_length <= 16:
        raise InvalidArgumentError(
            f"argument 'bit_length' must be between 1 and 16, got {bit_length}"
        )


def _check_floating(x: MetaTensor, name: str = "x") -> None:
    if x.dtype not in _FLOATS:
        raise InvalidArgumentError(
            f"argument '{name}' must be a floating tensor, got {x.dtype.name.lower()}"
        )


def _check_one_element(tensor: MetaTensor, name: str, config: MetaConfig) -> None:
    if not extents_match(numel(tensor.dims), 1, config):
        raise InvalidArgumentError(
            f"argument '{name}' must hold exactly one element, got dims {list(tensor.dims)}"
        )


def _check_quant_axis(x: MetaTensor, quant_axis: int) -> None:
    if quant_axis not in (0, 1):
        raise InvalidArgumentError(f"argument 'quant_axis' must be 0 or 1, got {quant_axis}")
    if len(x.dims) <= quant_axis:
        raise InvalidArgumentError(
            f"argument 'x' must have more than quant_axis ({quant_axis}) dimensions to have "
            f"channels along it, got dims {list(x.dims)}"
        )


def fake_quantize_abs_max_infer_meta(
    x: MetaTensor,
    bit_length: int,
    round_type: int,
    out: MetaTensor,
    out_scale: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype, out_scale one element of x's dtype."""
    _check_floating(x)
    _check_bit_length(bit_length)
    _set(out, x.dims, x.dtype, x)
    _set(out_scale, (1,), x.dtype, x)


def fake_channel_wise_quantize_abs_max_infer_meta(
    x: MetaTensor,
    bit_length: int,
    round_type: int,
    quant_axis: int,
    is_test: bool,
    out: MetaTensor,
    out_scale: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype, out_scale one element per channel of quant_axis."""
    if is_test:
        raise InvalidArgumentError(
            "argument 'is_test' is true, which quantizes with scales computed before, but the "
            "op has no input for them (PaddlePaddle 3.3.1 reads unset memory there); quantize "
            "with is_test false"
        )
    fake_channel_wise_quantize_dequantize_abs_max_infer_meta(
        x, bit_length, round_type, quant_axis, out, out_scale, config
    )


def fake_channel_wise_quantize_dequantize_abs_max_infer_meta(
    x: MetaTensor,
    bit_length: int,
    round_type: int,
    quant_axis: int,
    out: MetaTensor,
    out_scale: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype, out_scale one element per channel of quant_axis."""
    _check_floating(x)
    _check_bit_length(bit_length)
    _check_quant_axis(x, quant_axis)
    _set(out, x.dims, x.dtype, x)
    _set(out_scale, (x.dims[quant_axis],), x.dtype, x)


def fake_dequantize_max_abs_infer_meta(
    x: MetaTensor,
    scale: MetaTensor,
    max_range: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype; scale is one element of x's dtype."""
    _check_floating(x)
    _check_one_element(scale, "scale", config)
    if scale.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'scale' must have x's dtype {x.dtype.name.lower()}, "
            f"got {scale.dtype.name.lower()}"
        )
    _set(out, x.dims, x.dtype, x)


def fake_channel_wise_dequantize_max_abs_infer_meta(
    x: MetaTensor,
    scales: list[MetaTensor],
    quant_bits: tuple[int, ...],
    quant_axis: int,
    x_num_col_dims: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype; scales[0] holds one scale per channel, scales[1] (after a
    quantized matmul) one."""
    _check_floating(x)
    if quant_axis not in (0, 1):
        raise InvalidArgumentError(f"argument 'quant_axis' must be 0 or 1, got {quant_axis}")
    if x_num_col_dims < 1:
        raise InvalidArgumentError(
            f"argument 'x_num_col_dims' must be at least 1, got {x_num_col_dims}"
        )
    if len(scales) not in (1, 2):
        raise InvalidArgumentError(f"argument 'scales' must hold 1 or 2 tensors, got {len(scales)}")
    if len(quant_bits) != len(scales):
        raise InvalidArgumentError(
            f"argument 'quant_bits' must hold one number of bits per scale ({len(scales)}), "
            f"got {list(quant_bits)}"
        )
    for bits in quant_bits:
        if not 1 <= bits <= 32:
            raise InvalidArgumentError(
                f"argument 'quant_bits' must hold numbers between 1 and 32, got {list(quant_bits)}"
            )
    for i, scale in enumerate(scales):
        if scale.dtype != x.dtype:
            raise InvalidArgumentError(
                f"argument 'scales[{i}]' must have x's dtype {x.dtype.name.lower()}, "
                f"got {scale.dtype.name.lower()}"
            )
    axis = quant_axis if len(scales) == 1 else x_num_col_dims
    if len(x.dims) <= axis:
        raise InvalidArgumentError(
            f"argument 'x' must have more than {axis} dimensions to have channels along "
            f"dimension {axis}, got dims {list(x.dims)}"
        )
    if not extents_match(numel(scales[0].dims), x.dims[axis], config):
        raise InvalidArgumentError(
            f"argument 'scales[0]' must hold one scale per channel (x's dimension {axis}, "
            f"{x.dims[axis]}), got dims {list(scales[0].dims)}"
        )
    if len(scales) == 2:
        _check_one_element(scales[1], "scales[1]", config)
    _set(out, x.dims, x.dtype, x)


def fake_quantize_range_abs_max_infer_meta(
    x: MetaTensor,
    in_scale: MetaTensor,
    iter: MetaTensor | None,
    window_size: int,
    bit_length: int,
    is_test: bool,
    round_type: int,
    out: MetaTensor,
    out_scale: MetaTensor,
    out_scales: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype, out_scale one element, out_scales (in training)
    window_size."""
    _check_floating(x)
    _check_bit_length(bit_length)
    _check_one_element(in_scale, "in_scale", config)
    if in_scale.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'in_scale' must have x's dtype {x.dtype.name.lower()}, "
            f"got {in_scale.dtype.name.lower()}"
        )
    if window_size < 1:
        raise InvalidArgumentError(f"argument 'window_size' must be at least 1, got {window_size}")
    _set(out, x.dims, x.dtype, x)
    _set(out_scale, (1,), x.dtype, x)
    if is_test:
        return
    if iter is None:
        raise InvalidArgumentError(
            "argument 'iter' is None, but training (is_test false) needs the step counter"
        )
    _check_one_element(iter, "iter", config)
    if iter.dtype != DataType.INT64:
        raise InvalidArgumentError(
            f"argument 'iter' must be an int64 tensor, got {iter.dtype.name.lower()}"
        )
    _set(out_scales, (window_size,), x.dtype, x)


def fake_quant_or_with_dequant_moving_average_abs_max_infer_meta(
    x: MetaTensor,
    in_scale: MetaTensor,
    in_accum: MetaTensor | None,
    in_state: MetaTensor | None,
    moving_rate: float,
    bit_length: int,
    is_test: bool,
    round_type: int,
    out: MetaTensor,
    out_scale: MetaTensor,
    out_state: MetaTensor,
    out_accum: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out has x's dims and dtype, out_scale, out_state and out_accum one element each
    (out_state and out_accum None at test time without in_state and in_accum)."""
    _check_floating(x)
    _check_bit_length(bit_length)
    for name, tensor in (("in_scale", in_scale), ("in_accum", in_accum), ("in_state", in_state)):
        if tensor is None:
            if not is_test:
                raise InvalidArgumentError(
                    f"argument '{name}' is None, but training (is_test false) updates the "
                    "moving average from it"
                )
            continue
        _check_one_element(tensor, name, config)
        if tensor.dtype != x.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have x's dtype {x.dtype.name.lower()}, "
                f"got {tensor.dtype.name.lower()}"
            )
    _set(out, x.dims, x.dtype, x)
    _set(out_scale, (1,), x.dtype, x)
    if in_state is not None:
        _set(out_state, (1,), x.dtype, x)
    if in_accum is not None:
        _set(out_accum, (1,), x.dtype, x)


def dequantize_abs_max_infer_meta(
    x: MetaTensor,
    scale: MetaTensor,
    max_range: float,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: float32 with x's dims."""
    if x.dtype not in (DataType.INT8, DataType.INT16):
        raise InvalidArgumentError(
            f"argument 'x' must be an int8 or int16 tensor, got {x.dtype.name.lower()}"
        )
    _check_one_element(scale, "scale", config)
    if scale.dtype != DataType.FLOAT32:
        raise InvalidArgumentError(
            f"argument 'scale' must be a float32 tensor, got {scale.dtype.name.lower()}"
        )
    _set(out, x.dims, DataType.FLOAT32, x)


def dequantize_log_infer_meta(
    x: MetaTensor,
    dict: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: float32 with x's dims; dict holds the 128 values of the table."""
    if x.dtype != DataType.INT8:
        raise InvalidArgumentError(
            f"argument 'x' must be an int8 tensor, got {x.dtype.name.lower()}"
        )
    if dict.dtype != DataType.FLOAT32:
        raise InvalidArgumentError(
            f"argument 'dict' must be a float32 tensor, got {dict.dtype.name.lower()}"
        )
    if 0 <= numel(dict.dims) < 128:
        raise InvalidArgumentError(
            f"argument 'dict' must hold the 128 values of the table, got dims {list(dict.dims)}"
        )
    _set(out, x.dims, DataType.FLOAT32, x)


def lookup_table_dequant_infer_meta(
    w: MetaTensor,
    ids: MetaTensor,
    padding_idx: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: ids's dims without the last (which must be 1), then (w's width - 2) * 4 codes."""
    if len(w.dims) != 2:
        raise InvalidArgumentError(
            f"argument 'w' must be 2-D [rows, 2 + n], got dims {list(w.dims)}"
        )
    if w.dims[1] >= 0 and w.dims[1] < 3:
        raise InvalidArgumentError(
            f"argument 'w' must hold min, max and at least one float of codes per row, got dims "
            f"{list(w.dims)}"
        )
    if ids.dtype != DataType.INT64:
        raise InvalidArgumentError(
            f"argument 'ids' must be an int64 tensor, got {ids.dtype.name.lower()}"
        )
    if not ids.dims or not extents_match(ids.dims[-1], 1, config):
        raise InvalidArgumentError(
            f"argument 'ids' must have a last dimension of 1, got dims {list(ids.dims)}"
        )
    width = (w.dims[1] - 2) * 4 if w.dims[1] >= 0 else -1
    _set(out, ids.dims[:-1] + (width,), w.dtype, w)


def _check_like_param(tensor: MetaTensor, name: str, param: MetaTensor, config: MetaConfig) -> None:
    if not dims_match(tensor.dims, param.dims, config):
        raise InvalidArgumentError(
            f"argument '{name}' with dims {list(tensor.dims)} must have the dims of argument "
            f"'param' {list(param.dims)}"
        )
    if tensor.dtype != param.dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must have param's dtype {param.dtype.name.lower()}, got "
            f"{tensor.dtype.name.lower()}"
        )


def decayed_adagrad_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    moment: MetaTensor,
    learning_rate: MetaTensor,
    decay: float,
    epsilon: float,
    param_out: MetaTensor,
    moment_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """param_out and moment_out have param's dims and dtype."""
    _check_like_param(grad, "grad", param, config)
    _check_like_param(moment, "moment", param, config)
    _check_one_element(learning_rate, "learning_rate", config)
    _set(param_out, param.dims, param.dtype, param)
    _set(moment_out, param.dims, param.dtype, param)


def ftrl_infer_meta(
    param: MetaTensor,
    squared_accumulator: MetaTensor,
    linear_accumulator: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    l1: float,
    l2: float,
    lr_power: float,
    param_out: MetaTensor,
    squared_accum_out: MetaTensor,
    linear_accum_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The three outputs have param's dims and dtype."""
    _check_like_param(grad, "grad", param, config)
    _check_like_param(squared_accumulator, "squared_accumulator", param, config)
    _check_like_param(linear_accumulator, "linear_accumulator", param, config)
    _check_one_element(learning_rate, "learning_rate", config)
    for out in (param_out, squared_accum_out, linear_accum_out):
        _set(out, param.dims, param.dtype, param)


def fused_adam_infer_meta(
    params: list[MetaTensor],
    grads: list[MetaTensor],
    learning_rate: MetaTensor,
    moments1: list[MetaTensor],
    moments2: list[MetaTensor],
    moments2_max: list[MetaTensor] | None,
    beta1_pows: list[MetaTensor],
    beta2_pows: list[MetaTensor],
    master_params: list[MetaTensor] | None,
    skip_update: MetaTensor | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    chunk_size: int,
    weight_decay: float,
    use_adamw: bool,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
    params_out: list[MetaTensor],
    moments1_out: list[MetaTensor],
    moments2_out: list[MetaTensor],
    moments2_max_out: list[MetaTensor] | None,
    beta1_pows_out: list[MetaTensor],
    beta2_pows_out: list[MetaTensor],
    master_params_out: list[MetaTensor] | None,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Adam's checks for each parameter (grads, moments of its dims, one-element beta powers),
    every list as long as params; each output like its input."""
    if not params:
        raise InvalidArgumentError(
            "argument 'params' must hold at least one tensor, got an empty list"
        )
    lists = [("grads", grads), ("moments1", moments1), ("moments2", moments2)]
    lists += [("beta1_pows", beta1_pows), ("beta2_pows", beta2_pows)]
    if amsgrad and not moments2_max:
        raise InvalidArgumentError(
            "argument 'moments2_max' is None, but amsgrad is true (it needs the running "
            "maxima of the second moments)"
        )
    if moments2_max:
        lists.append(("moments2_max", moments2_max))
    if master_params:
        lists.append(("master_params", master_params))
    for name, tensors in lists:
        if len(tensors) != len(params):
            raise InvalidArgumentError(
                f"argument '{name}' must hold {len(params)} tensors (one per tensor of argument "
                f"'params'), got {len(tensors)}"
            )
    _check_one_element(learning_rate, "learning_rate", config)
    if skip_update is not None:
        _check_one_element(skip_update, "skip_update", config)
    for value, name in ((beta1, "beta1"), (beta2, "beta2"), (epsilon, "epsilon")):
        if isinstance(value, complex):
            raise InvalidArgumentError(f"argument '{name}' must be a real number, got {value!r}")
    for i, param in enumerate(params):
        for name, tensors in lists:
            if name in ("beta1_pows", "beta2_pows"):
                _check_one_element(tensors[i], f"{name}[{i}]", config)
            elif not dims_match(tensors[i].dims, param.dims, config):
                raise InvalidArgumentError(
                    f"argument '{name}[{i}]' with dims {list(tensors[i].dims)} must have the dims "
                    f"of argument 'params[{i}]' {list(param.dims)}"
                )
        params_out[i].share_meta(param)
        moments1_out[i].share_meta(moments1[i])
        moments2_out[i].share_meta(moments2[i])
        beta1_pows_out[i].share_meta(beta1_pows[i])
        beta2_pows_out[i].share_meta(beta2_pows[i])
        if moments2_max and moments2_max_out is not None:
            moments2_max_out[i].share_meta(moments2_max[i])
        if master_params and master_params_out is not None:
            master_params_out[i].share_meta(master_params[i])
