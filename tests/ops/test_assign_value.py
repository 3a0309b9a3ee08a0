"""assign_value and assign_value_ against numpy: a tensor of the given shape and dtype holding
the given values, converted as PHI's Scalar::to<T> (C++ casts)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import CPUPlace, DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

VALUES = (1, 2.5, -3.75, 0)


@op_test("assign_value", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("assign_value"), ids=lambda d: d.name.lower())
def test_assign_value_converts_each_value_to_the_dtype(dtype: DataType) -> None:
    out = phi.assign_value([2, 2], dtype, list(VALUES))
    # numpy's astype from float64 truncates toward zero for integers, as C++ does
    expected = np.array(VALUES, np.float64).astype(dtype.numpy_dtype).reshape(2, 2)
    assert out.dtype == dtype and out.shape == [2, 2]
    np.testing.assert_array_equal(out.numpy(), expected)


@op_test("assign_value_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("assign_value"), ids=lambda d: d.name.lower())
def test_assign_value_inplace_gives_the_tensor_the_values_shape_and_dtype(dtype: DataType) -> None:
    target = phi.to_tensor(np.zeros(3, np.float32))
    result = phi.assign_value_(target, [1, 4], dtype, list(VALUES))
    expected = np.array(VALUES, np.float64).astype(dtype.numpy_dtype).reshape(1, 4)
    assert result is target
    assert target.dtype == dtype and target.shape == [1, 4]
    np.testing.assert_array_equal(target.numpy(), expected)


@op_test("assign_value_", kind="edge")
def test_assign_value_inplace_of_the_same_shape_writes_into_the_storage_and_bumps_the_version():
    target = phi.to_tensor(np.zeros((2, 2), np.float64))
    version = getattr(target._impl, "_version", 0)
    array = target._impl.array
    phi.assign_value_(target, [2, 2], DataType.FLOAT64, [1.5, 2, 3, 4])
    assert target._impl.array is array
    assert target._impl._version == version + 1
    np.testing.assert_array_equal(array, [[1.5, 2], [3, 4]])


@op_test("assign_value", "assign_value_", kind="edge")
def test_assign_value_of_complex_bool_and_empty_values():
    out = phi.assign_value([2], DataType.COMPLEX128, [1 + 2j, 3])
    np.testing.assert_array_equal(out.numpy(), np.array([1 + 2j, 3]))
    # PaddlePaddle's Scalar::to<float> would drop the imaginary part; phiops never does that
    # silently (runtime/dispatch/attributes.py): a complex value needs a complex dtype
    with pytest.raises(
        InvalidArgumentError, match=r"assign_value\(\): argument 'values\[0\]' is the complex"
    ):
        phi.assign_value([1], DataType.FLOAT32, [2 - 5j])
    # to bool through an integer: 0.5 and -0.5 are False (PaddlePaddle 3.3.1 gives the same)
    np.testing.assert_array_equal(
        phi.assign_value([4], DataType.BOOL, [0, -2, 0.5, -1.5]).numpy(), [False, True, False, True]
    )
    assert phi.assign_value([0, 3], DataType.INT64, []).shape == [0, 3]
    assert phi.assign_value([], DataType.FLOAT32, [7]).numpy().tolist() == 7.0
    out = phi.assign_value([1], DataType.INT32, [5], CPUPlace())
    assert out.place == CPUPlace()


@op_test("assign_value", "assign_value_", kind="edge")
def test_assign_value_rejects_a_value_count_that_does_not_match_the_shape():
    with pytest.raises(
        InvalidArgumentError, match=r"assign_value.*'values' must hold .* \(4\), got 3"
    ):
        phi.assign_value([2, 2], DataType.INT32, [1, 2, 3])
    with pytest.raises(InvalidArgumentError, match=r"assign_value_\(\): .*\(1\), got 2"):
        phi.assign_value_(phi.to_tensor(np.zeros(1)), [1], DataType.FLOAT64, [1, 2])


@op_test("assign_value", kind="edge")
def test_assign_value_rejects_values_an_integer_dtype_cannot_hold_and_bad_shapes():
    with pytest.raises(
        InvalidArgumentError, match=r"'values\[1\]' 10000000000.0 is out of the range of int32"
    ):
        phi.assign_value([2], DataType.INT32, [1, 1e10])
    with pytest.raises(
        InvalidArgumentError, match=r"'values\[0\]' nan cannot be converted to int8"
    ):
        phi.assign_value([1], DataType.INT8, [float("nan")])
    with pytest.raises(InvalidArgumentError, match="'shape' must hold sizes >= 0"):
        phi.assign_value([-1], DataType.INT32, [])
