"""The whole-tensor predicates of issue 24 (is_empty, equal_all): every registered dtype against
numpy, the registrations against PaddlePaddle 3.3.1's, 0-D, empty, non-contiguous and
differently shaped inputs, NaN, and bad input; paddle.is_empty/equal_all and their Tensor
methods. tests/ops/test_losscum_paddle.py compares PaddlePaddle 3.3.1's recorded results."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in ("is_empty", "equal_all"):
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


@op_test("is_empty", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("is_empty"), ids=lambda d: d.name.lower())
def test_is_empty_matches_numpy(dtype: DataType) -> None:
    for shape in ((2, 3), (0, 3), (3, 0, 2), (), (1,)):
        out = C.is_empty(t(sample(shape, dtype)))
        assert out.dtype == D.BOOL and out.shape == []
        assert out.item() == (np.zeros(shape).size == 0), shape


@op_test("is_empty", kind="edge")
def test_is_empty_edges() -> None:
    base = t(sample((4, 6), D.FLOAT32))
    assert C.is_empty(base[::2, 1::3]).item() is False
    assert C.is_empty(base[2:2]).item() is True
    assert phiops.is_empty(t(np.zeros((0,), "int64"))).item() is True
    assert t(3.0, "float64").is_empty().item() is False
    assert list(inspect.signature(phiops.is_empty).parameters) == ["x", "name"]


@op_test("equal_all", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("equal_all"), ids=lambda d: d.name.lower())
def test_equal_all_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=1)
    changed = x.copy()
    changed[2, 3] = not changed[2, 3] if dtype is D.BOOL else changed[2, 3] + 1
    for y in (x.copy(), changed):
        out = C.equal_all(t(x), t(y))
        assert out.dtype == D.BOOL and out.shape == []
        assert out.item() == bool(np.array_equal(x, y))


@op_test("equal_all", kind="edge")
def test_equal_all_edges() -> None:
    # PaddlePaddle 3.3.1: other shapes (broadcastable or not) are false, NaN is never equal,
    # two empty tensors of one shape are equal
    x = t([1.0, 2.0, 3.0], "float32")
    assert C.equal_all(x, t([[1.0, 2.0, 3.0]] * 2, "float32")).item() is False
    assert C.equal_all(t([[1.0, 2.0, 3.0]], "float32"), x).item() is False
    assert C.equal_all(t([1.0, np.nan], "float64"), t([1.0, np.nan], "float64")).item() is False
    assert C.equal_all(t(np.zeros((0, 3))), t(np.zeros((0, 3)))).item() is True
    assert C.equal_all(t(np.zeros((0, 3))), t(np.zeros((0, 2)))).item() is False
    assert C.equal_all(t(2, "int32"), t(2, "int32")).item() is True
    assert C.equal_all(t(2, "int32"), t([2], "int32")).item() is False
    base = sample((4, 6), D.INT64, seed=2)
    assert C.equal_all(t(base)[:, ::2], t(np.ascontiguousarray(base[:, ::2]))).item() is True
    assert phiops.equal_all(x, x).item() is True
    assert x.equal_all(t([1.0, 2.0, 4.0], "float32")).item() is False
    assert list(inspect.signature(phiops.equal_all).parameters) == ["x", "y", "name"]
    with pytest.raises(InvalidArgumentError, match="equal_all.*argument 'y'.*dtype.*FLOAT32"):
        C.equal_all(t([1, 2], "int64"), t([1.0, 2.0], "float32"))
