"""The classic layers of ``paddle.static.nn``: ``fc``, ``conv2d``, ``batch_norm``,
``embedding``, ``layer_norm``, ``conv2d_transpose``, ``conv3d``, ``conv3d_transpose``,
``group_norm``, ``instance_norm``, ``prelu``, ``bilinear_tensor_product``, ``spectral_norm``,
``deform_conv2d`` and ``row_conv``, for static-graph training code written as PaddlePaddle's
(``static.data``, ``static.nn.fc``, ``optimizer.minimize``, ``Executor.run(startup)``,
``Executor.run(main)``).

Each call creates its parameters with ``create_parameter`` (a `builtin.parameter` in the main
program, its initializer in the startup program), named as PaddlePaddle 3.3.1 names them:
``fc_N.w_0`` / ``fc_N.b_0``, ``conv2d_N.w_0`` / ``conv2d_N.b_0``, ``batch_norm_N.w_0`` (scale),
``.b_0`` (bias), ``.w_1`` (moving mean), ``.w_2`` (moving variance), ``embedding_N.w_0``,
``layer_norm_N.w_0`` / ``.b_0``, ``conv3d_N``, ``conv2d_transpose_N``, ``group_norm_N``,
``prelu_N``, ``deformable_conv_N`` (``deform_conv2d``), ...; one counter per layer kind
(``unique_name_guard`` restarts them). A ``ParamAttr`` (or anything with ``name``,
``initializer`` and ``trainable``), a str (the parameter's name) or ``False`` (no bias)
configures a parameter, as there. PaddlePaddle 3.3.1 builds ``fc`` in PIR programs only; the
other layers need its legacy program (``FLAGS_enable_pir_api=0``), whose ops phiops writes as
the PIR ops computing the same (`pd_op.conv2d`, `pd_op.batch_norm_`, `pd_op.embedding`,
`pd_op.layer_norm`, `pd_op.conv3d`, `pd_op.bilinear`, ...; ``row_conv``, a legacy op without a
PHI kernel, as `pd_op.pad`, `pd_op.slice`, `pd_op.multiply` and `pd_op.add`).
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

__all__ = [
    "fc",
    "conv2d",
    "batch_norm",
    "embedding",
    "layer_norm",
    "conv2d_transpose",
    "conv3d",
    "conv3d_transpose",
    "group_norm",
    "instance_norm",
    "prelu",
    "bilinear_tensor_product",
    "spectral_norm",
    "deform_conv2d",
    "row_conv",
]

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


def _ints(op: str, name: str, value: Any, count: int) -> list[int]:
    """An int repeated ``count`` times, or a list/tuple of ``count`` ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * count
    if (
        not isinstance(value, (list, tuple))
        or len(value) != count
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in value)
    ):
        raise InvalidArgumentError(
            f"{op}(): argument '{name}' expects an int or {count} ints, got {value!r}"
        )
    return list(value)


def _spatial_paddings(
    op: str, padding: Any, spatial: int, channel_last: bool
) -> tuple[list[int], str]:
    """PaddlePaddle's convolution paddings: 'SAME'/'VALID', an int, ``spatial`` ints, 2 *
    ``spatial`` ints (before/after per axis), or a pair per axis of the input including batch
    and channel (which must be [0, 0]); symmetric ones shortened to one per axis."""
    if isinstance(padding, str):
        algorithm = padding.upper()
        if algorithm not in ("SAME", "VALID"):
            raise InvalidArgumentError(
                f"{op}(): argument 'padding' as a str must be 'SAME' or 'VALID', got {padding!r}"
            )
        return [0] * spatial, algorithm
    if (
        isinstance(padding, (list, tuple))
        and len(padding) == spatial + 2
        and isinstance(padding[0], (list, tuple))
    ):
        pairs = [_ints(op, "padding", p, 2) for p in padding]
        outer = (0, spatial + 1) if channel_last else (0, 1)
        if any(pairs[i] != [0, 0] for i in outer):
            raise InvalidArgumentError(
                f"{op}(): argument 'padding' must be [0, 0] on the batch and channel axes, got "
                f"{padding!r}"
            )
        inner = pairs[1:-1] if channel_last else pairs[2:]
        padding = [p for pair in inner for p in pair]
    if isinstance(padding, (list, tuple)) and len(padding) == 2 * spatial:
        flat = _ints(op, "padding", padding, 2 * spatial)
        if all(flat[2 * i] == flat[2 * i + 1] for i in range(spatial)):
            return flat[::2], "EXPLICIT"
        return flat, "EXPLICIT"
    return _ints(op, "padding", padding, spatial), "EXPLICIT"


def _conv_input(
    op: str, input: Any, data_format: str, formats: tuple[str, str]
) -> tuple[Value, DataType, int]:
    """The input Value, its dtype and its (known) channel extent, for ``formats`` =
    (channel-first, channel-last)."""
    input = _value(op, "input", input)
    dtype = _float_dtype(op, "input", input)
    if data_format not in formats:
        raise InvalidArgumentError(
            f"{op}(): argument 'data_format' must be {formats[0]!r} or {formats[1]!r}, got "
            f"{data_format!r}"
        )
    dims = list(input.type.dims)
    if len(dims) != len(formats[0]):
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must be {len(formats[0])}-D ({data_format}), got shape "
            f"{dims}"
        )
    channels = dims[1] if data_format == formats[0] else dims[-1]
    if channels < 0:
        raise InvalidArgumentError(f"{op}(): the input's channel extent must be known")
    return input, dtype, channels


def _groups(op: str, groups: Any, channels: int, num_filters: int) -> int:
    groups = 1 if groups is None else _positive_int(op, "groups", groups)
    if channels % groups or num_filters % groups:
        raise InvalidArgumentError(
            f"{op}(): channels ({channels}) and num_filters ({num_filters}) must be divisible "
            f"by groups ({groups})"
        )
    return groups


def _add_channel_bias(
    op: str,
    out: Value,
    bias_attr: Any,
    layer: str,
    channels: int,
    dtype: DataType,
    channel_axis: int,
    rank: int,
) -> Value:
    """``out`` plus the bias ``<layer>.b_0`` ([channels], zeros) along ``channel_axis``, as
    PaddlePaddle's ``append_bias_op``; ``out`` itself for ``bias_attr=False``."""
    meta = _attr(op, "bias_attr", bias_attr)
    if meta is None:
        return out
    bias = _parameter(op, "bias_attr", meta, f"{layer}.b_0", [channels], dtype, Constant(0.0), True)
    shape = [1] * rank
    shape[channel_axis] = channels
    return op_api("add")(out, op_api("reshape")(bias, shape))


def _output_size(op: str, output_size: Any, spatial: int) -> list[int]:
    if output_size is None:
        return []
    if isinstance(output_size, Value):
        raise UnimplementedError(f"{op}(): a Value as 'output_size' is not implemented")
    sizes = _ints(op, "output_size", output_size, spatial)
    if any(s <= 0 for s in sizes):
        raise InvalidArgumentError(
            f"{op}(): argument 'output_size' expects positive ints, got {output_size!r}"
        )
    return sizes


def _conv_transpose(
    op: str,
    input: Any,
    num_filters: int,
    output_size: Any,
    filter_size: Any,
    padding: Any,
    stride: Any,
    dilation: Any,
    groups: Any,
    param_attr: Any,
    bias_attr: Any,
    use_cudnn: bool,
    act: str | None,
    data_format: str,
    formats: tuple[str, str],
) -> Value:
    _require_static(op)
    input, dtype, channels = _conv_input(op, input, data_format, formats)
    num_filters = _positive_int(op, "num_filters", num_filters)
    spatial = len(formats[0]) - 2
    groups = _groups(op, groups, channels, num_filters)
    strides = _ints(op, "stride", stride, spatial)
    dilations = _ints(op, "dilation", dilation, spatial)
    channel_last = data_format == formats[1]
    paddings, algorithm = _spatial_paddings(op, padding, spatial, channel_last)
    sizes = _output_size(op, output_size, spatial)
    if filter_size is None:
        if not sizes:
            raise InvalidArgumentError(
                f"{op}(): 'output_size' must be set when filter_size is None"
            )
        extents = list(input.type.dims)[1:-1] if channel_last else list(input.type.dims)[2:]
        if any(e < 0 for e in extents):
            raise InvalidArgumentError(
                f"{op}(): the input's spatial extents {extents} must be known to derive "
                "filter_size from output_size"
            )
        both = paddings if len(paddings) == 2 * spatial else [p for p in paddings for _ in (0, 1)]
        kernel = [
            (sizes[i] - (extents[i] - 1) * strides[i] + both[2 * i] + both[2 * i + 1] - 1)
            // dilations[i]
            + 1
            for i in range(spatial)
        ]
        if any(k <= 0 for k in kernel):
            raise InvalidArgumentError(
                f"{op}(): output_size {sizes} is too small for the input's extents {extents} "
                f"(filter size {kernel})"
            )
    else:
        kernel = _ints(op, "filter_size", filter_size, spatial)
    op_name = op
    if (
        op == "conv2d_transpose"
        and channels == groups
        and num_filters == channels
        and not use_cudnn
    ):
        op_name = "depthwise_conv2d_transpose"
    layer = unique_name(op_name)
    weight_meta = _attr(op, "param_attr", param_attr)
    if weight_meta is None:
        raise InvalidArgumentError(f"{op}(): argument 'param_attr' cannot be False")
    weight = _parameter(
        op,
        "param_attr",
        weight_meta,
        f"{layer}.w_0",
        [channels, num_filters // groups, *kernel],
        dtype,
        XavierUniform(),
    )
    # PaddlePaddle's conv3d_transpose names its layouts as the 2-D ones
    layout = ("NCHW", "NHWC")[channel_last]
    out = op_api(op_name)(
        input, weight, strides, paddings, [], sizes, algorithm, groups, dilations, layout
    )
    rank = spatial + 2
    out = _add_channel_bias(
        op, out, bias_attr, layer, num_filters, dtype, rank - 1 if channel_last else 1, rank
    )
    return _activation(op, out, act)


def conv2d_transpose(
    input: Any,
    num_filters: int,
    output_size: Any = None,
    filter_size: Any = None,
    padding: Any = 0,
    stride: Any = 1,
    dilation: Any = 1,
    groups: int | None = None,
    param_attr: Any = None,
    bias_attr: Any = None,
    use_cudnn: bool = True,
    act: str | None = None,
    name: str | None = None,
    data_format: str = "NCHW",
) -> Value:
    """A 2-D transposed convolution of ``input`` (NCHW or NHWC) with the filter
    ``conv2d_transpose_N.w_0`` ([channels, num_filters / groups, kh, kw], XavierUniform; the
    filter size derived from ``output_size`` when ``filter_size`` is None), plus the bias
    ``.b_0`` ([num_filters], zeros) and ``act`` (`pd_op.conv2d_transpose`; with
    ``use_cudnn=False`` and groups = channels = num_filters, ``depthwise_conv2d_transpose_N``
    and `pd_op.depthwise_conv2d_transpose`, as there)."""
    return _conv_transpose(
        "conv2d_transpose",
        input,
        num_filters,
        output_size,
        filter_size,
        padding,
        stride,
        dilation,
        groups,
        param_attr,
        bias_attr,
        use_cudnn,
        act,
        data_format,
        ("NCHW", "NHWC"),
    )


def conv3d_transpose(
    input: Any,
    num_filters: int,
    output_size: Any = None,
    filter_size: Any = None,
    padding: Any = 0,
    stride: Any = 1,
    dilation: Any = 1,
    groups: int | None = None,
    param_attr: Any = None,
    bias_attr: Any = None,
    use_cudnn: bool = True,
    act: str | None = None,
    name: str | None = None,
    data_format: str = "NCDHW",
) -> Value:
    """A 3-D transposed convolution of ``input`` (NCDHW or NDHWC) with the filter
    ``conv3d_transpose_N.w_0`` ([channels, num_filters / groups, kd, kh, kw], XavierUniform),
    plus the bias ``.b_0`` ([num_filters], zeros) and ``act`` (`pd_op.conv3d_transpose`)."""
    return _conv_transpose(
        "conv3d_transpose",
        input,
        num_filters,
        output_size,
        filter_size,
        padding,
        stride,
        dilation,
        groups,
        param_attr,
        bias_attr,
        use_cudnn,
        act,
        data_format,
        ("NCDHW", "NDHWC"),
    )


def conv3d(
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
    data_format: str = "NCDHW",
) -> Value:
    """A 3-D convolution of ``input`` (NCDHW or NDHWC) with the filter ``conv3d_N.w_0``
    ([num_filters, channels / groups, kd, kh, kw], Normal(0, sqrt(2 / (kd * kh * kw *
    channels)))), plus the bias ``.b_0`` ([num_filters], zeros) and ``act``
    (`pd_op.conv3d`)."""
    _require_static("conv3d")
    input, dtype, channels = _conv_input("conv3d", input, data_format, ("NCDHW", "NDHWC"))
    num_filters = _positive_int("conv3d", "num_filters", num_filters)
    groups = _groups("conv3d", groups, channels, num_filters)
    kernel = _ints("conv3d", "filter_size", filter_size, 3)
    strides = _ints("conv3d", "stride", stride, 3)
    dilations = _ints("conv3d", "dilation", dilation, 3)
    channel_last = data_format == "NDHWC"
    paddings, algorithm = _spatial_paddings("conv3d", padding, 3, channel_last)
    layer = unique_name("conv3d")
    weight_meta = _attr("conv3d", "param_attr", param_attr)
    if weight_meta is None:
        raise InvalidArgumentError("conv3d(): argument 'param_attr' cannot be False")
    std = (2.0 / (math.prod(kernel) * channels)) ** 0.5
    weight = _parameter(
        "conv3d",
        "param_attr",
        weight_meta,
        f"{layer}.w_0",
        [num_filters, channels // groups, *kernel],
        dtype,
        Normal(0.0, std),
    )
    out = op_api("conv3d")(
        input, weight, strides, paddings, algorithm, groups, dilations, data_format
    )
    out = _add_channel_bias(
        "conv3d", out, bias_attr, layer, num_filters, dtype, 4 if channel_last else 1, 5
    )
    return _activation("conv3d", out, act)


def _norm_input(op: str, input: Any, low: int, high: int) -> tuple[Value, DataType, list[int]]:
    input = _value(op, "input", input)
    dtype = _float_dtype(op, "input", input)
    dims = list(input.type.dims)
    if not low <= len(dims) <= high:
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must have rank {low} to {high}, got shape {dims}"
        )
    return input, dtype, dims


def group_norm(
    input: Any,
    groups: int,
    epsilon: float = 1e-05,
    param_attr: Any = None,
    bias_attr: Any = None,
    act: str | None = None,
    data_layout: str = "NCHW",
    name: str | None = None,
) -> Value:
    """Group normalisation: the channels (axis 1 for ``NCHW``, the last for ``NHWC``) split
    into ``groups``, each group normalised over its channels and the other axes, then scaled by
    ``group_norm_N.w_0`` (ones) and shifted by ``.b_0`` (zeros), then ``act``
    (`pd_op.group_norm`). As PaddlePaddle 3.3.1's, the scale is made only for a true
    ``param_attr`` and the bias only for a true ``bias_attr``: with the defaults (None) there
    is neither."""
    _require_static("group_norm")
    input, dtype, dims = _norm_input("group_norm", input, 2, 8)
    if data_layout not in ("NCHW", "NHWC"):
        raise InvalidArgumentError(
            f"group_norm(): argument 'data_layout' must be 'NCHW' or 'NHWC', got {data_layout!r}"
        )
    channels = dims[1] if data_layout == "NCHW" else dims[-1]
    if channels < 0:
        raise InvalidArgumentError("group_norm(): the input's channel extent must be known")
    groups = _positive_int("group_norm", "groups", groups)
    if channels % groups:
        raise InvalidArgumentError(
            f"group_norm(): the channels ({channels}) must be divisible by groups ({groups})"
        )
    layer = unique_name("group_norm")
    scale = bias = None
    if param_attr:
        scale = _parameter(
            "group_norm",
            "param_attr",
            _attr("group_norm", "param_attr", param_attr),
            f"{layer}.w_0",
            [channels],
            dtype,
            Constant(1.0),
        )
    if bias_attr:
        bias = _parameter(
            "group_norm",
            "bias_attr",
            _attr("group_norm", "bias_attr", bias_attr),
            f"{layer}.b_0",
            [channels],
            dtype,
            Constant(0.0),
            True,
        )
    out = op_api("group_norm")(input, scale, bias, float(epsilon), groups, data_layout)
    if isinstance(out, tuple):
        out = out[0]
    return _activation("group_norm", out, act)


def instance_norm(
    input: Any,
    epsilon: float = 1e-05,
    param_attr: Any = None,
    bias_attr: Any = None,
    name: str | None = None,
) -> Value:
    """Instance normalisation of an ``[N, C, ...]`` input (rank 2 to 5): each sample's channel
    normalised over its other axes (`pd_op.instance_norm`), scaled by ``instance_norm_N.w_0``
    (ones) and shifted by ``.b_0`` (zeros). As PaddlePaddle 3.3.1's, the two are made only when
    both ``param_attr`` and ``bias_attr`` are true: with the defaults (None) there is
    neither."""
    _require_static("instance_norm")
    input, dtype, dims = _norm_input("instance_norm", input, 2, 5)
    if param_attr is False and bias_attr is not False:
        raise InvalidArgumentError(
            "instance_norm(): arguments 'param_attr' and 'bias_attr' must be False together"
        )
    channels = dims[1]
    if channels < 0:
        raise InvalidArgumentError("instance_norm(): the input's channel extent must be known")
    layer = unique_name("instance_norm")
    param_dtype = DataType.FLOAT32 if dtype == DataType.FLOAT16 else dtype
    scale = bias = None
    if param_attr and bias_attr:
        scale = _parameter(
            "instance_norm",
            "param_attr",
            _attr("instance_norm", "param_attr", param_attr),
            f"{layer}.w_0",
            [channels],
            param_dtype,
            Constant(1.0),
        )
        bias = _parameter(
            "instance_norm",
            "bias_attr",
            _attr("instance_norm", "bias_attr", bias_attr),
            f"{layer}.b_0",
            [channels],
            param_dtype,
            Constant(0.0),
            True,
        )
    out = op_api("instance_norm")(input, scale, bias, float(epsilon))
    return out[0] if isinstance(out, tuple) else out


_PRELU_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def prelu(
    x: Any, mode: str, param_attr: Any = None, data_format: str = "NCHW", name: str | None = None
) -> Value:
    """``max(0, x) + alpha * min(0, x)`` with the slope ``prelu_N.w_0`` (0.25): one for
    ``mode='all'`` ([1]), one per channel for ``'channel'`` ([1, C, 1, 1], or [1, 1, 1, C]
    for a channel-last ``data_format``), one per element for ``'element'`` ([1, *x.shape[1:]])
    (`pd_op.prelu`)."""
    _require_static("prelu")
    x = _value("prelu", "x", x)
    dtype = _float_dtype("prelu", "x", x)
    if mode not in ("all", "channel", "element"):
        raise InvalidArgumentError(
            f"prelu(): argument 'mode' must be 'all', 'channel' or 'element', got {mode!r}"
        )
    if data_format not in _PRELU_FORMATS:
        raise InvalidArgumentError(
            f"prelu(): argument 'data_format' must be one of {', '.join(_PRELU_FORMATS)}, got "
            f"{data_format!r}"
        )
    layout = "NCHW" if data_format[1] == "C" else "NHWC"
    dims = list(x.type.dims)
    if mode == "channel":
        if len(dims) < 2:
            raise InvalidArgumentError(
                f"prelu(): mode 'channel' needs an input of rank >= 2, got shape {dims}"
            )
        channels = dims[1] if layout == "NCHW" else dims[-1]
        shape = [1, channels, 1, 1] if layout == "NCHW" else [1, 1, 1, channels]
    elif mode == "element":
        if len(dims) < 1:
            raise InvalidArgumentError("prelu(): mode 'element' needs an input of rank >= 1")
        shape = [1, *dims[1:]]
    else:
        shape = [1]
    if any(d < 0 for d in shape):
        raise InvalidArgumentError(
            f"prelu(): the extents the slopes follow must be known, got shape {dims}"
        )
    meta = _attr("prelu", "param_attr", param_attr)
    if meta is None:
        raise InvalidArgumentError("prelu(): argument 'param_attr' cannot be False")
    alpha = _parameter(
        "prelu", "param_attr", meta, f"{unique_name('prelu')}.w_0", shape, dtype, Constant(0.25)
    )
    return op_api("prelu")(x, alpha, layout, mode)


def bilinear_tensor_product(
    x: Any,
    y: Any,
    size: int,
    act: str | None = None,
    name: str | None = None,
    param_attr: Any = None,
    bias_attr: Any = None,
) -> Value:
    """``out[:, i] = x W_i y^T`` for ``[batch, M]`` x and ``[batch, N]`` y, with the weight
    ``bilinear_tensor_product_N.w_0`` ([size, M, N], XavierUniform) and the bias ``.b_0``
    ([1, size], zeros), then ``act`` (`pd_op.bilinear`)."""
    _require_static("bilinear_tensor_product")
    op = "bilinear_tensor_product"
    x = _value(op, "x", x)
    y = _value(op, "y", y)
    dtype = _float_dtype(op, "x", x)
    if dtype_of_type(y.type) != dtype:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must have one dtype, got {dtype.name.lower()} and "
            f"{dtype_of_type(y.type).name.lower()}"
        )
    size = _positive_int(op, "size", size)
    x_dims, y_dims = list(x.type.dims), list(y.type.dims)
    if len(x_dims) != 2 or len(y_dims) != 2 or x_dims[1] < 0 or y_dims[1] < 0:
        raise InvalidArgumentError(
            f"{op}(): arguments 'x' and 'y' must be 2-D with known widths, got shapes {x_dims} "
            f"and {y_dims}"
        )
    layer = unique_name(op)
    meta = _attr(op, "param_attr", param_attr)
    if meta is None:
        raise InvalidArgumentError(f"{op}(): argument 'param_attr' cannot be False")
    weight = _parameter(
        op,
        "param_attr",
        meta,
        f"{layer}.w_0",
        [size, x_dims[1], y_dims[1]],
        dtype,
        XavierUniform(),
    )
    bias = None
    bias_meta = _attr(op, "bias_attr", bias_attr)
    if bias_meta is not None:
        bias = _parameter(
            op, "bias_attr", bias_meta, f"{layer}.b_0", [1, size], dtype, Constant(0.0), True
        )
    return _activation(op, op_api("bilinear")(x, y, weight, bias), act)


def spectral_norm(
    weight: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12, name: str | None = None
) -> Value:
    """``weight`` divided by its largest singular value, estimated by ``power_iters`` power
    iterations from the vectors ``spectral_norm_N.w_0`` ([weight.shape[dim]]) and ``.w_1``
    ([the other extents' product]), both Normal(0, 1) and without gradients
    (`pd_op.spectral_norm`)."""
    _require_static("spectral_norm")
    weight = _value("spectral_norm", "weight", weight)
    dtype = dtype_of_type(weight.type)
    if dtype not in (DataType.FLOAT32, DataType.FLOAT64):
        raise InvalidArgumentError(
            f"spectral_norm(): argument 'weight' must be float32 or float64, got "
            f"{dtype.name.lower()}"
        )
    if isinstance(dim, bool) or not isinstance(dim, int) or dim not in (0, 1):
        raise InvalidArgumentError(
            f"spectral_norm(): argument 'dim' must be 0 (an fc weight) or 1 (a conv filter), got "
            f"{dim!r}"
        )
    power_iters = _positive_int("spectral_norm", "power_iters", power_iters)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise InvalidArgumentError(f"spectral_norm(): argument 'eps' expects a float, got {eps!r}")
    dims = list(weight.type.dims)
    if len(dims) < 2 or any(d <= 0 for d in dims):
        raise InvalidArgumentError(
            f"spectral_norm(): argument 'weight' must have rank >= 2 and known positive extents, "
            f"got shape {dims}"
        )
    layer = unique_name("spectral_norm")
    h = dims[dim]
    vectors = []
    for index, extent in enumerate((h, math.prod(dims) // h)):
        vector = _parameter(
            "spectral_norm",
            "weight",
            (None, None, True),
            f"{layer}.w_{index}",
            [extent],
            dtype,
            Normal(0.0, 1.0),
        )
        vector.define_op.attributes["stop_gradient"] = Attribute(
            "array", (Attribute("bool", True),)
        )
        vectors.append(vector)
    return op_api("spectral_norm")(weight, *vectors, dim, power_iters, float(eps))


def deform_conv2d(
    x: Any,
    offset: Any,
    mask: Any,
    num_filters: int,
    filter_size: Any,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    deformable_groups: int = 1,
    im2col_step: int = 1,
    weight_attr: Any = None,
    bias_attr: Any = None,
    name: str | None = None,
) -> Value:
    """A deformable 2-D convolution of the NCHW ``x`` sampled at ``offset`` (and weighted by
    ``mask``, None for v1) with the filter ``deformable_conv_N.w_0`` ([num_filters,
    channels / groups, kh, kw], Normal(0, sqrt(2 / (kh * kw * channels)))), plus the bias
    ``.b_0`` ([num_filters], zeros) (`pd_op.deformable_conv`)."""
    op = "deform_conv2d"
    _require_static(op)
    x, dtype, channels = _conv_input(op, x, "NCHW", ("NCHW", "NHWC"))
    offset = _value(op, "offset", offset)
    if mask is not None:
        mask = _value(op, "mask", mask)
    num_filters = _positive_int(op, "num_filters", num_filters)
    groups = _groups(op, groups, channels, num_filters)
    deformable_groups = _positive_int(op, "deformable_groups", deformable_groups)
    im2col_step = _positive_int(op, "im2col_step", im2col_step)
    kernel = _ints(op, "filter_size", filter_size, 2)
    strides = _ints(op, "stride", stride, 2)
    paddings = _ints(op, "padding", padding, 2)
    dilations = _ints(op, "dilation", dilation, 2)
    layer = unique_name("deformable_conv")
    meta = _attr(op, "weight_attr", weight_attr)
    if meta is None:
        raise InvalidArgumentError(f"{op}(): argument 'weight_attr' cannot be False")
    std = (2.0 / (kernel[0] * kernel[1] * channels)) ** 0.5
    weight = _parameter(
        op,
        "weight_attr",
        meta,
        f"{layer}.w_0",
        [num_filters, channels // groups, *kernel],
        dtype,
        Normal(0.0, std),
    )
    out = op_api("deformable_conv")(
        x,
        offset,
        weight,
        mask,
        strides,
        paddings,
        dilations,
        deformable_groups,
        groups,
        im2col_step,
    )
    return _add_channel_bias(op, out, bias_attr, layer, num_filters, dtype, 1, 4)


def row_conv(
    input: Any, future_context_size: int, param_attr: Any = None, act: str | None = None
) -> Value:
    """Lookahead convolution of a ``[batch, time, width]`` float32 input: ``out[:, t] =
    sum_j input[:, t + j] * w[j]`` for j in 0..future_context_size (steps past the end count
    as zeros), with the filter ``row_conv_N.w_0`` ([future_context_size + 1, width],
    XavierUniform), then ``act``. PaddlePaddle's `row_conv` op is a legacy one without a PHI
    kernel: phiops writes it as `pd_op.pad`, `pd_op.slice`, `pd_op.multiply` and `pd_op.add`.
    Sequences with LoD are not implemented (phiops programs have none)."""
    op = "row_conv"
    _require_static(op)
    input = _value(op, "input", input)
    dtype = dtype_of_type(input.type)
    if dtype != DataType.FLOAT32:
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must be float32, got {dtype.name.lower()}"
        )
    dims = list(input.type.dims)
    if len(dims) != 3 or dims[2] < 0:
        raise InvalidArgumentError(
            f"{op}(): argument 'input' must be 3-D [batch, time, width] with a known width, got "
            f"shape {dims}"
        )
    if (
        isinstance(future_context_size, bool)
        or not isinstance(future_context_size, int)
        or (future_context_size < 0)
    ):
        raise InvalidArgumentError(
            f"{op}(): argument 'future_context_size' expects an int >= 0, got "
            f"{future_context_size!r}"
        )
    meta = _attr(op, "param_attr", param_attr)
    if meta is None:
        raise InvalidArgumentError(f"{op}(): argument 'param_attr' cannot be False")
    context = future_context_size
    weight = _parameter(
        op,
        "param_attr",
        meta,
        f"{unique_name(op)}.w_0",
        [context + 1, dims[2]],
        dtype,
        XavierUniform(),
    )
    padded = op_api("pad")(input, [0, 0, 0, context, 0, 0], 0.0) if context else input
    slice_ = op_api("slice")
    out = None
    for step in range(context + 1):
        # padded has time + context steps: [step, step + time) is [step, step - context)
        end = step - context if step < context else 2**31 - 1
        window = slice_(padded, [1], [step], [end], [1], []) if context else padded
        row = slice_(weight, [0], [step], [step + 1], [1], [])
        term = op_api("multiply")(window, row)
        out = term if out is None else op_api("add")(out, term)
    return _activation(op, out, act)
