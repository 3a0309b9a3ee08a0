"""Hand-written Tensor basics (runtime/eager/tensor_basics.py) the PaddlePaddle comparison in
test_paddle_tensor_methods.py cannot check by value: random fills, printing, places."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi


def test_uniform_fills_in_place_within_its_bounds() -> None:
    x = phi.zeros([400], phi.float32, phi.CPUPlace())
    array = x._impl.array
    assert x.uniform_(min=2.0, max=3.0) is x and x._impl.array is array
    values = x.numpy()
    assert values.min() >= 2.0 and values.max() < 3.0 and values.std() > 0.1


def test_normal_fills_in_place_with_its_mean_and_std() -> None:
    phi.seed(3)
    x = phi.zeros([4000], phi.float32, phi.CPUPlace())
    x.normal_(mean=1.0, std=0.5)
    assert abs(x.numpy().mean() - 1.0) < 0.05 and abs(x.numpy().std() - 0.5) < 0.05


def test_fills_refuse_a_leaf_that_needs_a_gradient() -> None:
    x = phi.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(phi.InvalidArgumentError, match="zero_"):
        x.zero_()
    with phi.no_grad():
        x.zero_()
    assert not x.numpy().any()


def test_clone_is_a_copy_that_passes_gradients_back() -> None:
    x = phi.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.clone()
    assert y._impl.array is not x._impl.array
    (y * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_repr_summarises_a_large_tensor_as_paddle_does() -> None:
    text = repr(phi.to_tensor(np.arange(2000, dtype=np.float32)))
    assert text.startswith(
        "Tensor(shape=[2000], dtype=float32, place=Place(cpu), stop_gradient=True,"
    )
    assert "..." in text and "1999." in text


def test_set_printoptions_changes_precision_and_threshold() -> None:
    x = phi.to_tensor([1.0 / 3.0, 2.0])
    try:
        phi.set_printoptions(precision=2)
        assert "0.33," in repr(x)
        phi.set_printoptions(threshold=1)
        assert "..." not in repr(x)  # numpy needs more than 2 * edgeitems elements to summarise
        assert "..." in repr(phi.to_tensor(np.arange(10.0)))
    finally:
        phi.set_printoptions(precision=8, threshold=1000)
    with pytest.raises(phi.InvalidArgumentError, match="precision"):
        phi.set_printoptions(precision=-1)


def test_to_casts_and_keeps_a_tensor_on_its_place() -> None:
    x = phi.to_tensor([1.5, 2.5])
    assert x.to("cpu") is x and x.cpu() is x
    assert x.to(phi.CPUPlace(), "float64").dtype is phi.float64
    assert x.to(dtype="int32").numpy().tolist() == [1, 2]


def test_dim_is_a_method_and_ndim_a_property() -> None:
    x = phi.zeros([2, 3, 4], phi.float32, phi.CPUPlace())
    assert x.dim() == x.ndim == 3 and x.element_size() == 4
