"""codegen's sparse ops (codegen/api/sparse.py): what a sparse spec generates and how a
malformed one is refused, naming its file and line."""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.api.python import GenerationError
from phiops.codegen.api.sparse import infer_meta_variable, sparse_op_view
from phiops.codegen.generate import Project, SPARSE_TEMPLATES, TEMPLATES

REPO = Path(__file__).resolve().parents[2]


def _load(tmp_path: Path, text: str):
    path = tmp_path / "sparse_ops.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return codegen.load([path], base=tmp_path, python_api=False)


@functools.cache
def _repo_specs():
    return codegen.load(
        [REPO / "ops/sparse_ops.yaml", REPO / "ops/sparse_backward.yaml"],
        base=REPO,
        python_api=False,
    )


def _repo_view(name: str):
    specs = _repo_specs()
    op = specs.find(name)
    backward = specs.find(op.backward) if op.backward else None
    return sparse_op_view(op, backward, op.loc.file)


def test_a_kernel_per_kind_combination_and_the_backward_call():
    view = _repo_view("abs")
    assert [(k.name, k.kinds) for k in view.kernels] == [
        ("abs_coo", "(_SPARSE_COO,)"),
        ("abs_csr", "(_SPARSE_CSR,)"),
    ]
    assert [k.info.kernel for k in view.kernels] == ["abs_coo", "abs_csr"]
    assert view.backward_call == "abs_grad(x, _grad)" and not view.saves_out
    assert view.input_grads == "(0,)"


def test_a_backward_op_taking_the_output_saves_it():
    view = _repo_view("relu")
    assert view.backward_call == "relu_grad(_saved_out, _grad)" and view.saves_out


def test_a_backward_attribute_comes_from_the_forward_call():
    assert _repo_view("cast").backward_call == "cast_grad(x, _grad, value_dtype)"


def test_sparse_infer_meta_names_are_python_variables():
    assert infer_meta_variable("sparse::CastInferMeta") == "_sparse_cast_infer_meta"
    assert infer_meta_variable("UnchangedInferMeta") == "_unchanged_infer_meta"
    view = _repo_view("cast")
    assert view.infer_meta.phi_name == "sparse::CastInferMeta"
    assert view.infer_meta.function == "_sparse_cast_infer_meta"


@pytest.mark.parametrize(
    "func, words",
    [
        (
            "abs_coo",
            "sparse kernel 'abs_coo' must name the kind of each of the op's 1 tensor inputs",
        ),
        (
            "abs_sr{selected_rows -> selected_rows}",
            "names kind 'selected_rows'; the sparse ops take dense, sparse_coo, sparse_csr",
        ),
    ],
)
def test_a_malformed_sparse_kernel_is_a_located_error(tmp_path, func, words):
    specs = _load(
        tmp_path,
        f"""
        - op : abs
          args : (Tensor x)
          output : Tensor(out)
          infer_meta :
            func : UnchangedInferMeta
          kernel :
            func : {func}
        """,
    )
    with pytest.raises(GenerationError) as error:
        sparse_op_view(specs.find("abs"), None, "sparse_ops.yaml")
    assert words in str(error.value)
    assert str(error.value).startswith("sparse_ops.yaml:7:")  # kernel.func's line


def test_sparse_api_is_generated_only_for_a_project_with_sparse_specs(tmp_path):
    assert Project(tmp_path).generated_templates() == TEMPLATES
    assert Project(REPO).generated_templates() == {**TEMPLATES, **SPARSE_TEMPLATES}
