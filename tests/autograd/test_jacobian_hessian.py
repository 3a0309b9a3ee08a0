"""paddle.autograd.jacobian and hessian (runtime/autograd/functional.py) against analytic
derivatives computed with numpy; shapes, lazy row evaluation and errors as PaddlePaddle 3.3.1's
(its results for the same calls were compared when this was written: equal values, and its
ValueError/IndexError where phiops raises InvalidArgumentError/OutOfRangeError, subclasses of
those)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError

X = np.array([1.0, 2.0, 3.0])
Y = np.array([0.5, -1.0])


def _inputs():
    x = paddle.to_tensor(X, stop_gradient=False)
    y = paddle.to_tensor(Y, stop_gradient=False)
    return x, y


def _f(x, y):
    return paddle.concat([x * x * y[0], paddle.sin(x).sum(keepdim=True) * y[1]])


def _df_dx() -> np.ndarray:
    return np.vstack([np.diag(2 * X * Y[0]), np.cos(X) * Y[1]])


def _df_dy() -> np.ndarray:
    out = np.zeros((4, 2))
    out[:3, 0] = X * X
    out[3, 1] = np.sin(X).sum()
    return out


def test_jacobian_values_rows_and_blocks() -> None:
    x, y = _inputs()
    jac = paddle.autograd.jacobian(_f(x, y), x)
    assert jac.shape == [4, 3]
    assert not jac._cache  # nothing evaluated before indexing
    np.testing.assert_allclose(jac[1].numpy(), _df_dx()[1])
    assert sorted(jac._cache) == [1]
    np.testing.assert_allclose(jac[:, 2].numpy(), _df_dx()[:, 2])
    np.testing.assert_allclose(jac[1:3, 0:2].numpy(), _df_dx()[1:3, 0:2])
    np.testing.assert_allclose(jac[-1].numpy(), _df_dx()[-1])
    np.testing.assert_allclose(jac[:].numpy(), _df_dx())
    np.testing.assert_allclose(jac.numpy(), _df_dx())  # any Tensor attribute: the whole matrix
    np.testing.assert_allclose((jac * 2).numpy(), 2 * _df_dx())
    np.testing.assert_allclose((jac + jac)[0].numpy(), 2 * _df_dx()[0])


def test_tuples_give_nested_tuples() -> None:
    x, y = _inputs()
    jx, jy = paddle.autograd.jacobian(_f(x, y), (x, y))
    assert (jx.shape, jy.shape) == ([4, 3], [4, 2])
    np.testing.assert_allclose(jy[:].numpy(), _df_dy())
    out = _f(x, y)
    nested = paddle.autograd.jacobian((out, out * 2), [x, y])
    assert [[j.shape for j in row] for row in nested] == [[[4, 3], [4, 2]], [[4, 3], [4, 2]]]
    np.testing.assert_allclose(nested[1][0][:].numpy(), 2 * _df_dx())


def test_zero_d_operands() -> None:
    s = paddle.to_tensor(2.0, dtype="float64", stop_gradient=False)
    x, _ = _inputs()
    scalar = paddle.autograd.jacobian(s * s, s)
    assert scalar.shape == [] and float(scalar.numpy()) == 4.0
    with pytest.raises(OutOfRangeError, match="0-D Jacobian cannot be indexed"):
        scalar[0]
    column = paddle.autograd.jacobian(s * x, s)
    assert column.shape == [3]
    np.testing.assert_allclose(column[:].numpy(), X)
    row = paddle.autograd.jacobian((x * x).sum(), x)
    assert row.shape == [3]
    np.testing.assert_allclose(row[:].numpy(), 2 * X)


def test_batched_jacobian() -> None:
    data = np.arange(6.0).reshape(2, 3) / 3
    xb = paddle.to_tensor(data, stop_gradient=False)
    jac = paddle.autograd.jacobian(paddle.tanh(xb) * xb, xb, batch_axis=0)
    assert jac.shape == [2, 3, 3]
    derivative = np.tanh(data) + data * (1 - np.tanh(data) ** 2)
    expected = np.stack([np.diag(row) for row in derivative])
    np.testing.assert_allclose(jac[:].numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(jac[:, 1].numpy(), expected[:, 1], rtol=1e-12)


def test_hessian() -> None:
    x, y = _inputs()
    z = (x * x).sum() * y[0] + x[0] * x[1] * y[1]
    hess = paddle.autograd.hessian(z, x)
    assert type(hess).__name__ == "Hessian" and hess.shape == [3, 3]
    expected = 2 * Y[0] * np.eye(3)
    expected[0, 1] = expected[1, 0] = Y[1]
    np.testing.assert_allclose(hess[:].numpy(), expected)
    blocks = paddle.autograd.hessian(z, (x, y))
    assert [[h.shape for h in row] for row in blocks] == [[[3, 3], [3, 2]], [[2, 3], [2, 2]]]
    cross = np.zeros((3, 2))
    cross[:, 0] = 2 * X
    cross[0, 1], cross[1, 1] = X[1], X[0]
    np.testing.assert_allclose(blocks[0][1][:].numpy(), cross)
    np.testing.assert_allclose(blocks[1][0][:].numpy(), cross.T)
    np.testing.assert_allclose(blocks[1][1][:].numpy(), np.zeros((2, 2)))
    xb = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    batched = paddle.autograd.hessian((xb * xb * xb).sum(axis=1), xb, batch_axis=0)
    assert batched.shape == [2, 3, 3]
    expected = np.stack([np.diag(6 * row) for row in np.arange(6.0).reshape(2, 3)])
    np.testing.assert_allclose(batched[:].numpy(), expected)


def test_named_errors() -> None:
    x, _ = _inputs()
    matrix = paddle.to_tensor(np.ones((2, 3)), stop_gradient=False)
    with pytest.raises(InvalidArgumentError, match="xs.ndim should be 0 or 1"):
        paddle.autograd.jacobian(matrix * 2, matrix)
    with pytest.raises(InvalidArgumentError, match="batch_axis should be None or 0, got 1"):
        paddle.autograd.jacobian(x, x, batch_axis=1)
    with pytest.raises(InvalidArgumentError, match="ys must hold one element"):
        paddle.autograd.hessian(x * 2, x)
    with pytest.raises(InvalidArgumentError, match=r"xs\[1\] must be a Tensor"):
        paddle.autograd.jacobian(x * 2, (x, 3.0))
    jac = paddle.autograd.jacobian(x * 2, x)
    with pytest.raises(OutOfRangeError, match="Ellipsis"):
        jac[..., 0]
    with pytest.raises(OutOfRangeError, match="index 5 is out of range"):
        jac[5]
