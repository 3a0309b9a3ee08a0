"""wrap_array, the dispatch hot path's one allocation per output, both ways: the compiled
runtime.kernels._native.wrap_tensor (used where the optional extension is built) and the Python
``python_wrap_array`` build the same Tensor."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from phiops.runtime.common import DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.eager.tensor import Tensor, WRAPPED_SLOTS, python_wrap_array, wrap_array
from phiops.runtime.kernels import native

NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
META = DenseTensorMeta.get(DataType.FLOAT32, (2, 3))


def _fields(tensor: Tensor) -> tuple:
    return tuple(getattr(tensor, name) for name in WRAPPED_SLOTS)


@pytest.mark.parametrize("wrap", ["native", "python"])
def test_both_wraps_build_the_same_tensor(wrap: str) -> None:
    if wrap == "native" and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    make = native._native.wrap_tensor if wrap == "native" else python_wrap_array
    array = np.ones((2, 3), np.float32)
    tensor = make(array, META)
    assert type(tensor) is Tensor
    assert tensor.array is array and tensor.meta is META
    assert _fields(tensor)[2:] == (0, None, True, None, None, None)
    assert tensor.shape == [2, 3] and tensor.is_leaf and tensor.grad is None
    # an ordinary object: weak references, attribute writes, collection
    reference = weakref.ref(tensor)
    tensor.stop_gradient = False
    tensor.name = "t"
    assert (tensor.stop_gradient, tensor.name) == (False, "t")
    del tensor
    gc.collect()
    assert reference() is None


def test_wrap_array_is_the_compiled_one_where_it_is_built() -> None:
    expected = native._native.wrap_tensor if native.NATIVE_BUILT else python_wrap_array
    assert wrap_array is expected


def test_configure_tensor_refuses_what_is_no_object_slot() -> None:
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    with pytest.raises(ValueError, match="names: expected 8 slot names, got 1"):
        native._native.configure_tensor(Tensor, ("array",))
    with pytest.raises(TypeError, match=r"names\[7\]: 'shape' is not an object slot"):
        native._native.configure_tensor(Tensor, WRAPPED_SLOTS[:7] + ("shape",))
    # the failed calls left the configuration as it was
    assert native._native.wrap_tensor(np.zeros(1), META).meta is META
