"""What issue 28 added to the sparse generator (codegen/api/sparse.py) and dispatch: grad ops
with several outputs, literal InferMeta parameters, the ops whose kernels set their output's
dims, and kernels selected by their output's kind."""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
import phiops.sparse  # noqa: F401  (loads the generated sparse API)
from phiops import codegen
from phiops.codegen.api.python import GenerationError
from phiops.codegen.api.sparse import sparse_op_view
from phiops.runtime.sparse.registry import OutputKindDispatcher, sparse_op_def
from phiops.runtime.tensor.kinds import TensorKind

REPO = Path(__file__).resolve().parents[2]


@functools.cache
def _specs():
    return codegen.load(
        [REPO / "ops/sparse_ops.yaml", REPO / "ops/sparse_backward.yaml"],
        base=REPO,
        python_api=False,
    )


def _view(name: str):
    op = _specs().find(name)
    backward = _specs().find(op.backward) if op.backward else None
    return sparse_op_view(op, backward, op.loc.file)


def test_a_grad_op_returns_each_input_gradient():
    view = _view("addmm_grad")
    assert view.output_count == 3 and view.unpack == "_out"
    assert view.returns == "tuple[Tensor, Tensor, Tensor]"
    forward = _view("addmm")
    assert forward.backward_call == "addmm_grad(input, x, y, _grad, alpha, beta)"
    assert forward.input_grads == "(0, 1, 2)"


def test_a_literal_infer_meta_param_is_passed_in_its_place():
    view = _view("matmul")
    assert view.infer_meta.call_args == "x, y, False, False, _out_out, config"
    assert view.infer_meta.phi_name == "MatmulInferMeta"


def test_an_op_whose_kernel_sets_the_dims_plans_with_the_sparse_function():
    view = _view("slice")
    assert view.infer_meta.phi_name == "sparse::SliceInferMeta"
    assert view.infer_meta.call_args == "x, axes, starts, ends, _out_out, config"
    x = paddle.to_tensor(np.arange(12.0).reshape(3, 4)).to_sparse_coo(2)
    out = paddle.sparse.slice(x, [1], [1], [3])
    assert out.shape == [3, 2] and out.values().numpy().tolist() == [1.0, 2.0, 5.0, 6.0, 9.0, 10.0]


def test_a_kernel_from_dense_to_sparse_is_selected_by_its_output_kind():
    kernel = _view("to_sparse_csr").kernels[0]
    assert (kernel.name, kernel.output_kind) == ("dense_to_csr", "_SPARSE_CSR")
    assert kernel.dispatcher == "_OutputKindDispatcher"
    assert _view("to_sparse_csr").kernels[1].dispatcher == "_OpDispatcher"
    dispatcher = sparse_op_def("to_sparse_csr").kernels[(TensorKind.DENSE,)]
    assert isinstance(dispatcher, OutputKindDispatcher)
    assert dispatcher.output_kind is TensorKind.SPARSE_CSR
    out = paddle.to_tensor(np.eye(3)).to_sparse_csr()
    assert out.is_sparse_csr() and out.crows().numpy().tolist() == [0, 1, 2, 3]


def test_a_forward_op_with_a_backward_has_one_output(tmp_path):
    path = tmp_path / "sparse_ops.yaml"
    path.write_text(
        textwrap.dedent(
            """
            - op : two
              args : (Tensor x)
              output : Tensor(out), Tensor(other)
              infer_meta :
                func : UnchangedInferMeta
              kernel :
                func : two_coo{sparse_coo -> sparse_coo, sparse_coo}
              backward : two_grad

            - backward_op : two_grad
              forward : two(Tensor x) -> Tensor(out), Tensor(other)
              args : (Tensor x, Tensor out_grad)
              output : Tensor(x_grad)
              infer_meta :
                func : UnchangedInferMeta
                param : [x]
              kernel :
                func : two_coo_grad{sparse_coo, sparse_coo -> sparse_coo}
            """
        ).lstrip("\n"),
        encoding="utf-8",
    )
    specs = codegen.load([path], base=tmp_path, python_api=False)
    with pytest.raises(GenerationError, match="a sparse op with a backward op has one output"):
        sparse_op_view(specs.find("two"), specs.find("two_grad"), "sparse_ops.yaml")
