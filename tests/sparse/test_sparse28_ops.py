"""Issue 28: the sparse binary ops, products, shape ops, softmax and conversions are generated
from PaddlePaddle 3.3.1's sparse_ops.yaml entries. Each case of sparse28_cases.py runs through
the generated function (the kernel its inputs' kinds select) and equals numpy on the dense
inputs; one gradient per op, through the generated backward op, equals a central difference
along a random direction (float64, small shapes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import phiops as paddle
import phiops.sparse  # noqa: F401  (loads the generated sparse API)
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.sparse.registry import sparse_op_api, sparse_op_def

from tests.sparse.sparse28_cases import ARRAYS, CASES, Case, reference_of

EPS = 1e-6


def _tensor(spec: Any, grad: bool = False, values: np.ndarray | None = None) -> Any:
    """The argument ``spec`` names (``coo:A``...), its stored values replaced by ``values``."""
    if not isinstance(spec, str):
        return spec
    kind, name = spec.split(":")
    array = ARRAYS[name]
    tensor = paddle.to_tensor(array)
    if kind == "coo":
        tensor = tensor.to_sparse_coo(array.ndim)
    elif kind == "csr":
        tensor = tensor.to_sparse_csr()
    if values is not None:
        tensor = _with_values(tensor, values)
    tensor.stop_gradient = not grad
    return tensor


def _with_values(x: Any, values: np.ndarray) -> Any:
    if x.is_sparse_coo():
        return paddle.sparse.sparse_coo_tensor(x.indices(), paddle.to_tensor(values), x.shape)
    if x.is_sparse_csr():
        return paddle.sparse.sparse_csr_tensor(
            x.crows(), x.cols(), paddle.to_tensor(values), x.shape
        )
    return paddle.to_tensor(values.reshape(x.shape))


def _stored(x: Any) -> np.ndarray:
    return x.values().numpy() if x.is_sparse() else x.numpy().reshape(-1)


def _dense(out: Any) -> np.ndarray:
    return out.to_dense().numpy() if out.is_sparse() else out.numpy()


def _kind(out: Any) -> str:
    return "coo" if out.is_sparse_coo() else "csr" if out.is_sparse_csr() else "dense"


CALLS = [(name, i) for name, cases in CASES.items() for i in range(len(cases))]


@pytest.mark.parametrize("name, index", CALLS, ids=[f"{n}-{i}" for n, i in CALLS])
def test_generated_op_equals_numpy(name, index):
    case = CASES[name][index]
    out = sparse_op_api(name)(*[_tensor(a) for a in case.args])
    assert _kind(out) == case.out_kind
    np.testing.assert_allclose(_dense(out), reference_of(case), rtol=1e-12, atol=1e-12)


def _objective(name: str, case: Case, args: list[Any], weights: np.ndarray) -> float:
    return float((_dense(sparse_op_api(name)(*args)) * weights).sum())


GRADS = sorted(name for name, cases in CASES.items() if cases[-1].grads)


@pytest.mark.parametrize("name", GRADS)
def test_generated_backward_gives_the_numeric_gradient(name):
    """sum(weights * dense(out)) differentiated by each differentiable input's stored values,
    by the generated backward op, against a central difference along a random direction of
    those values (one case per op: its last)."""
    case = CASES[name][-1]
    args = [_tensor(a, grad=i in case.grads) for i, a in enumerate(case.args)]
    out = sparse_op_api(name)(*args)
    weights = np.linspace(0.5, 1.5, int(np.prod(out.shape))).reshape(out.shape)
    dense = out.to_dense() if out.is_sparse() else out
    (dense * paddle.to_tensor(weights)).sum().backward()
    rng = np.random.default_rng(28)
    for position in case.grads:
        base = _stored(args[position])
        direction = rng.uniform(-1.0, 1.0, base.shape)
        sides = []
        for sign in (1, -1):
            changed = list(args)
            changed[position] = _tensor(case.args[position], values=base + sign * EPS * direction)
            sides.append(_objective(name, case, changed, weights))
        numeric = (sides[0] - sides[1]) / (2 * EPS)
        analytic = float((_stored(args[position].grad) * direction).sum())
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_add_coo_dense_adds_a_bias_to_each_stored_row():
    x = paddle.to_tensor(A3 := np.array([[[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [3.0, -1.0]]]))
    x = x.to_sparse_coo(2)
    bias = paddle.to_tensor(np.array([0.5, -0.5]), stop_gradient=False)
    x.stop_gradient = False
    out = sparse_op_api("add")(x, bias)
    assert out.is_sparse_coo() and out.nnz() == 2
    stored = (A3 != 0).any(-1, keepdims=True)
    np.testing.assert_allclose(out.to_dense().numpy(), np.where(stored, A3 + [0.5, -0.5], 0.0))
    out.backward(
        paddle.sparse.sparse_coo_tensor(
            out.indices(), paddle.ones([2, 2], dtype="float64"), [2, 2, 2]
        )
    )
    np.testing.assert_allclose(bias.grad.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(x.grad.values().numpy(), np.ones((2, 2)))


def test_add_coo_dense_refuses_other_than_a_bias():
    x = paddle.to_tensor(ARRAYS["A"]).to_sparse_coo(2)
    with pytest.raises(UnimplementedError, match="add\\(\\): a sparse COO 'x'"):
        sparse_op_api("add")(x, paddle.to_tensor(ARRAYS["B"]))


def test_generated_binary_op_refuses_mismatched_sparse_dims():
    x = paddle.to_tensor(ARRAYS["A"]).to_sparse_coo(2)
    y = paddle.to_tensor(ARRAYS["B"]).to_sparse_coo(1)
    with pytest.raises(InvalidArgumentError, match="multiply\\(\\).*same sparse_dim"):
        sparse_op_api("multiply")(x, y)


def test_generated_binary_op_names_the_kernels_it_has():
    x = paddle.to_tensor(ARRAYS["A"]).to_sparse_coo(2)
    y = paddle.to_tensor(ARRAYS["B"]).to_sparse_csr()
    with pytest.raises(InvalidArgumentError, match="no kernel of sparse op 'divide' takes"):
        sparse_op_api("divide")(x, y)
    assert sparse_op_def("divide").backward == "divide_grad"
