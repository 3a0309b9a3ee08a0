"""``paddle.nn.functional.pad``/``zeropad2d``/``one_hot`` and the padding layers (Pad1D/2D/3D,
ZeroPad1D/2D/3D, ConstantPad1D/2D/3D), as PaddlePaddle 3.3.1's python/paddle/nn/functional/
common.py and nn/layer/common.py define them over the ``pad`` and ``pad3d`` ops.

``pad``: in constant mode with a list of ``2 * ndim`` numbers (or any count but ``2 * (ndim -
2)``), the ``pad`` op pads any axes: with ``pad_from_left_axis`` (the default) and a full list
the pairs go from the first axis on, otherwise (a short list, padded with zeros, or
``pad_from_left_axis=False``) from the last axis backwards, as PyTorch's. Otherwise x must be
3-D, 4-D or 5-D and ``pad`` gives the spatial axes' pairs from the last one (``[left, right]``,
``[left, right, top, bottom]``, ``[..., front, back]``), in any of the modes constant, reflect,
replicate, circular (the ``pad3d`` op on x unsqueezed to 5-D).
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.nn.layer import Layer

__all__ = [
    "pad",
    "zeropad2d",
    "one_hot",
    "Pad1D",
    "Pad2D",
    "Pad3D",
    "ZeroPad1D",
    "ZeroPad2D",
    "ZeroPad3D",
    "ConstantPad1D",
    "ConstantPad2D",
    "ConstantPad3D",
]

_MODES = ("reflect", "replicate", "constant", "circular")
_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _pad_list(pad: Any) -> list[int]:
    if isinstance(pad, Value):
        raise UnimplementedError(
            "pad: pad given as a Value of a static program (a list of ints builds the same op)"
        )
    if isinstance(pad, Tensor):
        values = pad.numpy().reshape(-1).tolist()
    elif isinstance(pad, int):
        values = [pad]
    else:
        try:
            values = list(pad)
        except TypeError:
            raise InvalidArgumentError(
                f"pad: pad must be a list, tuple or Tensor of ints, got {pad!r}"
            ) from None
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) and not float(value).is_integer():
            raise InvalidArgumentError(f"pad: pad must hold ints, got {pad!r}")
    return [int(v) for v in values]


def pad(
    x: Tensor,
    pad: Any,
    mode: str = "constant",
    value: float = 0.0,
    data_format: str | None = None,
    pad_from_left_axis: bool = True,
    name: str | None = None,
) -> Tensor:
    """``x`` (a Tensor, or a Value while a static program is built) padded by ``pad`` (see the
    module's docstring for the two layouts of ``pad``)."""
    if mode not in _MODES:
        raise InvalidArgumentError(
            f"pad: mode should be one of constant, reflect, replicate, circular, but got {mode}."
        )
    if not isinstance(x, (Tensor, Value)):
        raise InvalidArgumentError(f"pad: x must be a Tensor, got {type(x).__name__}")
    ndim = len(x.shape)
    if isinstance(pad, Tensor) and pad.size == 0:
        return op_api("assign")(x)
    is_list = isinstance(pad, (list, tuple))
    if mode == "constant" and is_list and len(pad) != (ndim - 2) * 2:
        paddings = _pad_list(pad)
        if len(paddings) > 2 * ndim or len(paddings) % 2:
            raise InvalidArgumentError(
                f"pad: a constant pad of a {ndim}-D x takes an even count of at most {2 * ndim} "
                f"numbers, got {len(paddings)}"
            )
        full = len(paddings) == 2 * ndim
        paddings = paddings + [0] * (2 * ndim - len(paddings))
        if not (full and pad_from_left_axis):
            paddings = [
                paddings[i - 1] if i % 2 == 1 else paddings[i + 1]
                for i in range(2 * ndim - 1, -1, -1)
            ]
        return op_api("pad")(x, paddings, float(value))
    if ndim not in _FORMATS:
        raise InvalidArgumentError(
            f"pad: input tensor dimension must be in [3, 4, 5] but got {ndim}"
        )
    if data_format is None:
        data_format = _FORMATS[ndim][0]
    data_format = str(data_format).upper()
    if data_format not in _FORMATS[ndim]:
        raise InvalidArgumentError(
            f"pad: input tensor dimension is {ndim}, it's data format should be in "
            f"{list(_FORMATS[ndim])} but got {data_format}"
        )
    paddings = _pad_list(pad)
    spatial = ndim - 2
    if len(paddings) != 2 * spatial:
        raise InvalidArgumentError(
            f"pad: a {mode} pad of a {ndim}-D x takes {2 * spatial} numbers "
            f"(two per spatial axis), got {len(paddings)}"
        )
    channels_first = data_format[1] == "C"
    unsqueezed: list[int] = []
    if ndim == 3:
        paddings = [0, 0, 0, 0, *paddings]
        unsqueezed = [3, 4] if channels_first else [2, 3]
    elif ndim == 4:
        paddings = [*paddings, 0, 0]
        unsqueezed = [2] if channels_first else [1]
    if unsqueezed:
        x = op_api("unsqueeze")(x, unsqueezed)
    out = op_api("pad3d")(x, paddings, mode, float(value), "NCDHW" if channels_first else "NDHWC")
    if unsqueezed:
        out = op_api("squeeze")(out, unsqueezed)
    return out


def zeropad2d(
    x: Tensor, padding: Any, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """``pad(x, padding, mode='constant', value=0, data_format=data_format)``."""
    return pad(x, padding, mode="constant", value=0.0, data_format=data_format)


def one_hot(x: Tensor, num_classes: int = -1, name: str | None = None) -> Tensor:
    """float32 one-hot vectors of length ``num_classes`` for the int32/int64 labels x (a new
    last axis); a label outside [0, num_classes) is an error."""
    if not isinstance(x, Tensor):
        raise InvalidArgumentError(f"one_hot: x must be a Tensor, got {type(x).__name__}")
    return op_api("one_hot")(x, num_classes)


def _expand(padding: Any, count: int, layer: str) -> Any:
    if isinstance(padding, int):
        return [padding] * count
    if isinstance(padding, Tensor):
        return padding
    values = list(padding)
    if len(values) != count:
        raise InvalidArgumentError(
            f"{layer}: padding must be an int or {count} ints, got {padding!r}"
        )
    return values


class _Pad(Layer):
    _count = 0
    _default_format = ""

    def __init__(
        self,
        padding: Any,
        mode: str = "constant",
        value: float = 0.0,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if mode not in _MODES:
            raise InvalidArgumentError(
                f"{type(self).__name__}: mode should be one of constant, reflect, replicate, "
                f"circular, but got {mode}."
            )
        self._pad = _expand(padding, self._count, type(self).__name__)
        self._mode = mode
        self._value = value
        self._data_format = data_format or self._default_format

    def forward(self, x: Tensor) -> Tensor:
        return pad(x, self._pad, self._mode, self._value, self._data_format)

    def extra_repr(self) -> str:
        return (
            f"padding={self._pad}, mode={self._mode}, value={self._value}, "
            f"data_format={self._data_format}"
        )


class Pad1D(_Pad):
    """Pads the last axis of an NCL/NLC input: ``padding`` int or [left, right]."""

    _count, _default_format = 2, "NCL"

    def __init__(
        self,
        padding: Any,
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format)


class Pad2D(_Pad):
    """Pads H and W of an NCHW/NHWC input: ``padding`` int or [left, right, top, bottom]."""

    _count, _default_format = 4, "NCHW"

    def __init__(
        self,
        padding: Any,
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format)


class Pad3D(_Pad):
    """Pads D, H and W of an NCDHW/NDHWC input: ``padding`` int or [left, right, top, bottom,
    front, back]."""

    _count, _default_format = 6, "NCDHW"

    def __init__(
        self,
        padding: Any,
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format)


class ZeroPad1D(Pad1D):
    """Pad1D with zeros."""

    def __init__(self, padding: Any, data_format: str = "NCL", name: str | None = None) -> None:
        super().__init__(padding, "constant", 0.0, data_format)


class ZeroPad2D(Pad2D):
    """Pad2D with zeros."""

    def __init__(self, padding: Any, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(padding, "constant", 0.0, data_format)


class ZeroPad3D(Pad3D):
    """Pad3D with zeros."""

    def __init__(self, padding: Any, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(padding, "constant", 0.0, data_format)


class ConstantPad1D(Pad1D):
    """Pad1D with ``value``."""

    def __init__(
        self, padding: Any, value: float, data_format: str = "NCL", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", value, data_format)


class ConstantPad2D(Pad2D):
    """Pad2D with ``value``."""

    def __init__(
        self, padding: Any, value: float, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", value, data_format)


class ConstantPad3D(Pad3D):
    """Pad3D with ``value``."""

    def __init__(
        self, padding: Any, value: float, data_format: str = "NCDHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", value, data_format)
