"""The autograd engine's semantics, following PaddlePaddle's eager mode."""

from __future__ import annotations

import weakref

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError


def leaf(values: object, dtype: str = "float64") -> phi.Tensor:
    return phi.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def test_to_tensor_does_not_require_grad_by_default() -> None:
    x = phi.to_tensor([1.0, 2.0])
    assert x.stop_gradient and x.is_leaf
    y = phi.exp(x)
    assert y.stop_gradient and y._grad_node is None


def test_an_op_on_a_tensor_that_needs_grad_records_a_node() -> None:
    y = phi.exp(leaf([1.0]))
    assert not y.stop_gradient and not y.is_leaf


def test_backward_fills_leaf_grads() -> None:
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    phi.sum(phi.multiply(x, y)).backward()
    assert x.grad.numpy().tolist() == [3.0, 4.0]
    assert y.grad.numpy().tolist() == [1.0, 2.0]
    assert x.grad.stop_gradient


def test_gradients_accumulate_over_backward_calls() -> None:
    x = leaf([1.0, 2.0])
    phi.sum(phi.scale(x, 3.0)).backward()
    phi.sum(phi.scale(x, 3.0)).backward()
    assert x.grad.numpy().tolist() == [6.0, 6.0]


def test_a_tensor_used_twice_gets_both_gradients() -> None:
    x = leaf([2.0])
    phi.add(phi.multiply(x, x), x).backward()
    assert x.grad.numpy().tolist() == [5.0]


def test_clear_grad_sets_zeros_or_none() -> None:
    x = leaf([1.0, 2.0])
    phi.sum(x).backward()
    x.clear_grad()
    assert x.grad.numpy().tolist() == [0.0, 0.0]
    x.clear_gradient(set_to_zero=False)
    assert x.grad is None


def test_broadcast_input_gets_a_gradient_of_its_own_shape() -> None:
    x, y = leaf(np.ones((3, 1))), leaf(np.ones((1, 4)))
    phi.sum(phi.add(x, y)).backward()
    assert x.grad.shape == [3, 1] and x.grad.numpy().ravel().tolist() == [4.0] * 3
    assert y.grad.shape == [1, 4] and y.grad.numpy().ravel().tolist() == [3.0] * 4


def test_no_grad_context_records_nothing() -> None:
    x = leaf([1.0])
    with phi.no_grad():
        y = phi.exp(x)
        with phi.enable_grad():
            z = phi.exp(x)
    assert y.stop_gradient and y._grad_node is None
    assert not z.stop_gradient
    assert phi.is_grad_enabled()


def test_no_grad_decorator() -> None:
    @phi.no_grad()
    def step(t: phi.Tensor) -> phi.Tensor:
        return phi.exp(t)

    assert step(leaf([1.0])).stop_gradient
    assert phi.is_grad_enabled()


def test_detach_stops_the_gradient() -> None:
    x = leaf([2.0])
    y = phi.multiply(x, phi.exp(x).detach())
    y.backward()
    assert x.grad.numpy().tolist() == pytest.approx([np.exp(2.0)])


def test_integer_tensors_never_get_gradients() -> None:
    count = phi.to_tensor(np.array([2, 3]), stop_gradient=False)
    x = leaf([1.0, 1.0])
    phi.sum(phi.multiply(x, phi.cast(count, x.dtype))).backward()
    assert x.grad.numpy().tolist() == [2.0, 3.0]
    assert count.grad is None


def test_grad_of_an_integer_input_is_an_error() -> None:
    count = phi.to_tensor(np.array([2, 3]), stop_gradient=False)
    out = phi.sum(phi.multiply(leaf([1.0, 1.0]), phi.cast(count, "float64")))
    with pytest.raises(
        InvalidArgumentError, match=r"grad: inputs\[0\] does not require a gradient .*int64"
    ):
        phi.grad(out, count)


def test_comparison_outputs_do_not_require_grad() -> None:
    assert phi.greater_than(leaf([1.0]), leaf([0.0])).stop_gradient


def test_backward_of_a_stop_gradient_tensor_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="the tensor does not require a gradient"):
        phi.to_tensor([1.0]).backward()


def test_backward_with_a_grad_tensor_of_the_wrong_shape_is_an_error() -> None:
    y = phi.exp(leaf([1.0, 2.0]))
    with pytest.raises(
        InvalidArgumentError, match=r"grad_tensor has shape \[3\], but the tensor has shape \[2\]"
    ):
        y.backward(phi.to_tensor([1.0, 1.0, 1.0], dtype="float64"))


def test_backward_with_a_grad_tensor_weights_the_outputs() -> None:
    x = leaf([1.0, 2.0])
    phi.scale(x, 2.0).backward(phi.to_tensor([1.0, 10.0], dtype="float64"))
    assert x.grad.numpy().tolist() == [2.0, 20.0]


def test_second_backward_through_a_freed_graph_is_an_error() -> None:
    x = leaf([1.0])
    y = phi.sum(phi.exp(x))
    y.backward()
    with pytest.raises(
        PreconditionNotMetError,
        match="backward of 'sum' runs a second time, but its saved tensors were freed",
    ):
        y.backward()


def test_retain_graph_allows_a_second_backward() -> None:
    x = leaf([0.0])
    y = phi.exp(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.numpy().tolist() == [2.0]


def test_modifying_a_saved_tensor_in_place_breaks_backward_clearly() -> None:
    x = leaf([1.0, 2.0])
    y = phi.exp(x)
    loss = phi.sum(y)
    y.set_value(np.zeros(2))
    with pytest.raises(
        PreconditionNotMetError,
        match=r"backward of 'exp': its saved tensor 'output 0' was modified in place .*version 1, saved at version 0",
    ):
        loss.backward()


def test_set_value_on_a_tensor_not_saved_for_backward_is_fine() -> None:
    x, y = leaf([1.0]), leaf([2.0])
    loss = phi.add(x, y)  # add_grad reads only the shapes of x and y
    y.set_value([5.0])
    loss.backward()
    assert x.grad.numpy().tolist() == [1.0]


def test_hook_on_a_leaf_replaces_its_gradient() -> None:
    x = leaf([1.0, 2.0])
    seen = []
    x.register_hook(lambda g: seen.append(g.numpy().tolist()))
    x.register_hook(lambda g: phi.scale(g, 10.0))
    phi.sum(x).backward()
    assert seen == [[1.0, 1.0]]
    assert x.grad.numpy().tolist() == [10.0, 10.0]


def test_hook_on_an_intermediate_tensor_changes_what_flows_on() -> None:
    x = leaf([1.0])
    y = phi.scale(x, 3.0)
    y.register_hook(lambda g: phi.scale(g, 2.0))
    phi.sum(y).backward()
    assert x.grad.numpy().tolist() == [6.0]


def test_removed_hook_is_not_called() -> None:
    x = leaf([1.0])
    handle = x.register_hook(lambda g: phi.scale(g, 2.0))
    assert handle.remove()
    phi.sum(x).backward()
    assert x.grad.numpy().tolist() == [1.0]


def test_hook_on_a_stop_gradient_tensor_is_an_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match="register_hook: the tensor has stop_gradient=True"
    ):
        phi.to_tensor([1.0]).register_hook(lambda g: g)


def test_grad_does_not_touch_dot_grad() -> None:
    x = leaf([3.0])
    (dx,) = phi.grad(phi.multiply(x, x), x)
    assert dx.numpy().tolist() == [6.0] and x.grad is None and dx.stop_gradient


def test_grad_with_grad_outputs() -> None:
    x = leaf([1.0, 2.0])
    (dx,) = phi.grad(phi.scale(x, 2.0), x, grad_outputs=phi.to_tensor([1.0, 3.0], dtype="float64"))
    assert dx.numpy().tolist() == [2.0, 6.0]


def test_grad_of_an_unused_input_is_an_error_unless_allowed() -> None:
    x, unused = leaf([1.0]), leaf([1.0])
    with pytest.raises(
        InvalidArgumentError, match=r"grad: inputs\[1\] is not used to compute the outputs"
    ):
        phi.grad(phi.exp(x), [x, unused])
    dx, none = phi.grad(phi.exp(x), [x, unused], allow_unused=True)
    assert none is None and dx.numpy().tolist() == pytest.approx([np.e])


def test_grad_of_an_intermediate_tensor() -> None:
    x = leaf([1.0])
    y = phi.scale(x, 3.0)
    (dy,) = phi.grad(phi.multiply(y, y), y)
    assert dy.numpy().tolist() == [6.0]


def test_second_derivative_with_create_graph() -> None:
    x = leaf([0.5, -1.0])
    (dx,) = phi.grad(phi.sum(phi.tanh(x)), x, create_graph=True)
    assert not dx.stop_gradient
    (ddx,) = phi.grad(phi.sum(dx), x)
    t = np.tanh([0.5, -1.0])
    np.testing.assert_allclose(ddx.numpy(), -2 * t * (1 - t**2))


def test_unused_output_of_a_multi_output_op_gets_a_zero_gradient() -> None:
    x = leaf(np.arange(4.0))
    first, second = phi.split(x, [2, 2], 0)
    phi.sum(phi.square(first)).backward()
    assert x.grad.numpy().tolist() == [0.0, 2.0, 0.0, 0.0]


def test_saved_tensors_are_released_after_backward() -> None:
    x = leaf(np.ones(1000))
    loss = phi.sum(phi.exp(x))
    exp_node = loss._grad_node[0].edges[0][0]
    saved = weakref.ref(exp_node.saved[0].impl.array)
    assert saved() is not None
    loss.backward()
    assert exp_node.saved == []
    assert saved() is None


def test_no_need_buffer_inputs_are_saved_by_shape_only() -> None:
    x = leaf(np.ones((100, 100)))
    loss = phi.sum(x)  # sum_grad: no_need_buffer x
    (wrapper,) = [
        w for w in loss._grad_node[0].saved if w is not None and not isinstance(w, (bool, tuple))
    ]
    array = wrapper.impl.array
    assert array.shape == (100, 100) and array.strides == (0, 0)
    assert array.base is None or array.base.size == 1


def test_higher_order_gradient_through_an_op_without_double_grad_is_an_error() -> None:
    from phiops.runtime.errors import UnimplementedError

    x = leaf([0.5, 1.0])
    (dx,) = phi.grad(phi.sum(phi.atan(x)), x, create_graph=True)  # atan_grad has no backward op
    assert not dx.stop_gradient
    with pytest.raises(
        UnimplementedError,
        match="higher-order gradient through 'atan': its backward op 'atan_grad' has no backward op",
    ):
        phi.grad(phi.sum(dx), x)


def test_a_gradient_into_an_output_the_backward_op_ignores_is_an_error() -> None:
    from phiops.runtime.errors import UnimplementedError

    logits = leaf(np.zeros((2, 3)))
    softmax, loss = phi.cross_entropy_with_softmax(logits, phi.to_tensor(np.array([[0], [1]])))
    with pytest.raises(
        UnimplementedError, match="a gradient reached output 0 of 'cross_entropy_with_softmax'"
    ):
        phi.add(phi.sum(softmax), phi.sum(loss)).backward()


def test_an_inplace_op_bumps_the_version_and_breaks_a_backward_that_saved_its_input() -> None:
    w = phi.to_tensor(np.array([1.0, 2.0], np.float32), stop_gradient=False)
    loss = phi.sum(phi.multiply(w, w))  # multiply_grad saves w
    with phi.no_grad():
        phi.sgd_(
            w,
            phi.to_tensor(np.array([0.1], np.float32)),
            phi.to_tensor(np.ones(2, np.float32)),
            None,
        )
    assert w._impl._version == 1
    with pytest.raises(
        PreconditionNotMetError,
        match="backward of 'multiply': its saved tensor 'input 0' was modified in place",
    ):
        loss.backward()
