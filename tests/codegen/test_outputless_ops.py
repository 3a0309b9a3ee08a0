"""Ops without outputs (PaddlePaddle's ``output :`` left empty, p_send's): they lint, generate a
function that runs the kernel for its effect and returns None, register with no outputs, and a
spec whose kernel or keys disagree with having no outputs is an error naming file:line:col."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files
from phiops.codegen.lint import main as lint
from phiops.generated.registry import OPS
from phiops.runtime.comm import COMM_CONTEXTS
from tests.codegen.project import make_project
from tests.codegen.spec_cases import write_files

P_SEND = """
- op : p_send
  args : (Tensor x, int ring_id = 0, int peer = 0, bool dynamic_shape = false)
  output :
  infer_meta :
    func : PSendInferMeta
    param : [x, peer]
  kernel :
    func : p_send
    param : [x, ring_id, peer, dynamic_shape]
    data_type : x
"""


def _generated(tmp_path: Path, spec: str) -> dict[str, str]:
    return build_files(Project(make_project(tmp_path / "proj", spec))).files


def _function(source: str, name: str) -> ast.FunctionDef:
    module = ast.parse(source)
    return next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name)


def test_an_op_without_outputs_lints_clean(tmp_path: Path, capsys) -> None:
    (path,) = write_files(tmp_path, {"api.yaml": P_SEND})
    assert lint([str(path)]) == 0
    assert capsys.readouterr().out == "1 ops, 0 backward ops: 0 errors, 0 inconsistencies\n"


def test_an_op_without_outputs_generates_a_function_that_returns_none(tmp_path: Path) -> None:
    files = _generated(tmp_path, P_SEND)
    function = _function(files["api.py"], "p_send")
    assert ast.unparse(function.returns) == "None"
    assert [a.arg for a in function.args.args] == ["x", "ring_id", "peer", "dynamic_shape", "name"]
    assert "return None" in ast.unparse(function.body[-1])
    registry = files["registry.py"]
    assert "p_send" in registry and "outputs=()" in registry.replace(" ", "").replace("\n", "")


def test_other_ops_generate_as_before_beside_one_without_outputs(tmp_path: Path) -> None:
    add = """
- op : add
  args : (Tensor x, Tensor y)
  output : Tensor(out)
  infer_meta :
    func : ElementwiseInferMeta
  kernel :
    func : add
"""
    alone = _generated(tmp_path / "alone", add)["api.py"]
    beside = _generated(tmp_path / "beside", add + P_SEND)["api.py"]
    assert ast.unparse(_function(alone, "add")) == ast.unparse(_function(beside, "add"))


def test_the_registered_p_send_has_no_outputs_and_returns_none() -> None:
    COMM_CONTEXTS.clear()
    try:
        assert OPS["p_send"].info.outputs == ()
        assert phi.p_send(phi.to_tensor(np.ones(2, np.float32)), 0, 0, False) is None
        np.testing.assert_array_equal(phi.p_recv(0, 0, "float32", False).numpy(), [1.0, 1.0])
    finally:
        COMM_CONTEXTS.clear()


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            P_SEND.replace("func : p_send", "func : exp").replace(
                "param : [x, ring_id, peer, dynamic_shape]", "param : [x]"
            ),
            "ops/api.yaml:8:5: op 'p_send': kernel 'exp' "
            "(phiops.runtime.kernels.impl.activation_kernel.exp_kernel) must return tuple[()]: "
            "the op has no outputs",
        ),
        (
            P_SEND.replace("output :", "output : Tensor(out)"),
            "ops/api.yaml:8:5: op 'p_send': kernel 'p_send' "
            "(phiops.runtime.kernels.impl.dist30_p2p_kernel.p_send_kernel) must return Array "
            "for outputs (out)",
        ),
        (
            P_SEND + "  inplace : (x -> out)\n",
            "ops/api.yaml:11:14: op 'p_send': inconsistency: inplace: 'out' in (x -> out) is not "
            "an output of the op",
        ),
    ],
    ids=["kernel-with-an-output", "kernel-without-one", "inplace-to-no-output"],
)
def test_a_spec_that_disagrees_with_having_no_outputs_names_file_line_col(
    tmp_path: Path, spec: str, message: str
) -> None:
    with pytest.raises(SpecError) as raised:
        _generated(tmp_path, spec)
    assert message in str(raised.value)
