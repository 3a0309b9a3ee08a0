"""Tensor, DenseTensor metas and MetaTensor."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.common import CPUPlace, DataLayout, DataType
from phiops.runtime.eager import Tensor, to_tensor
from phiops.runtime.tensor import DenseTensorMeta, MetaTensor
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError


def test_python_floats_become_float32_and_ints_int64() -> None:
    assert to_tensor([1.0, 2.0]).dtype is DataType.FLOAT32
    assert to_tensor([1, 2]).dtype is DataType.INT64
    assert to_tensor(True).dtype is DataType.BOOL


def test_numpy_arrays_keep_their_dtype() -> None:
    assert to_tensor(np.zeros(2, np.float64)).dtype is DataType.FLOAT64


def test_to_tensor_copies_the_data() -> None:
    source = np.zeros(3, np.float32)
    tensor = to_tensor(source)
    source[0] = 7
    assert tensor.numpy()[0] == 0


def test_to_tensor_with_dtype_casts() -> None:
    assert to_tensor([1.7, 2.2], dtype="int32").numpy().tolist() == [1, 2]


def test_to_tensor_rejects_strings() -> None:
    with pytest.raises(
        InvalidArgumentError, match="to_tensor: data of numpy dtype <U1 is not numeric"
    ):
        to_tensor(["a"])


def test_to_tensor_rejects_ragged_lists() -> None:
    with pytest.raises(InvalidArgumentError, match="to_tensor: cannot convert list"):
        to_tensor([[1, 2], [3]])


def test_tensor_constructor_matches_to_tensor() -> None:
    tensor = Tensor([[1, 2]], dtype="float64", stop_gradient=False)
    assert (tensor.shape, tensor.dtype, tensor.stop_gradient) == ([1, 2], DataType.FLOAT64, False)


def test_meta_properties() -> None:
    tensor = to_tensor(np.zeros((2, 3), np.float32))
    assert (tensor.shape, tensor.ndim, tensor.size, tensor.place) == ([2, 3], 2, 6, CPUPlace())


def test_zero_dim_tensor() -> None:
    tensor = to_tensor(3.5)
    assert tensor.shape == [] and tensor.item() == 3.5 and float(tensor) == 3.5


def test_item_needs_one_element() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"item\(\) needs a tensor with exactly 1 element, this one has shape \[2\]",
    ):
        to_tensor([1.0, 2.0]).item()


def test_truth_value_of_many_elements_is_ambiguous() -> None:
    with pytest.raises(InvalidArgumentError, match="is ambiguous"):
        bool(to_tensor([1.0, 2.0]))


def test_repr_shows_shape_dtype_place_and_data() -> None:
    assert repr(to_tensor([[1.0, 2.0]])) == (
        "Tensor(shape=[1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [[1., 2.]])"
    )


def test_detach_shares_data() -> None:
    tensor = to_tensor([1.0])
    assert tensor.detach()._impl.array is tensor._impl.array


def test_metas_are_interned() -> None:
    first = DenseTensorMeta.get(DataType.FLOAT32, (2, 3), DataLayout.NCHW, CPUPlace())
    second = DenseTensorMeta.get(DataType.FLOAT32, (2, 3), DataLayout.NCHW, CPUPlace())
    assert first is second
    assert DenseTensorMeta.get(DataType.FLOAT64, (2, 3)) is not first


def test_tensors_with_equal_meta_share_the_meta_object() -> None:
    assert to_tensor([1.0, 2.0])._impl.meta is to_tensor([3.0, 4.0])._impl.meta


def test_meta_tensor_wraps_a_meta_and_starts_empty_for_outputs() -> None:
    source = MetaTensor(DenseTensorMeta.get(DataType.INT32, (4,)), "x")
    out = MetaTensor(name="out")
    assert not out.is_initialized
    out.share_meta(source)
    assert (out.dims, out.dtype, out.is_initialized) == ((4,), DataType.INT32, True)
    out.set_dims([2, 2])
    out.set_dtype(DataType.FLOAT64)
    assert (out.dims, out.dtype, source.dims) == ((2, 2), DataType.FLOAT64, (4,))


def test_meta_tensor_without_dims_says_so() -> None:
    with pytest.raises(PreconditionNotMetError, match="MetaTensor 'out': dims were never set"):
        MetaTensor(name="out").dims
