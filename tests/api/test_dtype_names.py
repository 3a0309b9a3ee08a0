"""PaddlePaddle's dtype names on ``phiops`` (``paddle.bool``, ``paddle.bfloat16``, ...)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType

NAMES = {
    "bool": (DataType.BOOL, np.bool_),
    "uint8": (DataType.UINT8, np.uint8),
    "int8": (DataType.INT8, np.int8),
    "int16": (DataType.INT16, np.int16),
    "int32": (DataType.INT32, np.int32),
    "int64": (DataType.INT64, np.int64),
    "uint16": (DataType.UINT16, np.uint16),
    "uint32": (DataType.UINT32, np.uint32),
    "uint64": (DataType.UINT64, np.uint64),
    "float16": (DataType.FLOAT16, np.float16),
    "bfloat16": (DataType.BFLOAT16, ml_dtypes.bfloat16),
    "float32": (DataType.FLOAT32, np.float32),
    "float64": (DataType.FLOAT64, np.float64),
    "complex64": (DataType.COMPLEX64, np.complex64),
    "complex128": (DataType.COMPLEX128, np.complex128),
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_dtype_name_casts_to_its_dtype(name: str) -> None:
    dtype, numpy_dtype = NAMES[name]
    assert getattr(paddle, name) is dtype
    out = paddle.cast(paddle.to_tensor([1.0, 0.0]), getattr(paddle, name))
    assert out.dtype == dtype
    assert out.numpy().dtype == np.dtype(numpy_dtype)
    assert isinstance(out.dtype, paddle.dtype)


def test_builtin_bool_still_works_in_the_api() -> None:
    """paddle.bool is the dtype; the modules behind it keep Python's bool."""
    assert paddle.bool is not bool
    assert paddle.to_tensor([True]).dtype == paddle.bool
    assert bool(paddle.to_tensor(1.0)) is True
