"""PaddlePaddle 3.3.1's ``paddle.nn`` names that phiops lacked for issue 25, each on functions
and layers phiops has: the channel dropouts (``dropout1d/2d/3d``, ``Dropout2D/3D``, on
``dropout``'s ``axis``), the alpha dropouts (``alpha_dropout``, ``feature_alpha_dropout``,
``AlphaDropout``, ``FeatureAlphaDropout``), ``multi_label_margin_loss``/``MultiLabelMarginLoss``,
``ParameterDict``, ``cosine_similarity``/``CosineSimilarity``,
``pairwise_distance``/``PairwiseDistance`` (the ``p_norm`` op), ``Silu``, ``Unflatten``, the
reflection/replication/circular padding layers, and PaddlePaddle's torch-style aliases
(``Module``, ``ModuleList``, ``ModuleDict``, ``Conv1d``/``2d``/``3d``, ``AdaptiveMaxPool1d``...,
``ConstantPad1d``..., and the ``...Pad1d`` spellings)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.activation import silu
from phiops.runtime.nn.containers import LayerDict
from phiops.runtime.nn.conv_pool import (
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
    Conv1D,
    Conv3D,
)
from phiops.runtime.nn.functional import dropout
from phiops.runtime.nn.layer import Layer, LayerList
from phiops.runtime.nn.layers import Conv2D
from phiops.runtime.nn.padding import (
    ConstantPad1D,
    ConstantPad2D,
    ConstantPad3D,
    Pad1D,
    Pad2D,
    Pad3D,
)

FUNCTIONAL_NAMES = [
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "cosine_similarity",
    "pairwise_distance",
]
LAYER_NAMES = [
    "Dropout2D",
    "Dropout3D",
    "CosineSimilarity",
    "PairwiseDistance",
    "Silu",
    "Unflatten",
    "ReflectionPad1D",
    "ReflectionPad2D",
    "ReflectionPad3D",
    "ReplicationPad1D",
    "ReplicationPad2D",
    "ReplicationPad3D",
    "CircularPad1D",
    "CircularPad2D",
    "CircularPad3D",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "Module",
    "ModuleList",
    "ModuleDict",
    "Conv1d",
    "Conv2d",
    "Conv3d",
]
__all__ = FUNCTIONAL_NAMES + LAYER_NAMES


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zero whole channels of a [C, L] or [N, C, L] input with probability ``p`` (the rest
    scaled by 1/(1-p)); ``inplace`` is accepted and ignored, as in PaddlePaddle."""
    if not 0 <= p <= 1:
        raise InvalidArgumentError(f"dropout1d: p must be in [0, 1], got {p}")
    if len(input.shape) not in (2, 3):
        raise InvalidArgumentError(
            f"dropout1d: expected a 2-D or 3-D input, got {len(input.shape)}-D"
        )
    squeeze = len(input.shape) == 2
    if squeeze:
        input = op_api("unsqueeze")(input, [0])
    out = dropout(input, p=p, axis=1, training=training)
    return op_api("squeeze")(out, [0]) if squeeze else out


def _channel_dropout(
    x: Tensor, p: float, training: bool, data_format: str, formats: tuple[str, str], function: str
) -> Tensor:
    ndim = len(formats[0])
    if len(x.shape) != ndim:
        raise InvalidArgumentError(f"{function}: x must have {ndim} dimensions, got {len(x.shape)}")
    if data_format not in formats:
        raise InvalidArgumentError(
            f"{function}: data_format must be {formats[0]!r} or {formats[1]!r}, got {data_format!r}"
        )
    axis = [0, 1] if data_format == formats[0] else [0, ndim - 1]
    return dropout(x, p=p, axis=axis, training=training, mode="upscale_in_train")


def dropout2d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Zero whole channels of an NCHW/NHWC input with probability ``p``."""
    return _channel_dropout(x, p, training, data_format, ("NCHW", "NHWC"), "dropout2d")


def dropout3d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """Zero whole channels of an NCDHW/NDHWC input with probability ``p``."""
    return _channel_dropout(x, p, training, data_format, ("NCDHW", "NDHWC"), "dropout3d")


def cosine_similarity(x1: Tensor, x2: Tensor, axis: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between x1 and x2 along ``axis`` (broadcasting, the norms'
    product clipped below at eps**2)."""
    multiply, total = op_api("multiply"), op_api("sum")
    if x1.shape[axis] == 0 or x2.shape[axis] == 0:
        return total(multiply(x1, x2), [axis], None, False)
    size = max(x1.shape[axis], x2.shape[axis])
    w12 = total(multiply(x1, x2), [axis], None, False)
    w1 = total(multiply(x1, x1), [axis], None, False)
    w2 = total(multiply(x2, x2), [axis], None, False)
    if size != x1.shape[axis]:
        w1 = op_api("scale")(w1, size / x1.shape[axis], 0.0, True)
    if size != x2.shape[axis]:
        w2 = op_api("scale")(w2, size / x2.shape[axis], 0.0, True)
    norms = op_api("sqrt")(op_api("clip")(multiply(w1, w2), eps * eps, float("inf")))
    return op_api("divide")(w12, norms)


def pairwise_distance(
    x: Tensor,
    y: Tensor,
    p: float = 2.0,
    epsilon: float = 1e-6,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The ``p``-norm of x - y + epsilon over the last axis."""
    difference = op_api("subtract")(x, y)
    if epsilon != 0.0:
        difference = op_api("add")(
            difference, op_api("full")([1], epsilon, difference.dtype, difference.place)
        )
    return op_api("p_norm")(difference, float(p), -1, 0.0, keepdim, False)


class Dropout2D(Layer):
    """``dropout2d`` while training, identity in eval."""

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Tensor) -> Tensor:
        return dropout2d(input, self.p, self.training, self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}"


class Dropout3D(Layer):
    """``dropout3d`` while training, identity in eval."""

    def __init__(self, p: float = 0.5, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Tensor) -> Tensor:
        return dropout3d(input, self.p, self.training, self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}"


class CosineSimilarity(Layer):
    """``cosine_similarity`` along ``axis``."""

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """``pairwise_distance`` with ``p``, ``epsilon`` and ``keepdim``."""

    def __init__(
        self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        return pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        return f"p={self.p}"


class Silu(Layer):
    """``silu`` (x * sigmoid(x)), PaddlePaddle's torch-style spelling with ``inplace``."""

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__()
        self._inplace, self._name = inplace, name

    def forward(self, x: Tensor) -> Tensor:
        return silu(x, self._inplace)

    def extra_repr(self) -> str:
        return f"inplace={self._inplace}"


class Unflatten(Layer):
    """``paddle.unflatten(input, axis, shape)``."""

    def __init__(self, axis: int, shape: Any, name: str | None = None) -> None:
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        axis = self.axis % len(shape)
        return op_api("reshape")(input, shape[:axis] + list(self.shape) + shape[axis + 1 :])

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}"


def _mode_pad(base: type, mode: str, data_format: str, doc: str) -> type:
    def __init__(
        self: Any, padding: Any, data_format: str = data_format, name: str | None = None
    ) -> None:
        base.__init__(self, padding, mode, 0.0, data_format, name)

    return type(base.__name__.replace("Pad", ""), (base,), {"__init__": __init__, "__doc__": doc})


def _pad_class(name: str, base: type, mode: str, data_format: str) -> type:
    cls = _mode_pad(base, mode, data_format, f"``{base.__name__}`` with mode {mode!r}.")
    cls.__name__ = cls.__qualname__ = name
    cls.__module__ = __name__
    return cls


ReflectionPad1D = _pad_class("ReflectionPad1D", Pad1D, "reflect", "NCL")
ReflectionPad2D = _pad_class("ReflectionPad2D", Pad2D, "reflect", "NCHW")
ReflectionPad3D = _pad_class("ReflectionPad3D", Pad3D, "reflect", "NCDHW")
ReplicationPad1D = _pad_class("ReplicationPad1D", Pad1D, "replicate", "NCL")
ReplicationPad2D = _pad_class("ReplicationPad2D", Pad2D, "replicate", "NCHW")
ReplicationPad3D = _pad_class("ReplicationPad3D", Pad3D, "replicate", "NCDHW")
CircularPad1D = _pad_class("CircularPad1D", Pad1D, "circular", "NCL")
CircularPad2D = _pad_class("CircularPad2D", Pad2D, "circular", "NCHW")
CircularPad3D = _pad_class("CircularPad3D", Pad3D, "circular", "NCDHW")

# PaddlePaddle 3.3.1's torch-style spellings of the same classes
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    ReflectionPad1D,
    ReflectionPad2D,
    ReflectionPad3D,
)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    ReplicationPad1D,
    ReplicationPad2D,
    ReplicationPad3D,
)
CircularPad1d, CircularPad2d, CircularPad3d = CircularPad1D, CircularPad2D, CircularPad3D
ConstantPad1d, ConstantPad2d, ConstantPad3d = ConstantPad1D, ConstantPad2D, ConstantPad3D
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = (
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
)
Module, ModuleList, ModuleDict = Layer, LayerList, LayerDict


def _torch_conv(name: str, base: type, data_format: str) -> type:
    def __init__(
        self: Any,
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
        data_format: str = data_format,
    ) -> None:
        if not bias:
            bias_attr = False
        base.__init__(
            self,
            in_channels,
            out_channels,
            kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            padding_mode=padding_mode,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format=data_format,
        )
        if dtype is not None:
            self.to(dtype=dtype)

    doc = f"``{base.__name__}`` with PaddlePaddle's torch-style signature (``bias=False`` for no bias)."
    cls = type(name, (base,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})
    cls.__qualname__ = name
    return cls


Conv1d = _torch_conv("Conv1d", Conv1D, "NCL")
Conv2d = _torch_conv("Conv2d", Conv2D, "NCHW")
Conv3d = _torch_conv("Conv3d", Conv3D, "NCDHW")


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_dropout(x: Tensor, p: float, training: bool, feature: bool, function: str) -> Tensor:
    """PaddlePaddle's alpha dropout: dropped units take SELU's negative saturation, then an
    affine map keeps the mean and variance; one uniform draw per element (per channel with
    ``feature``)."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise InvalidArgumentError(f"{function}: p must be a number, got {type(p).__name__}")
    if not 0 <= p <= 1:
        raise InvalidArgumentError(f"{function}: p must be in [0, 1], got {p}")
    if not training:
        return x
    if p == 1:
        return op_api("scale")(x, 0.0, 0.0, True)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p**2)) ** -0.5
    b = -a * alpha_p * p
    shape = list(x.shape)
    if feature:
        if len(shape) < 2:
            raise InvalidArgumentError(f"{function}: x must have at least 2 dimensions")
        shape = shape[:2] + [1] * (len(shape) - 2)
    place = (x.place,) if isinstance(x, Tensor) else ()
    draws = op_api("uniform")(shape, DataType.FLOAT32, 0.0, 1.0, 0, *place)
    keep = op_api("cast")(
        op_api("greater_equal")(draws, op_api("full")(shape, p, DataType.FLOAT32, *place)), x.dtype
    )
    drop = op_api("subtract")(op_api("full")(shape, 1.0, x.dtype, *place), keep)
    y = op_api("add")(op_api("multiply")(x, keep), op_api("scale")(drop, alpha_p, 0.0, True))
    return op_api("add")(
        op_api("scale")(y, a, 0.0, True), op_api("full")(shape, b, x.dtype, *place)
    )


def alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Alpha dropout (for SELU networks): each element dropped with probability ``p``."""
    return _alpha_dropout(x, p, training, False, "alpha_dropout")


def feature_alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Alpha dropout of whole channels (the first two axes drawn, the rest broadcast)."""
    return _alpha_dropout(x, p, training, True, "feature_alpha_dropout")


class AlphaDropout(Layer):
    """``alpha_dropout`` while training, identity in eval."""

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input: Tensor) -> Tensor:
        return alpha_dropout(input, self.p, self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}"


class FeatureAlphaDropout(Layer):
    """``feature_alpha_dropout`` while training, identity in eval."""

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input: Tensor) -> Tensor:
        return feature_alpha_dropout(input, self.p, self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}"


FUNCTIONAL_NAMES += ["alpha_dropout", "feature_alpha_dropout"]
LAYER_NAMES += ["AlphaDropout", "FeatureAlphaDropout"]
__all__ += ["alpha_dropout", "feature_alpha_dropout", "AlphaDropout", "FeatureAlphaDropout"]


def multi_label_margin_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    """The multi-class multi-label hinge loss: for each sample, the sum over its target classes
    (``label``'s entries up to the first -1) and its non-target classes j of
    max(0, 1 - input[target] + input[j]), divided by the number of classes C."""
    if reduction not in ("sum", "mean", "none"):
        raise InvalidArgumentError(
            f"multi_label_margin_loss: reduction must be 'sum', 'mean' or 'none', got {reduction!r}"
        )
    if len(input.shape) != 2 or len(label.shape) != 2:
        raise InvalidArgumentError(
            "multi_label_margin_loss: input and label must be 2-D, got shapes "
            f"{list(input.shape)} and {list(label.shape)}"
        )
    if label.dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"multi_label_margin_loss: label must be int32 or int64, got {label.dtype}"
        )
    n, c = input.shape
    if isinstance(label, Tensor) and label.size:
        low, high = int(label.numpy().min()), int(label.numpy().max())
        if low < -1 or high >= c:
            raise InvalidArgumentError(
                f"multi_label_margin_loss: label values must be in [-1, {c}), got [{low}, {high}]"
            )
    label = op_api("cast")(label, DataType.INT64)
    # the targets of a row are its labels up to the first -1
    valid = op_api("cast")(
        op_api("not_equal")(label, op_api("full")([], -1, DataType.INT64)), DataType.INT64
    )
    valid = op_api("cast")(op_api("cumprod")(valid, 1, False, False), input.dtype)
    safe = op_api("maximum")(label, op_api("full")([], 0, DataType.INT64))
    hits = op_api("multiply")(op_api("one_hot")(safe, c), op_api("unsqueeze")(valid, [2]))
    is_target = op_api("sum")(hits, [1], input.dtype, False)  # [N, C], > 0 for a target class
    not_target = op_api("cast")(
        op_api("equal")(is_target, op_api("full")([], 0.0, input.dtype)), input.dtype
    )
    target_scores = op_api("take_along_axis")(input, safe, 1, True)  # [N, L]
    margins = op_api("add")(
        op_api("scale")(op_api("unsqueeze")(target_scores, [2]), -1.0, 1.0, True),
        op_api("unsqueeze")(input, [1]),
    )  # [N, L, C]: 1 - input[target] + input[j]
    weights = op_api("multiply")(
        op_api("unsqueeze")(valid, [2]), op_api("unsqueeze")(not_target, [1])
    )
    hinge = op_api("multiply")(op_api("relu")(margins), weights)
    losses = op_api("scale")(op_api("sum")(hinge, [1, 2], None, False), 1.0 / c, 0.0, True)
    if reduction == "mean":
        return op_api("mean")(losses, [], False)
    if reduction == "sum":
        return op_api("sum")(losses, [], None, False)
    return losses


class MultiLabelMarginLoss(Layer):
    """``multi_label_margin_loss`` with ``reduction``."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        if reduction not in ("sum", "mean", "none"):
            raise InvalidArgumentError(
                f"MultiLabelMarginLoss: reduction must be 'sum', 'mean' or 'none', got {reduction!r}"
            )
        self.reduction, self.name = reduction, name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return multi_label_margin_loss(input, label, self.reduction)


class ParameterDict(Layer):
    """A dict of parameters, registered under their keys (their ``state_dict`` keys)."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Tensor:
        return self._parameters[key]

    def __setitem__(self, key: str, param: Tensor) -> None:
        self.add_parameter(key, param)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Any:
        return iter(list(self._parameters))

    def update(self, parameters: Any) -> None:
        """Add the (key, parameter) pairs of a mapping, a ParameterDict or a sequence of pairs."""
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for i, item in enumerate(items):
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise InvalidArgumentError(
                    f"ParameterDict.update: element {i} must be a (key, parameter) pair, got {item!r}"
                )
            self.add_parameter(item[0], item[1])


FUNCTIONAL_NAMES += ["multi_label_margin_loss"]
LAYER_NAMES += ["MultiLabelMarginLoss", "ParameterDict"]
__all__ += ["multi_label_margin_loss", "MultiLabelMarginLoss", "ParameterDict"]
