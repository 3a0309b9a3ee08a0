"""Ops whose phiops arguments differ from PaddlePaddle 3.3.1's pd_op (see
runtime/static/pd_op_names.py): programs in PaddlePaddle's spelling run, and values that phiops'
kernels do not compute are errors."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.ir import parse_program
from phiops.runtime.static import Executor, Scope

DATA = (
    '(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],'
    "stop_gradient:[true]} : () -> tensor<2x3xf32>"
)
X = np.array([[-3.0, -0.5, 0.0], [0.5, 2.0, 30.0]], dtype=np.float32)


def run(op_line: str, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    program = parse_program("{\n    " + DATA + "\n    " + op_line + "\n}\n", "test")
    return Executor().run(
        program, feed=feed, fetch_list=[program.block.ops[-1].results[0]], scope=Scope()
    )


def test_mish_in_paddle_spelling_runs_with_lambda_as_threshold() -> None:
    line = (
        '(%1) = "pd_op.mish" (%0) {lambda:20,stop_gradient:[true]} : (tensor<2x3xf32>) -> '
        "tensor<2x3xf32>"
    )
    (got,) = run(line, {"x": X})
    phi.disable_static()
    np.testing.assert_allclose(got, phi.mish(phi.to_tensor(X), 20.0).numpy(), rtol=1e-6)


def test_unique_with_is_sorted_false_is_an_error_naming_it() -> None:
    line = (
        '(%1, %2, %3, %4) = "pd_op.unique" (%0) {axis:[],dtype:int64,is_sorted:false,'
        "return_counts:false,return_index:false,return_inverse:true,"
        "stop_gradient:[true,true,true,true]} : (tensor<2x3xf32>) -> tensor<-1xf32>, "
        "<<NULL TYPE>>, tensor<-1xi64>, <<NULL TYPE>>"
    )
    with pytest.raises(UnimplementedError, match="is_sorted=False is not implemented"):
        run(line, {"x": X})


def test_built_unique_is_the_sorted_one(programs) -> None:
    phi.unique(phi.static.data("x", [6], "int64"), False, True, False, [])
    assert "is_sorted:true" in str(programs[0])


def test_building_a_sparse_embedding_grad_builds_embedding_sparse_grad(programs) -> None:
    """3.3.1's pd_op.embedding_grad is the dense one; sparse=True is its embedding_sparse_grad
    (docs/tensor_kinds.md)."""
    x = phi.static.data("x", [2, 3], "int64")
    weight = phi.static.data("w", [4, 5], "float32")
    out_grad = phi.static.data("g", [2, 3, 5], "float32")
    op_api("embedding_grad")(x, weight, out_grad, -1, True)
    (line,) = [l for l in str(programs[0]).splitlines() if "embedding" in l]
    assert '"pd_op.embedding_sparse_grad"' in line and "{padding_idx:-1," in line
    assert line.endswith("-> pd_op.selectedrows<4x5xf32>")
