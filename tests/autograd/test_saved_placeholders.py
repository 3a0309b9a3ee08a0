"""Meta-only saved inputs (no_need_buffer) share one read-only placeholder per meta instead of
a new zero-stride view per record."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi


def _saved_impls(out: phi.Tensor) -> list[object]:
    node, _ = out._grad_node
    return [wrapper.impl for wrapper in node.saved if hasattr(wrapper, "impl")]


def test_two_records_of_one_meta_share_the_placeholder() -> None:
    x = phi.to_tensor(np.ones((2, 3), np.float32), stop_gradient=False)
    y = phi.to_tensor(np.ones((2, 3), np.float32))
    first, second = phi.add(x, y), phi.add(y, x)
    saved_first, saved_second = _saved_impls(first), _saved_impls(second)
    assert len(saved_first) == 2  # add_grad reads x and y by meta only
    assert saved_first[0] is saved_second[0] is saved_first[1]
    assert saved_first[0] is not x._impl
    assert saved_first[0].meta is x._impl.meta


def test_the_placeholder_holds_no_data_and_cannot_be_written() -> None:
    x = phi.to_tensor(np.ones((64, 32), np.float32), stop_gradient=False)
    placeholder, _ = _saved_impls(phi.add(x, x))
    assert placeholder.array.strides == (0, 0)
    assert not placeholder.array.flags.writeable


def test_gradients_through_shape_only_inputs_are_unchanged() -> None:
    x = phi.to_tensor(np.arange(6, dtype=np.float64).reshape(2, 3), stop_gradient=False)
    b = phi.to_tensor(np.ones(3), stop_gradient=False)
    phi.sum(phi.multiply(phi.add(x, b), phi.add(x, b))).backward()
    expected = 2 * (np.arange(6).reshape(2, 3) + 1.0)
    np.testing.assert_allclose(x.grad.numpy(), expected)
    np.testing.assert_allclose(b.grad.numpy(), expected.sum(0))
