"""Making sparse tensors, their parts and conversions, and the errors for bad input (each names
the op and the argument)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops.sparse as sparse
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

from tests.sparse.sparse_cases import A


def _coo():
    return sparse.sparse_coo_tensor([[0, 1, 1], [1, 0, 2]], [1.0, 2.0, 3.0], [2, 3])


def test_coo_parts_and_shape():
    x = _coo()
    assert x.is_sparse() and x.is_sparse_coo() and not x.is_sparse_csr() and not x.is_dense()
    assert x.shape == [2, 3] and x.dtype == paddle.float32 and x.nnz() == 3
    assert x.indices().numpy().tolist() == [[0, 1, 1], [1, 0, 2]]
    assert x.values().numpy().tolist() == [1.0, 2.0, 3.0]
    assert not x.is_coalesced() and x.coalesce().is_coalesced()
    np.testing.assert_array_equal(x.to_dense().numpy(), [[0, 1, 0], [2, 0, 3]])
    assert "indices=[[0, 1, 1]," in repr(x)


def test_coo_shape_is_inferred_and_ints_stay_int64():
    x = sparse.sparse_coo_tensor([[0, 3], [1, 1]], [1, 2])
    assert x.shape == [4, 2] and x.dtype == paddle.int64


def test_csr_parts_and_conversions():
    x = _coo().to_sparse_csr()
    assert x.is_sparse_csr()
    assert x.crows().numpy().tolist() == [0, 1, 3]
    assert x.cols().numpy().tolist() == [1, 0, 2]
    back = x.to_sparse_coo(2)
    assert back.indices().numpy().tolist() == [[0, 1, 1], [1, 0, 2]]
    made = sparse.sparse_csr_tensor([0, 1, 2], [0, 1], [1.0, 2.0])
    assert made.shape == [2, 2]
    batched = paddle.to_tensor(np.arange(12.0).reshape(2, 2, 3) % 3).to_sparse_csr()
    assert batched.crows().numpy().tolist() == [0, 2, 4, 0, 2, 4]


def test_to_sparse_coo_with_dense_dims():
    x = paddle.to_tensor(A).to_sparse_coo(1)
    assert x.indices().shape == [1, int((A != 0).any(axis=1).sum())]
    np.testing.assert_array_equal(x.to_dense().numpy(), A)


def test_coalesce_adds_repeats():
    x = sparse.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1.0, 2.0, 3.0], [2, 2])
    out = sparse.coalesce(x)
    assert out.indices().numpy().tolist() == [[0, 1], [1, 0]]
    assert out.values().numpy().tolist() == [2.0, 4.0]


def test_cast_indices_and_values():
    out = sparse.cast(_coo(), "int32", "float64")
    assert out.indices().dtype == paddle.int32 and out.dtype == paddle.float64


def test_isnan_keeps_the_pattern():
    x = sparse.sparse_coo_tensor([[0, 1]], [float("nan"), 1.0], [3])
    assert sparse.isnan(x).values().numpy().tolist() == [True, False]


def test_gradient_of_a_leaf_is_sparse_with_its_pattern():
    x = _coo()
    x.stop_gradient = False
    (sparse.sin(x).to_dense() * 2).sum().backward()
    assert x.grad.is_sparse_coo()
    assert x.grad.indices().numpy().tolist() == [[0, 1, 1], [1, 0, 2]]
    np.testing.assert_allclose(x.grad.values().numpy(), 2 * np.cos([1.0, 2.0, 3.0]), rtol=1e-6)


def test_gradient_reaches_the_values_it_was_made_from():
    values = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x = sparse.sparse_coo_tensor([[0, 1], [1, 0]], values, [2, 2], stop_gradient=False)
    (x.to_dense() * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert values.grad.numpy().tolist() == [2.0, 3.0]


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: sparse.sparse_coo_tensor([[[0]]], [1.0], [2]),
            "sparse_coo_tensor(): argument 'indices' must be 2-D",
        ),
        (
            lambda: sparse.sparse_coo_tensor([[0.5]], [1.0], [2]),
            "argument 'indices' must hold integers",
        ),
        (
            lambda: sparse.sparse_coo_tensor([[0, 5], [1, 1]], [1.0, 2.0], [2, 2]),
            "argument 'indices' is out of range",
        ),
        (
            lambda: sparse.sparse_coo_tensor([[0, -1]], [1.0, 2.0], [2]),
            "argument 'indices' is out of range",
        ),
        (
            lambda: sparse.sparse_coo_tensor([[0, 1]], [1.0], [2]),
            "argument 'values' must have one row per index",
        ),
        (lambda: sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0], [2, 3, 4]), "argument 'shape'"),
        (
            lambda: sparse.sparse_csr_tensor([0, 1], [0, 1], [1.0, 2.0], [2, 2]),
            "argument 'crows' must have 3 entries",
        ),
        (
            lambda: sparse.sparse_csr_tensor([0, 1, 2], [0, 7], [1.0, 2.0], [2, 2]),
            "argument 'cols' is out of range",
        ),
        (
            lambda: sparse.sparse_csr_tensor([0, 2, 1], [0, 1], [1.0, 2.0], [2, 2]),
            "sparse_csr_tensor(): argument 'crows'",
        ),
        (
            lambda: sparse.sparse_csr_tensor([0, 1, 2], [0], [1.0, 2.0], [2, 2]),
            "'cols' (1) and 'values' (2)",
        ),
    ],
)
def test_bad_creation_input(call, words):
    with pytest.raises(InvalidArgumentError) as error:
        call()
    assert words in str(error.value)


def _csr():
    return _coo().to_sparse_csr()


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: sparse.sin(paddle.to_tensor([1.0])),
            "sin(): argument 'x' must be a SparseCooTensor or SparseCsrTensor, got a DenseTensor",
        ),
        (
            lambda: sparse.add(_coo(), _csr()),
            "add(): arguments 'x' and 'y' must be sparse tensors of one kind",
        ),
        (
            lambda: sparse.add(_coo(), sparse.sparse_coo_tensor([[0]], [1.0], [3])),
            "add(): arguments 'x' and 'y' must have the same shape",
        ),
        (
            lambda: sparse.multiply(_coo(), sparse.cast(_coo(), None, "float64")),
            "multiply(): arguments 'x' and 'y' must have the same dtype",
        ),
        (
            lambda: sparse.matmul(_coo(), paddle.ones([2, 2])),
            "matmul(): arguments 'x' [2, 3] and 'y' [2, 2] cannot be multiplied",
        ),
        (
            lambda: sparse.matmul(_coo(), paddle.ones([3, 2], dtype="float64")),
            "matmul(): arguments 'x' and 'y' must have the same dtype",
        ),
        (
            lambda: sparse.masked_matmul(paddle.ones([2, 3]), paddle.ones([3, 2]), _csr()),
            "masked_matmul(): argument 'mask' must have the product's shape [2, 2]",
        ),
        (lambda: sparse.mv(_coo(), paddle.ones([2])), "mv(): argument 'vec' must have 3 entries"),
        (lambda: sparse.sum(_csr(), axis=0), "sum(): a CSR tensor sums over its last axis"),
        (
            lambda: sparse.transpose(_coo(), [0, 0]),
            "transpose(): argument 'perm' must be a permutation",
        ),
        (
            lambda: sparse.reshape(_coo(), [4, 2]),
            "reshape(): argument 'shape' [4, 2] has 8 elements",
        ),
        (lambda: sparse.pow(_coo(), "2"), "pow(): argument 'factor' must be a number"),
        (
            lambda: sparse.cast(_coo(), "float32"),
            "cast(): argument 'index_dtype' must be an integer type",
        ),
        (
            lambda: _csr().indices(),
            "indices(): argument 'x' must be a SparseCooTensor, got a SparseCsrTensor",
        ),
        (
            lambda: paddle.ones([2]).to_sparse_coo(3),
            "to_sparse_coo(): argument 'sparse_dim' must be an int in [1, 1]",
        ),
        (
            lambda: paddle.ones([2]).to_sparse_csr(),
            "to_sparse_csr(): argument 'x' must be 2-D or 3-D",
        ),
        (
            lambda: paddle.ones([2]).to_dense(),
            "to_dense(): argument 'x' must be a SparseCooTensor or SparseCsrTensor",
        ),
    ],
)
def test_bad_op_input(call, words):
    with pytest.raises(InvalidArgumentError) as error:
        call()
    assert words in str(error.value)


def test_sparse_plus_dense_is_unimplemented_as_in_paddle_cpu():
    with pytest.raises(UnimplementedError, match="add\\(\\): a sparse 'x' with a dense 'y'"):
        sparse.add(_coo(), paddle.ones([2, 3]))


def test_dense_ops_still_refuse_sparse_tensors():
    with pytest.raises((InvalidArgumentError, UnimplementedError)):
        paddle.sin(_coo())
