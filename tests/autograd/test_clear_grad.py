"""clear_grad as PaddlePaddle's (zeros in place, or None), and gradients written into the buffer
the leaf owns without a temporary: the values are what a fresh pass gives."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import PreconditionNotMetError
from phiops.runtime.optimizer import SGD


def leaf(values: object) -> phi.Tensor:
    return phi.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=False)


def backward_of_cube(x: phi.Tensor) -> None:
    """d/dx sum(x * x * x) = 3 x**2."""
    phi.sum(phi.multiply(phi.multiply(x, x), x)).backward()


def test_clear_grad_zeros_the_gradient() -> None:
    x = leaf([1.0, 2.0])
    backward_of_cube(x)
    x.clear_grad()
    assert x.grad.numpy().tolist() == [0.0, 0.0]


def test_clear_grad_keeps_the_gradient_object_and_its_array_once_zeroed() -> None:
    x = leaf([1.0, 2.0])
    backward_of_cube(x)
    x.clear_grad()
    grad, array = x.grad, x.grad._impl.array
    backward_of_cube(x)
    assert x.grad is grad and x.grad._impl.array is array
    assert x.grad.numpy().tolist() == [3.0, 12.0]
    x.clear_grad()
    assert x.grad is grad and x.grad._impl.array is array
    assert array.tolist() == [0.0, 0.0]


def test_set_to_zero_false_gives_none() -> None:
    x = leaf([1.0, 2.0])
    backward_of_cube(x)
    x.clear_gradient(set_to_zero=False)
    assert x.grad is None
    backward_of_cube(x)
    assert x.grad.numpy().tolist() == [3.0, 12.0]


def test_clear_gradient_is_clear_grad() -> None:
    x = leaf([1.0])
    backward_of_cube(x)
    x.clear_gradient(False)
    assert x.grad is None


def test_clear_grad_without_a_gradient_leaves_none() -> None:
    x = leaf([1.0])
    x.clear_grad()
    assert x.grad is None


def test_a_backward_after_zeroing_gives_what_a_fresh_one_gives() -> None:
    x, fresh = leaf([0.5, -1.5, 2.0]), leaf([0.5, -1.5, 2.0])
    backward_of_cube(x)
    x.clear_grad()
    backward_of_cube(x)
    backward_of_cube(fresh)
    np.testing.assert_array_equal(x.grad.numpy(), fresh.grad.numpy())


def test_gradients_add_up_over_backward_calls_into_a_zeroed_gradient() -> None:
    x = leaf([1.0, 2.0])
    backward_of_cube(x)
    x.clear_grad()
    for expected in ([3.0, 12.0], [6.0, 24.0], [9.0, 36.0]):
        backward_of_cube(x)
        assert x.grad.numpy().tolist() == expected


def test_gradients_add_up_over_three_backward_calls_without_clearing() -> None:
    x = leaf([1.0, 2.0])
    for expected in ([3.0, 12.0], [6.0, 24.0], [9.0, 36.0]):
        backward_of_cube(x)
        assert x.grad.numpy().tolist() == expected


def test_zeroing_never_writes_into_memory_the_gradient_shares() -> None:
    # reshape's backward hands back a view of the gradient passed to backward(): clear_grad
    # must not zero the caller's tensor through it, nor the next backward add into it.
    x = phi.to_tensor(np.ones((2, 2)), stop_gradient=False)
    seed = phi.to_tensor(np.array([1.0, 2.0, 3.0, 4.0]))
    phi.reshape(x, [4]).backward(seed)
    assert np.shares_memory(x.grad._impl.array, seed._impl.array)
    x.clear_grad()
    phi.reshape(x, [4]).backward(seed)
    assert seed.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert x.grad.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_zeroing_one_leaf_leaves_another_leafs_gradient_alone() -> None:
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    phi.sum(phi.add(x, y)).backward()
    x.clear_grad()
    assert x.grad.numpy().tolist() == [0.0, 0.0]
    assert y.grad.numpy().tolist() == [1.0, 1.0]
    phi.sum(phi.add(x, y)).backward()
    assert x.grad.numpy().tolist() == [1.0, 1.0]
    assert y.grad.numpy().tolist() == [2.0, 2.0]


def test_a_write_into_a_zeroed_gradient_is_added_to_not_overwritten() -> None:
    x = leaf([1.0, 2.0])
    backward_of_cube(x)
    x.clear_grad()
    phi.add_(x.grad, phi.to_tensor(np.array([10.0, 20.0])))
    backward_of_cube(x)
    assert x.grad.numpy().tolist() == [13.0, 32.0]


def test_hooks_run_on_gradients_written_into_a_zeroed_gradient() -> None:
    x = leaf([1.0, 2.0])
    seen = []
    x.register_hook(lambda grad: seen.append(grad.numpy().tolist()) or phi.scale(grad, 2.0))
    backward_of_cube(x)
    x.clear_grad()
    backward_of_cube(x)
    assert seen == [[3.0, 12.0], [3.0, 12.0]]
    assert x.grad.numpy().tolist() == [6.0, 24.0]


def test_a_graph_that_saved_a_gradient_sees_it_change_in_place() -> None:
    x, w = leaf([1.0, 2.0]), leaf([1.0, 1.0])
    backward_of_cube(x)
    x.clear_grad()
    product = phi.sum(phi.multiply(w, x.grad))
    backward_of_cube(x)
    with pytest.raises(PreconditionNotMetError, match="modified in place"):
        product.backward()


def test_three_gradients_for_one_output_add_up() -> None:
    # add's backward passes its output gradient through to both inputs: y's node gets the
    # seed three times, and the third is added in place into the sum of the first two.
    x = leaf([1.0, 2.0])
    y = phi.scale(x, 2.0)
    phi.sum(phi.add(phi.add(y, y), y)).backward()
    assert x.grad.numpy().tolist() == [6.0, 6.0]


def test_retain_graph_twice_after_zeroing_adds_each_pass() -> None:
    x = leaf([1.0, 2.0])
    loss = phi.sum(phi.multiply(phi.multiply(x, x), x))
    loss.backward(retain_graph=True)
    x.clear_grad()
    loss.backward(retain_graph=True)
    loss.backward()
    assert x.grad.numpy().tolist() == [6.0, 24.0]


def test_optimizer_clear_grad_zeros_in_place_or_sets_none() -> None:
    params = [leaf([1.0, 2.0]), leaf([3.0])]
    optimizer = SGD(learning_rate=0.1, parameters=params)
    loss = phi.add(phi.sum(phi.multiply(params[0], params[0])), phi.sum(params[1]))
    loss.backward()
    optimizer.clear_grad()
    arrays = [p.grad._impl.array for p in params]
    phi.add(phi.sum(phi.multiply(params[0], params[0])), phi.sum(params[1])).backward()
    optimizer.clear_grad()
    assert [p.grad._impl.array for p in params] == arrays
    assert [a.tolist() for a in arrays] == [[0.0, 0.0], [0.0]]
    optimizer.clear_grad(set_to_zero=False)
    assert [p.grad for p in params] == [None, None]


def test_a_gradient_a_hook_kept_is_not_written_into_by_a_later_backward() -> None:
    # x * x * x sends x three gradients, whose sum the pass allocates; shown to a hook, it must
    # stay as the hook saw it.
    x = leaf([1.0, 2.0])
    kept = []
    x.register_hook(kept.append)
    backward_of_cube(x)
    backward_of_cube(x)
    assert kept[0].numpy().tolist() == [3.0, 12.0]
    assert x.grad.numpy().tolist() == [6.0, 24.0]
