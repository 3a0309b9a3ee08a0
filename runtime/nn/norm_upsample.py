"""``paddle.nn``'s normalization, upsampling and rearranging layers and their functions, as
PaddlePaddle 3.3.1's python/paddle/nn/functional/{norm,common,vision}.py and
nn/layer/{norm,common,vision}.py define them, each over its op:

- ``instance_norm`` (op ``instance_norm``) and InstanceNorm1D/2D/3D (parameters ``scale`` and
  ``bias``); BatchNorm3D, SyncBatchNorm (one process: the statistics of the local batch, through
  the ``batch_norm_`` op, as PaddlePaddle's ``sync_batch_norm_`` computes them with one rank;
  ``convert_sync_batchnorm``);
- ``local_response_norm`` and LocalResponseNorm (the ops PaddlePaddle's function composes:
  square, pad, ``pool2d``/``pool3d`` averages, ``scale``, ``pow``, ``divide``), ``normalize``
  (``p_norm``, ``maximum``, ``divide``);
- ``interpolate``/``upsample`` and Upsample, UpsamplingNearest2D, UpsamplingBilinear2D: modes
  linear (3-D; op ``linear_interp``), nearest (4-D, 5-D; ``nearest_interp``), bilinear (4-D;
  ``bilinear_interp``), bicubic (4-D; ``bicubic_interp``), trilinear (5-D;
  ``trilinear_interp``) and area (adaptive average pools); ``antialias`` with bilinear or
  bicubic: op ``interp_antialias``;
- PixelShuffle, PixelUnshuffle, ChannelShuffle, Unfold and Fold over the functions of
  runtime/nn/vision_functional.py;
- ``rrelu`` and RReLU (op ``rrelu``): random slopes in training, drawn as PaddlePaddle's CPU
  kernel draws them (after the same ``paddle.seed``, PaddlePaddle's numbers; see
  runtime/kernels/impl/normup_kernel.py), their mean in eval mode.

Bad input raises InvalidArgumentError naming the function or layer and the argument, where
PaddlePaddle raises a ValueError (InvalidArgumentError is one)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import OP_DEFS, op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.nn import vision_functional
from phiops.runtime.nn.initializer import Constant
from phiops.runtime.nn.layer import Layer
from phiops.runtime.nn.layers import _BatchNormBase
from phiops.runtime.nn.param_attr import ParamAttr
from phiops.runtime.static.mode import in_static_mode

__all__ = [
    "instance_norm",
    "local_response_norm",
    "normalize",
    "interpolate",
    "upsample",
    "rrelu",
    "InstanceNorm1D",
    "InstanceNorm2D",
    "InstanceNorm3D",
    "BatchNorm3D",
    "BatchNorm",
    "SyncBatchNorm",
    "LocalResponseNorm",
    "Upsample",
    "UpsamplingNearest2D",
    "UpsamplingBilinear2D",
    "PixelShuffle",
    "PixelUnshuffle",
    "ChannelShuffle",
    "Unfold",
    "Fold",
    "RReLU",
]

FUNCTION_NAMES = (
    "instance_norm",
    "local_response_norm",
    "normalize",
    "interpolate",
    "upsample",
    "rrelu",
)
LAYER_NAMES = tuple(name for name in __all__ if name not in FUNCTION_NAMES)


def _is_tensor(value: Any) -> bool:
    return isinstance(value, (Tensor, Value))


def _check_x(x: Any, where: str, argument: str = "x") -> int:
    """x's rank, after checking that it is a Tensor (or a static program's Value)."""
    if not _is_tensor(x):
        raise InvalidArgumentError(
            f"{where}: argument '{argument}' must be a Tensor, got {type(x).__name__}"
        )
    return len(x.shape)


# ---- normalization ----------------------------------------------------------------------------

_INSTANCE_FORMATS = ("NC", "NCL", "NCHW", "NCDHW")


def instance_norm(
    x: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.9,
    eps: float = 1e-05,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Normalises each sample's each channel over its spatial positions (op ``instance_norm``),
    then scales by ``weight`` and shifts by ``bias`` (one value per channel). PaddlePaddle's
    function ignores ``running_mean``, ``running_var``, ``use_input_stats`` and ``momentum``
    (its op keeps no running statistics); so does this one. x is channels first, at least 2-D."""
    ndim = _check_x(x, "instance_norm")
    if ndim < 2:
        raise InvalidArgumentError(
            f"instance_norm: argument 'x' must be at least 2-D [N, C, ...], got a {ndim}-D tensor"
        )
    if data_format not in _INSTANCE_FORMATS:
        raise InvalidArgumentError(
            f"instance_norm: argument 'data_format' must be one of {list(_INSTANCE_FORMATS)} "
            f"(channels first), got {data_format!r}"
        )
    return op_api("instance_norm")(x, weight, bias, eps)


class _InstanceNormBase(Layer):
    _ranks: tuple[int, ...] = ()
    _default_format = "NCHW"

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        where = type(self).__name__
        if (weight_attr is False) != (bias_attr is False):
            raise InvalidArgumentError(
                f"{where}: weight_attr and bias_attr must be set to False at the same time"
            )
        if isinstance(num_features, bool) or not isinstance(num_features, int) or num_features < 1:
            raise InvalidArgumentError(
                f"{where}: argument 'num_features' must be a positive int, got {num_features!r}"
            )
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._data_format = data_format
        if weight_attr is False:
            self.scale = None
            self.bias = None
        else:
            self.scale = self.create_parameter(
                [num_features], weight_attr, default_initializer=Constant(1.0)
            )
            self.bias = self.create_parameter(
                [num_features], bias_attr, is_bias=True, default_initializer=Constant(0.0)
            )

    def forward(self, input: Tensor) -> Tensor:
        ndim = _check_x(input, type(self).__name__, "input")
        if ndim not in self._ranks:
            expected = " or ".join(f"{r}-D" for r in self._ranks)
            raise InvalidArgumentError(
                f"{type(self).__name__}: expected a {expected} input, got a {ndim}-D one"
            )
        return instance_norm(
            input,
            weight=self.scale,
            bias=self.bias,
            momentum=self._momentum,
            eps=self._epsilon,
            data_format=self._data_format,
        )

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of [N, C] or [N, C, L] inputs; parameters ``scale`` (ones) and
    ``bias`` (zeros) of shape [num_features], none when both attrs are False."""

    _ranks = (2, 3)

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of [N, C, H, W] inputs (see InstanceNorm1D)."""

    _ranks = (4,)

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of [N, C, D, H, W] inputs (see InstanceNorm1D)."""

    _ranks = (5,)

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of [N, C, D, H, W] (``data_format`` "NCDHW") or [N, D, H, W, C]
    ("NDHWC") inputs; parameters and running statistics as BatchNorm2D's."""

    _data_format = "NCDHW"

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCDHW",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        if data_format not in ("NCDHW", "NDHWC"):
            raise InvalidArgumentError(
                f"BatchNorm3D: argument 'data_format' must be 'NCDHW' or 'NDHWC', "
                f"got {data_format!r}"
            )
        super().__init__(
            num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats
        )
        self._num_features = num_features

    def forward(self, x: Tensor) -> Tensor:
        ndim = _check_x(x, "BatchNorm3D", "input")
        if ndim != 5:
            raise InvalidArgumentError(f"BatchNorm3D: expected a 5-D input, got a {ndim}-D one")
        layout = "NCHW" if self._format == "NCDHW" else "NHWC"
        return _batch_norm(self, x, layout, self._use_global_stats)


def _batch_norm(
    layer: Layer, x: Tensor, layout: str, global_stats: Any, trainable_statistics: bool = False
) -> Tensor:
    """The ``batch_norm_`` op over ``layer``'s parameters and running statistics."""
    use_global = (not layer.training) if global_stats is None else global_stats
    # the op writes the running statistics in place; they take no gradient (as PaddlePaddle's
    # stay stop_gradient), so it writes through detached handles on their storage
    mean, variance = (
        stat.detach() if isinstance(stat, Tensor) else stat
        for stat in (layer._mean, layer._variance)
    )
    return op_api("batch_norm_")(
        x,
        mean,
        variance,
        layer.weight,
        layer.bias,
        not layer.training,
        layer._momentum,
        layer._epsilon,
        layout,
        use_global,
        trainable_statistics,
    )[0]


def _activation_op(act: str) -> Any:
    """The op the old-style BatchNorm's ``act`` names, as PaddlePaddle's
    dygraph_utils._append_activation_in_dygraph calls ``_C_ops.<act>``."""
    op = OP_DEFS.get(act) if isinstance(act, str) else None
    if op is None or op.api is None or len(op.info.inputs) != 1:
        raise InvalidArgumentError(
            f"BatchNorm: argument 'act' must be None or the name of a one-input op "
            f"(relu, sigmoid, tanh, ...), got {act!r}"
        )
    return op.api


class BatchNorm(Layer):
    """The old-style batch normalization layer (``paddle.nn.BatchNorm``, of the fluid API):
    ``num_channels`` scales and shifts (``param_attr``/``bias_attr``; False leaves them out)
    and running statistics, ``data_layout`` "NCHW" or "NHWC", an optional activation ``act``
    applied to the result; ``is_test`` starts the layer in eval mode. ``in_place``,
    ``do_model_average_for_mean_and_var`` change nothing here (as in PaddlePaddle's dygraph)."""

    def __init__(
        self,
        num_channels: int,
        act: str | None = None,
        is_test: bool = False,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        param_attr: Any = None,
        bias_attr: Any = None,
        dtype: Any = "float32",
        data_layout: str = "NCHW",
        in_place: bool = False,
        moving_mean_name: str | None = None,
        moving_variance_name: str | None = None,
        do_model_average_for_mean_and_var: bool = True,
        use_global_stats: bool = False,
        trainable_statistics: bool = False,
    ) -> None:
        super().__init__(dtype="float32" if dtype == "float16" else dtype)
        if act is not None:
            _activation_op(act)
        if data_layout not in ("NCHW", "NHWC"):
            raise InvalidArgumentError(
                f"BatchNorm: argument 'data_layout' must be 'NCHW' or 'NHWC', got {data_layout!r}"
            )
        shape = [num_channels]
        self._param_attr, self._bias_attr = param_attr, bias_attr
        self.weight = (
            None
            if param_attr is False
            else self.create_parameter(
                shape, param_attr, self._dtype, default_initializer=Constant(1.0)
            )
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter(shape, bias_attr, self._dtype, is_bias=True)
        )
        for buffer, fill, buffer_name in (
            ("_mean", 0.0, moving_mean_name),
            ("_variance", 1.0, moving_variance_name),
        ):
            attr = ParamAttr(name=buffer_name, initializer=Constant(fill), trainable=False)
            self.register_buffer(buffer, self.create_parameter(shape, attr, self._dtype))
        self._act, self._data_layout = act, data_layout
        self._momentum, self._epsilon = momentum, epsilon
        self._use_global_stats = use_global_stats
        self._trainable_statistics = trainable_statistics
        self.training = not is_test

    def forward(self, input: Tensor) -> Tensor:
        _check_x(input, "BatchNorm", "input")
        out = _batch_norm(
            self, input, self._data_layout, self._use_global_stats, self._trainable_statistics
        )
        return out if self._act is None else _activation_op(self._act)(out)


_SYNC_FORMATS = {
    "NC": "NCHW",
    "NCL": "NCHW",
    "NCHW": "NCHW",
    "NCDHW": "NCHW",
    "NLC": "NHWC",
    "NHWC": "NHWC",
    "NDHWC": "NHWC",
}


class SyncBatchNorm(_BatchNormBase):
    """Batch normalization whose statistics PaddlePaddle gathers over every training process.
    phiops trains in one process here, so they are the local batch's: the layer computes what
    BatchNorm does (any rank, ``data_format`` NC/NCL/NCHW/NCDHW or NLC/NHWC/NDHWC). With
    ``weight_attr``/``bias_attr`` False the scale and shift are constant ones and zeros."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        if data_format not in _SYNC_FORMATS:
            raise InvalidArgumentError(
                f"SyncBatchNorm: argument 'data_format' must be one of {list(_SYNC_FORMATS)}, "
                f"got {data_format!r}"
            )
        if weight_attr is not False and bias_attr is not False:
            super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format)
        else:
            # PaddlePaddle makes the running statistics first, then constant, untrained scale
            # and shift (named after them: sync_batch_norm_0.w_2, .b_0)
            Layer.__init__(self)
            for buffer, fill in (("_mean", 0.0), ("_variance", 1.0)):
                attr = ParamAttr(initializer=Constant(fill), trainable=False)
                self.register_buffer(buffer, self.create_parameter([num_features], attr))
            self._momentum, self._epsilon = momentum, epsilon
            self._format, self._use_global_stats = data_format, None
            for attribute, fill, is_bias in (("weight", 1.0, False), ("bias", 0.0, True)):
                constant = ParamAttr(initializer=Constant(fill), trainable=False)
                setattr(
                    self,
                    attribute,
                    self.create_parameter([num_features], constant, is_bias=is_bias),
                )
        self._num_features, self._name = num_features, name
        self._weight_attr, self._bias_attr = weight_attr, bias_attr

    def forward(self, x: Tensor) -> Tensor:
        _check_x(x, "SyncBatchNorm")
        return _batch_norm(self, x, _SYNC_FORMATS[self._format], False)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """``layer`` with every BatchNorm layer in it (itself included) replaced by a
        SyncBatchNorm that shares its parameters and running statistics."""
        result = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            weight_attr = getattr(layer, "_weight_attr", None)
            bias_attr = getattr(layer, "_bias_attr", None)
            for attr in (weight_attr, bias_attr):
                if attr is not None and not isinstance(attr, bool) and attr.name is not None:
                    attr.name = attr.name + "_sync"
            result = cls(
                layer.weight.shape[0],
                layer._momentum,
                layer._epsilon,
                weight_attr,
                bias_attr,
                layer._format if layer._format in _SYNC_FORMATS else "NCHW",
            )
            if weight_attr is not False and bias_attr is not False:
                result.weight = layer.weight
                result.bias = layer.bias
            result._mean = layer._mean
            result._variance = layer._variance
        for child_name, child in layer.named_children():
            result.add_sublayer(child_name, cls.convert_sync_batchnorm(child))
        return result


_LRN_FORMATS = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")


def local_response_norm(
    x: Tensor,
    size: int,
    alpha: float = 0.0001,
    beta: float = 0.75,
    k: float = 1.0,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """x / (k + alpha * avg of x^2 over ``size`` neighbouring channels)^beta, the channel window
    zero-padded (size // 2 before, (size - 1) // 2 after), as PaddlePaddle composes it."""
    if data_format not in _LRN_FORMATS:
        raise InvalidArgumentError(
            f"local_response_norm: argument 'data_format' must be one of {list(_LRN_FORMATS)}, "
            f"got {data_format!r}"
        )
    ndim = _check_x(x, "local_response_norm")
    if ndim < 3:
        raise InvalidArgumentError(
            f"local_response_norm: argument 'x' must be 3-D or more, got a {ndim}-D tensor"
        )
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidArgumentError(
            f"local_response_norm: argument 'size' must be a positive int, got {size!r}"
        )
    sizes = list(x.shape)
    for axis, extent in enumerate(sizes[1:], start=1):
        if not extent > 0:
            raise InvalidArgumentError(
                f"local_response_norm: every dim of x but the first must be positive, "
                f"dim {axis} is {extent}"
            )
    channel_last = data_format[-1] == "C"
    inner = 1
    for extent in sizes[1:]:
        inner *= extent
    div = op_api("unsqueeze")(op_api("multiply")(x, x), [1])
    before, after = size // 2, (size - 1) // 2
    # the channel axis of div is zero-padded by the ``pad`` op (a pair per axis, first to last)
    if ndim == 3:
        # div is [N, 1, C, L] (channels first) or [N, 1, L, C]
        paddings = [0] * 6 + [before, after] if channel_last else [0] * 4 + [before, after, 0, 0]
        window = [1, size] if channel_last else [size, 1]
        div = op_api("pad")(div, paddings, 0.0)
        div = op_api("pool2d")(
            div, window, [1, 1], [0, 0], False, True, "NCHW", "avg", False, False, "EXPLICIT"
        )
        div = op_api("squeeze")(div, [1])
    else:
        if channel_last:
            shape = [sizes[0], 1, sizes[1], inner // (sizes[1] * sizes[-1]), sizes[-1]]
            paddings, window = [0] * 8 + [before, after], [1, 1, size]
        else:
            shape = [sizes[0], 1, sizes[1], sizes[2], inner // (sizes[1] * sizes[2])]
            paddings, window = [0] * 4 + [before, after] + [0] * 4, [size, 1, 1]
        div = op_api("pad")(op_api("reshape")(div, shape), paddings, 0.0)
        div = op_api("pool3d")(
            div,
            window,
            [1, 1, 1],
            [0, 0, 0],
            False,
            True,
            "NCDHW",
            "avg",
            False,
            False,
            "EXPLICIT",
        )
        div = op_api("reshape")(op_api("squeeze")(div, [1]), sizes)
    div = op_api("pow")(op_api("scale")(div, alpha, k, True), beta)
    return op_api("divide")(x, div)


class LocalResponseNorm(Layer):
    """Local response normalization across channels (``local_response_norm``)."""

    def __init__(
        self,
        size: int,
        alpha: float = 0.0001,
        beta: float = 0.75,
        k: float = 1.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format = data_format

    def forward(self, input: Tensor) -> Tensor:
        return local_response_norm(
            input, self.size, self.alpha, self.beta, self.k, self.data_format
        )

    def extra_repr(self) -> str:
        return f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def normalize(
    x: Tensor,
    p: float = 2,
    axis: int = 1,
    epsilon: float = 1e-12,
    out: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """x / max(||x||_p along ``axis``, epsilon) (ops ``p_norm``, ``maximum``, ``divide``);
    with ``out``, the result is written into it."""
    ndim = _check_x(x, "normalize")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise InvalidArgumentError(f"normalize: argument 'p' must be a number, got {p!r}")
    if (
        isinstance(axis, bool)
        or not isinstance(axis, int)
        or not -max(ndim, 1) <= axis < max(ndim, 1)
    ):
        raise InvalidArgumentError(
            f"normalize: argument 'axis' must be an int in [{-max(ndim, 1)}, {max(ndim, 1)}) for "
            f"a {ndim}-D x, got {axis!r}"
        )
    norm = op_api("p_norm")(x, float(p), axis, epsilon, True, False)
    floor = op_api("full")([1], epsilon, x.dtype)
    result = op_api("divide")(x, op_api("maximum")(norm, floor))
    if out is None:
        return result
    from phiops.runtime.eager.inplace import write_inplace

    return write_inplace(out, result)


# ---- upsampling -------------------------------------------------------------------------------

_MODES = ("linear", "bilinear", "trilinear", "nearest", "bicubic", "area")
_DEFAULT_FORMATS = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
# the op of each mode, as PaddlePaddle's F.interpolate picks it ("<mode>_interp")
_MODE_OPS = {mode: f"{mode}_interp" for mode in _MODES if mode != "area"}


def _int_list(value: Any) -> list[Any]:
    """``size`` as a list: a Tensor's values (eager), else the items (ints or Tensors)."""
    if isinstance(value, Tensor):
        return [int(v) for v in value.numpy().reshape(-1).tolist()]
    return list(value)


def _adaptive_avg(x: Tensor, size: Any, spatial: int) -> Tensor:
    sizes = [size] * spatial if isinstance(size, int) else _int_list(size)
    if len(sizes) != spatial:
        raise InvalidArgumentError(
            f"interpolate: argument 'size' must hold {spatial} sizes for a {spatial + 2}-D x, "
            f"got {size!r}"
        )
    sizes = [int(s.item()) if isinstance(s, Tensor) else int(s) for s in sizes]
    if spatial == 1:
        pooled = op_api("pool2d")(
            op_api("unsqueeze")(x, [2]),
            [1, sizes[0]],
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
        return op_api("squeeze")(pooled, [2])
    pool = op_api("pool2d" if spatial == 2 else "pool3d")
    fmt = "NCHW" if spatial == 2 else "NCDHW"
    return pool(
        x, sizes, [1] * spatial, [0] * spatial, False, True, fmt, "avg", False, True, "EXPLICIT"
    )


def interpolate(
    x: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
    name: str | None = None,
) -> Tensor:
    """Resizes the spatial dims of a 3-D, 4-D or 5-D x to ``size`` (a list of ints or 1-element
    Tensors, or a 1-D Tensor) or by ``scale_factor`` (a number, a list or a Tensor): ``mode``
    linear (3-D), nearest (4-D, 5-D), bilinear (4-D), bicubic (4-D), trilinear (5-D), area
    (adaptive average pooling; ``size`` only). With ``align_corners`` the corner pixels'
    centres map onto each other; ``align_mode`` 0 uses half-pixel centres for linear, bilinear
    and trilinear, 1 the plain ratio (bicubic always uses half-pixel centres without
    ``align_corners``). ``recompute_scale_factor`` turns the
    scale into a size (floor(in * scale)) before the op. ``antialias`` (bilinear and bicubic
    only) filters with the method's kernel stretched by the downsampling ratio, as PIL does
    (op ``interp_antialias``)."""
    where = "interpolate"
    ndim = _check_x(x, where)
    if ndim not in _FORMATS:
        raise InvalidArgumentError(
            f"{where}: argument 'x' must be 3-D, 4-D or 5-D, got a {ndim}-D tensor"
        )
    data_format = (_DEFAULT_FORMATS[ndim] if data_format is None else str(data_format)).upper()
    if not isinstance(mode, str) or mode.lower() not in _MODES:
        raise InvalidArgumentError(
            f"{where}: argument 'mode' must be one of {list(_MODES)}, got {mode!r}"
        )
    mode = mode.lower()
    ranks = {
        "linear": (3,),
        "nearest": (4, 5),
        "bilinear": (4,),
        "bicubic": (4,),
        "trilinear": (5,),
    }
    if mode in ranks and ndim not in ranks[mode]:
        expected = " or ".join(f"{r}-D" for r in ranks[mode])
        raise InvalidArgumentError(
            f"{where}: mode '{mode}' takes a {expected} x, got a {ndim}-D tensor"
        )
    if size is None and scale_factor is None:
        raise InvalidArgumentError(f"{where}: one of 'size' and 'scale_factor' must be given")
    if size is not None and scale_factor is not None:
        raise InvalidArgumentError(f"{where}: only one of 'size' and 'scale_factor' may be given")
    if isinstance(size, (list, tuple)) and len(size) != ndim - 2:
        raise InvalidArgumentError(
            f"{where}: argument 'size' must hold {ndim - 2} sizes for a {ndim}-D x, got {size!r}"
        )
    if not isinstance(align_corners, bool):
        raise InvalidArgumentError(
            f"{where}: argument 'align_corners' must be a bool, got {align_corners!r}"
        )
    if align_mode not in (0, 1):
        raise InvalidArgumentError(
            f"{where}: argument 'align_mode' must be 0 or 1, got {align_mode!r}"
        )
    if align_corners and mode == "nearest":
        raise InvalidArgumentError(
            f"{where}: argument 'align_corners' can only be set with the modes linear, bilinear, "
            "bicubic and trilinear"
        )
    if not isinstance(antialias, bool):
        raise InvalidArgumentError(
            f"{where}: argument 'antialias' must be a bool, got {antialias!r}"
        )
    if antialias and mode not in ("bilinear", "bicubic"):
        raise InvalidArgumentError(
            f"{where}: argument 'antialias' is only supported for bilinear and bicubic modes"
        )
    if mode == "area":
        if size is None:
            raise InvalidArgumentError(f"{where}: mode 'area' needs 'size'")
        return _adaptive_avg(x, size, ndim - 2)
    if data_format not in _FORMATS[ndim]:
        raise InvalidArgumentError(
            f"{where}: argument 'data_format' must be one of {list(_FORMATS[ndim])} for a "
            f"{ndim}-D x, got {data_format!r}"
        )
    channel_last = data_format[-1] == "C"
    spatial = list(x.shape[1:-1] if channel_last else x.shape[2:])
    out_size = None
    size_tensor = None
    scale_tensor = None
    outs = [-1, -1, -1]
    scale: list[float] = []
    if size is not None:
        if recompute_scale_factor:
            raise InvalidArgumentError(
                f"{where}: 'recompute_scale_factor' is not meaningful with an explicit size"
            )
        if isinstance(size, Value):
            if len(size.shape) != 1 or size.shape[0] not in (ndim - 2, -1):
                raise InvalidArgumentError(
                    f"{where}: a Tensor 'size' must be 1-D with {ndim - 2} values, got shape "
                    f"{list(size.shape)}"
                )
            out_size = op_api("cast")(size, DataType.INT32)
        else:
            if not isinstance(size, (list, tuple, Tensor)):
                raise InvalidArgumentError(
                    f"{where}: argument 'size' must be a list, a tuple or a Tensor, got {size!r}"
                )
            items = _int_list(size)
            if len(items) != ndim - 2:
                raise InvalidArgumentError(
                    f"{where}: argument 'size' must hold {ndim - 2} sizes for a {ndim}-D x, "
                    f"got {len(items)}"
                )
            items = [int(v.item()) if isinstance(v, Tensor) else v for v in items]
            if any(isinstance(v, Value) for v in items):
                size_tensor = [
                    v if isinstance(v, Value) else op_api("full")([1], int(v), DataType.INT32)
                    for v in items
                ]
                items = [-1 if isinstance(v, Value) else v for v in items]
            for value in items:
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int)
                    or (size_tensor is None and value <= 0)
                ):
                    raise InvalidArgumentError(
                        f"{where}: argument 'size' must hold positive ints, got {size!r}"
                    )
            outs[3 - len(items) :] = items
    else:
        if isinstance(scale_factor, Tensor):
            values = scale_factor.numpy().reshape(-1).tolist()
            scale_factor = values[0] if scale_factor.ndim == 0 else values
        if isinstance(scale_factor, Value):
            if recompute_scale_factor:
                raise UnimplementedError(
                    f"{where}: recompute_scale_factor with a scale_factor Value of a static program"
                )
            scale_tensor = scale_factor
        else:
            if isinstance(scale_factor, (int, float)) and not isinstance(scale_factor, bool):
                factors = [float(scale_factor)] * (ndim - 2)
            elif isinstance(scale_factor, (list, tuple)):
                if len(scale_factor) != ndim - 2:
                    raise InvalidArgumentError(
                        f"{where}: argument 'scale_factor' must hold {ndim - 2} values for a "
                        f"{ndim}-D x, got {len(scale_factor)}"
                    )
                factors = [float(v) for v in scale_factor]
            else:
                raise InvalidArgumentError(
                    f"{where}: argument 'scale_factor' must be a number, a list, a tuple or a "
                    f"Tensor, got {scale_factor!r}"
                )
            if any(not f > 0 for f in factors):
                raise InvalidArgumentError(
                    f"{where}: argument 'scale_factor' must be positive, got {scale_factor!r}"
                )
            if recompute_scale_factor:
                sized = [int(extent * f) for extent, f in zip(spatial, factors)]
                outs[3 - len(sized) :] = sized
            else:
                scale = factors
    # antialias: the op interp_antialias, which filters with the bilinear or bicubic kernel
    # stretched over the input pixels each output pixel covers
    return op_api("interp_antialias" if antialias else _MODE_OPS[mode])(
        x,
        out_size,
        size_tensor,
        scale_tensor,
        "NHWC" if channel_last else "NCHW",
        outs[0],
        outs[1],
        outs[2],
        scale,
        mode,
        align_corners,
        align_mode,
    )


def upsample(
    x: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
    name: str | None = None,
) -> Tensor:
    """``interpolate`` under its older name."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


class Upsample(Layer):
    """Resizes its input with ``interpolate`` and the options given here."""

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool = False,
        align_mode: int = 0,
        data_format: str | None = None,
        recompute_scale_factor: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode = align_corners, align_mode
        self.data_format, self.recompute_scale_factor = data_format, recompute_scale_factor

    def forward(self, x: Tensor) -> Tensor:
        return interpolate(
            x,
            size=self.size,
            scale_factor=self.scale_factor,
            mode=self.mode,
            align_corners=self.align_corners,
            align_mode=self.align_mode,
            data_format=self.data_format,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        what = f"scale_factor={self.scale_factor}" if self.scale_factor else f"size={self.size}"
        return f"{what}, mode={self.mode}, align_corners={self.align_corners}, align_mode={self.align_mode}, data_format={self.data_format}"


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour upsampling of a 4-D input (``interpolate`` with mode nearest)."""

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.data_format = size, scale_factor, data_format

    def forward(self, x: Tensor) -> Tensor:
        return interpolate(x, self.size, self.scale_factor, "nearest", False, 0, self.data_format)

    def extra_repr(self) -> str:
        what = f"scale_factor={self.scale_factor}" if self.scale_factor else f"size={self.size}"
        return f"{what}, data_format={self.data_format}"


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear upsampling of a 4-D input with aligned corners (``interpolate`` with mode
    bilinear and ``align_corners=True``)."""

    def forward(self, x: Tensor) -> Tensor:
        return interpolate(x, self.size, self.scale_factor, "bilinear", True, 0, self.data_format)


# ---- rearranging ------------------------------------------------------------------------------


def _check_factor(value: Any, where: str, argument: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(
            f"{where}: argument '{argument}' must be a positive int, got {value!r}"
        )


def _check_format(value: Any, where: str) -> None:
    if value not in ("NCHW", "NHWC"):
        raise InvalidArgumentError(
            f"{where}: argument 'data_format' must be 'NCHW' or 'NHWC', got {value!r}"
        )


class PixelShuffle(Layer):
    """[N, C * r^2, H, W] -> [N, C, H * r, W * r] for r = ``upscale_factor``."""

    def __init__(
        self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__()
        _check_factor(upscale_factor, "PixelShuffle", "upscale_factor")
        _check_format(data_format, "PixelShuffle")
        self._upscale_factor, self._data_format = upscale_factor, data_format

    def forward(self, x: Tensor) -> Tensor:
        return vision_functional.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return f"upscale_factor={self._upscale_factor}" + (
            f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        )


class PixelUnshuffle(Layer):
    """[N, C, H * r, W * r] -> [N, C * r^2, H, W] for r = ``downscale_factor``."""

    def __init__(
        self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__()
        _check_factor(downscale_factor, "PixelUnshuffle", "downscale_factor")
        _check_format(data_format, "PixelUnshuffle")
        self._downscale_factor, self._data_format = downscale_factor, data_format

    def forward(self, x: Tensor) -> Tensor:
        return vision_functional.pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return f"downscale_factor={self._downscale_factor}" + (
            f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        )


class ChannelShuffle(Layer):
    """Shuffles the channels across ``groups`` groups."""

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _check_factor(groups, "ChannelShuffle", "groups")
        _check_format(data_format, "ChannelShuffle")
        self._groups, self._data_format = groups, data_format

    def forward(self, x: Tensor) -> Tensor:
        return vision_functional.channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self) -> str:
        return f"groups={self._groups}" + (
            f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        )


class Unfold(Layer):
    """im2col: the sliding blocks of [N, C, H, W] as columns [N, C * kh * kw, L] (``unfold``)."""

    def __init__(
        self,
        kernel_sizes: Any,
        dilations: Any = 1,
        paddings: Any = 0,
        strides: Any = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_sizes, self.dilations = kernel_sizes, dilations
        self.paddings, self.strides = paddings, strides

    def forward(self, input: Tensor) -> Tensor:
        return vision_functional.unfold(
            input, self.kernel_sizes, self.strides, self.paddings, self.dilations
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )


class Fold(Layer):
    """col2im: sums the columns [N, C * kh * kw, L] back into [N, C, *output_sizes] (``fold``)."""

    def __init__(
        self,
        output_sizes: Any,
        kernel_sizes: Any,
        dilations: Any = 1,
        paddings: Any = 0,
        strides: Any = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides = dilations, paddings, strides

    def forward(self, input: Tensor) -> Tensor:
        return vision_functional.fold(
            input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )


# ---- randomized leaky ReLU --------------------------------------------------------------------


def _check_rrelu_bounds(lower: Any, upper: Any, where: str) -> None:
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise InvalidArgumentError(
            f"{where}: arguments 'lower' and 'upper' must be floats, got lower={lower!r}, "
            f"upper={upper!r}"
        )
    if not 0 <= lower <= 1:
        raise InvalidArgumentError(f"{where}: argument 'lower' must be in [0, 1], got {lower}")
    if upper < lower:
        raise InvalidArgumentError(
            f"{where}: argument 'upper' must be >= 'lower', got lower={lower}, upper={upper}"
        )
    if upper > 1:
        raise InvalidArgumentError(f"{where}: argument 'upper' must be <= 1, got {upper}")


def rrelu(
    x: Tensor,
    lower: float = 1.0 / 8.0,
    upper: float = 1.0 / 3.0,
    training: bool = True,
    name: str | None = None,
) -> Tensor:
    """x where x >= 0, else x * a slope: drawn uniformly from [lower, upper) for each element
    while ``training``, (lower + upper) / 2 otherwise (op ``rrelu``)."""
    _check_rrelu_bounds(lower, upper, "rrelu")
    _check_x(x, "rrelu")
    return op_api("rrelu")(x, lower, upper, not training)


class RReLU(Layer):
    """Randomized leaky ReLU (``rrelu``), random slopes in train mode, their mean in eval."""

    def __init__(
        self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None
    ) -> None:
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x: Tensor) -> Tensor:
        return rrelu(x, lower=self._lower, upper=self._upper, training=self.training)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return (
            f"lower={self._lower}, upper={self._upper}, training={self.training}, "
            f"dtype={self._dtype}{name}"
        )
