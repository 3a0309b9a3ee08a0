"""Parameter initializers with PaddlePaddle's names and defaults (``paddle.nn.initializer``), for
eager and static parameters alike.

Called with a shape and a numpy dtype, an initializer draws the first value as a numpy array from
the process generator (``phi.seed`` makes it repeatable): an eager parameter. ``build(shape,
dtype)`` records the ops that compute it in the program being built instead, as PaddlePaddle's
startup programs hold them (``pd_op.full``, ``pd_op.uniform``, ``pd_op.gaussian``): a static
parameter (``phi.static.create_parameter``, or a Layer made while static mode is on).
``phi.static.initializer`` is this module; ``phi.nn.initializer`` (runtime/nn/initializer.py)
re-exports it. It sits in runtime/static, below runtime/nn, because ``create_parameter`` needs
its classes and static imports nothing from nn.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import CPUPlace, DataType, Place
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import engine_for, generator_for

__all__ = [
    "Initializer",
    "Constant",
    "Normal",
    "Uniform",
    "XavierUniform",
    "XavierNormal",
    "KaimingNormal",
    "KaimingUniform",
    "TruncatedNormal",
    "Assign",
    "Bilinear",
    "Dirac",
    "Orthogonal",
    "calculate_gain",
    "set_global_initializer",
]


def _number(value: Any, owner: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(
            f"{owner}(): argument '{name}' expects a number, got {type(value).__name__} {value!r}"
        )
    return float(value)


def _fans(shape: Sequence[int]) -> tuple[int, int]:
    """PaddlePaddle's fan_in/fan_out: [in, out] for 2-D weights (Linear), [out, in, k...] for
    convolution filters (receptive field multiplies both), the single extent twice for a vector."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _draw_dtype(dtype: Any) -> type:
    """The dtype PaddlePaddle's uniform and gaussian kernels draw a parameter of ``dtype`` in:
    float64 for float64, else float32 (float16 and bfloat16 round a float32 draw)."""
    return np.float64 if np.dtype(dtype) == np.float64 else np.float32


def _full(shape: Sequence[int], value: float, dtype: DataType) -> Any:
    from phiops.runtime.dispatch.op_def import op_api

    return op_api("full")(list(shape), value, dtype, Place())


def _uniform(shape: Sequence[int], low: float, high: float, dtype: DataType) -> Any:
    from phiops.runtime.dispatch.op_def import op_api

    return op_api("uniform")(list(shape), dtype, low, high, 0, Place())


def _gaussian(shape: Sequence[int], mean: float, std: float, dtype: DataType) -> Any:
    from phiops.runtime.dispatch.op_def import op_api

    return op_api("gaussian")(list(shape), mean, std, 0, dtype, Place())


class Initializer:
    """Base: ``init(shape, dtype)`` -> numpy array; ``build(shape, dtype)`` -> the Value of the
    ops computing it, appended to the program being built."""

    def __call__(self, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        return self.draw(tuple(int(s) for s in shape)).astype(dtype)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        raise UnimplementedError(f"{type(self).__name__} draws no eager values")

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        raise UnimplementedError(f"{type(self).__name__} records no startup-program ops")

    @staticmethod
    def _rng() -> np.random.Generator:
        return generator_for(CPUPlace())


class Constant(Initializer):
    """Every element ``value``: ``pd_op.full``."""

    def __init__(self, value: float = 0.0, name: str | None = None) -> None:
        _number(value, "Constant", "value")
        self.value = value

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.full(shape, float(self.value))

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        return _full(shape, self.value, dtype)

    def __repr__(self) -> str:
        return f"Constant(value={self.value!r})"


class _UniformDraw(Initializer):
    """Uniform in ``[low, high)`` of ``bounds(shape)``: numpy's draw, or ``pd_op.uniform``."""

    def bounds(self, shape: tuple[int, ...]) -> tuple[float, float]:
        raise NotImplementedError

    def __call__(self, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        # PaddlePaddle's uniform kernel on the CPU engine: its numbers after the same seed
        shape = tuple(int(s) for s in shape)
        low, high = self.bounds(shape)
        values = mt19937.uniform(
            engine_for(CPUPlace()), math.prod(shape), np.float32(low), np.float32(high),
            _draw_dtype(dtype),
        )  # fmt: skip
        return values.reshape(shape).astype(dtype)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return self(shape, np.dtype(np.float64))

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        return _uniform(shape, *self.bounds(shape), dtype)


class _NormalDraw(Initializer):
    """Normal with the (mean, std) of ``moments(shape)``: numpy's draw, or ``pd_op.gaussian``."""

    def moments(self, shape: tuple[int, ...]) -> tuple[float, float]:
        raise NotImplementedError

    def __call__(self, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        # PaddlePaddle's gaussian kernel on the CPU engine: its numbers after the same seed
        shape = tuple(int(s) for s in shape)
        mean, std = self.moments(shape)
        values = mt19937.normal(
            engine_for(CPUPlace()), math.prod(shape), np.float32(mean), np.float32(std),
            _draw_dtype(dtype),
        )  # fmt: skip
        return values.reshape(shape).astype(dtype)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return self(shape, np.dtype(np.float64))

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        return _gaussian(shape, *self.moments(shape), dtype)


class Normal(_NormalDraw):
    """Normal with ``mean`` and standard deviation ``std``: ``pd_op.gaussian``."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        self.mean = _number(mean, "Normal", "mean")
        self.std = _number(std, "Normal", "std")
        if self.std < 0:
            raise InvalidArgumentError(f"Normal(): argument 'std' must be >= 0, got {std}")

    def moments(self, shape: tuple[int, ...]) -> tuple[float, float]:
        return self.mean, self.std

    def __repr__(self) -> str:
        return f"Normal(mean={self.mean!r}, std={self.std!r})"


class Uniform(_UniformDraw):
    """Uniform in ``[low, high)``: ``pd_op.uniform``."""

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        self.low = _number(low, "Uniform", "low")
        self.high = _number(high, "Uniform", "high")
        if self.low > self.high:
            raise InvalidArgumentError(
                f"Uniform(): argument 'low' ({low}) must not be greater than 'high' ({high})"
            )

    def bounds(self, shape: tuple[int, ...]) -> tuple[float, float]:
        return self.low, self.high

    def __repr__(self) -> str:
        return f"Uniform(low={self.low!r}, high={self.high!r})"


class _Xavier(Initializer):
    """The fans and gain of the Glorot initializers."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ) -> None:
        owner = type(self).__name__
        self.fan_in = None if fan_in is None else _number(fan_in, owner, "fan_in")
        self.fan_out = None if fan_out is None else _number(fan_out, owner, "fan_out")
        self.gain = _number(gain, owner, "gain")

    def _fan_sum(self, shape: tuple[int, ...]) -> float:
        fan_in, fan_out = _fans(shape)
        fan_in = fan_in if self.fan_in is None else self.fan_in
        fan_out = fan_out if self.fan_out is None else self.fan_out
        if fan_in + fan_out <= 0:
            raise InvalidArgumentError(
                f"{type(self).__name__}(): fan_in + fan_out must be positive for shape "
                f"{list(shape)}, got {fan_in} + {fan_out}"
            )
        return float(fan_in + fan_out)


class XavierUniform(_Xavier, _UniformDraw):
    """Uniform in ``±gain * sqrt(6 / (fan_in + fan_out))`` (Glorot): ``pd_op.uniform``."""

    def bounds(self, shape: tuple[int, ...]) -> tuple[float, float]:
        limit = self.gain * math.sqrt(6.0 / self._fan_sum(shape))
        return -limit, limit


class XavierNormal(_Xavier, _NormalDraw):
    """Normal with std ``gain * sqrt(2 / (fan_in + fan_out))`` (Glorot): ``pd_op.gaussian``."""

    def moments(self, shape: tuple[int, ...]) -> tuple[float, float]:
        return 0.0, self.gain * math.sqrt(2.0 / self._fan_sum(shape))


def _gain(nonlinearity: str, negative_slope: float) -> float:
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity in ("linear", "conv2d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    raise InvalidArgumentError(f"Kaiming: unsupported nonlinearity {nonlinearity!r}")


class _Kaiming(Initializer):
    """The fan_in and gain of the He initializers."""

    def __init__(
        self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu"
    ) -> None:
        _gain(nonlinearity, negative_slope)
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _gain_and_fan_in(self, shape: tuple[int, ...]) -> tuple[float, float]:
        fan_in = self.fan_in if self.fan_in is not None else _fans(shape)[0]
        return _gain(self.nonlinearity, self.negative_slope), fan_in


class KaimingNormal(_Kaiming, _NormalDraw):
    """N(0, std), std = gain / sqrt(fan_in) (gain sqrt(2) for relu): ``pd_op.gaussian``."""

    def moments(self, shape: tuple[int, ...]) -> tuple[float, float]:
        gain, fan_in = self._gain_and_fan_in(shape)
        return 0.0, gain / math.sqrt(fan_in)


class KaimingUniform(_Kaiming, _UniformDraw):
    """U(-a, a), a = gain * sqrt(3 / fan_in): ``pd_op.uniform``."""

    def bounds(self, shape: tuple[int, ...]) -> tuple[float, float]:
        gain, fan_in = self._gain_and_fan_in(shape)
        limit = gain * math.sqrt(3.0 / fan_in)
        return -limit, limit


def _op(name: str) -> Any:
    from phiops.runtime.dispatch.op_def import op_api

    return op_api(name)


_HALF = (DataType.FLOAT16, DataType.BFLOAT16)


class _OpBuilt(Initializer):
    """An initializer whose value is what its ops compute, eagerly or in the startup program
    alike: ``__call__`` runs ``build`` eagerly. A float16 or bfloat16 parameter is computed in
    float32 and cast, as PaddlePaddle's initializers do."""

    def __call__(self, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        from phiops.runtime.common.data_type import from_numpy_dtype

        value = self.build(tuple(int(s) for s in shape), from_numpy_dtype(np.dtype(dtype)))
        return value.numpy().astype(dtype)

    def draw(self, shape: tuple[int, ...]) -> np.ndarray:
        return self(shape, np.dtype(np.float64))

    def build(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        value = self.compute(shape, DataType.FLOAT32 if dtype in _HALF else dtype)
        return _op("cast")(value, dtype) if dtype in _HALF else value

    def compute(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        raise NotImplementedError


class TruncatedNormal(_OpBuilt):
    """Normal with ``mean`` and ``std`` truncated to ``[a, b]`` (PaddlePaddle's inverse-CDF
    sampler on its engine's draws): ``pd_op.truncated_gaussian_random``."""

    def __init__(
        self,
        mean: float = 0.0,
        std: float = 1.0,
        a: float = -2.0,
        b: float = 2.0,
        name: str | None = None,
    ) -> None:
        self.mean = _number(mean, "TruncatedNormal", "mean")
        self.std = _number(std, "TruncatedNormal", "std")
        self.a = _number(a, "TruncatedNormal", "a")
        self.b = _number(b, "TruncatedNormal", "b")
        if self.std < 0:
            raise InvalidArgumentError(f"TruncatedNormal(): argument 'std' must be >= 0, got {std}")

    def compute(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        return _op("truncated_gaussian_random")(
            list(shape), self.mean, self.std, 0, self.a, self.b, dtype, Place()
        )

    def __repr__(self) -> str:
        return f"TruncatedNormal(mean={self.mean!r}, std={self.std!r}, a={self.a!r}, b={self.b!r})"


class _Values(_OpBuilt):
    """A value known when the parameter is made (``values(shape)``, float64 numpy):
    ``pd_op.assign_value``."""

    def values(self, shape: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError

    def compute(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        values = self.values(shape).astype(dtype.numpy_dtype)
        items = values.reshape(-1).tolist()
        return _op("assign_value")(list(shape), dtype, items, Place())


class Assign(_Values):
    """The given value (a numpy array, list, tuple, number or Tensor), which must have the
    parameter's shape: ``pd_op.assign_value``."""

    def __init__(self, value: Any, name: str | None = None) -> None:
        if hasattr(value, "numpy") and callable(value.numpy):
            value = value.numpy()
        if isinstance(value, (bool, str, bytes)) or not isinstance(
            value, (np.ndarray, list, tuple, int, float, np.number)
        ):
            raise InvalidArgumentError(
                "Assign(): argument 'value' expects a numpy array, list, tuple, number or "
                f"Tensor, got {type(value).__name__}"
            )
        array = np.asarray(value)
        if array.dtype.kind not in "biuf":
            raise InvalidArgumentError(
                f"Assign(): argument 'value' must hold numbers, got dtype {array.dtype}"
            )
        self.value = array

    def values(self, shape: tuple[int, ...]) -> np.ndarray:
        if tuple(self.value.shape) != tuple(shape) and self.value.size != math.prod(shape):
            raise InvalidArgumentError(
                f"Assign(): the value has shape {list(self.value.shape)}, the parameter "
                f"{list(shape)}"
            )
        return self.value.reshape(shape)

    def __repr__(self) -> str:
        return f"Assign(shape={list(self.value.shape)})"


class Bilinear(_Values):
    """The weights of bilinear upsampling for a transposed convolution of shape
    [C, 1, K, K] (PaddlePaddle's formula, element by element)."""

    def __init__(self, name: str | None = None) -> None:
        pass

    def values(self, shape: tuple[int, ...]) -> np.ndarray:
        if len(shape) != 4:
            raise InvalidArgumentError(
                f"Bilinear(): the parameter must have 4 dimensions, got shape {list(shape)}"
            )
        if shape[2] != shape[3]:
            raise InvalidArgumentError(
                f"Bilinear(): the parameter's last two extents must be equal, got {list(shape)}"
            )
        size = shape[3]
        f = math.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(math.prod(shape), dtype=np.float64)
        x = i % size
        y = (i / size) % size  # PaddlePaddle divides without flooring here
        weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        return weight.astype(np.float32).astype(np.float64).reshape(shape)


class Dirac(_Values):
    """The identity of a convolution: ``weight[g * n + j, j, centre...] = 1`` for each of
    ``groups`` groups of n = out_channels / groups filters and j < min(n, in_channels); 3-D to
    5-D parameters (Conv1D to Conv3D filters)."""

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise InvalidArgumentError(
                f"Dirac(): argument 'groups' must be a positive int, got {groups!r}"
            )
        self.groups = groups

    def values(self, shape: tuple[int, ...]) -> np.ndarray:
        if not 3 <= len(shape) <= 5:
            raise InvalidArgumentError(
                f"Dirac(): the parameter must have 3 to 5 dimensions, got shape {list(shape)}"
            )
        if shape[0] % self.groups:
            raise InvalidArgumentError(
                f"Dirac(): out channels {shape[0]} are not divisible by groups {self.groups}"
            )
        per_group = shape[0] // self.groups
        weight = np.zeros(shape)
        centre = tuple(extent // 2 for extent in shape[2:])
        for g in range(self.groups):
            for j in range(min(per_group, shape[1])):
                weight[(g * per_group + j, j, *centre)] = 1.0
        return weight


class Orthogonal(_OpBuilt):
    """A (semi-)orthogonal matrix times ``gain``, reshaped to the parameter: the Q of a normal
    draw's QR with the signs of R's diagonal, as PaddlePaddle builds it (``pd_op.gaussian``,
    ``qr``, ``diag``, ``sign``, ``multiply``, ``transpose``, ``reshape``, ``scale``)."""

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        self.gain = _number(gain, "Orthogonal", "gain")

    def compute(self, shape: tuple[int, ...], dtype: DataType) -> Any:
        if len(shape) < 2:
            raise InvalidArgumentError(
                f"Orthogonal(): the parameter must have 2 or more dimensions, got {list(shape)}"
            )
        rows, cols = shape[0], math.prod(shape[1:])
        normal = _op("gaussian")([max(rows, cols), min(rows, cols)], 0.0, 1.0, 0, dtype, Place())
        q, r = _op("qr")(normal, "reduced")
        q = _op("multiply")(q, _op("sign")(_op("diag")(r, 0, 0.0)))
        if rows < cols:
            q = _op("transpose")(q, [1, 0])
        return _op("scale")(_op("reshape")(q, list(shape)), self.gain, 0.0, True)

    def __repr__(self) -> str:
        return f"Orthogonal(gain={self.gain!r})"


_GAINS = {
    **dict.fromkeys(
        "sigmoid linear conv1d conv2d conv3d conv1d_transpose conv_transpose1d conv2d_transpose "
        "conv_transpose2d conv3d_transpose conv_transpose3d".split(),
        1,
    ),
    "tanh": 5.0 / 3,
    "relu": math.sqrt(2.0),
    "selu": 3.0 / 4,
}


def calculate_gain(nonlinearity: str, param: bool | int | float | None = None) -> float:
    """PaddlePaddle's recommended gain for ``nonlinearity`` (``leaky_relu`` takes its negative
    slope ``param``, 0.01 by default)."""
    if param is None:
        param = 0.01
    elif not isinstance(param, (bool, int, float)):
        raise InvalidArgumentError(
            f"calculate_gain(): argument 'param' expects a number, got {type(param).__name__}"
        )
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + float(param) ** 2))
    if nonlinearity not in _GAINS:
        raise InvalidArgumentError(
            f"calculate_gain(): nonlinearity {nonlinearity!r} is not supported; expected one of "
            f"{sorted([*_GAINS, 'leaky_relu'])}"
        )
    return _GAINS[nonlinearity]


_GLOBAL: dict[str, Initializer | None] = {"weight": None, "bias": None}


def set_global_initializer(
    weight_init: Initializer | None, bias_init: Initializer | None = None
) -> None:
    """Make ``weight_init`` (``bias_init``) the initializer of every weight (bias) a layer
    creates from now on in place of the layer's default; a ``ParamAttr``'s own initializer still
    wins. ``None`` takes it back."""
    for label, value in (("weight_init", weight_init), ("bias_init", bias_init)):
        if value is not None and not isinstance(value, Initializer):
            raise InvalidArgumentError(
                f"set_global_initializer(): argument '{label}' expects an Initializer or None, "
                f"got {type(value).__name__}"
            )
    _GLOBAL["weight"], _GLOBAL["bias"] = weight_init, bias_init


def global_initializer(is_bias: bool) -> Initializer | None:
    """The initializer ``set_global_initializer`` set for biases or weights, if any."""
    return _GLOBAL["bias" if is_bias else "weight"]
