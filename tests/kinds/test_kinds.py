"""The tensor kinds (runtime/tensor/kinds.py, selected_rows.py, sparse.py): their data classes
(validation, to_dense, metas), the kind in a kernel's key and argument definition, and
selection by kind (a dense kernel is never handed another kind)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops._C_ops as C_ops
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels import KERNEL_FACTORY, KernelContext
from phiops.runtime.kernels.kernel import Array, args_def_from_signature, kernel_kind
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.kernels.registration import register_kernel, unregister_kernel
from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.tensor import (
    DenseTensor,
    DenseTensorMeta,
    MetaTensor,
    SelectedRows,
    SelectedRowsMeta,
    SparseCooTensor,
    SparseCsrTensor,
    StringTensor,
    TensorArray,
    TensorKind,
)


def _selected_rows_tensor(rows: list[int], height: int, value: np.ndarray) -> paddle.Tensor:
    storage = SelectedRows(np.array(rows, np.int64), height, value)
    return wrap_array(storage, storage.meta)


# -- the data classes ----------------------------------------------------------------------
def test_selected_rows_to_dense_adds_repeated_rows() -> None:
    value = np.arange(12, dtype=np.float32).reshape(4, 3)
    sr = SelectedRows(np.array([2, 0, 2, 5]), 6, value)
    want = np.zeros((6, 3), np.float32)
    np.add.at(want, [2, 0, 2, 5], value)
    np.testing.assert_array_equal(sr.to_dense().to_numpy(), want)
    assert sr.meta.dims == (6, 3) and sr.dims == (4, 3)
    assert isinstance(sr.meta, SelectedRowsMeta) and sr.meta.kind is TensorKind.SELECTED_ROWS
    assert sr.kind is TensorKind.SELECTED_ROWS and sr.meta.height == 6
    merged = sr.merged()
    assert merged.rows.tolist() == [0, 2, 5]
    np.testing.assert_array_equal(merged.to_dense().to_numpy(), want)


def test_selected_rows_meta_is_not_the_dense_meta() -> None:
    sr = SelectedRows(np.array([1]), 3, np.ones((1, 2), np.float32))
    dense = DenseTensorMeta.get(DataType.FLOAT32, (3, 2), DataLayout.NCHW, sr.meta.place)
    assert sr.meta is not dense and dense.kind is TensorKind.DENSE
    assert sr.meta is SelectedRows(np.array([0]), 3, np.ones((1, 2), np.float32)).meta


@pytest.mark.parametrize(
    "rows, height, value, message",
    [
        (np.array([0, 3]), 3, np.ones((2, 2)), "rows must be in \\[0, height=3\\)"),
        (np.array([0, -1]), 3, np.ones((2, 2)), "rows must be in"),
        (np.array([0.5]), 3, np.ones((1, 2)), "rows must be a 1-D integer array"),
        (np.array([[0]]), 3, np.ones((1, 2)), "rows must be a 1-D integer array"),
        (np.array([0, 1]), 3, np.ones((3, 2)), "one row per entry of rows \\(2\\)"),
        (np.array([0]), -1, np.ones((1, 2)), "height must be a non-negative int"),
    ],
)
def test_selected_rows_validation(rows, height, value, message) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        SelectedRows(rows, height, value)


def test_sparse_coo_to_dense_and_validation() -> None:
    indices = np.array([[0, 1, 1, 0], [2, 0, 0, 2]])
    values = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    coo = SparseCooTensor(indices, values, [2, 3])
    want = np.zeros((2, 3), np.float32)
    np.add.at(want, (indices[0], indices[1]), values)
    np.testing.assert_array_equal(coo.to_dense().to_numpy(), want)
    assert coo.meta.kind is TensorKind.SPARSE_COO and coo.meta.dims == (2, 3)
    assert coo.nnz == 4 and coo.sparse_dim == 2 and coo.coalesced is False
    # a hybrid tensor: one sparse dim, values carry the dense dim
    hybrid = SparseCooTensor(np.array([[1]]), np.array([[5.0, 6.0]]), [3, 2], coalesced=True)
    np.testing.assert_array_equal(hybrid.to_dense().to_numpy(), [[0, 0], [5, 6], [0, 0]])
    with pytest.raises(InvalidArgumentError, match="indices\\[1\\] must be in \\[0, 3\\)"):
        SparseCooTensor(np.array([[0], [3]]), np.array([1.0]), [2, 3])
    with pytest.raises(InvalidArgumentError, match="values must have dims \\[4\\]"):
        SparseCooTensor(indices, values[:3], [2, 3])
    with pytest.raises(InvalidArgumentError, match="indices must be a 2-D integer tensor"):
        SparseCooTensor(indices.astype(np.float32), values, [2, 3])


def test_sparse_csr_to_dense_and_validation() -> None:
    crows, cols = np.array([0, 2, 2, 3]), np.array([0, 2, 1])
    values = np.array([1.0, 2.0, 3.0], np.float32)
    csr = SparseCsrTensor(crows, cols, values, [3, 3])
    np.testing.assert_array_equal(
        csr.to_dense().to_numpy(), [[1, 0, 2], [0, 0, 0], [0, 3, 0]]
    )
    assert csr.meta.kind is TensorKind.SPARSE_CSR and csr.nnz == 3
    batched = SparseCsrTensor(
        np.array([0, 1, 1, 0, 0, 2]), np.array([1, 0, 1]), np.array([1.0, 2.0, 3.0]), [2, 2, 2]
    )
    np.testing.assert_array_equal(batched.to_dense().to_numpy(), [[[0, 1], [0, 0]], [[0, 0], [2, 3]]])
    with pytest.raises(InvalidArgumentError, match="crows must have 4 entries"):
        SparseCsrTensor(crows[:3], cols, values, [3, 3])
    with pytest.raises(InvalidArgumentError, match="never decrease"):
        SparseCsrTensor(np.array([0, 2, 1, 3]), cols, values, [3, 3])
    with pytest.raises(InvalidArgumentError, match="cols must be in \\[0, 3\\)"):
        SparseCsrTensor(crows, np.array([0, 3, 1]), values, [3, 3])
    with pytest.raises(InvalidArgumentError, match="shape must be 2-D or 3-D"):
        SparseCsrTensor(crows, cols, values, [3])


def test_tensor_array_and_string_tensor_as_data() -> None:
    array = TensorArray([np.ones(2, np.float32)], DataType.FLOAT32)
    assert array.meta.kind is TensorKind.TENSOR_ARRAY and array.meta.dims == (1,)
    with pytest.raises(InvalidArgumentError, match="item 0 is float64"):
        TensorArray([np.ones(2)], DataType.FLOAT32)
    with pytest.raises(UnimplementedError, match="array ops"):
        array.to_numpy()
    strings = StringTensor([["a", "b"]])
    assert strings.meta.kind is TensorKind.STRING and strings.meta.dims == (1, 2)
    with pytest.raises(InvalidArgumentError, match="every item must be a str"):
        StringTensor([1])


def test_meta_tensor_over_each_kind() -> None:
    sr = SelectedRows(np.array([1]), 5, np.ones((1, 2), np.float32))
    meta = MetaTensor(sr.meta, "grad")
    assert meta.kind is TensorKind.SELECTED_ROWS and meta.is_selected_rows()
    assert meta.dims == (5, 2)  # the complete dims, as PHI's MetaTensor gives InferMeta
    coo = SparseCooTensor(np.array([[0]]), np.array([1.0]), [4])
    assert MetaTensor(coo.meta).kind is TensorKind.SPARSE_COO and MetaTensor(coo.meta).dims == (4,)
    assert MetaTensor(DenseTensor(np.ones(3)).meta).is_dense()
    assert "SelectedRows" in repr(meta)


# -- kernel keys and argument definitions ---------------------------------------------------
def test_kernel_key_and_arg_defs_carry_the_kind() -> None:
    dense = KERNEL_FACTORY.kernels_of("sgd")
    assert {key.kind for key in dense} == {TensorKind.DENSE}
    assert all(
        a.tensor_kind is TensorKind.DENSE for k in dense.values() for a in k.args_def.inputs
    )
    assert all("SelectedRows" not in str(key) for key in dense)
    # PHI's sgd_dense_param_sparse_grad: its own name, the kind in its key, the variant of sgd
    assert KERNEL_FACTORY.variant_name("sgd", TensorKind.SELECTED_ROWS) == "sgd_dense_param_sparse_grad"
    sparse = KERNEL_FACTORY.kernels_of("sgd_dense_param_sparse_grad")
    assert {key.kind for key in sparse} == {TensorKind.SELECTED_ROWS}
    kernel = next(iter(sparse.values()))
    assert [a.tensor_kind for a in kernel.args_def.inputs] == [
        TensorKind.DENSE, TensorKind.DENSE, TensorKind.SELECTED_ROWS, TensorKind.DENSE
    ]  # fmt: skip
    assert "SelectedRows" in str(kernel.key)
    grad = KERNEL_FACTORY.kernels_of("embedding_sparse_grad")
    assert {k.args_def.outputs[0].tensor_kind for k in grad.values()} == {TensorKind.SELECTED_ROWS}
    assert KERNEL_FACTORY.kinds_of("sgd") == [TensorKind.DENSE, TensorKind.SELECTED_ROWS]
    assert KERNEL_FACTORY.kinds_of("relu") == [TensorKind.DENSE]
    for base, phi in [
        ("embedding_grad", "embedding_sparse_grad"),
        ("adam", "adam_dense_param_sparse_grad"),
        ("adamw", "adamw_dense_param_sparse_grad"),
        ("momentum", "momentum_dense_param_sparse_grad"),
        ("adagrad", "adagrad_dense_param_sparse_grad"),
    ]:
        assert KERNEL_FACTORY.variant_name(base, TensorKind.SELECTED_ROWS) == phi


def test_a_variant_must_take_its_dense_kernels_arguments() -> None:
    def wrong(ctx: KernelContext, param: Array, grad: SelectedRows) -> tuple[Array, Array]:
        raise AssertionError

    with pytest.raises(InvalidArgumentError, match="does not take 'sgd'.s arguments"):
        register_kernel("probe_sgd_sr", dtypes=[DataType.FLOAT32], variant_of="sgd")(wrong)
    assert KERNEL_FACTORY.variant_name("sgd", TensorKind.SELECTED_ROWS) == "sgd_dense_param_sparse_grad"

    def dense_only(ctx: KernelContext, x: Array) -> Array:
        raise AssertionError

    with pytest.raises(InvalidArgumentError, match="takes and returns only dense tensors"):
        register_kernel("probe_relu_sr", dtypes=[DataType.FLOAT32], variant_of="relu")(dense_only)
    assert not KERNEL_FACTORY.has_kernel("probe_relu_sr")


def test_default_key_is_dense_and_lookup_never_relaxes_the_kind() -> None:
    key = KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, DataType.FLOAT32)
    assert key.kind is TensorKind.DENSE
    relu = KERNEL_FACTORY.select("relu", key)
    assert relu.key.kind is TensorKind.DENSE
    with pytest.raises(Exception, match="SelectedRows"):
        KERNEL_FACTORY.select("relu", key._replace(kind=TensorKind.SELECTED_ROWS))


def test_signature_reads_selected_rows_annotations() -> None:
    def kernel(ctx: KernelContext, x: Array, grad: SelectedRows | None, scale: float) -> SelectedRows:
        raise AssertionError

    key = KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, DataType.FLOAT32)
    args = args_def_from_signature(kernel, key)
    assert [(a.name, a.tensor_kind, a.is_optional) for a in args.inputs] == [
        ("x", TensorKind.DENSE, False),
        ("grad", TensorKind.SELECTED_ROWS, True),
    ]
    assert [a.name for a in args.attributes] == ["scale"]
    assert args.outputs[0].tensor_kind is TensorKind.SELECTED_ROWS
    assert kernel_kind(args) is TensorKind.SELECTED_ROWS


# -- selection by kind ------------------------------------------------------------------------
def test_dense_kernel_is_never_handed_selected_rows() -> None:
    grad = _selected_rows_tensor([0, 2], 4, np.ones((2, 3), np.float32))
    with pytest.raises(InvalidArgumentError, match="relu\\(\\): argument 'x' is a SelectedRows.*no SelectedRows kernel"):
        paddle.nn.functional.relu(grad)
    with pytest.raises(InvalidArgumentError, match="add\\(\\): argument 'y' is a SelectedRows"):
        paddle.add(paddle.ones([4, 3]), grad)


def test_wrong_kind_for_one_argument_is_named() -> None:
    # sgd_'s SelectedRows kernel takes a dense param: a SelectedRows param is refused by name
    grad = _selected_rows_tensor([0], 4, np.ones((1, 3), np.float32))
    param = _selected_rows_tensor([1], 4, np.ones((1, 3), np.float32))
    rate = paddle.to_tensor([0.1])
    with pytest.raises(InvalidArgumentError, match="sgd_\\(\\): argument 'param' is a SelectedRows"):
        C_ops.sgd_(param, rate, grad, None, False)


def test_a_generated_op_handed_a_sparse_tensor_names_where_its_ops_are() -> None:
    coo = SparseCooTensor(np.array([[0]]), np.array([1.0], np.float32), [3])
    tensor = wrap_array(coo, coo.meta)
    with pytest.raises(UnimplementedError, match="SparseCooTensor.*phiops.sparse"):
        paddle.nn.functional.relu(tensor)


def test_kind_of_registration_comes_from_annotations() -> None:
    def sparse_relu(ctx: KernelContext, x: SelectedRows) -> SelectedRows:
        values = ctx.xp.maximum(x.value.array, 0)
        return SelectedRows(x.rows, x.height, DenseTensor(values), check=False)

    register_kernel("relu", dtypes=[DataType.FLOAT32])(sparse_relu)
    try:
        assert TensorKind.SELECTED_ROWS in KERNEL_FACTORY.kinds_of("relu")
        grad = _selected_rows_tensor([0, 2], 4, np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32))
        out = paddle.nn.functional.relu(grad)
        assert out.is_selected_rows() and out.rows() == [0, 2]
        np.testing.assert_array_equal(out.numpy(), [[0, 2], [3, 0]])
        dense = paddle.nn.functional.relu(paddle.to_tensor([-1.0, 1.0]))
        np.testing.assert_array_equal(dense.numpy(), [0, 1])  # the dense kernel still wins
    finally:
        unregister_kernel("relu", sparse_relu)
    assert KERNEL_FACTORY.kinds_of("relu") == [TensorKind.DENSE]


def test_selected_rows_tensor_methods() -> None:
    grad = _selected_rows_tensor([3, 1, 3], 5, np.arange(6, dtype=np.float32).reshape(3, 2))
    assert grad.is_selected_rows() and not grad.is_dense() and not grad.is_sparse()
    assert grad.rows() == [3, 1, 3] and grad.shape == [3, 2]
    np.testing.assert_array_equal(grad.numpy(), np.arange(6).reshape(3, 2))
    assert "rows=[3, 1, 3]" in repr(grad)
    dense = paddle.ones([2])
    assert dense.is_dense() and not dense.is_selected_rows()
    with pytest.raises(InvalidArgumentError, match="only a SelectedRows tensor has rows"):
        dense.rows()
