"""The classic layers of ``paddle.static.nn``: ``fc``, ``conv2d``, ``batch_norm``,
``embedding`` and ``layer_norm``, for static-graph training code written as PaddlePaddle's (``static.data``,
``static.nn.fc``, ``optimizer.minimize``, ``Executor.run(startup)``, ``Executor.run(main)``).

Each call creates its parameters with ``create_parameter`` (a `builtin.parameter` in the main
program, its initializer in the startup program), named as PaddlePaddle 3.3.1 names them:
``fc_N.w_0`` / ``fc_N.b_0``, ``conv2d_N.w_0`` / ``conv2d_N.b_0``, ``batch_norm_N.w_0`` (scale),
``.b_0`` (bias), ``.w_1`` (moving mean), ``.w_2`` (moving variance), ``embedding_N.w_0``, ``layer_norm_N.w_0`` / ``.b_0``; one
counter per layer kind (``unique_name_guard`` restarts them). A ``ParamAttr`` (or anything with
``name``, ``initializer`` and ``trainable``), a str (the parameter's name) or ``False`` (no bias)
configures a parameter, as there. PaddlePaddle 3.3.1 builds ``fc`` in PIR programs only; its
``conv2d``, ``batch_norm``, ``embedding`` and ``layer_norm`` need the legacy program (``FLAGS_enable_pir_api=0``),
whose ops phiops writes as the PIR ops computing the same (`pd_op.conv2d`, `pd_op.batch_norm_`,
`pd_op.embedding`, `pd_op.layer_norm`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Value
from phiops.runtime.static.build import dtype_of_type
from phiops.runtime.static.initializer import Constant, Initializer, Normal, XavierUniform
from phiops.runtime.static.program import unique_name
from phiops.runtime.static.variables import _require_static, create_parameter

__all__ = ["fc", "conv2d", "batch_norm", "embedding", "layer_norm"]

_FLOATS = (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64)


def _value(op: str, name: str, value: Any) -> Value:
    if not isinstance(value, Value):
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' expects a Value of a static program (phi.static.data or "
            f"an op's result), got {type(value).__name__}"
        )
    return value


def _float_dtype(op: str, name: str, value: Value) -> DataType:
    dtype = dtype_of_type(value.type)
    if dtype not in _FLOATS:
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' must be float16, bfloat16, float32 or float64, got "
            f"{dtype.name.lower()}"
        )
    return dtype


def _attr(op: str, argument: str, attr: Any) -> tuple[str | None, Initializer | None, bool] | None:
    """(name, initializer, trainable) of a parameter attribute; None for ``False`` (no
    parameter)."""
    if attr is False:
        return None
    if attr is None or attr is True:
        return None, None, True
    if isinstance(attr, str):
        return attr, None, True
    if isinstance(attr, Initializer):
        return None, attr, True
    if all(hasattr(attr, key) for key in ("name", "initializer", "trainable")):
        if attr.initializer is not None and not isinstance(attr.initializer, Initializer):
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' has initializer "
                f"{type(attr.initializer).__name__}, not a phi.nn.initializer"
            )
        return attr.name, attr.initializer, bool(attr.trainable)
    raise InvalidArgumentError(
        f"{op}(): argument '{argument}' expects a ParamAttr, a str (the name), an initializer, "
        f"None or False, got {type(attr).__name__} {attr!r}"
    )


def _parameter(
    op: str,
    argument: str,
    attr: tuple[str | None, Initializer | None, bool],
    default_name: str,
    shape: Sequence[int],
    dtype: DataType,
    default_initializer: Initializer,
    is_bias: bool = False,
) -> Value:
    name, initializer, trainable = attr
    value = create_parameter(
        list(shape),
        dtype,
        name or default_name,
        default_initializer=initializer or default_initializer,
        is_bias=is_bias,
    )
    if not trainable:
        _freeze(value)
    return value


def _freeze(value: Value) -> None:
    """A persistable parameter the optimizer leaves alone (moving statistics)."""
    op = value.define_op
    op.attributes["trainable"] = Attribute("array", (Attribute("bool", False),))
    op.attributes["stop_gradient"] = Attribute("array", (Attribute("bool", True),))


def _activation(op: str, out: Value, act: Any) -> Value:
    if act is None:
        return out
    if not isinstance(act, str):
        raise InvalidArgumentError(
            f"{op}(): the activation expects an op name such as 'relu', got {type(act).__name__}"
        )
    try:
        function = op_api(act)
    except Exception:
        raise InvalidArgumentError(f"{op}(): unknown activation {act!r} (an op name: 'relu', ...)")
    return function(out)


def _positive_int(op: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' expects a positive int, got {type(value).__name__} "
            f"{value!r}"
        )
    return value


def fc(
    x: Any,
    size: int,
    num_flatten_dims: int = 1,
    weight_attr: Any = None,
    bias_attr: Any = None,
    activation: str | None = None,
    name: str | None = None,
) -> Value:
    """A fully connected layer: each input (a Value, or a list of them) flattened to 2-D at
    ``num_flatten_dims`` (-1: the last axis) and multiplied by its own weight ``fc_N.w_i``
    ([flattened extent, size], XavierUniform), the products summed, the bias ``fc_N.b_0``
    ([size], zeros) added and ``activation`` (an op name) applied."""
    _require_static("fc")
    size = _positive_int("fc", "size", size)
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    if not inputs:
        raise InvalidArgumentError("fc(): argument 'x' is an empty list")
    for position, value in enumerate(inputs):
        _value("fc", "x" if len(inputs) == 1 else f"x[{position}]", value)
    dtype = _float_dtype("fc", "x", inputs[0])
    if isinstance(weight_attr, (list, tuple)):
        weight_attrs = list(weight_attr)
        if len(weight_attrs) != len(inputs):
            raise InvalidArgumentError(
                f"fc(): argument 'weight_attr' has {len(weight_attrs)} entries for "
                f"{len(inputs)} inputs"
            )
    else:
        weight_attrs = [weight_attr] * len(inputs)
    if isinstance(num_flatten_dims, bool) or not isinstance(num_flatten_dims, int):
        raise InvalidArgumentError(
            f"fc(): argument 'num_flatten_dims' expects an int, got {num_flatten_dims!r}"
        )
    layer = unique_name("fc")
    products = []
    flatten = num_flatten_dims
    for index, (value, attr) in enumerate(zip(inputs, weight_attrs)):
        dims = list(value.type.dims)
        if flatten == -1:
            flatten = len(dims) - 1
        if len(dims) < 2 or not 0 < flatten < len(dims):
            raise InvalidArgumentError(
                f"fc(): argument 'num_flatten_dims' must be in [1, rank - 1] (or -1) for an "
                f"input of rank {len(dims)}, got {num_flatten_dims}"
            )
        tail = dims[flatten:]
        if any(d < 0 for d in tail):
            raise InvalidArgumentError(
                f"fc(): the input's extents after num_flatten_dims ({tail}) must be known"
            )
        weight_meta = _attr("fc", "weight_attr", attr)
        if weight_meta is None:
            raise InvalidArgumentError("fc(): argument 'weight_attr' cannot be False")
        weight = _parameter(
            "fc",
            "weight_attr",
            weight_meta,
            f"{layer}.w_{index}",
            [math.prod(tail), size],
            dtype,
            XavierUniform(),
        )
        if len(dims) > 2:
            value = op_api("reshape")(value, [*dims[:flatten], math.prod(tail)])
        products.append(op_api("matmul")(value, weight, False, False))
    out = products[0] if len(products) == 1 else op_api("add_n")(products)
    bias_meta = _attr("fc", "bias_attr", bias_attr)
    if bias_meta is not None:
        bias = _parameter(
            "fc", "bias_attr", bias_meta, f"{layer}.b_0", [size], dtype, Constant(0.0), True
        )
        out = op_api("add")(out, bias)
    return _activation("fc", out, activation)


def _pair(op: str, name: str, value: Any) -> list[int]:
    items = [value, value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (
        not isinstance(items, (list, tuple))
        or len(items) != 2
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in items)
    ):
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' expects an int or a pair of ints, got {value!r}"
        )
    return list(items)


def _conv_padding(padding: Any) -> tuple[list[int], str]:
    if isinstance(padding, str):
        algorithm = padding.upper()
        if algorithm not in ("SAME", "VALID"):
            raise InvalidArgumentError(
                f"conv2d(): argument 'padding' as a str must be 'SAME' or 'VALID', got {padding!r}"
            )
        return [0, 0], algorithm
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise InvalidArgumentError(
                f"conv2d(): argument 'padding' expects ints (per-side lists are not implemented), "
                f"got {padding!r}"
            )
        top, bottom, left, right = padding
        if top == bottom and left == right:
            return [top, left], "EXPLICIT"
        return list(padding), "EXPLICIT"
    return _pair("conv2d", "padding", padding), "EXPLICIT"


def conv2d(
    input: Any,
    num_filters: int,
    filter_size: Any,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int | None = None,
    param_attr: Any = None,
    bias_attr: Any = None,
    use_cudnn: bool = True,
    act: str | None = None,
    name: str | None = None,
    data_format: str = "NCHW",
) -> Value:
    """A 2-D convolution of ``input`` (NCHW or NHWC) with the filter ``conv2d_N.w_0``
    ([num_filters, channels / groups, kh, kw], Normal(0, sqrt(2 / (kh * kw * channels))) by
    default), plus the bias ``conv2d_N.b_0`` ([num_filters], zeros) and ``act``."""
    _require_static("conv2d")
    input = _value("conv2d", "input", input)
    dtype = _float_dtype("conv2d", "input", input)
    num_filters = _positive_int("conv2d", "num_filters", num_filters)
    if data_format not in ("NCHW", "NHWC"):
        raise InvalidArgumentError(
            f"conv2d(): argument 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}"
        )
    dims = list(input.type.dims)
    if len(dims) != 4:
        raise InvalidArgumentError(
            f"conv2d(): argument 'input' must be 4-D ({data_format}), got shape {dims}"
        )
    channels = dims[1] if data_format == "NCHW" else dims[3]
    if channels < 0:
        raise InvalidArgumentError("conv2d(): the input's channel extent must be known")
    groups = 1 if groups is None else _positive_int("conv2d", "groups", groups)
    if channels % groups or num_filters % groups:
        raise InvalidArgumentError(
            f"conv2d(): channels ({channels}) and num_filters ({num_filters}) must be divisible "
            f"by groups ({groups})"
        )
    kernel = _pair("conv2d", "filter_size", filter_size)
    strides = _pair("conv2d", "stride", stride)
    dilations = _pair("conv2d", "dilation", dilation)
    paddings, algorithm = _conv_padding(padding)
    layer = unique_name("conv2d")
    weight_meta = _attr("conv2d", "param_attr", param_attr)
    if weight_meta is None:
        raise InvalidArgumentError("conv2d(): argument 'param_attr' cannot be False")
    std = (2.0 / (kernel[0] * kernel[1] * channels)) ** 0.5
    weight = _parameter(
        "conv2d",
        "param_attr",
        weight_meta,
        f"{layer}.w_0",
        [num_filters, channels // groups, *kernel],
        dtype,
        Normal(0.0, std),
    )
    out = op_api("conv2d")(
        input, weight, strides, paddings, algorithm, dilations, groups, data_format
    )
    bias_meta = _attr("conv2d", "bias_attr", bias_attr)
    if bias_meta is not None:
        bias = _parameter(
            "conv2d",
            "bias_attr",
            bias_meta,
            f"{layer}.b_0",
            [num_filters],
            dtype,
            Constant(0.0),
            True,
        )
        shape = [1, num_filters, 1, 1] if data_format == "NCHW" else [1, 1, 1, num_filters]
        out = op_api("add")(out, op_api("reshape")(bias, shape))
    return _activation("conv2d", out, act)


def batch_norm(
    input: Any,
    act: str | None = None,
    is_test: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
    param_attr: Any = None,
    bias_attr: Any = None,
    data_layout: str = "NCHW",
    in_place: bool = False,
    name: str | None = None,
    moving_mean_name: str | None = None,
    moving_variance_name: str | None = None,
    do_model_average_for_mean_and_var: bool = True,
    use_global_stats: bool = False,
) -> Value:
    """Batch normalisation over the channel axis (axis 1 for ``NCHW``, the last for ``NHWC``):
    the scale ``batch_norm_N.w_0`` (ones), bias ``.b_0`` (zeros), and the moving mean ``.w_1``
    (zeros) and variance ``.w_2`` (ones), persistable and not trained, which training updates
    as ``moving = momentum * moving + (1 - momentum) * batch`` (`pd_op.batch_norm_`)."""
    _require_static("batch_norm")
    input = _value("batch_norm", "input", input)
    dtype = _float_dtype("batch_norm", "input", input)
    if data_layout not in ("NCHW", "NHWC"):
        raise InvalidArgumentError(
            f"batch_norm(): argument 'data_layout' must be 'NCHW' or 'NHWC', got {data_layout!r}"
        )
    dims = list(input.type.dims)
    if len(dims) < 2:
        raise InvalidArgumentError(
            f"batch_norm(): argument 'input' must have rank >= 2, got shape {dims}"
        )
    channels = dims[1] if data_layout == "NCHW" else dims[-1]
    if channels < 0:
        raise InvalidArgumentError("batch_norm(): the input's channel extent must be known")
    if in_place:
        raise UnimplementedError("batch_norm(): in_place=True is not implemented")
    layer = unique_name("batch_norm")
    param_dtype = DataType.FLOAT32 if dtype in (DataType.FLOAT16, DataType.BFLOAT16) else dtype
    scale_meta = _attr("batch_norm", "param_attr", param_attr)
    bias_meta = _attr("batch_norm", "bias_attr", bias_attr)
    if scale_meta is None or bias_meta is None:
        raise InvalidArgumentError(
            "batch_norm(): arguments 'param_attr' and 'bias_attr' cannot be False"
        )
    scale = _parameter(
        "batch_norm",
        "param_attr",
        scale_meta,
        f"{layer}.w_0",
        [channels],
        param_dtype,
        Constant(1.0),
    )
    bias = _parameter(
        "batch_norm",
        "bias_attr",
        bias_meta,
        f"{layer}.b_0",
        [channels],
        param_dtype,
        Constant(0.0),
        True,
    )
    mean = _parameter(
        "batch_norm",
        "moving_mean_name",
        (moving_mean_name, None, False),
        f"{layer}.w_1",
        [channels],
        param_dtype,
        Constant(0.0),
    )
    variance = _parameter(
        "batch_norm",
        "moving_variance_name",
        (moving_variance_name, None, False),
        f"{layer}.w_2",
        [channels],
        param_dtype,
        Constant(1.0),
    )
    out = op_api("batch_norm_")(
        input,
        mean,
        variance,
        scale,
        bias,
        bool(is_test),
        float(momentum),
        float(epsilon),
        data_layout,
        bool(use_global_stats),
        False,
    )[0]
    return _activation("batch_norm", out, act)


def embedding(
    input: Any,
    size: Sequence[int],
    is_sparse: bool = False,
    is_distributed: bool = False,
    padding_idx: int | None = None,
    param_attr: Any = None,
    dtype: Any = "float32",
) -> Value:
    """The rows of the table ``embedding_N.w_0`` (``size`` = [rows, width], XavierUniform)
    that the integer ``input`` indexes; the row ``padding_idx`` (negative counts from the end)
    gives zeros and no gradient."""
    from phiops.runtime.common import to_data_type

    _require_static("embedding")
    input = _value("embedding", "input", input)
    if dtype_of_type(input.type) not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"embedding(): argument 'input' must be int32 or int64, got "
            f"{dtype_of_type(input.type).name.lower()}"
        )
    if (
        not isinstance(size, (list, tuple))
        or len(size) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size)
    ):
        raise InvalidArgumentError(
            f"embedding(): argument 'size' expects [rows, width] of positive ints, got {size!r}"
        )
    if is_distributed:
        raise UnimplementedError("embedding(): is_distributed=True is not implemented")
    table_dtype = to_data_type(dtype, "embedding(): argument 'dtype'")
    rows = size[0]
    if padding_idx is None:
        index = -1
    elif (
        isinstance(padding_idx, bool)
        or not isinstance(padding_idx, int)
        or not (-rows <= padding_idx < rows)
    ):
        raise InvalidArgumentError(
            f"embedding(): argument 'padding_idx' must be an int in [{-rows}, {rows}), got "
            f"{padding_idx!r}"
        )
    else:
        index = padding_idx if padding_idx >= 0 else rows + padding_idx
    meta = _attr("embedding", "param_attr", param_attr)
    if meta is None:
        raise InvalidArgumentError("embedding(): argument 'param_attr' cannot be False")
    weight = _parameter(
        "embedding",
        "param_attr",
        meta,
        f"{unique_name('embedding')}.w_0",
        list(size),
        table_dtype,
        XavierUniform(),
    )
    return op_api("embedding")(input, weight, index, bool(is_sparse))


def layer_norm(
    input: Any,
    scale: bool = True,
    shift: bool = True,
    begin_norm_axis: int = 1,
    epsilon: float = 1e-05,
    param_attr: Any = None,
    bias_attr: Any = None,
    act: str | None = None,
    name: str | None = None,
) -> Value:
    """Layer normalisation over the axes from ``begin_norm_axis`` on, with the scale
    ``layer_norm_N.w_0`` (ones) when ``scale`` and the bias ``layer_norm_N.b_0`` (zeros) when
    ``shift``, both of the normalised axes' element count (`pd_op.layer_norm`), then ``act``."""
    _require_static("layer_norm")
    input = _value("layer_norm", "input", input)
    dtype = _float_dtype("layer_norm", "input", input)
    dims = list(input.type.dims)
    if (
        isinstance(begin_norm_axis, bool)
        or not isinstance(begin_norm_axis, int)
        or not (0 < begin_norm_axis < len(dims))
    ):
        raise InvalidArgumentError(
            f"layer_norm(): argument 'begin_norm_axis' must be an int in [1, {len(dims) - 1}] "
            f"for an input of rank {len(dims)}, got {begin_norm_axis!r}"
        )
    tail = dims[begin_norm_axis:]
    if any(d < 0 for d in tail):
        raise InvalidArgumentError(f"layer_norm(): the normalised extents {tail} must be known")
    layer = unique_name("layer_norm")
    weight = bias = None
    if scale:
        meta = _attr("layer_norm", "param_attr", param_attr)
        if meta is None:
            raise InvalidArgumentError(
                "layer_norm(): argument 'param_attr' cannot be False when scale is True"
            )
        weight = _parameter(
            "layer_norm",
            "param_attr",
            meta,
            f"{layer}.w_0",
            [math.prod(tail)],
            dtype,
            Constant(1.0),
        )
    if shift:
        meta = _attr("layer_norm", "bias_attr", bias_attr)
        if meta is None:
            raise InvalidArgumentError(
                "layer_norm(): argument 'bias_attr' cannot be False when shift is True"
            )
        bias = _parameter(
            "layer_norm",
            "bias_attr",
            meta,
            f"{layer}.b_0",
            [math.prod(tail)],
            dtype,
            Constant(0.0),
            True,
        )
    out = op_api("layer_norm")(input, weight, bias, float(epsilon), begin_norm_axis)
    if isinstance(out, tuple):
        out = out[0]
    return _activation("layer_norm", out, act)
