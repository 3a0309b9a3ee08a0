"""paddle.autograd.saved_tensors_hooks (runtime/autograd/saved_hooks.py): which tensors are
packed and unpacked (as PaddlePaddle 3.3.1 packs them on the same code: the inputs and outputs
the backward ops read, not a no_need_buffer input such as sum's x), gradients through packed
copies, nesting, double grad, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError


def _leaves():
    a = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
    b = paddle.to_tensor(np.full((2, 3), 2.0, "float32"), stop_gradient=False)
    return a, b


def _program(a, b):
    y = paddle.multiply(a, b)
    z = paddle.tanh(y)
    w = paddle.matmul(z, b, transpose_y=True)
    return paddle.sum(w)


# PaddlePaddle 3.3.1 on the same program packed five [2, 3] float32 tensors that need
# gradients (multiply's x and y, tanh's out, matmul's x and y) and unpacked five in backward
PADDLE_PACKED = [((2, 3), "float32", False)] * 5
# and gave these gradients
PADDLE_A_GRAD = [[8.0, 0.5652065277099609, 0.010728836059570312], [0.000194549560546875, 0.0, 0.0]]
PADDLE_B_GRAD = [
    [0.9999878406524658, 2.246630907058716, 2.0100579261779785],
    [1.0002796649932861, 1.9640276432037354, 1.9993292093276978],
]


def test_packs_what_paddle_packs_and_gives_its_gradients() -> None:
    packed, unpacked = [], []

    def pack(x):
        packed.append((tuple(x.shape), str(x.dtype).split(".")[-1], x.stop_gradient))
        return x.numpy()

    def unpack(array):
        unpacked.append(array.shape)
        return paddle.to_tensor(array)

    a, b = _leaves()
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        s = _program(a, b)
    assert packed == PADDLE_PACKED and unpacked == []
    s.backward()
    assert unpacked == [(2, 3)] * 5
    np.testing.assert_allclose(a.grad.numpy(), PADDLE_A_GRAD, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), PADDLE_B_GRAD, rtol=1e-5, atol=1e-5)


def test_gradients_equal_those_without_hooks() -> None:
    a, b = _leaves()
    _program(a, b).backward()
    plain = a.grad.numpy(), b.grad.numpy()
    a, b = _leaves()
    with paddle.autograd.saved_tensors_hooks(lambda t: t.numpy().copy(), paddle.to_tensor):
        s = _program(a, b)
    s.backward()
    np.testing.assert_array_equal(a.grad.numpy(), plain[0])
    np.testing.assert_array_equal(b.grad.numpy(), plain[1])


def test_a_packed_copy_survives_an_in_place_change_of_the_saved_tensor() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    h = x * 1.0
    with paddle.autograd.saved_tensors_hooks(lambda t: t.numpy().copy(), paddle.to_tensor):
        y = paddle.exp(h)  # saves its output
    with paddle.no_grad():
        y.scale_(0.0)  # changes the saved output in place: without hooks, backward refuses
    paddle.sum(y).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    x2 = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y2 = paddle.exp(x2 * 1.0)
    with paddle.no_grad():
        y2.scale_(0.0)
    with pytest.raises(Exception, match="modified in place"):
        paddle.sum(y2).backward()


def test_hooks_apply_only_inside_the_block_and_nest() -> None:
    calls = []

    def tagging(tag):
        return lambda t: (calls.append(tag), t)[1], lambda t: t

    a, b = _leaves()
    with paddle.autograd.saved_tensors_hooks(*tagging("outer")):
        paddle.multiply(a, b)
        with paddle.autograd.saved_tensors_hooks(*tagging("inner")):
            paddle.multiply(a, b)
        paddle.multiply(a, b)
    paddle.multiply(a, b)
    assert calls == ["outer"] * 2 + ["inner"] * 2 + ["outer"] * 2


def test_double_grad_through_unpacked_tensors() -> None:
    x = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = paddle.sum(paddle.tanh(x) * x)
    (gx,) = paddle.grad(y, x, create_graph=True)
    (ggx,) = paddle.grad(paddle.sum(gx), x)
    t = np.tanh([0.5, -1.0])
    s = 1 - t**2
    np.testing.assert_allclose(gx.numpy(), t + np.array([0.5, -1.0]) * s, rtol=1e-6)
    np.testing.assert_allclose(ggx.numpy(), 2 * s - 2 * np.array([0.5, -1.0]) * t * s, rtol=1e-5)


def test_errors_name_the_hook() -> None:
    with pytest.raises(InvalidArgumentError, match="'pack_hook' must be callable"):
        paddle.autograd.saved_tensors_hooks(1, lambda t: t)
    with pytest.raises(InvalidArgumentError, match="'unpack_hook' must be callable"):
        paddle.autograd.saved_tensors_hooks(lambda t: t, None)
    a = paddle.to_tensor([1.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = paddle.exp(a)
    with pytest.raises(InvalidArgumentError, match="backward of 'exp'.*must return a Tensor.*int"):
        y.backward()
