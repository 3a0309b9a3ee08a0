"""The activations of ``paddle.nn.functional`` and ``paddle.nn`` that phiops's ops already
compute: PaddlePaddle 3.3.1's Python signatures and defaults over the ops (its
python/paddle/nn/functional/activation.py and nn/layer/activation.py), plus ``Identity``.

Each function passes PaddlePaddle's defaults to the op, which differ from some ops' own spec
defaults (``F.leaky_relu``'s negative_slope 0.01 where the op's is 0.02; ``F.hardsigmoid``'s
slope 0.1666667 where the op's is 0.2; ``F.hardtanh``'s min/max -1/1 where the op's t_min/t_max
are 0/24; ``F.mish``'s threshold 20).
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.initializer import Constant
from phiops.runtime.nn.layer import Layer

__all__ = [
    # functional
    "celu",
    "elu",
    "elu_",
    "glu",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardtanh",
    "hardtanh_",
    "tanh_",
    "thresholded_relu_",
    "leaky_relu",
    "leaky_relu_",
    "log_sigmoid",
    "log_softmax",
    "logsigmoid",
    "maxout",
    "mish",
    "prelu",
    "relu6",
    "relu_",
    "selu",
    "silu",
    "softmax_",
    "softplus",
    "softshrink",
    "softsign",
    "swish",
    "tanhshrink",
    "thresholded_relu",
    # layers
    "CELU",
    "ELU",
    "GLU",
    "Hardshrink",
    "Hardsigmoid",
    "Hardtanh",
    "Identity",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Maxout",
    "Mish",
    "PReLU",
    "ReLU6",
    "SELU",
    "SiLU",
    "Softmax2D",
    "Softplus",
    "Softshrink",
    "Softsign",
    "Swish",
    "Tanhshrink",
    "ThresholdedReLU",
]


def _in_place(name: str, x: Tensor, compute: Any) -> Tensor:
    """``compute()`` (the op on x) written into x's storage, as the generated ``<op>_``
    variants do (runtime/eager/inplace.py: version bump, autograd rebased onto the op)."""
    from phiops.runtime.eager.inplace import check_inplace, write_inplace

    check_inplace(name, "x", x)
    return write_inplace(x, compute())


def _check_tensor(x: Any, where: str) -> None:
    if not isinstance(x, Tensor):
        raise InvalidArgumentError(f"{where}: x must be a Tensor, got {type(x).__name__}")


# ---- functional -------------------------------------------------------------------------------


def elu(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """max(0, x) + min(0, alpha * (exp(x) - 1))."""
    return op_api("elu")(x, alpha)


def elu_(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """elu, in place on x (alpha must be >= 0, as PaddlePaddle requires for the in-place op)."""
    if alpha < 0:
        raise InvalidArgumentError(f"elu_: alpha must be >= 0 in place, got {alpha}")
    return _in_place("elu_", x, lambda: op_api("elu")(x, alpha))


def celu(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); alpha must not be 0."""
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    return op_api("celu")(x, alpha)


def selu(
    x: Tensor,
    scale: float = 1.0507009873554804934193349852946,
    alpha: float = 1.6732632423543772848170429916717,
    name: str | None = None,
) -> Tensor:
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))); scale > 1, alpha >= 0."""
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    return op_api("selu")(x, scale, alpha)


def silu(x: Tensor, inplace: bool = False, name: str | None = None) -> Tensor:
    """x * sigmoid(x). ``inplace`` writes the result into x, as PaddlePaddle's."""
    if inplace:
        return _in_place("silu", x, lambda: op_api("silu")(x))
    return op_api("silu")(x)


def swish(x: Tensor, name: str | None = None) -> Tensor:
    """x * sigmoid(x)."""
    return op_api("swish")(x)


def mish(x: Tensor, name: str | None = None) -> Tensor:
    """x * tanh(softplus(x)) (softplus linear above 20, as PaddlePaddle's)."""
    return op_api("mish")(x, 20.0)


def softplus(x: Tensor, beta: float = 1, threshold: float = 20, name: str | None = None) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x where beta * x > threshold."""
    return op_api("softplus")(x, float(beta), float(threshold))


def softsign(x: Tensor, name: str | None = None) -> Tensor:
    """x / (1 + |x|)."""
    return op_api("softsign")(x)


def softshrink(x: Tensor, threshold: float = 0.5, name: str | None = None) -> Tensor:
    """x - threshold above threshold, x + threshold below -threshold, else 0."""
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    return op_api("softshrink")(x, threshold)


def gumbel_softmax(
    x: Tensor,
    temperature: float = 1.0,
    hard: bool = False,
    axis: int = -1,
    name: str | None = None,
) -> Tensor:
    """A sample of the Gumbel-Softmax distribution of the logits ``x`` along ``axis``:
    ``softmax((x + g) / temperature)`` with standard Gumbel noise ``g``; ``hard`` gives its
    one-hot argmax. The gradient is the softmax's through the returned sample, as PaddlePaddle
    3.3.1's kernel computes it (so zero for a hard sample). The noise is drawn as
    PaddlePaddle's CPU kernel draws it: after the same ``paddle.seed``, PaddlePaddle's."""
    return op_api("gumbel_softmax")(x, float(temperature), bool(hard), int(axis))


def hardshrink(x: Tensor, threshold: float = 0.5, name: str | None = None) -> Tensor:
    """x where |x| > threshold, else 0."""
    return op_api("hardshrink")(x, threshold)


def hardsigmoid(
    x: Tensor, slope: float = 0.1666667, offset: float = 0.5, name: str | None = None
) -> Tensor:
    """max(0, min(1, slope * x + offset))."""
    return op_api("hardsigmoid")(x, slope, offset)


def hardtanh(x: Tensor, min: float = -1.0, max: float = 1.0, name: str | None = None) -> Tensor:
    """x clipped to [min, max]."""
    return op_api("hardtanh")(x, min, max)


def hardtanh_(x: Tensor, min: float = -1.0, max: float = 1.0, name: str | None = None) -> Tensor:
    """hardtanh, in place on x."""
    return _in_place("hardtanh_", x, lambda: op_api("hardtanh")(x, min, max))


def relu6(x: Tensor, name: str | None = None) -> Tensor:
    """min(max(0, x), 6)."""
    return op_api("relu6")(x)


def relu_(x: Tensor, name: str | None = None) -> Tensor:
    """relu, in place on x."""
    return _in_place("relu_", x, lambda: op_api("relu")(x))


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """x where x >= 0, negative_slope * x elsewhere."""
    return op_api("leaky_relu")(x, negative_slope)


def leaky_relu_(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """leaky_relu, in place on x."""
    return _in_place("leaky_relu_", x, lambda: op_api("leaky_relu")(x, negative_slope))


def log_softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: str | None = None) -> Tensor:
    """log(softmax(x)) along ``axis``, computed stably; ``dtype`` casts x first."""
    if dtype is not None:
        x = op_api("cast")(x, to_dtype(dtype, "log_softmax", "dtype"))
    return op_api("log_softmax")(x, axis)


def softmax_(x: Tensor, axis: int = -1, dtype: Any = None, name: str | None = None) -> Tensor:
    """softmax, in place on x (``dtype`` must be x's own, as a cast cannot happen in place)."""
    if dtype is not None and to_dtype(dtype, "softmax_", "dtype") is not x.meta.dtype:
        raise InvalidArgumentError(
            f"softmax_: dtype {dtype!r} differs from x's {x.meta.dtype.name.lower()}; an "
            "in-place softmax cannot cast"
        )
    return _in_place("softmax_", x, lambda: op_api("softmax")(x, axis))


def log_sigmoid(x: Tensor, name: str | None = None) -> Tensor:
    """log(1 / (1 + exp(-x)))."""
    return op_api("logsigmoid")(x)


logsigmoid = log_sigmoid


def tanhshrink(x: Tensor, name: str | None = None) -> Tensor:
    """x - tanh(x)."""
    return op_api("tanh_shrink")(x)


def thresholded_relu(
    x: Tensor, threshold: float = 1.0, value: float = 0.0, name: str | None = None
) -> Tensor:
    """x where x > threshold, else ``value``."""
    return op_api("thresholded_relu")(x, threshold, value)


def thresholded_relu_(
    x: Tensor, threshold: float = 1.0, value: float = 0.0, name: str | None = None
) -> Tensor:
    """thresholded_relu, in place on x."""
    return _in_place(
        "thresholded_relu_", x, lambda: op_api("thresholded_relu")(x, threshold, value)
    )


def tanh_(x: Tensor, name: str | None = None) -> Tensor:
    """tanh, in place on x (``paddle.nn.functional.tanh_``, PaddlePaddle's ``paddle.tanh_``)."""
    return _in_place("tanh_", x, lambda: op_api("tanh")(x))


_PRELU_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def prelu(x: Tensor, weight: Tensor, data_format: str = "NCHW", name: str | None = None) -> Tensor:
    """max(0, x) + weight * min(0, x): one weight for all elements, or one per channel (weight
    of shape [C], channels at axis 1 or, for channels-last formats, the last axis)."""
    _check_tensor(x, "prelu")
    _check_tensor(weight, "prelu(weight)")
    if len(weight.shape) > 1:
        raise InvalidArgumentError(
            f"prelu: weight must be 0-D or 1-D, got shape {list(weight.shape)}"
        )
    mode = "all"
    if len(weight.shape) == 1 and weight.shape[0] > 1:
        if data_format not in _PRELU_FORMATS:
            raise ValueError(
                "data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC' "
                f"but receive {data_format}"
            )
        data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        if len(x.shape) < 2:
            raise InvalidArgumentError(
                "prelu: x must have at least 2 dimensions when weight has more than one element"
            )
        channels = x.shape[-1] if data_format == "NHWC" else x.shape[1]
        if weight.shape[0] != channels:
            raise InvalidArgumentError(
                f"prelu: weight has {weight.shape[0]} elements, x has {channels} channels "
                f"({data_format})"
            )
        mode = "channel"
    return op_api("prelu")(x, weight, data_format, mode)


def glu(x: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """a * sigmoid(b), where a and b are the two halves of x along ``axis``."""
    _check_tensor(x, "glu")
    if not x.shape or x.shape[axis] % 2:
        raise InvalidArgumentError(
            f"glu: x's size along axis {axis} must be even, x has shape {list(x.shape)}"
        )
    a, b = op_api("split_with_num")(x, 2, axis)
    return op_api("multiply")(a, op_api("sigmoid")(b))


def maxout(x: Tensor, groups: int, axis: int = 1, name: str | None = None) -> Tensor:
    """The maximum of each run of ``groups`` channels along ``axis`` (1 or -1 for NCHW/NHWC
    4-D input; the channel count must be divisible by ``groups``)."""
    _check_tensor(x, "maxout")
    return op_api("maxout")(x, groups, axis)


# ---- layers -----------------------------------------------------------------------------------


class _Activation(Layer):
    """A layer calling one functional activation with the attributes given at construction."""

    _fn: Any = None

    def __init__(self, **attrs: Any) -> None:
        super().__init__()
        self._attrs = attrs

    def forward(self, x: Tensor) -> Tensor:
        return type(self)._fn(x, **self._attrs)

    def extra_repr(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self._attrs.items())


class ELU(_Activation):
    _fn = staticmethod(elu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class CELU(_Activation):
    _fn = staticmethod(celu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class SELU(_Activation):
    _fn = staticmethod(selu)

    def __init__(
        self,
        scale: float = 1.0507009873554804934193349852946,
        alpha: float = 1.6732632423543772848170429916717,
        name: str | None = None,
    ) -> None:
        super().__init__(scale=scale, alpha=alpha)


class SiLU(_Activation):
    _fn = staticmethod(silu)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__(inplace=inplace)


class Swish(_Activation):
    _fn = staticmethod(swish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class Mish(_Activation):
    _fn = staticmethod(mish)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class Softplus(_Activation):
    _fn = staticmethod(softplus)

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(beta=beta, threshold=threshold)


class Softsign(_Activation):
    _fn = staticmethod(softsign)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class Softshrink(_Activation):
    _fn = staticmethod(softshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Hardshrink(_Activation):
    _fn = staticmethod(hardshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Hardsigmoid(_Activation):
    _fn = staticmethod(hardsigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class Hardtanh(_Activation):
    _fn = staticmethod(hardtanh)

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:
        super().__init__(min=min, max=max)


class ReLU6(_Activation):
    _fn = staticmethod(relu6)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class LeakyReLU(_Activation):
    _fn = staticmethod(leaky_relu)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(negative_slope=negative_slope)


class LogSoftmax(_Activation):
    _fn = staticmethod(log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class LogSigmoid(_Activation):
    _fn = staticmethod(log_sigmoid)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class Tanhshrink(_Activation):
    _fn = staticmethod(tanhshrink)

    def __init__(self, name: str | None = None) -> None:
        super().__init__()


class ThresholdedReLU(_Activation):
    _fn = staticmethod(thresholded_relu)

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(threshold=threshold, value=value)


class GLU(_Activation):
    _fn = staticmethod(glu)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Maxout(_Activation):
    _fn = staticmethod(maxout)

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(groups=groups, axis=axis)


class Softmax2D(Layer):
    """softmax over the channel axis (-3) of a 3-D (CHW) or 4-D (NCHW) input."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        _check_tensor(x, "Softmax2D")
        if len(x.shape) not in (3, 4):
            raise InvalidArgumentError(
                f"Softmax2D: x must be 3-D or 4-D, got shape {list(x.shape)}"
            )
        return op_api("softmax")(x, -3)


class PReLU(Layer):
    """prelu with a learnt weight: one (``num_parameters=1``) or one per channel."""

    def __init__(
        self,
        num_parameters: int = 1,
        init: float = 0.25,
        weight_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(num_parameters, int) or num_parameters < 1:
            raise InvalidArgumentError(
                f"PReLU: num_parameters must be a positive int, got {num_parameters!r}"
            )
        self._num_parameters = num_parameters
        self._init = init
        self._data_format = data_format
        self.weight = self.create_parameter(
            attr=weight_attr,
            shape=[num_parameters],
            is_bias=False,
            default_initializer=Constant(init),
        )

    def forward(self, x: Tensor) -> Tensor:
        return prelu(x, self.weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}"


class Identity(Layer):
    """Returns its input; accepts (and ignores) any constructor arguments, as PaddlePaddle's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PaddlePaddle's name
        return input
