"""The pooling functions and layers of ``paddle.nn.functional`` and ``paddle.nn`` over the
pool24 ops of issue 24 (lp_pool2d, fractional_max_pool2d/3d), each following the dynamic-mode branch of its namesake in
PaddlePaddle 3.3.1's python/paddle/nn/functional/pooling.py and python/paddle/nn/layer/pooling.py.
"""

from __future__ import annotations

import math
from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.conv_pool import (
    _check_format,
    _check_x,
    _low_padding,
    _ntuple,
    _padding,
    _pool_sizes,
)
from phiops.runtime.nn.layer import Layer

__all__ = [
    "lp_pool1d",
    "lp_pool2d",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "LPPool1D",
    "LPPool2D",
    "FractionalMaxPool2D",
    "FractionalMaxPool3D",
    "LPPool1d",
    "LPPool2d",
]

FUNCTIONAL_NAMES = __all__[:4]
LAYER_NAMES = __all__[4:]


def _norm_type(norm_type: Any, where: str) -> float:
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
        raise InvalidArgumentError(
            f"{where}: norm_type must be a number, got {type(norm_type).__name__}"
        )
    if norm_type == 0:
        raise InvalidArgumentError(f"{where}: norm_type cannot be 0")
    if math.isnan(norm_type):
        raise InvalidArgumentError(f"{where}: norm_type must not be NaN")
    return float(norm_type)


def lp_pool2d(
    x: Tensor,
    norm_type: float,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Power-average pooling of an [N, C, H, W] (or NHWC) x: each window gives
    (sum of x ** norm_type) ** (1 / norm_type); norm_type inf gives the window's maximum.
    ``stride`` None steps by the kernel; padded positions are left out of every window."""
    where = "lp_pool2d"
    channel_last = _check_format(data_format, 2, where)
    _check_x(x, 4, where)
    p = _norm_type(norm_type, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 2, where)
    paddings, algorithm = _padding(padding, 2, channel_last, where, ceil_mode)
    return op_api("lp_pool2d")(
        x,
        kernel,
        strides,
        paddings,
        ceil_mode,
        True,
        data_format,
        "lp",
        False,
        False,
        algorithm,
        p,
    )


def lp_pool1d(
    x: Tensor,
    norm_type: float,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """Power-average pooling of an [N, C, L] (or NLC) x, as lp_pool2d over a height of 1."""
    where = "lp_pool1d"
    channel_last = _check_format(data_format, 1, where)
    _check_x(x, 3, where)
    p = _norm_type(norm_type, where)
    kernel, strides = _pool_sizes(kernel_size, stride, 1, where)
    paddings, algorithm = _padding(padding, 1, channel_last, where, ceil_mode)
    axis = 1 if channel_last else 2
    out = op_api("lp_pool2d")(
        op_api("unsqueeze")(x, [axis]),
        [1, *kernel],
        [1, *strides],
        _low_padding(paddings),
        ceil_mode,
        True,
        "NHWC" if channel_last else "NCHW",
        "lp",
        False,
        False,
        algorithm,
        p,
    )
    return op_api("squeeze")(out, [axis])


class LPPool1D(Layer):
    """Power-average pooling of [N, C, L] inputs (lp_pool1d with the arguments given here)."""

    def __init__(
        self,
        norm_type: float,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return lp_pool1d(
            x,
            self.norm_type,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.data_format,
            self.name,
        )

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
        )


class LPPool2D(Layer):
    """Power-average pooling of [N, C, H, W] inputs (lp_pool2d with the arguments given here)."""

    def __init__(
        self,
        norm_type: float,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return lp_pool2d(
            x,
            self.norm_type,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.data_format,
            self.name,
        )

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
        )


def _fractional(
    x: Tensor,
    output_size: Any,
    kernel_size: Any,
    random_u: float | None,
    return_mask: bool,
    rank: int,
    where: str,
) -> Tensor | tuple[Tensor, Tensor]:
    _check_x(x, rank + 2, where)
    if random_u is None:
        u = 0.0
    elif isinstance(random_u, bool) or not isinstance(random_u, (int, float)):
        raise InvalidArgumentError(
            f"{where}: random_u must be a float in (0, 1), got {type(random_u).__name__}"
        )
    elif not 0 < random_u < 1:
        raise InvalidArgumentError(f"{where}: random_u must be a float in (0, 1), got {random_u}")
    else:
        u = float(random_u)
    kernel = [0] * rank if kernel_size is None else _ntuple(kernel_size, rank, "kernel_size", where)
    spatial = list(x.shape[2:])
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != rank:
            raise InvalidArgumentError(
                f"{where}: output_size must be an int or {rank} sizes, got {output_size!r}"
            )
        sizes = [spatial[i] if s is None else s for i, s in enumerate(output_size)]
    else:
        sizes = [output_size] * rank
    sizes = _ntuple(sizes, rank, "output_size", where)
    out, mask = op_api(where)(x, sizes, kernel, u, return_mask)
    return (out, mask) if return_mask else out


def fractional_max_pool2d(
    x: Tensor,
    output_size: Any,
    kernel_size: Any = None,
    random_u: float | None = None,
    return_mask: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """Fractional max pooling of an [N, C, H, W] x to ``output_size`` (an int, or 2 sizes where
    None keeps the input's); ``kernel_size`` None gives disjoint windows; ``random_u`` None
    draws u from the default generator. With ``return_mask`` also the int32 flat index of each
    maximum in its plane."""
    return _fractional(
        x, output_size, kernel_size, random_u, return_mask, 2, where="fractional_max_pool2d"
    )


def fractional_max_pool3d(
    x: Tensor,
    output_size: Any,
    kernel_size: Any = None,
    random_u: float | None = None,
    return_mask: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """Fractional max pooling of an [N, C, D, H, W] x, as fractional_max_pool2d over 3 axes."""
    return _fractional(
        x, output_size, kernel_size, random_u, return_mask, 3, where="fractional_max_pool3d"
    )


class FractionalMaxPool2D(Layer):
    """Fractional max pooling of [N, C, H, W] inputs (fractional_max_pool2d with these arguments)."""

    def __init__(
        self,
        output_size: Any,
        kernel_size: Any = None,
        random_u: float | None = None,
        return_mask: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._kernel_size = kernel_size
        self._random_u = random_u
        self._return_mask = return_mask
        self._name = name

    def forward(self, x: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return fractional_max_pool2d(
            x, self._output_size, self._kernel_size, self._random_u, self._return_mask, self._name
        )

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool3D(Layer):
    """Fractional max pooling of [N, C, D, H, W] inputs (fractional_max_pool3d with these
    arguments)."""

    def __init__(
        self,
        output_size: Any,
        kernel_size: Any = None,
        random_u: float | None = None,
        return_mask: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._kernel_size = kernel_size
        self._random_u = random_u
        self._return_mask = return_mask
        self._name = name

    def forward(self, x: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return fractional_max_pool3d(
            x, self._output_size, self._kernel_size, self._random_u, self._return_mask, self._name
        )

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


# PaddlePaddle 3.3.1's aliases: the same classes
LPPool1d = LPPool1D
LPPool2d = LPPool2D
