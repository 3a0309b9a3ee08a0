"""paddle.autograd.PyLayer (runtime/autograd/py_layer.py) and paddle.autograd.backward.

What PaddlePaddle 3.3.1 does was read off its own PyLayer with the same layers (forward under
no_grad, outputs needing gradients, zeros for non-differentiable and unreached outputs, None
returned for an input that needs a gradient leaves it without one, a backward returning too few
gradients is an error, create_graph differentiates the backward again); the expected values here
are numpy's derivatives. Where 3.3.1 checks nothing (a gradient of another shape), phiops names
the mistake.
"""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.autograd import Function, PyLayer, PyLayerContext
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError

SEEN: dict[str, object] = {}


class ScaledTanh(PyLayer):
    @staticmethod
    def forward(ctx: PyLayerContext, x, scale=1.0):
        SEEN["grad enabled in forward"] = paddle.is_grad_enabled()
        y = paddle.tanh(x) * scale
        SEEN["forward result needs grad"] = not y.stop_gradient
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx: PyLayerContext, dy):
        SEEN["grad enabled in backward"] = paddle.is_grad_enabled()
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y / ctx.scale)) * ctx.scale


def test_forward_runs_without_grad_and_backward_gives_the_derivative() -> None:
    values = np.array([0.5, -1.0, 2.0], np.float32)
    x = paddle.to_tensor(values, stop_gradient=False)
    y = ScaledTanh.apply(x, scale=2.0)
    assert not y.stop_gradient
    assert SEEN["grad enabled in forward"] is False
    assert SEEN["forward result needs grad"] is False
    np.testing.assert_allclose(y.numpy(), 2 * np.tanh(values), rtol=1e-6)
    (y * y).sum().backward()
    assert SEEN["grad enabled in backward"] is False
    expected = 2 * y.numpy() * 2 * (1 - np.tanh(values) ** 2)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5)
    assert Function is PyLayer


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensor()
        return g * 3 * x * x


def test_create_graph_differentiates_the_backward_again() -> None:
    x = paddle.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    (first,) = paddle.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert not first.stop_gradient
    np.testing.assert_allclose(first.numpy(), 3 * np.array([0.5, 1.5]) ** 2)
    (second,) = paddle.grad(first.sum(), x)
    np.testing.assert_allclose(second.numpy(), 6 * np.array([0.5, 1.5]))


class TwoOutputs(PyLayer):
    @staticmethod
    def forward(ctx, a, b, materialize=True, freeze=False):
        ctx.set_materialize_grads(materialize)
        q = b + 1
        if freeze:
            ctx.mark_non_differentiable(q)
        return a * 2, q, "not a tensor"

    @staticmethod
    def backward(ctx, ga, gb):
        SEEN["gb"] = None if gb is None else gb.numpy().tolist()
        return ga * 2, gb


def test_unreached_and_non_differentiable_outputs_get_zeros_or_none() -> None:
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    p, q, text = TwoOutputs.apply(a, b)
    assert text == "not a tensor" and not p.stop_gradient and not q.stop_gradient
    p.sum().backward()
    assert SEEN["gb"] == [0.0, 0.0]
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(b.grad.numpy(), [0.0, 0.0])

    a, b = (paddle.to_tensor([1.0, 2.0], stop_gradient=False) for _ in range(2))
    p, q, _ = TwoOutputs.apply(a, b, materialize=False)
    p.sum().backward()
    assert SEEN["gb"] is None and b.grad is None  # None returned: nothing flows to b

    a, b = (paddle.to_tensor([1.0, 2.0], stop_gradient=False) for _ in range(2))
    p, q, _ = TwoOutputs.apply(a, b, freeze=True)
    assert q.stop_gradient
    (p + q).sum().backward()
    assert SEEN["gb"] == [0.0, 0.0]  # q is non-differentiable: zeros, as in 3.3.1
    np.testing.assert_array_equal(b.grad.numpy(), [0.0, 0.0])


def test_no_input_needing_a_gradient_records_nothing() -> None:
    x = paddle.to_tensor([1.0, 2.0])
    y = Cube.apply(x)
    assert y.stop_gradient and y._grad_node is None
    with paddle.no_grad():
        z = Cube.apply(paddle.to_tensor([1.0], stop_gradient=False))
    assert z.stop_gradient


class Identity(PyLayer):
    @staticmethod
    def forward(ctx, x, *, other=None):
        return x if other is None else x + other

    @staticmethod
    def backward(ctx, g):
        return (g, g) if SEEN.get("two") else g


def test_an_input_returned_as_it_is_and_keyword_tensors() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = Identity.apply(x)
    assert y is not x and x._grad_node is not y._grad_node
    (y * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    SEEN["two"] = True
    try:
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        other = paddle.to_tensor([5.0, 5.0], stop_gradient=False)
        Identity.apply(x, other=other).sum().backward()
        np.testing.assert_array_equal(other.grad.numpy(), [1.0, 1.0])
    finally:
        SEEN["two"] = False


class Returns(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, g):
        return SEEN["returns"]


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (lambda g: g, r"Returns\.backward returned 1 gradient, but forward took 2 Tensor"),
        (lambda g: (g, g, g), r"returned 3 gradients, but forward took 2"),
        (lambda g: (paddle.ones([5]), g), r"gradient of shape \[5\] at position 0, but .* \[2\]"),
        (lambda g: (g.numpy(), g), r"returned a ndarray at position 0; gradients are Tensors"),
    ],
)
def test_a_wrong_backward_result_is_a_named_error(returned, message: str) -> None:
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = Returns.apply(a, b)
    SEEN["returns"] = returned(paddle.ones([2]))
    with pytest.raises(InvalidArgumentError, match=message):
        out.sum().backward()


def test_a_gradient_of_another_dtype_is_cast_unless_asked_not_to() -> None:
    class Wide(PyLayer):
        @staticmethod
        def forward(ctx, x, strict):
            ctx.set_grad_in_dtype_consistent(not strict)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.astype("float64") * 2

    x = paddle.to_tensor([1.0], stop_gradient=False)
    Wide.apply(x, False).sum().backward()
    assert x.grad.dtype == paddle.float32 and x.grad.numpy().tolist() == [2.0]
    x = paddle.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(InvalidArgumentError, match="float64 gradient at position 0"):
        Wide.apply(x, True).sum().backward()


def test_the_graph_is_freed_unless_retained() -> None:
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = Cube.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [24.0])
    with pytest.raises(PreconditionNotMetError, match="Cube.backward runs a second time"):
        y.backward()


def test_a_subclass_without_forward_or_backward_and_bad_context_use() -> None:
    class Half(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

    with pytest.raises(InvalidArgumentError, match="must define both forward and backward"):
        Half.apply(paddle.to_tensor([1.0]))
    ctx = PyLayerContext()
    with pytest.raises(InvalidArgumentError, match="save_for_backward: argument 0 must be"):
        ctx.save_for_backward(np.ones(2))
    with pytest.raises(InvalidArgumentError, match="set_materialize_grads: value must be a bool"):
        ctx.set_materialize_grads(1)


def test_autograd_backward_of_several_tensors() -> None:
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.to_tensor([[3.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    z1, z2 = paddle.matmul(x, y), x + y
    seed = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    paddle.autograd.backward([z1, z2], [seed, None])
    expected = seed.numpy() @ y.numpy().T + np.ones((2, 2))
    np.testing.assert_allclose(x.grad.numpy(), expected)
    np.testing.assert_allclose(y.grad.numpy(), x.numpy().T @ seed.numpy() + np.ones((2, 2)))
    with pytest.raises(InvalidArgumentError, match="tensors holds the same Tensor twice"):
        paddle.autograd.backward([z1, z1])
    with pytest.raises(InvalidArgumentError, match="1 grad_tensors for 2 tensors"):
        paddle.autograd.backward([z1, z2], [seed])
    with pytest.raises(InvalidArgumentError, match=r"tensors\[1\] must be a Tensor"):
        paddle.autograd.backward([z1, 3.0])
    with pytest.raises(InvalidArgumentError, match="retain_graph must be a bool"):
        paddle.autograd.backward(z1, None, retain_graph=1)
