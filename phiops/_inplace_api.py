"""PaddlePaddle 3.3.1's in-place ``paddle.*`` functions and Tensor methods that are not one
op's generated variant (generated/inplace.py): those whose Python checks or defaults differ
from the op's (``logit_``'s ``eps=None``, ``polygamma_``'s ``n == 0``, ``copysign_``'s number
``y``, ``lerp_``'s float ``weight``), and PaddlePaddle's compositions (``neg_``, ``frac_``,
``sinc_``, ``gcd_``, ``hypot_``, ...), each following its namesake in
python/paddle/tensor/*.py.

Each checks the tensor it writes as the generated variants do (a leaf that needs a gradient is
refused while gradients are recorded), then writes the out-of-place result into it
(``write_inplace``: the version goes up, the tensor takes the result's grad node). A
composition reads ``x`` through a copy when a gradient is recorded, so that none of its
intermediate grad nodes saves the storage being overwritten.
"""

from __future__ import annotations

import math
import numbers
import sys
from typing import Any, Callable

import numpy as np

from phiops.generated import api as _C_ops
from phiops.generated import inplace as _inplace
from phiops.runtime.autograd import GRAD_MODE
from phiops.runtime.common import DataType
from phiops.runtime.eager.inplace import check_inplace, write_inplace
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value

__all__ = [
    "logit_",
    "polygamma_",
    "copysign_",
    "neg_",
    "frac_",
    "sinc_",
    "multigammaln_",
    "gammainc_",
    "gcd_",
    "lcm_",
    "ldexp_",
    "hypot_",
    "t_",
]

# PaddlePaddle 3.3.1 has these as Tensor methods (lerp_ is only a method, not paddle.lerp_)
TENSOR_METHODS = (*__all__, "lerp_")


def _paddle() -> Any:
    """phiops's ``paddle.*`` namespace (phiops/_api.py, loaded before any of these is called)."""
    return sys.modules["phiops._api"]


def _tensor(value: Any, function: str, argument: str) -> Tensor | Value:
    if not isinstance(value, (Tensor, Value)):
        raise TypeError(f"{function}: {argument} must be tensor type, but got {type(value)}")
    return value


def _same_shape(function: str, x: Tensor, *others: Any) -> None:
    """PaddlePaddle's check of an in-place op that broadcasts: the result keeps ``x``'s shape."""
    shape = list(x.shape)
    P = _paddle()
    for other in others:
        shape = P.broadcast_shape(shape, list(other.shape))
    if shape != list(x.shape):
        raise ValueError(
            f"{function}: the shape of broadcast output {shape} is different from that of "
            f"inplace tensor {list(x.shape)} in the Inplace operation."
        )


def _composed(function: str, x: Any, compute: Callable[[Any], Any]) -> Any:
    """``compute(x)`` written into ``x``; computed from a copy of ``x`` when gradients are
    recorded through it, so that overwriting ``x`` changes no value a grad node saved."""
    check_inplace(function, "x", x)
    if not isinstance(x, Tensor):
        return compute(x)  # a Value of a static program: the result is x's next (SSA) value
    source = _C_ops.assign(x) if GRAD_MODE.enabled and not x.stop_gradient else x
    return write_inplace(x, compute(source))


def logit_(x: Tensor, eps: float | None = None, name: str | None = None) -> Tensor:
    """In-place ``logit``; ``eps=None`` clips nothing (``eps`` 0), as PaddlePaddle's."""
    check_inplace("logit_", "x", x)
    return _inplace.logit_(x, 0.0 if eps is None else eps)


def polygamma_(x: Tensor, n: int, name: str | None = None) -> Tensor:
    """In-place ``polygamma`` of order ``n`` (an int >= 0; 0 is ``digamma_``)."""
    if not isinstance(n, int):
        raise TypeError(f"The input of n must be int type, but received: {type(n)} ")
    if n < 0:
        raise ValueError(f"The input of n must be greater than or equal to 0. But received n = {n}")
    check_inplace("polygamma_", "x", x)
    return _inplace.digamma_(x) if n == 0 else _inplace.polygamma_(x, n)


def copysign_(x: Tensor, y: Any, name: str | None = None) -> Tensor:
    """In-place ``copysign``; a number ``y`` becomes a 0-D tensor of ``x``'s dtype, a Tensor
    one must broadcast to ``x``'s shape."""
    if isinstance(y, numbers.Real) and not isinstance(y, bool):
        y = _C_ops.full([], y, x.dtype)
    _same_shape("copysign_", x, y)
    check_inplace("copysign_", "x", x)
    return _inplace.copysign_(x, y)


def lerp_(x: Tensor, y: Tensor, weight: Any, name: str | None = None) -> Tensor:
    """In-place ``lerp``: ``x + weight * (y - x)``; a float ``weight`` becomes a 1-element
    tensor of ``x``'s dtype; ``y`` and a Tensor ``weight`` must broadcast to ``x``'s shape."""
    if isinstance(weight, float):
        weight = _C_ops.full([1], weight, x.dtype)
    elif not isinstance(weight, (Tensor, Value)):
        raise TypeError(
            f"The type of 'weight' in lerp must be float or Tensor, but received {type(weight)}."
        )
    _same_shape("lerp_", x, y, weight)
    check_inplace("lerp_", "x", x)
    return _inplace.lerp_(x, y, weight)


def neg_(x: Tensor, name: str | None = None) -> Tensor:
    """In-place ``-x`` (``scale_`` by -1)."""
    check_inplace("neg_", "x", x)
    return _inplace.scale_(x, -1.0, 0.0, True)


_FRAC_DTYPES = (
    DataType.INT32,
    DataType.INT64,
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.FLOAT16,
)


def frac_(x: Tensor, name: str | None = None) -> Tensor:
    """In-place fractional part, ``x - trunc(x)``."""
    if _tensor(x, "frac_", "x").dtype not in _FRAC_DTYPES:
        raise TypeError(
            "The data type of input must be one of ['int32', 'int64', 'float32', 'float64', "
            f"'float16'], but got {x.dtype}"
        )
    check_inplace("frac_", "x", x)
    return _inplace.subtract_(x, _C_ops.trunc(x))


def sinc_(x: Tensor, name: str | None = None) -> Tensor:
    """In-place ``sin(pi x) / (pi x)``, 1 at 0."""
    _tensor(x, "sinc_", "x")
    return _composed("sinc_", x, _paddle().sinc)


def multigammaln_(x: Tensor, p: int, name: str | None = None) -> Tensor:
    """In-place log of the multivariate gamma function of dimension ``p`` (an int >= 1)."""
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise InvalidArgumentError(f"multigammaln_: p must be an int >= 1, got {p!r}")
    return _composed("multigammaln_", x, lambda v: _paddle().multigammaln(v, p))


def gammainc_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place regularized lower incomplete gamma function, ``1 - gammaincc(x, y)``."""
    check_inplace("gammainc_", "x", x)
    _inplace.gammaincc_(x, y)
    return _inplace.scale_(x, -1.0, 1.0, True)


def _integer_composed(function: str, x: Tensor, y: Tensor, compute: Callable) -> Tensor:
    _tensor(x, function, "x")
    _tensor(y, function, "y")
    _same_shape(function, x, y)
    return _composed(function, x, lambda v: compute(v, y))


def gcd_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place greatest common divisor of ``|x|`` and ``|y|``; ``y`` broadcasts to ``x``."""
    return _integer_composed("gcd_", x, y, _paddle().gcd)


def lcm_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place least common multiple of ``|x|`` and ``|y|`` (0 where either is 0)."""
    return _integer_composed("lcm_", x, y, _paddle().lcm)


def ldexp_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place ``x * 2**y``; ``x`` becomes float64 when ``x`` or ``y`` is, else the default
    dtype."""
    _tensor(x, "ldexp_", "x")
    _tensor(y, "ldexp_", "y")
    return _composed("ldexp_", x, lambda v: _paddle().ldexp(v, y))


def hypot_(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """In-place ``sqrt(x**2 + y**2)``."""
    _tensor(x, "hypot_", "x")
    _tensor(y, "hypot_", "y")
    return _composed("hypot_", x, lambda v: _paddle().hypot(v, y))


def t_(input: Tensor, name: str | None = None) -> Tensor:
    """In-place transpose of a tensor of at most 2 dims (0-D and 1-D ones are returned as they
    are)."""
    if len(input.shape) > 2:
        raise ValueError(
            "Input(input) only support N-D (N<=2) tensor, but received "
            f"length of Input(input) is {len(input.shape)}. Perhaps you can use paddle."
            "tensor.transpose() instead."
        )
    if len(input.shape) <= 1:
        return input
    check_inplace("t_", "input", input)
    return _inplace.transpose_(input, [1, 0])


# -- random fills: PaddlePaddle's compositions of uniform_/normal_, so that a seed gives its numbers


def bernoulli_(x: Tensor, p: float | Tensor = 0.5, name: str | None = None) -> Tensor:
    """Fill ``x`` with 1 with probability ``p`` (a number or a Tensor broadcast to ``x``), else
    0: ``uniform_`` draws, then 1 where a draw is below ``p`` and 0 where above."""
    P = _paddle()
    x.uniform_(0.0, 1.0)
    ones_mask = x < p
    zeros_mask = x > p
    P.masked_fill_(x, ones_mask, 1.0)
    P.masked_fill_(x, zeros_mask, 0.0)
    return x


def cauchy_(x: Tensor, loc: Any = 0, scale: Any = 1, name: str | None = None) -> Tensor:
    """Fill ``x`` with ``loc + scale * tan(pi * (d - 0.5))`` of draws ``d``; as in PaddlePaddle
    3.3.1, the draws come from ``normal_`` (not a uniform one), so a seed gives its numbers."""
    P = _paddle()
    x.normal_()
    loc = P.to_tensor(loc).astype(x.dtype)
    half = P.to_tensor(0.5).astype(x.dtype)
    P.subtract_(x, half)
    _inplace.scale_(x, float(math.pi), 0.0, True)
    _inplace.tan_(x)
    _inplace.scale_(x, float(scale), 0.0, True)
    return P.add_(x, loc)


def geometric_(x: Tensor, probs: float | Tensor, name: str | None = None) -> Tensor:
    """Fill ``x`` with ``log(u) / log1p(-probs)`` of uniform draws ``u`` in [tiny, 1)."""
    P = _paddle()
    tiny = float(P.finfo(x.dtype).tiny)
    probs = P.to_tensor(probs).astype(x.dtype)
    x.uniform_(min=tiny, max=1.0)
    _inplace.log_(x)
    return P.divide_(x, P.log1p(-probs))


def log_normal_(x: Tensor, mean: float = 1.0, std: float = 2.0, name: str | None = None) -> Tensor:
    """Fill ``x`` with ``exp`` of normal draws of ``mean`` and ``std``."""
    _paddle().normal_(x, mean=mean, std=std)
    return _inplace.exp_(x)


__all__ += ["bernoulli_", "cauchy_", "geometric_", "log_normal_"]
TENSOR_METHODS += ("bernoulli_", "cauchy_", "geometric_", "log_normal_")


# bits of the significand (with the implicit one) of the floating dtypes random_ fills
_SIGNIFICAND_BITS = {
    DataType.FLOAT16: 11,
    DataType.BFLOAT16: 8,
    DataType.FLOAT32: 24,
    DataType.FLOAT64: 53,
}
_INTEGERS = (DataType.INT32, DataType.INT64)


def random_(x: Tensor, from_: int = 0, to: int | None = None, *, generator: None = None) -> Tensor:
    """Fill ``x`` with integers uniform in [from_, to): ``to=None`` is the dtype's largest
    integer every smaller one is exact below (2**24 for float32) or its max for an integer
    dtype, and ``random_(n)`` is [0, n). As PaddlePaddle 3.3.1's CPU kernel: each value is one
    engine word (its low 32 bits below a range of 2**28) modulo the range, plus ``from_``, so
    a seed gives its numbers (on any place: drawn on the host from the place's engine)."""
    from phiops.runtime.kernels import mt19937
    from phiops.runtime.random import engine_for

    dtype = x.dtype
    if dtype not in _INTEGERS and dtype not in _SIGNIFICAND_BITS:
        raise InvalidArgumentError(
            f"random_: x must be int32, int64, float16, bfloat16, float32 or float64, got {dtype}"
        )
    if generator is not None:
        raise UnimplementedError("random_: generator= is not implemented; pass None")
    if to is None:
        if from_ == 0:
            to = (
                2 ** _SIGNIFICAND_BITS[dtype]
                if dtype in _SIGNIFICAND_BITS
                else int(np.iinfo(dtype.numpy_dtype).max)
            )
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise ValueError(
            f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
        )
    if dtype in _SIGNIFICAND_BITS and max(abs(from_), abs(to)) > 2 ** _SIGNIFICAND_BITS[dtype]:
        raise UnimplementedError(
            f"random_: bounds beyond ±2**{_SIGNIFICAND_BITS[dtype]} for {dtype} (PaddlePaddle "
            "moves them to representable values first) are not implemented"
        )
    check_inplace("random_", "x", x)
    span = np.uint64((to - from_) % 2**64)
    words = mt19937.raw(engine_for(x.place, 0), int(np.prod(x.shape, dtype=np.int64)))
    if span < np.uint64(2**28):
        words = words & np.uint64(0xFFFFFFFF)
    values = ((words % span) + np.uint64(from_ % 2**64)).view(np.int64)
    drawn = _C_ops.cast(to_tensor(values.reshape(x.shape)), dtype)
    return write_inplace(x, drawn.to(x.place) if drawn.place != x.place else drawn)


TENSOR_METHODS += ("random_",)
