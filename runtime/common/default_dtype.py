"""The default floating dtype (``paddle.set_default_dtype``/``get_default_dtype``).

Process-global, as PaddlePaddle's (``LayerHelperBase``'s class attribute): Python floats given to
``to_tensor``, creation and random functions called without a dtype, and new parameters take it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common.data_type import DataType

__all__ = ["default_data_type", "get_default_dtype", "set_default_dtype"]

_ALLOWED = {
    "float16": DataType.FLOAT16,
    "bfloat16": DataType.BFLOAT16,
    "float32": DataType.FLOAT32,
    "float64": DataType.FLOAT64,
}
_NUMPY_TYPES = {np.float16: "float16", np.float32: "float32", np.float64: "float64"}

# [name, DataType]: one list so that readers see both change together.
_DEFAULT: list[Any] = ["float32", DataType.FLOAT32]


def set_default_dtype(d: Any) -> None:
    """Make ``d`` (float16, bfloat16, float32 or float64: a name, a numpy dtype or type, or a
    paddle dtype) the default dtype. Anything else raises TypeError, as in PaddlePaddle."""
    if isinstance(d, type):
        name = _NUMPY_TYPES.get(d)
        if name is None:
            raise TypeError(
                "set_default_dtype only supports [float16, float32, float64] "
                f", but received {d.__name__}"
            )
    else:
        if isinstance(d, DataType):
            name = d.name.lower()
        elif isinstance(d, np.dtype):
            name = d.name
        else:
            name = d
        if not isinstance(name, str) or name not in _ALLOWED:
            raise TypeError(
                "set_default_dtype only supports [float16, float32, float64, bfloat16] "
                f", but received {name}"
            )
    _DEFAULT[:] = [name, _ALLOWED[name]]


def get_default_dtype() -> str:
    """The default dtype's name ("float32" until set_default_dtype changes it)."""
    return _DEFAULT[0]


def default_data_type() -> DataType:
    """The default dtype as a DataType."""
    return _DEFAULT[1]
