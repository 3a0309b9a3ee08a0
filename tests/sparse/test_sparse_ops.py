"""phiops.sparse against numpy: each op's result made dense equals the numpy op on the dense
input, and its gradient equals central differences of ``sum(weights * dense result)`` with
respect to the input's stored values (float64, small shapes)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops as paddle
import phiops.sparse as sparse

from tests.sparse.sparse_cases import A, B, BATCHED, POSITIVE

F = sparse.nn.functional

ZERO_KEEPING = {
    "abs": np.abs,
    "sin": np.sin,
    "tan": np.tan,
    "asin": np.arcsin,
    "atan": np.arctan,
    "sinh": np.sinh,
    "tanh": np.tanh,
    "asinh": np.arcsinh,
    "atanh": np.arctanh,
    "sqrt": np.sqrt,
    "square": np.square,
    "log1p": np.log1p,
    "expm1": np.expm1,
    "neg": np.negative,
    "deg2rad": np.deg2rad,
    "rad2deg": np.rad2deg,
}


def _sparse(array: np.ndarray, kind: str, grad: bool = False) -> Any:
    tensor = paddle.to_tensor(array)
    tensor = tensor.to_sparse_coo(array.ndim) if kind == "coo" else tensor.to_sparse_csr()
    tensor.stop_gradient = not grad
    return tensor


def _with_values(x: Any, values: np.ndarray) -> Any:
    if x.is_sparse_coo():
        return sparse.sparse_coo_tensor(x.indices(), paddle.to_tensor(values), x.shape)
    return sparse.sparse_csr_tensor(x.crows(), x.cols(), paddle.to_tensor(values), x.shape)


def _dense(out: Any) -> np.ndarray:
    return out.to_dense().numpy() if out.is_sparse() else out.numpy()


def _check_grad(x: Any, op: Callable[[Any], Any], eps: float = 1e-6) -> None:
    """x.grad's values (from sum(weights * op(x)) made dense) against central differences."""
    x.stop_gradient = False
    out = op(x)
    weights = np.linspace(0.5, 1.5, int(np.prod(out.shape))).reshape(out.shape)
    dense = out.to_dense() if out.is_sparse() else out
    (dense * paddle.to_tensor(weights)).sum().backward()
    analytic = x.grad.values().numpy()
    base = x.values().numpy().copy()
    numeric = np.zeros_like(base)
    for i in range(base.size):
        for sign in (1, -1):
            moved = base.copy()
            moved.flat[i] += sign * eps
            numeric.flat[i] += sign * float((_dense(op(_with_values(x, moved))) * weights).sum())
    np.testing.assert_allclose(analytic, numeric / (2 * eps), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kind", ["coo", "csr"])
@pytest.mark.parametrize("name", sorted(ZERO_KEEPING))
def test_unary_equals_dense(name, kind):
    source = POSITIVE if name in ("asin", "atanh", "sqrt", "log1p") else A
    out = getattr(sparse, name)(_sparse(source, kind))
    assert out.is_sparse_coo() == (kind == "coo")
    np.testing.assert_allclose(_dense(out), ZERO_KEEPING[name](source), rtol=1e-12)


@pytest.mark.parametrize("name", ["sin", "tanh", "sqrt", "atanh", "expm1", "abs", "deg2rad"])
def test_unary_gradient(name):
    _check_grad(_sparse(POSITIVE, "coo"), getattr(sparse, name))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_activations_and_pow(kind):
    x = _sparse(A, kind)
    np.testing.assert_allclose(_dense(F.relu(x)), np.maximum(A, 0))
    np.testing.assert_allclose(_dense(F.relu6(x)), np.clip(A, 0, 6))
    np.testing.assert_allclose(_dense(F.leaky_relu(x, 0.3)), np.where(A > 0, A, 0.3 * A))
    np.testing.assert_allclose(_dense(sparse.pow(_sparse(POSITIVE, kind), 3.0)), POSITIVE**3)
    np.testing.assert_allclose(_dense(sparse.nn.ReLU()(x)), np.maximum(A, 0))
    _check_grad(_sparse(POSITIVE, kind), lambda t: sparse.pow(t, 2.5))
    _check_grad(_sparse(A, kind), lambda t: F.leaky_relu(t, 0.3))


def _row_softmax(dense: np.ndarray) -> np.ndarray:
    stored = dense != 0
    shifted = np.where(stored, dense, -np.inf)
    exp = np.exp(shifted - shifted.max(axis=-1, keepdims=True))
    exp = np.where(stored, exp, 0.0)
    return exp / np.where(stored.any(axis=-1, keepdims=True), exp.sum(axis=-1, keepdims=True), 1)


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_softmax_over_each_rows_entries(kind):
    out = F.softmax(_sparse(BATCHED, kind))
    np.testing.assert_allclose(_dense(out), _row_softmax(BATCHED), rtol=1e-12)
    np.testing.assert_allclose(_dense(sparse.nn.Softmax()(_sparse(A, kind))), _row_softmax(A))
    _check_grad(_sparse(A, kind), F.softmax)


@pytest.mark.parametrize("kind", ["coo", "csr"])
@pytest.mark.parametrize(
    "name, reference",
    [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply)],
)
def test_binary_equals_dense(name, reference, kind):
    x, y = _sparse(A, kind), _sparse(B, kind)
    out = getattr(sparse, name)(x, y)
    np.testing.assert_allclose(_dense(out), reference(A, B))
    _check_grad(_sparse(A, kind), lambda t: getattr(sparse, name)(t, _sparse(B, kind)))
    _check_grad(_sparse(B, kind), lambda t: getattr(sparse, name)(_sparse(A, kind), t))


def test_divide_at_every_position():
    x, y = _sparse(A, "coo"), _sparse(POSITIVE + 1.0, "coo")
    out = sparse.divide(x, y)
    assert out.nnz() == A.size
    np.testing.assert_allclose(_dense(out), A / (POSITIVE + 1.0))
    _check_grad(_sparse(POSITIVE + 1.0, "coo"), lambda t: sparse.divide(_sparse(A, "coo"), t))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_matmul_sparse_dense(kind):
    y = paddle.to_tensor(B.T.copy(), stop_gradient=False)
    x = _sparse(A, kind, grad=True)
    out = sparse.matmul(x, y)
    assert not out.is_sparse()
    np.testing.assert_allclose(out.numpy(), A @ B.T)
    out.sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), A.T @ np.ones((3, 3)))
    _check_grad(_sparse(A, kind), lambda t: sparse.matmul(t, paddle.to_tensor(B.T.copy())))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_matmul_batched(kind):
    y = np.linspace(-1, 1, 2 * 4 * 5).reshape(2, 4, 5)
    out = sparse.matmul(_sparse(BATCHED, kind), paddle.to_tensor(y))
    np.testing.assert_allclose(out.numpy(), BATCHED @ y)
    _check_grad(_sparse(BATCHED, kind), lambda t: sparse.matmul(t, paddle.to_tensor(y)))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_matmul_sparse_sparse(kind):
    out = sparse.matmul(_sparse(A, kind), _sparse(B.T.copy(), kind))
    assert out.is_sparse_coo() == (kind == "coo")
    np.testing.assert_allclose(_dense(out), A @ B.T)
    _check_grad(_sparse(A, kind), lambda t: sparse.matmul(t, _sparse(B.T.copy(), kind)))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_masked_matmul(kind):
    x = paddle.to_tensor(A, stop_gradient=False)
    y = paddle.to_tensor(B.T.copy(), stop_gradient=False)
    mask_dense = (np.arange(9).reshape(3, 3) % 2 == 0).astype("float64")
    mask = _sparse(mask_dense, kind)
    out = sparse.masked_matmul(x, y, mask)
    np.testing.assert_allclose(_dense(out), (A @ B.T) * mask_dense)
    out.values().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), mask_dense @ B)
    np.testing.assert_allclose(y.grad.numpy(), A.T @ mask_dense)


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_addmm_and_mv(kind):
    base = paddle.to_tensor(np.ones((3, 3)), stop_gradient=False)
    out = sparse.addmm(base, _sparse(A, kind), paddle.to_tensor(B.T.copy()), beta=2.0, alpha=0.5)
    np.testing.assert_allclose(out.numpy(), 2.0 * np.ones((3, 3)) + 0.5 * (A @ B.T))
    out.sum().backward()
    np.testing.assert_allclose(base.grad.numpy(), np.full((3, 3), 2.0))
    both = sparse.addmm(
        _sparse(B @ B.T, kind), _sparse(A, kind), _sparse(B.T.copy(), kind), 2.0, 0.5
    )
    np.testing.assert_allclose(_dense(both), 2.0 * (B @ B.T) + 0.5 * (A @ B.T), atol=1e-12)
    vec = paddle.to_tensor(B[0].copy())
    np.testing.assert_allclose(sparse.mv(_sparse(A, kind), vec).numpy(), A @ B[0])
    _check_grad(_sparse(A, kind), lambda t: sparse.mv(t, vec))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_shape_ops_equal_dense(kind):
    x = _sparse(BATCHED, kind)
    np.testing.assert_allclose(_dense(sparse.transpose(x, [0, 2, 1])), BATCHED.transpose(0, 2, 1))
    np.testing.assert_allclose(_dense(sparse.reshape(x, [4, -1])), BATCHED.reshape(4, -1))
    np.testing.assert_allclose(
        _dense(sparse.sum(x, axis=-1, keepdim=True)), BATCHED.sum(-1, keepdims=True)
    )
    np.testing.assert_allclose(_dense(sparse.sum(x)).reshape(-1), [BATCHED.sum()])
    _check_grad(_sparse(BATCHED, kind), lambda t: sparse.transpose(t, [0, 2, 1]))
    _check_grad(_sparse(BATCHED, kind), lambda t: sparse.reshape(t, [4, -1]))
    _check_grad(_sparse(BATCHED, kind), lambda t: sparse.sum(t, axis=-1))


def test_coo_sum_over_leading_axes_and_slice():
    x = _sparse(BATCHED, "coo")
    np.testing.assert_allclose(_dense(sparse.sum(x, axis=[0, 1])), BATCHED.sum((0, 1)))
    np.testing.assert_allclose(
        _dense(sparse.sum(x, axis=1, dtype="float32")), BATCHED.sum(1), rtol=1e-6
    )
    np.testing.assert_allclose(
        _dense(sparse.slice(x, [0, 2], [1, -3], [2, 4])), BATCHED[1:2, :, 1:4]
    )
    _check_grad(_sparse(BATCHED, "coo"), lambda t: sparse.slice(t, [0, 2], [1, -3], [2, 4]))
    _check_grad(_sparse(BATCHED, "coo"), lambda t: sparse.sum(t, axis=0))


def test_mask_as_and_is_same_shape():
    mask = _sparse(B, "csr")
    x = paddle.to_tensor(A, stop_gradient=False)
    out = sparse.mask_as(x, mask)
    np.testing.assert_allclose(_dense(out), np.where(B != 0, A, 0.0))
    out.values().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), (B != 0).astype(float))
    assert sparse.is_same_shape(mask, x)
    assert not sparse.is_same_shape(mask, paddle.to_tensor(A.T.copy()))


@pytest.mark.parametrize("kind", ["coo", "csr"])
def test_matmul_without_scipy(kind, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "scipy.sparse", None)  # import scipy.sparse fails
    y = paddle.to_tensor(B.T.copy(), stop_gradient=False)
    out = sparse.matmul(_sparse(BATCHED[0], kind), y)
    np.testing.assert_allclose(out.numpy(), BATCHED[0] @ B.T)
    out.sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), BATCHED[0].T @ np.ones((3, 3)))
