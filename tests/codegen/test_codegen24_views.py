"""codegen's two paths for the last ops of PaddlePaddle 3.3.1's ops.yaml it could not generate:
an op argument named ``name`` (``data``), which replaces the trailing ``name=None``, and an op
whose kernels are all for SelectedRows (``merge_selected_rows``); and the specs still refused,
named with file:line:col."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.api.registry import kernel_name, kernel_signature
from phiops.codegen.api.views import api_view, inplace_view

DATA = """
- op : data
  args : (str name, IntArray shape, DataType dtype, Place place)
  output : Tensor(out)
  infer_meta :
    func : DataInferMeta
    param : [name, shape, dtype]
  kernel :
    func : data
    param : [name, shape, dtype]
    data_type : dtype
    backend : place
"""

MERGE = """
- op : merge_selected_rows
  args : (Tensor x)
  output : Tensor(out)
  infer_meta :
    func : UnchangedInferMeta
  kernel :
    func : merge_selected_rows {selected_rows -> selected_rows}
"""


def _op(tmp_path: Path, text: str):
    path = tmp_path / "api.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return codegen.load([path], base=tmp_path).ops[0]


def test_an_argument_named_name_replaces_the_trailing_name(tmp_path: Path) -> None:
    view = api_view(_op(tmp_path, DATA), "api.yaml", set())
    assert view.params == ("name: str, shape: IntArrayLike, dtype: DataTypeLike, place: PlaceLike")
    assert "if type(name) is not str:" in view.normalise
    assert not any(line.lstrip().startswith("name (str | None)") for line in view.doc)
    assert "    name (str): attribute." in view.doc


def test_an_op_without_a_name_argument_keeps_name_none(tmp_path: Path) -> None:
    view = api_view(_op(tmp_path, MERGE), "api.yaml", set())
    assert view.params == "x: Tensor, name: str | None = None"


def test_an_inplace_variant_passes_the_ops_own_name(tmp_path: Path) -> None:
    spec = (
        DATA.replace("(str name,", "(Tensor x, str name,").replace(
            "    param : [name, shape, dtype]\n    data_type",
            "    param : [x, name, shape, dtype]\n    data_type",
        )
        + "  inplace : (x -> out)\n"
    )
    view = inplace_view(_op(tmp_path, spec))
    assert view.params.endswith("place: PlaceLike")
    assert view.call_args == "x=x, name=name, shape=shape, dtype=dtype, place=place"


def test_a_selected_rows_kernel_is_the_dispatchers_kernel(tmp_path: Path) -> None:
    op = _op(tmp_path, MERGE)
    assert op.kernel.dense_func is None
    assert kernel_name(op) == "merge_selected_rows"
    assert kernel_signature(op).inputs == ("x",)
    view = api_view(op, "api.yaml", set())
    assert view.except_lines == ("return _OP_merge_selected_rows.call((x,), ())[0]",)


def test_a_dense_kernel_comes_before_a_selected_rows_one(tmp_path: Path) -> None:
    spec = MERGE.replace(
        "func : merge_selected_rows {selected_rows -> selected_rows}",
        "func : merge_sr {selected_rows -> selected_rows}, merge {dense -> dense}",
    )
    assert kernel_name(_op(tmp_path, spec)) == "merge"


@pytest.mark.parametrize(
    "kernel, refused",
    [
        ("merge_coo {sparse_coo -> sparse_coo}", "merge_coo {sparse_coo -> sparse_coo}"),
        (
            "merge_mixed {selected_rows -> sparse_csr}",
            "merge_mixed {selected_rows -> sparse_csr}",
        ),
    ],
)
def test_a_kernel_of_a_sparse_kind_alone_is_refused_at_its_line(
    tmp_path: Path, kernel: str, refused: str
) -> None:
    spec = MERGE.replace("merge_selected_rows {selected_rows -> selected_rows}", kernel)
    with pytest.raises(codegen.SpecError) as raised:
        _op(tmp_path, spec)
    assert str(raised.value).split("\n") == [
        f"api.yaml:7:12: op 'merge_selected_rows': kernel.func has no dense or SelectedRows "
        f"kernel ({refused}); the ops of the sparse kinds are generated from sparse_ops.yaml",
        "  hint: list a dense kernel, or one whose kinds are dense and selected_rows",
    ]


def test_an_output_named_name_is_still_refused_at_its_line(tmp_path: Path) -> None:
    spec = MERGE.replace("output : Tensor(out)", "output : Tensor(name)")
    with pytest.raises(codegen.SpecError) as raised:
        _op(tmp_path, spec)
    assert str(raised.value).split("\n") == [
        "api.yaml:3:12: op 'merge_selected_rows': output 'name' cannot be a Python parameter name",
        "  hint: use an identifier that is not a Python keyword and does not start with '_' (an "
        "output is never called 'name')",
    ]
