"""The common layers of ``paddle.nn``, with PaddlePaddle's parameter names, shapes and default
initializers: weights XavierUniform (Linear, Embedding, Conv2DTranspose), Normal(0,
sqrt(2 / (in_channels * kernel area))) for Conv2D, norm scales 1, biases 0."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phiops.runtime.common.default_dtype import get_default_dtype
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn import functional as F
from phiops.runtime.nn.initializer import Constant, Normal, XavierUniform
from phiops.runtime.nn.param_attr import ParamAttr
from phiops.runtime.nn.layer import Layer

__all__ = [
    "Linear",
    "Conv2D",
    "Conv2DTranspose",
    "BatchNorm1D",
    "BatchNorm2D",
    "LayerNorm",
    "GroupNorm",
    "Embedding",
    "Dropout",
    "MaxPool2D",
    "AvgPool2D",
    "AdaptiveAvgPool2D",
    "Flatten",
    "ReLU",
    "GELU",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "Hardswish",
    "CrossEntropyLoss",
    "MSELoss",
]


def _has_bias(bias_attr: Any) -> bool:
    return bias_attr is not False


def _attr(attr: Any) -> Any:
    return None if attr is False else attr


class Linear(Layer):
    """y = x @ weight + bias; weight [in_features, out_features]."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        weight_attr: Any = None,
        bias_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=get_default_dtype())
        self.weight = self.create_parameter([in_features, out_features], weight_attr)
        self.bias = (
            self.create_parameter([out_features], _attr(bias_attr), is_bias=True)
            if _has_bias(bias_attr)
            else None
        )
        self._in, self._out = in_features, out_features

    def forward(self, x: Tensor) -> Tensor:
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self._in}, out_features={self._out}, dtype={self._dtype}"


class Conv2D(Layer):
    """2-D convolution; weight [out_channels, in_channels // groups, kh, kw]."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        padding_mode: str = "zeros",
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
    ) -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise InvalidArgumentError(
                f"Conv2D: only padding_mode='zeros' is implemented, got {padding_mode!r}"
            )
        if in_channels % groups:
            raise InvalidArgumentError(
                f"Conv2D: in_channels ({in_channels}) must be divisible by groups ({groups})"
            )
        kernel = F._pair(kernel_size, "kernel_size")
        std = math.sqrt(2.0 / (kernel[0] * kernel[1] * in_channels))
        self.weight = self.create_parameter(
            [out_channels, in_channels // groups, *kernel],
            weight_attr,
            default_initializer=Normal(0.0, std),
        )
        self.bias = (
            self.create_parameter([out_channels], _attr(bias_attr), is_bias=True)
            if _has_bias(bias_attr)
            else None
        )
        self._options = dict(
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            data_format=data_format,
        )

    def forward(self, x: Tensor) -> Tensor:
        return F.conv2d(x, self.weight, self.bias, **self._options)


class Conv2DTranspose(Layer):
    """2-D transposed convolution; weight [in_channels, out_channels // groups, kh, kw]."""

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
        data_format: str = "NCHW",
    ) -> None:
        super().__init__()
        kernel = F._pair(kernel_size, "kernel_size")
        self.weight = self.create_parameter(
            [in_channels, out_channels // groups, *kernel], weight_attr
        )
        self.bias = (
            self.create_parameter([out_channels], _attr(bias_attr), is_bias=True)
            if _has_bias(bias_attr)
            else None
        )
        self._options = dict(
            stride=stride,
            padding=padding,
            output_padding=output_padding,
            groups=groups,
            dilation=dilation,
            data_format=data_format,
        )

    def forward(self, x: Tensor, output_size: Any = None) -> Tensor:
        return F.conv2d_transpose(
            x, self.weight, self.bias, output_size=output_size, **self._options
        )


class _BatchNormBase(Layer):
    _data_format = "NCHW"

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-5,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str | None = None,
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        # float32 statistics and scales under a float16 default, as PaddlePaddle keeps them
        default = get_default_dtype()
        super().__init__(dtype="float32" if default == "float16" else default)
        dtype = self._dtype
        self.weight = self.create_parameter(
            [num_features], _attr(weight_attr), dtype, default_initializer=Constant(1.0)
        )
        self.bias = self.create_parameter([num_features], _attr(bias_attr), dtype, is_bias=True)
        # the running statistics, made as PaddlePaddle makes them (Constant-initialised weights
        # batch_norm2d_0.w_1 and .w_2 that take no gradient) and kept as buffers
        for buffer, fill in (("_mean", 0.0), ("_variance", 1.0)):
            attr = ParamAttr(initializer=Constant(fill), trainable=False)
            self.register_buffer(buffer, self.create_parameter([num_features], attr, dtype))
        self._momentum, self._epsilon = momentum, epsilon
        self._format = data_format or self._data_format
        self._use_global_stats = use_global_stats

    def forward(self, x: Tensor) -> Tensor:
        return F.batch_norm(
            x,
            self._mean,
            self._variance,
            self.weight,
            self.bias,
            self.training,
            self._momentum,
            self._epsilon,
            self._format,
            self._use_global_stats,
        )


class BatchNorm1D(_BatchNormBase):
    _data_format = "NCL"


class BatchNorm2D(_BatchNormBase):
    _data_format = "NCHW"


class LayerNorm(Layer):
    def __init__(
        self,
        normalized_shape: Any,
        epsilon: float = 1e-5,
        weight_attr: Any = None,
        bias_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        size = [int(np.prod(shape))]
        self._shape, self._epsilon = shape, epsilon
        self.weight = (
            self.create_parameter(size, _attr(weight_attr), default_initializer=Constant(1.0))
            if weight_attr is not False
            else None
        )
        self.bias = (
            self.create_parameter(size, _attr(bias_attr), is_bias=True)
            if _has_bias(bias_attr)
            else None
        )

    def forward(self, x: Tensor) -> Tensor:
        return F.layer_norm(x, self._shape, self.weight, self.bias, self._epsilon)


class GroupNorm(Layer):
    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        epsilon: float = 1e-5,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise InvalidArgumentError(
                f"GroupNorm: num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self._groups, self._epsilon, self._format = num_groups, epsilon, data_format
        self.weight = self.create_parameter(
            [num_channels], _attr(weight_attr), default_initializer=Constant(1.0)
        )
        self.bias = self.create_parameter([num_channels], _attr(bias_attr), is_bias=True)

    def forward(self, x: Tensor) -> Tensor:
        return F.group_norm(x, self._groups, self._epsilon, self.weight, self.bias, self._format)


class Embedding(Layer):
    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        sparse: bool = False,
        weight_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._padding_idx, self._sparse = padding_idx, sparse
        self.weight = self.create_parameter(
            [num_embeddings, embedding_dim], weight_attr, default_initializer=XavierUniform()
        )
        if padding_idx is not None:
            array = self.weight.numpy().copy()
            array[padding_idx] = 0
            self.weight.set_value(array)

    def forward(self, x: Tensor) -> Tensor:
        return F.embedding(x, self.weight, self._padding_idx, sparse=self._sparse)


class Dropout(Layer):
    def __init__(
        self,
        p: float = 0.5,
        axis: Any = None,
        mode: str = "upscale_in_train",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, x: Tensor) -> Tensor:
        return F.dropout(x, self.p, self.axis, self.training, self.mode)


class MaxPool2D(Layer):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._args = (kernel_size, stride, padding, return_mask, ceil_mode, data_format)

    def forward(self, x: Tensor) -> Tensor:
        return F.max_pool2d(x, *self._args)


class AvgPool2D(Layer):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        exclusive: bool = True,
        divisor_override: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
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
        return F.avg_pool2d(x, *self._args)


class AdaptiveAvgPool2D(Layer):
    def __init__(
        self, output_size: Any, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__()
        self._size, self._format = output_size, data_format

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(x, self._size, self._format)


class Flatten(Layer):
    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, x: Tensor) -> Tensor:
        return F.flatten(x, self.start_axis, self.stop_axis)


class ReLU(Layer):
    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return F.relu(x)


class GELU(Layer):
    def __init__(self, approximate: bool = False, name: str | None = None) -> None:
        super().__init__()
        self._approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(x, self._approximate)


class Sigmoid(ReLU):
    def forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class Tanh(ReLU):
    def forward(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class Hardswish(ReLU):
    def forward(self, x: Tensor) -> Tensor:
        return F.hardswish(x)


class Softmax(Layer):
    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis = axis

    def forward(self, x: Tensor) -> Tensor:
        return F.softmax(x, self._axis)


class CrossEntropyLoss(Layer):
    def __init__(
        self,
        weight: Tensor | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
        soft_label: bool = False,
        axis: int = -1,
        use_softmax: bool = True,
        label_smoothing: float = 0.0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._args = dict(
            weight=weight,
            ignore_index=ignore_index,
            reduction=reduction,
            soft_label=soft_label,
            axis=axis,
            use_softmax=use_softmax,
            label_smoothing=label_smoothing,
        )

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.cross_entropy(input, label, **self._args)


class MSELoss(Layer):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self._reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.mse_loss(input, label, self._reduction)
