"""The 1-D and 3-D convolutions and pools and the adaptive pools of ``paddle.nn`` and
``paddle.nn.functional``, as PaddlePaddle 3.3.1's python/paddle/nn/functional/conv.py,
functional/pooling.py, layer/conv.py and layer/pooling.py define them over the ops:

- ``conv1d`` is the ``conv2d`` op on x unsqueezed to [N, C, 1, L] (weight [O, I/g, 1, K]);
  ``conv1d_transpose`` the ``conv2d_transpose`` op on [N, C, L, 1] (weight [I, O/g, K, 1]);
  ``conv3d``/``conv3d_transpose`` the ``conv3d``/``conv3d_transpose`` ops (the latter takes
  PaddlePaddle's "NCHW"/"NHWC" spelling of the layout, as PaddlePaddle passes it);
- ``max_pool1d``/``avg_pool1d`` the ``pool2d`` op on [N, C, 1, L] (``max_pool2d_with_index``
  with ``return_mask``); ``max_pool3d``/``avg_pool3d`` the ``pool3d`` op
  (``max_pool3d_with_index`` with ``return_mask``); ``divisor_override`` rescales the
  average by kernel volume / divisor, as PaddlePaddle does;
- the adaptive pools are ``pool2d``/``pool3d`` with ``adaptive`` (avg), and
  ``max_pool2d_with_index``/``max_pool3d_with_index`` with ``adaptive`` (max, whose mask holds
  the flat index of each maximum in its input plane);
- ``max_unpool1d/2d/3d`` the ``unpool`` (1-D on [N, C, 1, L]) and ``unpool3d`` ops, with
  PaddlePaddle's default output size (in - 1) * stride + kernel - 2 * padding and its check of a
  given one (within a stride of the default).

The conv layers' weights are [out, in / groups, *kernel] with PaddlePaddle's default
initializer Normal(0, sqrt(2 / (in_channels * kernel volume))); the transposed ones
[in, out / groups, *kernel] with XavierUniform; biases Constant(0). A ``padding_mode`` other than
'zeros' pads x with ``F.pad`` in that mode (reflect, replicate, circular) and convolves without
padding, as PaddlePaddle's layers do.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.initializer import Normal
from phiops.runtime.nn.layer import Layer

FUNCTIONAL_NAMES = (
    "conv1d",
    "conv3d",
    "conv1d_transpose",
    "conv3d_transpose",
    "max_pool1d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool3d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
)
LAYER_NAMES = (
    "Conv1D",
    "Conv3D",
    "Conv1DTranspose",
    "Conv3DTranspose",
    "MaxPool1D",
    "MaxPool3D",
    "AvgPool1D",
    "AvgPool3D",
    "AdaptiveAvgPool1D",
    "AdaptiveAvgPool3D",
    "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3D",
    "MaxUnPool1D",
    "MaxUnPool2D",
    "MaxUnPool3D",
)
__all__ = list(FUNCTIONAL_NAMES) + list(LAYER_NAMES)

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


# ---- argument checks ----------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _ntuple(value: Any, n: int, what: str, where: str, minimum: int = 1) -> list[int]:
    """``value`` (an int or ``n`` ints) as a list of ``n`` ints, each at least ``minimum``."""
    if _is_int(value):
        values = [int(value)] * n
    elif isinstance(value, (list, tuple)) and len(value) == n and all(_is_int(v) for v in value):
        values = [int(v) for v in value]
    else:
        raise InvalidArgumentError(f"{where}: {what} must be an int or {n} ints, got {value!r}")
    if any(v < minimum for v in values):
        raise InvalidArgumentError(
            f"{where}: {what} must hold values >= {minimum}, got {value!r}"
        )
    return values


def _check_x(x: Any, rank: int, where: str) -> None:
    if not isinstance(x, Tensor) and not hasattr(x, "shape"):
        raise InvalidArgumentError(f"{where}: x must be a Tensor, got {type(x).__name__}")
    if len(x.shape) != rank:
        raise InvalidArgumentError(
            f"{where}: x must be a {rank}-D tensor, got shape {list(x.shape)}"
        )


def _check_format(data_format: Any, n: int, where: str) -> bool:
    """Whether ``data_format`` (one of the two layouts of an n-D op) is channel-last."""
    if data_format not in _FORMATS[n]:
        raise InvalidArgumentError(
            f"{where}: data_format must be {_FORMATS[n][0]!r} or {_FORMATS[n][1]!r}, "
            f"got {data_format!r}"
        )
    return data_format == _FORMATS[n][1]


def _padding(
    padding: Any, n: int, channel_last: bool, where: str, ceil_mode: bool = False
) -> tuple[list[int], str]:
    """PaddlePaddle's ``_update_padding_nd``: 'same'/'valid', an int, n ints, 2n ints
    (before, after per axis) or n + 2 pairs (the batch and channel pairs zero); symmetric pairs
    collapse to one value per axis. Returns (paddings, padding_algorithm)."""
    if isinstance(padding, str):
        algorithm = padding.upper()
        if algorithm not in ("SAME", "VALID"):
            raise InvalidArgumentError(
                f"{where}: padding must be 'same', 'valid', an int or a list, got {padding!r}"
            )
        if algorithm == "VALID" and ceil_mode:
            raise InvalidArgumentError(
                f"{where}: ceil_mode must be False when padding is 'valid'"
            )
        return [0] * n, algorithm
    if isinstance(padding, (list, tuple)):
        if len(padding) == n + 2 and all(isinstance(p, (list, tuple)) for p in padding):
            pairs = [list(p) for p in padding]
            outer = (pairs[0], pairs[-1]) if channel_last else (pairs[0], pairs[1])
            if any(v != 0 for pair in outer for v in pair) or any(len(p) != 2 for p in pairs):
                raise InvalidArgumentError(
                    f"{where}: padding pairs of the batch and channel axes must be [0, 0], "
                    f"got {padding!r}"
                )
            spatial = pairs[1:-1] if channel_last else pairs[2:]
            values = [v for pair in spatial for v in pair]
        elif len(padding) in (n, 2 * n) and all(_is_int(p) for p in padding):
            values = [int(p) for p in padding]
        else:
            raise InvalidArgumentError(
                f"{where}: padding must be an int, {n} ints, {2 * n} ints or {n + 2} pairs, "
                f"got {padding!r}"
            )
        if not all(_is_int(v) for v in values):
            raise InvalidArgumentError(f"{where}: padding must hold ints, got {padding!r}")
        values = [int(v) for v in values]
        if len(values) == 2 * n and all(values[2 * i] == values[2 * i + 1] for i in range(n)):
            values = values[0::2]
    elif _is_int(padding):
        values = [int(padding)] * n
    else:
        raise InvalidArgumentError(
            f"{where}: padding must be 'same', 'valid', an int or a list, got {padding!r}"
        )
    if any(v < 0 for v in values):
        raise InvalidArgumentError(f"{where}: padding must be >= 0, got {padding!r}")
    return values, "EXPLICIT"


def _groups(groups: Any, channels: int, filters: int | None, where: str) -> int:
    if not _is_int(groups) or int(groups) <= 0:
        raise InvalidArgumentError(f"{where}: groups must be a positive int, got {groups!r}")
    groups = int(groups)
    if channels >= 0 and channels % groups:
        raise InvalidArgumentError(
            f"{where}: the channels of x ({channels}) must be divisible by groups ({groups})"
        )
    if filters is not None and filters >= 0 and filters % groups:
        raise InvalidArgumentError(
            f"{where}: the filters of weight ({filters}) must be divisible by groups ({groups})"
        )
    return groups


def _add_bias(out: Tensor, bias: Tensor | None, channel_dim: int) -> Tensor:
    if bias is None:
        return out
    shape = [1] * len(out.shape)
    shape[channel_dim] = -1
    return op_api("add")(out, op_api("reshape")(bias, shape))


# ---- convolutions -------------------------------------------------------------------------


def conv1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """1-D convolution of x ([N, C, L] or [N, L, C]) with weight [O, C / groups, K] (+ bias
    [O]): the ``conv2d`` op on x unsqueezed to one row."""
    where = "conv1d"
    channel_last = _check_format(data_format, 1, where)
    _check_x(x, 3, where)
    if len(weight.shape) != 3:
        raise InvalidArgumentError(
            f"{where}: weight must be a 3-D tensor, got shape {list(weight.shape)}"
        )
    groups = _groups(groups, x.shape[-1 if channel_last else 1], weight.shape[0], where)
    paddings, algorithm = _padding(padding, 1, channel_last, where)
    paddings = [0, 0, *paddings] if len(paddings) == 2 else [0, *paddings]
    strides = [1, *_ntuple(stride, 1, "stride", where)]
    dilations = [1, *_ntuple(dilation, 1, "dilation", where)]
    axis = -3 if channel_last else -2
    out = op_api("conv2d")(
        op_api("unsqueeze")(x, [axis]),
        op_api("unsqueeze")(weight, [-2]),
        strides,
        paddings,
        algorithm,
        dilations,
        groups,
        "NHWC" if channel_last else "NCHW",
    )
    out = _add_bias(out, bias, -1 if channel_last else 1)
    return op_api("squeeze")(out, [axis])


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """3-D convolution of x ([N, C, D, H, W] or [N, D, H, W, C]) with weight
    [O, C / groups, KD, KH, KW] (+ bias [O]): the ``conv3d`` op."""
    where = "conv3d"
    channel_last = _check_format(data_format, 3, where)
    _check_x(x, 5, where)
    if len(weight.shape) != 5:
        raise InvalidArgumentError(
            f"{where}: weight must be a 5-D tensor, got shape {list(weight.shape)}"
        )
    groups = _groups(groups, x.shape[-1 if channel_last else 1], weight.shape[0], where)
    paddings, algorithm = _padding(padding, 3, channel_last, where)
    out = op_api("conv3d")(
        x,
        weight,
        _ntuple(stride, 3, "stride", where),
        paddings,
        algorithm,
        groups,
        _ntuple(dilation, 3, "dilation", where),
        data_format,
    )
    return _add_bias(out, bias, -1 if channel_last else 1)


def _transpose_sizes(
    output_padding: Any, output_size: Any, n: int, strides: list[int], where: str
) -> tuple[list[int], list[int]]:
    if output_size is not None and output_padding != 0:
        raise InvalidArgumentError(
            f"{where}: output_padding and output_size are mutually exclusive; give one"
        )
    sizes = [] if output_size is None else _ntuple(output_size, n, "output_size", where)
    paddings = (
        [] if output_padding == 0 else _ntuple(output_padding, n, "output_padding", where, 0)
    )
    for value, step in zip(paddings, strides):
        if value > step:
            raise InvalidArgumentError(
                f"{where}: output_padding ({value}) must not be greater than stride ({step})"
            )
    return paddings, sizes


def conv1d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
    output_size: Any = None,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """1-D transposed convolution of x ([N, C, L] or [N, L, C]) with weight
    [C, O / groups, K] (+ bias): the ``conv2d_transpose`` op on x unsqueezed to one column."""
    where = "conv1d_transpose"
    channel_last = _check_format(data_format, 1, where)
    _check_x(x, 3, where)
    if len(weight.shape) != 3:
        raise InvalidArgumentError(
            f"{where}: weight must be a 3-D tensor, got shape {list(weight.shape)}"
        )
    groups = _groups(groups, x.shape[-1 if channel_last else 1], None, where)
    paddings, algorithm = _padding(padding, 1, channel_last, where)
    paddings = [*paddings, 0, 0] if len(paddings) == 2 else [*paddings, 0]
    strides = _ntuple(stride, 1, "stride", where)
    out_padding, sizes = _transpose_sizes(output_padding, output_size, 1, strides, where)
    axis = -2 if channel_last else -1
    out = op_api("conv2d_transpose")(
        op_api("unsqueeze")(x, [axis]),
        op_api("unsqueeze")(weight, [-1]),
        [*strides, 1],
        paddings,
        [*out_padding, 0] if out_padding else [],
        [*sizes, 1] if sizes else [],
        algorithm,
        groups,
        [*_ntuple(dilation, 1, "dilation", where), 1],
        "NHWC" if channel_last else "NCHW",
    )
    out = _add_bias(out, bias, -1 if channel_last else 1)
    return op_api("squeeze")(out, [axis])


def conv3d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
    output_size: Any = None,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """3-D transposed convolution of x ([N, C, D, H, W] or [N, D, H, W, C]) with weight
    [C, O / groups, KD, KH, KW] (+ bias): the ``conv3d_transpose`` op."""
    where = "conv3d_transpose"
    channel_last = _check_format(data_format, 3, where)
    _check_x(x, 5, where)
    if len(weight.shape) != 5:
        raise InvalidArgumentError(
            f"{where}: weight must be a 5-D tensor, got shape {list(weight.shape)}"
        )
    groups = _groups(groups, x.shape[-1 if channel_last else 1], None, where)
    paddings, algorithm = _padding(padding, 3, channel_last, where)
    strides = _ntuple(stride, 3, "stride", where)
    out_padding, sizes = _transpose_sizes(output_padding, output_size, 3, strides, where)
    out = op_api("conv3d_transpose")(
        x,
        weight,
        strides,
        paddings,
        out_padding,
        sizes,
        algorithm,
        groups,
        _ntuple(dilation, 3, "dilation", where),
        "NHWC" if channel_last else "NCHW",
    )
    return _add_bias(out, bias, -1 if channel_last else 1)


# ---- pools --------------------------------------------------------------------------------


def _pool_sizes(
    kernel_size: Any, stride: Any, n: int, where: str
) -> tuple[list[int], list[int]]:
    kernel = _ntuple(kernel_size, n, "kernel_size", where)
    strides = kernel if stride is None else _ntuple(stride, n, "stride", where)
    return kernel, strides


def _low_padding(paddings: list[int]) -> list[int]:
    """A 1-D pool's paddings for the 2-D op on [N, C, 1, L]: no padding of the new row."""
    return [0, 0, *paddings] if len(paddings) == 2 else [0, *paddings]


def max_pool1d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling of an [N, C, L] x over windows of ``kernel_size`` (stride defaults to it);
    with ``return_mask`` also the int32 index of each maximum along L."""
    where = "max_pool1d"
    _check_x(x, 3, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 1, where)
    paddings, algorithm = _padding(padding, 1, False, where, ceil_mode)
    x = op_api("unsqueeze")(x, [2])
    if return_mask:
        out, mask = op_api("max_pool2d_with_index")(
            x, [1, *kernel], [1, *strides], _low_padding(paddings), False, False, ceil_mode
        )
        return op_api("squeeze")(out, [2]), op_api("squeeze")(mask, [2])
    out = op_api("pool2d")(
        x,
        [1, *kernel],
        [1, *strides],
        _low_padding(paddings),
        ceil_mode,
        True,
        "NCHW",
        "max",
        False,
        False,
        algorithm,
    )
    return op_api("squeeze")(out, [2])


def avg_pool1d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    exclusive: bool = True,
    ceil_mode: bool = False,
    name: str | None = None,
) -> Tensor:
    """Average pooling of an [N, C, L] x (``exclusive``: padding left out of the count)."""
    where = "avg_pool1d"
    _check_x(x, 3, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 1, where)
    paddings, algorithm = _padding(padding, 1, False, where, ceil_mode)
    out = op_api("pool2d")(
        op_api("unsqueeze")(x, [2]),
        [1, *kernel],
        [1, *strides],
        _low_padding(paddings),
        ceil_mode,
        exclusive,
        "NCHW",
        "avg",
        False,
        False,
        algorithm,
    )
    return op_api("squeeze")(out, [2])


def max_pool3d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling of a 5-D x; with ``return_mask`` (NCDHW only) also the int32 flat index
    (d * H * W + h * W + w) of each maximum in its input volume."""
    where = "max_pool3d"
    channel_last = _check_format(data_format, 3, where)
    _check_x(x, 5, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 3, where)
    paddings, algorithm = _padding(padding, 3, channel_last, where, ceil_mode)
    if return_mask:
        if channel_last:
            raise InvalidArgumentError(
                f"{where}: return_mask needs data_format 'NCDHW', got {data_format!r}"
            )
        return tuple(
            op_api("max_pool3d_with_index")(x, kernel, strides, paddings, False, False, ceil_mode)
        )
    return op_api("pool3d")(
        x, kernel, strides, paddings, ceil_mode, True, data_format, "max", False, False, algorithm
    )


def avg_pool3d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: float | None = None,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """Average pooling of a 5-D x; ``divisor_override`` divides each window's sum by it
    instead of the window's size."""
    where = "avg_pool3d"
    channel_last = _check_format(data_format, 3, where)
    _check_x(x, 5, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 3, where)
    paddings, algorithm = _padding(padding, 3, channel_last, where, ceil_mode)
    out = op_api("pool3d")(
        x,
        kernel,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        "avg",
        False,
        False,
        algorithm,
    )
    if divisor_override is None:
        return out
    if isinstance(divisor_override, bool) or not isinstance(divisor_override, (int, float)):
        raise InvalidArgumentError(
            f"{where}: divisor_override must be a number, got {divisor_override!r}"
        )
    if divisor_override == 0:
        raise InvalidArgumentError(f"{where}: divisor_override must not be 0")
    return op_api("scale")(out, math.prod(kernel) / divisor_override, 0.0, True)


def _adaptive_sizes(output_size: Any, spatial: list[int], where: str) -> list[int]:
    """``output_size`` for the spatial extents ``spatial``: an int, or one entry per axis where
    None keeps the input's extent."""
    n = len(spatial)
    if _is_int(output_size):
        sizes = [int(output_size)] * n
    elif isinstance(output_size, (list, tuple)) and len(output_size) == n:
        sizes = [
            int(spatial[i]) if v is None else v for i, v in enumerate(output_size)
        ]
        if not all(_is_int(v) for v in sizes):
            raise InvalidArgumentError(
                f"{where}: output_size must hold ints or None, got {output_size!r}"
            )
        sizes = [int(v) for v in sizes]
    else:
        raise InvalidArgumentError(
            f"{where}: output_size must be an int or {n} ints, got {output_size!r}"
        )
    if any(v <= 0 for v in sizes):
        raise InvalidArgumentError(f"{where}: output_size must be positive, got {output_size!r}")
    return sizes


def adaptive_avg_pool1d(x: Tensor, output_size: int, name: str | None = None) -> Tensor:
    """Adaptive average pooling of an [N, C, L] x to ``output_size`` columns (window i is
    [floor(i * L / out), ceil((i + 1) * L / out)))."""
    where = "adaptive_avg_pool1d"
    _check_x(x, 3, where)
    sizes = _adaptive_sizes(output_size, [x.shape[2]], where)
    out = op_api("pool2d")(
        op_api("unsqueeze")(x, [2]),
        [1, *sizes],
        [1, 1],
        [0, 0],
        False,
        True,
        "NCHW",
        "avg",
        False,
        True,
        "EXPLICIT",
    )
    return op_api("squeeze")(out, [2])


def adaptive_avg_pool3d(
    x: Tensor, output_size: Any, data_format: str = "NCDHW", name: str | None = None
) -> Tensor:
    """Adaptive average pooling of a 5-D x to ``output_size`` (None keeps an extent)."""
    where = "adaptive_avg_pool3d"
    channel_last = _check_format(data_format, 3, where)
    _check_x(x, 5, where)
    spatial = list(x.shape[1:4] if channel_last else x.shape[2:5])
    sizes = _adaptive_sizes(output_size, spatial, where)
    return op_api("pool3d")(
        x, sizes, [1, 1, 1], [0, 0, 0], False, True, data_format, "avg", False, True, "EXPLICIT"
    )


def adaptive_max_pool1d(
    x: Tensor, output_size: Any, return_mask: bool = False, name: str | None = None
) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive max pooling of an [N, C, L] x; with ``return_mask`` also the int32 index of
    each maximum along L."""
    where = "adaptive_max_pool1d"
    _check_x(x, 3, where)
    sizes = _adaptive_sizes(output_size, [x.shape[2]], where)
    out, mask = op_api("max_pool2d_with_index")(
        op_api("unsqueeze")(x, [2]), [1, *sizes], [1, 1], [0, 0], False, True, False
    )
    out = op_api("squeeze")(out, [2])
    return (out, op_api("squeeze")(mask, [2])) if return_mask else out


def adaptive_max_pool2d(
    x: Tensor, output_size: Any, return_mask: bool = False, name: str | None = None
) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive max pooling of an NCHW x (None in ``output_size`` keeps an extent); with
    ``return_mask`` also the int32 flat index h * W + w of each maximum."""
    where = "adaptive_max_pool2d"
    _check_x(x, 4, where)
    sizes = _adaptive_sizes(output_size, list(x.shape[2:4]), where)
    out, mask = op_api("max_pool2d_with_index")(x, sizes, [1, 1], [0, 0], False, True, False)
    return (out, mask) if return_mask else out


def adaptive_max_pool3d(
    x: Tensor, output_size: Any, return_mask: bool = False, name: str | None = None
) -> Tensor | tuple[Tensor, Tensor]:
    """Adaptive max pooling of an NCDHW x (None in ``output_size`` keeps an extent); with
    ``return_mask`` also the int32 flat index of each maximum in its input volume."""
    where = "adaptive_max_pool3d"
    _check_x(x, 5, where)
    sizes = _adaptive_sizes(output_size, list(x.shape[2:5]), where)
    out, mask = op_api("max_pool3d_with_index")(
        x, sizes, [1, 1, 1], [0, 0, 0], False, True, False
    )
    return (out, mask) if return_mask else out


def _unpool_output_size(
    x: Tensor,
    kernel: list[int],
    strides: list[int],
    paddings: list[int],
    output_size: Any,
    where: str,
) -> list[int]:
    """PaddlePaddle's ``_unpool_output_size``: the default extents, or ``output_size`` (the
    spatial extents, or the whole shape) checked to lie strictly within a stride of them."""
    rank = len(kernel)
    default = [
        (x.shape[-rank + d] - 1) * strides[d] + kernel[d] - 2 * paddings[d] for d in range(rank)
    ]
    if output_size is None:
        return default
    if not isinstance(output_size, (list, tuple)):
        raise InvalidArgumentError(
            f"{where}: output_size must be None, a list or a tuple, got {output_size!r}"
        )
    sizes = list(output_size)
    if len(sizes) == rank + 2:
        sizes = sizes[2:]
    if len(sizes) != rank:
        raise InvalidArgumentError(
            f"{where}: output_size must hold {rank} or {rank + 2} values, got {output_size!r}"
        )
    sizes = [int(v.item()) if isinstance(v, Tensor) else int(v) for v in sizes]
    for d in range(rank):
        low, high = default[d] - strides[d], default[d] + strides[d]
        if not low < sizes[d] < high:
            raise InvalidArgumentError(
                f"{where}: invalid output_size {list(output_size)} (dim {d} must be between "
                f"{low} and {high})"
            )
    return sizes


def _check_unpool_inputs(x: Any, indices: Any, rank: int, where: str) -> None:
    _check_x(x, rank, where)
    if not hasattr(indices, "shape") or len(indices.shape) != rank:
        raise InvalidArgumentError(
            f"{where}: indices must be a {rank}-D tensor of x's shape, got "
            f"{list(getattr(indices, 'shape', [])) or type(indices).__name__}"
        )


def max_unpool1d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    data_format: str = "NCL",
    output_size: Any = None,
    name: str | None = None,
) -> Tensor:
    """The inverse of ``max_pool1d(..., return_mask=True)``: x [N, C, L] written at the
    positions ``indices`` names in a zero [N, C, L_out] (the ``unpool`` op on one row)."""
    where = "max_unpool1d"
    if data_format != "NCL":
        raise InvalidArgumentError(f"{where}: data_format must be 'NCL', got {data_format!r}")
    _check_unpool_inputs(x, indices, 3, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 1, where)
    paddings, _ = _padding(padding, 1, False, where)
    paddings = _low_padding(paddings)
    x = op_api("unsqueeze")(x, [2])
    indices = op_api("unsqueeze")(indices, [2])
    if output_size is not None:  # PaddlePaddle's insertion of the unit row into output_size
        output_size = list(output_size)[:2] + [1] + list(output_size)[2:]
    sizes = _unpool_output_size(x, [1, *kernel], [1, *strides], paddings, output_size, where)
    out = op_api("unpool")(x, indices, [1, *kernel], [1, *strides], paddings, sizes, "NCHW")
    return op_api("squeeze")(out, [2])


def max_unpool2d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    data_format: str = "NCHW",
    output_size: Any = None,
    name: str | None = None,
) -> Tensor:
    """The inverse of ``max_pool2d(..., return_mask=True)``: x [N, C, H, W] written at the
    positions ``indices`` names in a zero [N, C, H_out, W_out] (the ``unpool`` op)."""
    where = "max_unpool2d"
    _check_unpool_inputs(x, indices, 4, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 2, where)
    paddings = _ntuple(padding, 2, "padding", where, 0)
    if data_format != "NCHW":
        raise InvalidArgumentError(f"{where}: data_format must be 'NCHW', got {data_format!r}")
    sizes = _unpool_output_size(x, kernel, strides, paddings, output_size, where)
    return op_api("unpool")(x, indices, kernel, strides, paddings, sizes, data_format)


def max_unpool3d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    data_format: str = "NCDHW",
    output_size: Any = None,
    name: str | None = None,
) -> Tensor:
    """The inverse of ``max_pool3d(..., return_mask=True)``: x [N, C, D, H, W] written at the
    positions ``indices`` names in a zero [N, C, *out] (the ``unpool3d`` op)."""
    where = "max_unpool3d"
    _check_unpool_inputs(x, indices, 5, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 3, where)
    paddings = _ntuple(padding, 3, "padding", where, 0)
    if data_format != "NCDHW":
        raise InvalidArgumentError(f"{where}: data_format must be 'NCDHW', got {data_format!r}")
    sizes = _unpool_output_size(x, kernel, strides, paddings, output_size, where)
    return op_api("unpool3d")(x, indices, kernel, strides, paddings, sizes, data_format)


# ---- layers -------------------------------------------------------------------------------


def _check_device(device: Any, where: str) -> None:
    if device is not None and str(device).lower() not in ("cpu", "place(cpu)"):
        raise UnimplementedError(
            f"{where}: device={device!r} is not implemented; parameters are made on the CPU"
        )


class _ConvNd(Layer):
    """PaddlePaddle's ``_ConvNd``: checks, parameters and ``padding_mode``."""

    _dims = 1
    _transposed = False

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any,
        padding: Any,
        padding_mode: str,
        output_padding: Any,
        dilation: Any,
        groups: int,
        weight_attr: Any,
        bias_attr: Any,
        data_format: str,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        where = type(self).__name__
        if weight_attr is False:
            raise InvalidArgumentError(f"{where}: weight_attr must not be False")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise InvalidArgumentError(
                f"{where}: padding_mode must be one of 'zeros', 'reflect', 'replicate', "
                f"'circular', got {padding_mode!r}"
            )
        if padding_mode != "zeros" and not _is_int(padding):
            raise InvalidArgumentError(
                f"{where}: padding must be an int when padding_mode is {padding_mode!r}, "
                f"got {padding!r}"
            )
        channel_last = _check_format(data_format, self._dims, where)
        for what, value in (("in_channels", in_channels), ("out_channels", out_channels)):
            if not _is_int(value) or int(value) <= 0:
                raise InvalidArgumentError(f"{where}: {what} must be a positive int, got {value!r}")
        groups = _groups(groups, in_channels, None if self._transposed else out_channels, where)
        self._kernel_size = _ntuple(kernel_size, self._dims, "kernel_size", where)
        self._stride = _ntuple(stride, self._dims, "stride", where)
        self._dilation = _ntuple(dilation, self._dims, "dilation", where)
        _padding(padding, self._dims, channel_last, where)  # checked now, as PaddlePaddle does
        self._in_channels, self._out_channels = in_channels, out_channels
        self._groups, self._data_format = groups, data_format
        self._padding, self._padding_mode = padding, padding_mode
        self.output_padding = output_padding
        if self._transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            initializer = None  # XavierUniform, the weights' default
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
            initializer = Normal(0.0, std)
        self.weight = self.create_parameter(
            shape, weight_attr, dtype=dtype, default_initializer=initializer
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter([out_channels], bias_attr, dtype=dtype, is_bias=True)
        )

    def _padded(self, x: Tensor) -> tuple[Tensor, Any]:
        """x padded by ``padding_mode`` (with the conv's padding then 0), else x and padding."""
        if self._padding_mode == "zeros":
            return x, self._padding
        # F.pad's reflect/replicate/circular path (the pad3d op on x as 5-D), called on the op
        # directly so that it also builds into static programs
        channels_first = self._data_format[1] == "C"
        # pad3d's paddings run [W, H, D] pairs; a 1-D x becomes [N, C, L, 1, 1] (or
        # [N, L, 1, 1, C]), its L the depth
        p = int(self._padding)
        paddings = [p] * 6 if self._dims == 3 else [0, 0, 0, 0, p, p]
        axes = [] if self._dims == 3 else ([3, 4] if channels_first else [2, 3])
        if axes:
            x = op_api("unsqueeze")(x, axes)
        out = op_api("pad3d")(
            x, paddings, self._padding_mode, 0.0, "NCDHW" if channels_first else "NDHWC"
        )
        return (op_api("squeeze")(out, axes) if axes else out), 0

    def extra_repr(self) -> str:
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._dims:
            text += f", stride={self._stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            text += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            text += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self._dims:
            text += f", dilation={self._dilation}"
        if self._groups != 1:
            text += f", groups={self._groups}"
        return text + f", data_format={self._data_format}"


class Conv1D(_ConvNd):
    """1-D convolution layer; weight [out_channels, in_channels // groups, k]."""

    _dims = 1

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        *,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCL",
    ) -> None:
        _check_device(device, type(self).__name__)
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            padding_mode,
            0,
            dilation,
            groups,
            weight_attr,
            False if bias is False else bias_attr,
            data_format,
            dtype,
        )

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x)
        return conv1d(
            x,
            self.weight,
            self.bias,
            self._stride,
            padding,
            self._dilation,
            self._groups,
            self._data_format,
        )


class Conv3D(Conv1D):
    """3-D convolution layer; weight [out_channels, in_channels // groups, kd, kh, kw]."""

    _dims = 3

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        *,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias=bias,
            padding_mode=padding_mode,
            device=device,
            dtype=dtype,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format=data_format,
        )

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x)
        return conv3d(
            x,
            self.weight,
            self.bias,
            self._stride,
            padding,
            self._dilation,
            self._groups,
            self._data_format,
        )


class Conv1DTranspose(_ConvNd):
    """1-D transposed convolution layer; weight [in_channels, out_channels // groups, k]."""

    _dims = 1
    _transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCL",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            "zeros",
            output_padding,
            dilation,
            groups,
            weight_attr,
            bias_attr,
            data_format,
        )

    def forward(self, x: Tensor, output_size: Any = None) -> Tensor:
        return conv1d_transpose(
            x,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self.output_padding,
            self._groups,
            self._dilation,
            output_size,
            self._data_format,
        )


class Conv3DTranspose(_ConvNd):
    """3-D transposed convolution layer; weight [in_channels, out_channels // groups, kd, kh,
    kw]."""

    _dims = 3
    _transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            "zeros",
            output_padding,
            dilation,
            groups,
            weight_attr,
            bias_attr,
            data_format,
        )

    def forward(self, x: Tensor, output_size: Any = None) -> Tensor:
        return conv3d_transpose(
            x,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self.output_padding,
            self._groups,
            self._dilation,
            output_size,
            self._data_format,
        )


class MaxPool1D(Layer):
    """``max_pool1d`` as a layer."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _pool_sizes(kernel_size, stride, 1, type(self).__name__)
        self._args = (kernel_size, stride, padding, return_mask, ceil_mode)

    def forward(self, input: Tensor) -> Any:
        return max_pool1d(input, *self._args)

    def extra_repr(self) -> str:
        return "kernel_size={}, stride={}, padding={}".format(*self._args[:3])


class MaxPool3D(Layer):
    """``max_pool3d`` as a layer."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        _pool_sizes(kernel_size, stride, 3, type(self).__name__)
        _check_format(data_format, 3, type(self).__name__)
        self._args = (kernel_size, stride, padding, return_mask, ceil_mode, data_format)

    def forward(self, x: Tensor) -> Any:
        return max_pool3d(x, *self._args)

    def extra_repr(self) -> str:
        return "kernel_size={}, stride={}, padding={}".format(*self._args[:3])


class AvgPool1D(Layer):
    """``avg_pool1d`` as a layer."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        exclusive: bool = True,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _pool_sizes(kernel_size, stride, 1, type(self).__name__)
        self._args = (kernel_size, stride, padding, exclusive, ceil_mode)

    def forward(self, x: Tensor) -> Tensor:
        return avg_pool1d(x, *self._args)

    def extra_repr(self) -> str:
        return "kernel_size={}, stride={}, padding={}".format(*self._args[:3])


class AvgPool3D(Layer):
    """``avg_pool3d`` as a layer."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        exclusive: bool = True,
        divisor_override: float | None = None,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        _pool_sizes(kernel_size, stride, 3, type(self).__name__)
        _check_format(data_format, 3, type(self).__name__)
        self._args = (
            kernel_size,
            stride,
            padding,
            ceil_mode,
            exclusive,
            divisor_override,
            data_format,
        )

    def forward(self, x: Tensor) -> Tensor:
        return avg_pool3d(x, *self._args)

    def extra_repr(self) -> str:
        return "kernel_size={}, stride={}, padding={}".format(*self._args[:3])


class AdaptiveAvgPool1D(Layer):
    """``adaptive_avg_pool1d`` as a layer."""

    def __init__(self, output_size: int, name: str | None = None) -> None:
        super().__init__()
        self._output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool1d(input, self._output_size)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveAvgPool3D(Layer):
    """``adaptive_avg_pool3d`` as a layer."""

    def __init__(
        self, output_size: Any, data_format: str = "NCDHW", name: str | None = None
    ) -> None:
        super().__init__()
        _check_format(data_format, 3, type(self).__name__)
        self._output_size, self._data_format = output_size, data_format

    def forward(self, x: Tensor) -> Tensor:
        return adaptive_avg_pool3d(x, self._output_size, self._data_format)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveMaxPool1D(Layer):
    """``adaptive_max_pool1d`` as a layer."""

    _function = staticmethod(adaptive_max_pool1d)

    def __init__(
        self, output_size: Any, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self._output_size, self._return_mask = output_size, return_mask

    def forward(self, input: Tensor) -> Any:
        return self._function(input, self._output_size, self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool2D(AdaptiveMaxPool1D):
    """``adaptive_max_pool2d`` as a layer."""

    _function = staticmethod(adaptive_max_pool2d)

    def __init__(
        self, output_size: Any, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__(output_size, return_mask)

    def forward(self, x: Tensor) -> Any:
        return self._function(x, self._output_size, self._return_mask)


class AdaptiveMaxPool3D(AdaptiveMaxPool2D):
    """``adaptive_max_pool3d`` as a layer."""

    _function = staticmethod(adaptive_max_pool3d)

    def __init__(
        self, output_size: Any, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__(output_size, return_mask)


class MaxUnPool1D(Layer):
    """``max_unpool1d`` as a layer; an ``output_size`` given to ``forward`` wins over the
    constructor's."""

    _function = staticmethod(max_unpool1d)

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        data_format: str = "NCL",
        output_size: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format, self.output_size = data_format, output_size

    def forward(self, x: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        return self._function(
            x,
            indices,
            self.ksize,
            self.stride,
            self.padding,
            self.data_format,
            output_size if output_size else self.output_size,
        )

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnPool2D(MaxUnPool1D):
    """``max_unpool2d`` as a layer."""

    _function = staticmethod(max_unpool2d)

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        data_format: str = "NCHW",
        output_size: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size)


class MaxUnPool3D(MaxUnPool1D):
    """``max_unpool3d`` as a layer."""

    _function = staticmethod(max_unpool3d)

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        data_format: str = "NCDHW",
        output_size: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size)
