"""Python operators between a Tensor and a number, with PaddlePaddle 3.3.1's result dtypes.

``t + 2``, ``2 - t``, ``np.float32(2) * t``: the number takes a dtype from the tensor's
(runtime/common/promotion.py ``scalar_result_dtype``: a float with an integer tensor gives
float32, an int with a bool tensor int64, a complex with a real tensor complex64/128, otherwise
the tensor's dtype), the tensor is cast to it where needed and the op runs as PaddlePaddle's
does: ``+ - *`` and ``t / s`` by ``scale`` (so float16 works, which has no add kernel on CPU),
``t ** s`` by ``pow``, everything else elementwise against a 0-D tensor of that dtype. A
bool scalar is always elementwise, as in PaddlePaddle. np.float64 and np.complex128 (Python
float and complex subclasses) count as the Python number they hold; other numpy scalars follow
PaddlePaddle 3.3.1's own rules (``ScalarOperators._apply_numpy_scalar``: most are cast into the
tensor's dtype, np.float32(2.5) + an int32 tensor adds 2); a 0-D numpy array counts as a number
of its own dtype (``zero_d_result_dtype``). Every path is a generated op, so the
autograd graph is kept.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.common.promotion import (
    compute_dtype,
    scalar_result_dtype,
    zero_d_result_dtype,
)
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["python_number", "ScalarOperators"]


def python_number(value: Any) -> bool | int | float | complex | None:
    """``value`` as a Python number when it is one (or a numpy scalar), else None."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (complex, np.complexfloating)):
        return complex(value)
    return None


class ScalarOperators:
    """The operator bodies for a Tensor and a number, bound to the generated API ``api``."""

    def __init__(self, api: Any, wrap_number: Callable[[Any, Any, DataType], Any]) -> None:
        self.api = api
        # wrap_number(value, like, dtype) -> a 0-D Tensor of dtype on like's place
        self.wrap_number = wrap_number

    def _cast(self, tensor: Any, dtype: DataType) -> Any:
        return tensor if tensor.dtype is dtype else self.api.cast(tensor, dtype)

    def result_dtype(self, op: str, tensor: Any, value: Any) -> DataType:
        if isinstance(value, np.ndarray):
            return zero_d_result_dtype(op, tensor.dtype, from_numpy_dtype(value.dtype))
        return scalar_result_dtype(tensor.dtype, value)

    def apply(self, op: str, operator: Any, traits: Any, tensor: Any, value: Any) -> Any:
        """``tensor <operator> value`` (``value <operator> tensor`` for a reflected operator)
        for the operator ``operator`` (an OperatorInfo) of op ``op`` with ``traits`` (its
        OpTraits, ops/op_traits.yaml); ``value`` is a Python number, a numpy scalar or a 0-D
        numpy array."""
        api = self.api
        reflected = operator.reflected
        if isinstance(value, np.generic) and not isinstance(value, (float, complex)):
            return self._apply_numpy_scalar(op, operator, traits, tensor, value)
        value = python_number(value) if isinstance(value, np.generic) else value
        dtype = self.result_dtype(op, tensor, value)
        number = value.item() if isinstance(value, np.ndarray) else value
        by_scale = not isinstance(value, np.ndarray) and not isinstance(number, (bool, complex))
        rule = operator.scalar_rule if by_scale else None
        if rule == "over" and (number != 0 or dtype.is_floating_point):
            if not (dtype.is_floating_point or dtype.is_complex):
                dtype = DataType.FLOAT32
            return api.scale(self._cast(tensor, dtype), _reciprocal(number), 0.0, True)
        if rule in _SCALES:
            return _SCALES[rule](api, self._cast(tensor, dtype), number)
        if rule == "power":
            return api.pow(self._cast(tensor, dtype), number)
        other = self.wrap_number(number, tensor, dtype)
        x = self._cast(tensor, dtype)
        fn = getattr(api, op)
        return fn(other, x) if reflected else fn(x, other)

    def _apply_numpy_scalar(
        self, op: str, operator: Any, traits: Any, tensor: Any, value: np.generic
    ) -> Any:
        """A numpy scalar that is no Python float or complex, as PaddlePaddle 3.3.1 takes it:

        - np.bool_, np.uint8, np.int8 (and np.int16 in ``// % > >= < <=``, ``s / t``,
          ``s ** t``): only ``%`` and ``**`` (not with a complex tensor), as a 0-D tensor of
          the scalar's own dtype under tensor-tensor promotion; any other operator is refused;
        - np.int16/int32/int64 in ``+ - *`` and ``t / s``: by ``scale`` in the tensor's dtype
          (``t / s`` in float32 for an integer or bool tensor), ``t ** s`` by ``pow`` (refused
          for a bool tensor); np.int32/int64 in ``s / t``: true division in float32;
        - anything else (np.float16/float32, np.complex64 with a complex tensor, the rest of the
          integer cases): cast into the tensor's dtype (np.float32(2.5) with an int32 tensor is
          2), then the elementwise op in that dtype.

        Two deliberate differences (tests/ops/test_dtype_semantics.py): ``==``/``!=`` with the
        kinds of the first group compare with the number the scalar holds, giving a Tensor where
        PaddlePaddle lets numpy answer with a numpy bool; np.complex64 with a real tensor counts
        as a Python complex where PaddlePaddle silently drops its imaginary part.
        """
        kind = value.dtype
        api = self.api
        reflected = operator.reflected
        own_dtype = kind in _OWN_DTYPE_KINDS or (kind == np.int16 and operator.int16_own_dtype)
        numpy_answers = kind in _OWN_DTYPE_KINDS or kind == np.int16
        if (numpy_answers and traits.numpy_scalar_by_value) or (
            kind.kind == "c" and not tensor.dtype.is_complex
        ):
            return self.apply(op, operator, traits, tensor, python_number(value))
        fn = getattr(api, op)
        if own_dtype:
            if not traits.small_numpy_scalars or tensor.dtype.is_complex:
                raise InvalidArgumentError(
                    f"{op}(): a numpy {kind} scalar with a Tensor of dtype "
                    f"{tensor.dtype.name.lower()} is refused (as PaddlePaddle 3.3.1 refuses it); "
                    "use a Python number or a Tensor"
                )
            own = from_numpy_dtype(kind)
            # numpy answers these itself in PaddlePaddle 3.3.1 and refuses what tensor-tensor
            # promotion refuses; a 0-D tensor's looser promotion (promote_metas) does not apply
            named = (
                [("y", own), ("x", tensor.dtype)]
                if reflected
                else [("x", tensor.dtype), ("y", own)]
            )
            compute_dtype(op, named)
            other = self.wrap_number(value.item(), tensor, own)
            return fn(other, tensor) if reflected else fn(tensor, other)
        # An op that some operator computes with one scale or pow (ops/op_traits.yaml
        # scalar_operators: + - * / **) takes numpy integer scalars by their number.
        if kind.kind in "iu" and any(o.scalar_rule for o in traits.operators):
            number = int(value)
            rule = operator.scalar_rule
            if rule == "power":
                if tensor.dtype is DataType.BOOL:
                    raise InvalidArgumentError(
                        f"{op}(): a bool Tensor ** a numpy {kind} scalar is refused (as "
                        "PaddlePaddle 3.3.1 refuses it); cast the tensor first"
                    )
                return api.pow(tensor, number)
            if traits.true_division:
                is_real = tensor.dtype.is_floating_point or tensor.dtype.is_complex
                x = tensor if is_real else api.cast(tensor, DataType.FLOAT32)
                if not reflected and (number != 0 or x.dtype.is_floating_point):
                    return api.scale(x, _reciprocal(number), 0.0, True)
                other = self.wrap_number(number, x, x.dtype)
                return fn(other, x) if reflected else fn(x, other)
            if rule in _SCALES:
                return _SCALES[rule](api, tensor, number)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # np.float32(2.5) into an int tensor: 2, as there
            number = np.asarray(value).astype(tensor.dtype.numpy_dtype).item()
        other = self.wrap_number(number, tensor, tensor.dtype)
        return fn(other, tensor) if reflected else fn(tensor, other)


# numpy scalar kinds PaddlePaddle 3.3.1 takes only where the op's traits say
# ``small_numpy_scalars`` (% and **), as a 0-D tensor of their own dtype; np.int16 is taken so by
# the operators with ``int16_own_dtype`` (ops/op_traits.yaml numpy_int16_own_dtype)
_OWN_DTYPE_KINDS = (np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.int8))


def _reciprocal(number: float) -> float:
    """1 / number, and +-inf for +-0 (a real floating tensor divided by zero scales by inf,
    which gives IEEE division's inf, -inf and nan, as PaddlePaddle's ``x / 0.0`` does; float16
    has no divide kernel on CPU)."""
    if number == 0:
        return math.copysign(math.inf, number)
    return 1.0 / number


# an operator's scale rule (ops/op_traits.yaml scalar_operators) -> its one scale
_SCALES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "plus": lambda api, x, s: api.scale(x, 1.0, s, True),
    "minus": lambda api, x, s: api.scale(x, 1.0, -s, True),
    "rminus": lambda api, x, s: api.scale(x, -1.0, s, True),
    "times": lambda api, x, s: api.scale(x, s, 0.0, True),
}
