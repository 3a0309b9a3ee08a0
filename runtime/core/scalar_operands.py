"""Python operators between a Tensor and a number, with PaddlePaddle 3.3.1's result dtypes.

``t + 2``, ``2 - t``, ``np.float32(2) * t``: the number takes a dtype from the tensor's
(runtime/common/promotion.py ``scalar_result_dtype``: a float with an integer tensor gives
float32, an int with a bool tensor int64, a complex with a real tensor complex64/128, otherwise
the tensor's dtype), the tensor is cast to it where needed and the op runs as PaddlePaddle's
does: ``+ - *`` and ``t / s`` by ``scale`` (so float16 works, which has no add kernel on CPU),
``t ** s`` by ``pow``, everything else elementwise against a 0-D tensor of that dtype. A
bool scalar is always elementwise, as in PaddlePaddle. numpy scalars count as the Python number
they hold (np.float32 as float, np.int64 as int, np.bool_ as bool); a 0-D numpy array as a
number of its own dtype (``zero_d_result_dtype``). Every path is a generated op, so the
autograd graph is kept.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from runtime.common import DataType
from runtime.common.data_type import from_numpy_dtype
from runtime.common.promotion import scalar_result_dtype, zero_d_result_dtype

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

    def apply(self, op: str, tensor: Any, value: Any, reflected: bool) -> Any:
        """``tensor <op> value`` (``value <op> tensor`` when ``reflected``); ``value`` is a Python
        number or a 0-D numpy array."""
        api = self.api
        dtype = self.result_dtype(op, tensor, value)
        number = value.item() if isinstance(value, np.ndarray) else value
        by_scale = not isinstance(value, np.ndarray) and not isinstance(number, (bool, complex))
        if op == "divide" and not reflected and by_scale and number != 0:
            if not (dtype.is_floating_point or dtype.is_complex):
                dtype = DataType.FLOAT32
            return api.scale(self._cast(tensor, dtype), 1.0 / number, 0.0, True)
        if by_scale and op in ("add", "subtract", "multiply"):
            x = self._cast(tensor, dtype)
            if op == "add":
                return api.scale(x, 1.0, number, True)
            if op == "multiply":
                return api.scale(x, number, 0.0, True)
            if reflected:
                return api.scale(x, -1.0, number, True)
            return api.scale(x, 1.0, -number, True)
        if op == "elementwise_pow" and not reflected and by_scale:
            return api.pow(self._cast(tensor, dtype), number)
        other = self.wrap_number(number, tensor, dtype)
        x = self._cast(tensor, dtype)
        fn = getattr(api, op)
        return fn(other, x) if reflected else fn(x, other)
