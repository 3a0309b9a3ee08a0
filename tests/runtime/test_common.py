"""DataType, Place, Scalar and IntArray: what users may pass, and the errors for what they may not."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from phiops.runtime.common import (
    CPUPlace,
    DataType,
    GPUPlace,
    IntArray,
    Place,
    Scalar,
    to_data_type,
    to_place,
)
from phiops.runtime.common.backend import Backend
from phiops.runtime.eager import to_tensor
from phiops.runtime.errors import InvalidArgumentError


@pytest.mark.parametrize(
    "value, expected",
    [
        (DataType.INT32, DataType.INT32),
        ("float32", DataType.FLOAT32),
        ("FLOAT64", DataType.FLOAT64),
        ("bool", DataType.BOOL),
        ("paddle.int64", DataType.INT64),
        (np.float16, DataType.FLOAT16),
        (np.dtype("complex64"), DataType.COMPLEX64),
        ("uint8", DataType.UINT8),
    ],
)
def test_to_data_type_accepts_datatype_numpy_and_names(value: object, expected: DataType) -> None:
    assert to_data_type(value) is expected


def test_to_data_type_rejects_an_unknown_name() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="dtype: unknown data type 'float31'; expected one of bfloat16, bool",
    ):
        to_data_type("float31")


def test_to_data_type_rejects_a_non_dtype() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="expected a DataType, numpy dtype or name such as 'float32', got list",
    ):
        to_data_type([1])


def test_datatype_order_is_phi_promotion_order() -> None:
    assert max(DataType.INT32, DataType.FLOAT16) is DataType.FLOAT16
    assert max(DataType.BOOL, DataType.INT8) is DataType.INT8
    assert DataType.ALL_DTYPE is DataType.UNDEFINED


def test_bfloat16_is_ml_dtypes_bfloat16_and_back() -> None:
    assert DataType.BFLOAT16.numpy_dtype == np.dtype(ml_dtypes.bfloat16)
    assert to_data_type(np.dtype(ml_dtypes.bfloat16)) is DataType.BFLOAT16
    assert to_data_type("bfloat16") is DataType.BFLOAT16


def test_a_dtype_numpy_lacks_is_a_clear_error() -> None:
    with pytest.raises(InvalidArgumentError, match="DataType UNDEFINED has no numpy equivalent"):
        DataType.UNDEFINED.numpy_dtype


@pytest.mark.parametrize(
    "value, expected",
    [
        ("cpu", CPUPlace()),
        ("GPU", GPUPlace(0)),
        ("gpu:1", GPUPlace(1)),
        (None, Place()),
        (CPUPlace(), CPUPlace()),
    ],
)
def test_to_place_accepts_places_and_names(value: object, expected: Place) -> None:
    assert to_place(value) == expected


def test_to_place_rejects_unknown_devices() -> None:
    with pytest.raises(
        InvalidArgumentError, match="expected a Place, 'cpu', 'gpu' or 'gpu:N', got str 'tpu'"
    ):
        to_place("tpu")


def test_places_compare_by_value() -> None:
    assert GPUPlace(1) == GPUPlace(1) != GPUPlace(0)
    assert CPUPlace().backend is Backend.CPU and not Place().is_defined


def test_scalar_from_python_numbers_keeps_their_kind() -> None:
    assert (Scalar(2).value, Scalar(2).dtype) == (2, DataType.INT64)
    assert (Scalar(2.5).value, Scalar(2.5).dtype) == (2.5, DataType.FLOAT64)
    assert (Scalar(True).value, Scalar(True).dtype) == (True, DataType.BOOL)


def test_scalar_from_a_one_element_tensor() -> None:
    scalar = Scalar(to_tensor(np.array([3], dtype=np.int32)))
    assert (scalar.value, scalar.dtype) == (3, DataType.INT32)


def test_scalar_from_a_larger_tensor_is_an_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"a Scalar tensor must hold exactly 1 element, got shape \[2\]"
    ):
        Scalar(to_tensor([1.0, 2.0]))


def test_scalar_from_a_string_is_an_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match="expected a number or a 1-element tensor, got str '1'"
    ):
        Scalar("1")


def test_int_array_from_an_int_list_and_tensors() -> None:
    assert IntArray([2, np.int64(3)]).data == (2, 3)
    assert IntArray(4).data == (4,)
    from_tensor = IntArray(to_tensor(np.array([1, 2], dtype=np.int64)))
    assert from_tensor.data == (1, 2) and from_tensor.from_tensor
    from_list = IntArray([to_tensor(np.array(5, dtype=np.int32)), 6])
    assert from_list.data == (5, 6) and from_list.from_tensor


def test_int_array_rejects_floats() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="element 1 must be an int or a 1-element int tensor, got float 2.5",
    ):
        IntArray([1, 2.5])


def test_int_array_rejects_a_float_tensor() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="an IntArray tensor must be a 0-D or 1-D integer tensor, got float32",
    ):
        IntArray(to_tensor([1.0]))


def test_int_array_rejects_bool() -> None:
    with pytest.raises(InvalidArgumentError, match="expected a list of ints, got bool True"):
        IntArray(True)
