"""The basic24 ops of issue 24 (fill, full_, increment, assign_out_, ...): every registered dtype
against numpy, the registrations against PaddlePaddle 3.3.1's, 0-D, empty and non-contiguous
inputs, in-place writes, bad input and the paddle.* functions. tests/ops/test_basic24_paddle.py
compares PaddlePaddle 3.3.1's recorded results and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import CPUPlace, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import NUMPY_LACKS, paddle_data
from phiops.runtime.kernels.registration import ALL_TYPES
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType
KERNELS = ("fill", "fill_grad", "increment")
ids = lambda d: d.name.lower()  # noqa: E731


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for name in KERNELS:
        want = set(kernels[name]) - NUMPY_LACKS
        assert sorted(d.name.lower() for d in cpu_dtypes(name)) == sorted(want), name


# -- fill ---------------------------------------------------------------------------------------


@op_test("fill", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fill"), ids=ids)
def test_fill_sets_every_element(dtype: DataType) -> None:
    x = sample((2, 3), dtype)
    value = True if dtype is D.BOOL else 3
    out = C.fill(t(x), value)
    assert out.dtype == dtype and out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), value, dtype.numpy_dtype))


@op_test("fill", kind="edge")
def test_fill_edges() -> None:
    # a C++ cast: an integer dtype truncates toward zero, bool takes nonzero as True
    np.testing.assert_array_equal(C.fill(t([1, 2], "int32"), 3.7).numpy(), [3, 3])
    np.testing.assert_array_equal(C.fill(t([1, 2], "int64"), -2.9).numpy(), [-2, -2])
    np.testing.assert_array_equal(C.fill(t([False], "bool"), 0.5).numpy(), [True])
    np.testing.assert_array_equal(C.fill(t([1.0], "float32"), float("inf")).numpy(), [np.inf])
    assert C.fill(t(2.0, "float64"), 7.5).numpy() == np.float64(7.5)  # 0-D
    assert C.fill(t(np.zeros((0, 3), "float32")), 1.0).shape == [0, 3]
    x = np.arange(12, dtype="float32").reshape(3, 4)[:, ::2]  # non-contiguous
    np.testing.assert_array_equal(C.fill(t(x), -1.0).numpy(), np.full((3, 2), -1.0, "float32"))
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*NaN"):
        C.fill(t([1.0]), float("nan"))
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*out of range for int8"):
        C.fill(t([1], "int8"), 300)
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*inf"):
        C.fill(t([1], "int32"), float("inf"))


def test_fill_in_place_writes_x_and_its_gradient_is_zero() -> None:
    x = t([1.0, 2.0, 3.0])
    out = C.fill_(x, 4.0)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [4.0, 4.0, 4.0])
    leaf = phiops.to_tensor([1.0, 2.0], stop_gradient=False)
    (C.fill(leaf * 2, 5.0) * 3).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [0.0, 0.0])


def test_tensor_fill__is_unchanged() -> None:
    x = t([[1, 2], [3, 4]], "int64")
    x.fill_(9)
    np.testing.assert_array_equal(x.numpy(), [[9, 9], [9, 9]])


# -- full_ --------------------------------------------------------------------------------------


@op_test("full_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full"), ids=ids)
def test_full__overwrites_output_with_shape_dtype_and_value(dtype: DataType) -> None:
    output = t([1.0, 2.0, 3.0], "float32")
    value = True if dtype is D.BOOL else 2
    out = C.full_(output, [2, 2], value, dtype, CPUPlace())
    assert out is output
    assert output.dtype == dtype and output.shape == [2, 2]
    np.testing.assert_array_equal(output.numpy(), np.full((2, 2), value, dtype.numpy_dtype))


@op_test("full_", kind="edge")
def test_full__edges() -> None:
    output = t([[1, 2]], "int64")
    assert C.full_(output, [], 1.5, D.FLOAT64, CPUPlace()).numpy() == np.float64(1.5)  # 0-D
    assert output.shape == []
    assert C.full_(output, [0, 4], 1.0, D.FLOAT32, CPUPlace()).shape == [0, 4]
    assert C.full_(output, t([3], "int64"), 1.0, D.INT32, CPUPlace()).shape == [3]  # a tensor shape
    with pytest.raises(InvalidArgumentError, match="full_.*'shape'.*>= 0"):
        C.full_(output, [2, -3], 1.0, D.FLOAT32, CPUPlace())
    with pytest.raises(InvalidArgumentError, match="full.*'value'.*out of range for dtype uint8"):
        C.full_(output, [2], -1, D.UINT8, CPUPlace())


# -- increment ----------------------------------------------------------------------------------


@op_test("increment", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("increment"), ids=ids)
def test_increment_adds_value(dtype: DataType) -> None:
    x = np.array([5], dtype.numpy_dtype)
    out = C.increment(t(x), 2.0)
    assert out.dtype == dtype and out.shape == [1]
    np.testing.assert_array_equal(out.numpy(), x + 2)


@op_test("increment", kind="edge")
def test_increment_edges() -> None:
    # an integer dtype truncates value toward zero first, as PHI's static_cast
    np.testing.assert_array_equal(C.increment(t([3], "int32"), 1.7).numpy(), [4])
    np.testing.assert_array_equal(C.increment(t([3], "int64"), -1.7).numpy(), [2])
    np.testing.assert_allclose(C.increment(t(2.0, "float64"), 0.5).numpy(), 2.5)  # 0-D
    assert C.increment(t([[[1.0]]], "float32")).shape == [1, 1, 1]
    x = t([7], "int64")
    assert C.increment_(x, 3.0) is x
    np.testing.assert_array_equal(x.numpy(), [10])
    for bad in ([1.0, 2.0], np.zeros((0,), "float32")):
        with pytest.raises(InvalidArgumentError, match="increment.*'x'.*exactly one element"):
            C.increment(t(bad, "float32"))
    with pytest.raises(InvalidArgumentError, match="increment.*'value'.*inf"):
        C.increment(t([1], "int32"), float("inf"))


def test_paddle_increment_is_the_op() -> None:
    np.testing.assert_array_equal(phiops.increment(t([1.5], "float32")).numpy(), [2.5])
    np.testing.assert_array_equal(phiops.increment(t([1], "int64"), value=4).numpy(), [5])


# -- assign_out_ --------------------------------------------------------------------------------


@op_test("assign_out_", kind="dtypes")
@pytest.mark.parametrize("dtype", ALL_TYPES, ids=ids)
def test_assign_out__copies_x_into_output(dtype: DataType) -> None:
    x = sample((2, 3), dtype, seed=3)
    output = t(np.zeros((4,), "float64"))
    out = C.assign_out_(t(x), output)
    assert out is output and output.dtype == dtype and output.shape == [2, 3]
    np.testing.assert_array_equal(output.numpy(), x)


@op_test("assign_out_", kind="edge")
def test_assign_out__edges() -> None:
    output = t([1.0, 2.0])
    C.assign_out_(t(3, "int32"), output)  # 0-D
    assert output.shape == [] and output.numpy() == np.int32(3)
    C.assign_out_(t(np.zeros((0, 2), "float32")), output)
    assert output.shape == [0, 2]
    x = np.arange(12.0).reshape(3, 4)[::2, 1::2]  # non-contiguous
    np.testing.assert_array_equal(C.assign_out_(t(x), output).numpy(), x)
    # a copy: writing x later leaves output alone
    source = t([1.0, 2.0])
    C.assign_out_(source, output)
    source.fill_(0.0)
    np.testing.assert_array_equal(output.numpy(), [1.0, 2.0])


def test_assign_out__passes_the_gradient_to_x() -> None:
    x = phiops.to_tensor([1.0, 2.0], stop_gradient=False)
    out = C.assign_out_(x, phiops.zeros([5]))
    (out * t([2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 3.0])
