"""``phiops.sparse.nn`` (``paddle.sparse.nn``): the activations on sparse tensors, as functions
(``functional``: ``relu``, ``relu6``, ``leaky_relu``, ``softmax``) and layers (``ReLU``,
``ReLU6``, ``LeakyReLU``, ``Softmax``); the layers of the 3-D convolution and max pooling of
conv.py (``Conv3D``, ``SubmConv3D``, ``MaxPool3D``)."""

from __future__ import annotations

import math
from typing import Any

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.initializer import Normal
from phiops.runtime.nn.layer import Layer
from phiops.runtime.sparse.conv import _triple, conv3d, max_pool3d, subm_conv3d
from phiops.runtime.sparse.shape import softmax
from phiops.runtime.sparse.unary import leaky_relu, relu, relu6

__all__ = [
    "relu",
    "relu6",
    "leaky_relu",
    "softmax",
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "Softmax",
    "Conv3D",
    "SubmConv3D",
    "MaxPool3D",
]


class ReLU(Layer):
    """``max(x, 0)`` of each stored value of a sparse tensor."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return relu(x)


class ReLU6(Layer):
    """``min(max(x, 0), 6)`` of each stored value of a sparse tensor."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return relu6(x)


class LeakyReLU(Layer):
    """x where positive, ``negative_slope * x`` elsewhere, of each stored value."""

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x: Tensor) -> Tensor:
        return leaky_relu(x, self._negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self._negative_slope!r}"


class Softmax(Layer):
    """The softmax of a sparse tensor's stored entries along its last axis."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis = axis

    def forward(self, x: Any) -> Tensor:
        return softmax(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}"


class _Conv3D(Layer):
    """The parameters of a sparse 3-D convolution as PaddlePaddle makes them: ``weight``
    ``[kD, kH, kW, in_channels, out_channels]`` from Normal(0, sqrt(2 / (kD*kH*kW*in_channels)))
    and ``bias`` ``[out_channels]`` of zeros (None with ``bias_attr=False``)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any,
        padding: Any,
        dilation: Any,
        groups: int,
        subm: bool,
        key: str | None,
        padding_mode: str,
        weight_attr: Any,
        bias_attr: Any,
        data_format: str,
        backend: str | None,
    ) -> None:
        super().__init__()
        where = "SubmConv3D" if subm else "Conv3D"
        if weight_attr is False:
            raise InvalidArgumentError(f"{where}: argument 'weight_attr' may not be False")
        if padding_mode != "zeros":
            raise UnimplementedError(
                f"{where}: padding_mode={padding_mode!r} is not implemented (only 'zeros', as in "
                "PaddlePaddle)"
            )
        if groups != 1:
            raise UnimplementedError(f"{where}: groups={groups!r} is not implemented (only 1)")
        if backend is not None:
            if backend != "igemm":
                raise InvalidArgumentError(
                    f"{where}: argument 'backend' must be None or 'igemm', got {backend!r}"
                )
            raise UnimplementedError(f"{where}: backend='igemm' (implicit GEMM) is not implemented")
        if data_format != "NDHWC":
            raise InvalidArgumentError(
                f"{where}: argument 'data_format' must be 'NDHWC', got {data_format!r}"
            )
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _triple(kernel_size, where, "kernel_size")
        self._stride = _triple(stride, where, "stride")
        self._dilation = _triple(dilation, where, "dilation")
        self._padding, self._padding_mode = padding, padding_mode
        self._groups, self._subm, self._key = groups, subm, key
        self._data_format = data_format
        std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
        self.weight = self.create_parameter(
            [*self._kernel_size, in_channels, out_channels],
            weight_attr,
            default_initializer=Normal(0.0, std),
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter([out_channels], bias_attr, is_bias=True)
        )

    def forward(self, x: Tensor) -> Tensor:
        if self._subm:
            return subm_conv3d(
                x,
                self.weight,
                self.bias,
                self._stride,
                self._padding,
                self._dilation,
                self._groups,
                self._data_format,
                self._key,
            )
        return conv3d(
            x,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self._dilation,
            self._groups,
            self._data_format,
        )

    def extra_repr(self) -> str:
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1, 1, 1]:
            text += f", stride={self._stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._dilation != [1, 1, 1]:
            text += f", dilation={self._dilation}"
        return text + f", data_format={self._data_format}"


class Conv3D(_Conv3D):
    """Sparse 3-D convolution layer (``functional.conv3d``) of a COO tensor in NDHWC."""

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
        data_format: str = "NDHWC",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            False,
            None,
            padding_mode,
            weight_attr,
            bias_attr,
            data_format,
            None,
        )


class SubmConv3D(_Conv3D):
    """Submanifold sparse 3-D convolution layer (``functional.subm_conv3d``): the output keeps
    the input's positions."""

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
        key: str | None = None,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NDHWC",
        backend: str | None = None,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            True,
            key,
            padding_mode,
            weight_attr,
            bias_attr,
            data_format,
            backend,
        )


class MaxPool3D(Layer):
    """Sparse 3-D max pooling layer (``functional.max_pool3d``) of a COO tensor in NDHWC.
    ``return_mask`` True is not implemented (PaddlePaddle's sparse layer ignores it)."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NDHWC",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode = return_mask, ceil_mode
        self.data_format, self.name = data_format, name

    def forward(self, x: Tensor) -> Tensor:
        return max_pool3d(
            x, self.ksize, self.stride, self.padding, self.ceil_mode, self.data_format, self.name
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"
