"""ops/op_traits.yaml: its parser and checks (bad entry -> exact located message), lint, the
repository's file, and the registry generated from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.op_traits import check_op_traits

from .project import REPO, make_project, run_codegen, snapshot
from .spec_cases import write_files

API = "ops/api.yaml"
TRAITS = "ops/op_traits.yaml"

SPEC = (
    "- op : foo\n"
    "  args : (Tensor x, Tensor y, int axis = -1)\n"
    "  output : Tensor(out)\n"
    "  infer_meta :\n    func : ElementwiseInferMeta\n    param : [x, y]\n"
    "  kernel :\n    func : foo\n    param : [x, y]\n"
    "  inplace : (x -> out)\n"
    "- op : bar\n"
    "  args : (Tensor x)\n"
    "  output : Tensor(out)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n"
    "  kernel :\n    func : bar\n"
)


def diagnostics_of(tmp_path: Path, traits: str, *, with_specs: bool = True) -> list[str]:
    """The diagnostics of ops/op_traits.yaml holding ``traits``, checked against SPEC."""
    api, path = write_files(tmp_path, {API: SPEC, TRAITS: traits})
    specs = None
    if with_specs:
        loaded = codegen.load([api], base=tmp_path)
        specs = {op.name: op for op in (*loaded.ops, *loaded.backward_ops)}
    return [str(d) for d in check_op_traits(path, specs, base=tmp_path)[1]]


@pytest.mark.parametrize(
    ("traits", "expected"),
    [
        pytest.param(
            "- op : baz\n  promotes : [x, y]\n",
            "ops/op_traits.yaml:1:8: op 'baz': phiops has no op 'baz'\n  hint: did you mean 'bar'?",
            id="unknown_op",
        ),
        pytest.param(
            "- op : foo\n  promote : [x, y]\n",
            "ops/op_traits.yaml:2:3: op 'foo': unknown key 'promote'\n"
            "  hint: did you mean 'promotes'?",
            id="unknown_key",
        ),
        pytest.param(
            "- op : foo\n  promotes : x\n",
            "ops/op_traits.yaml:2:14: op 'foo': 'promotes' must be a list like [a, b], not a string",
            id="list_key_given_a_string",
        ),
        pytest.param(
            "- op : foo\n  results_stop_gradient : yes please\n",
            "ops/op_traits.yaml:2:27: op 'foo': 'results_stop_gradient' must be true or false, "
            "not a string",
            id="bool_key_given_a_string",
        ),
        pytest.param(
            "- op : foo\n  pd_op_only : [bias]\n",
            "ops/op_traits.yaml:2:16: op 'foo': 'pd_op_only' must be a mapping, not a list",
            id="mapping_key_given_a_list",
        ),
        pytest.param(
            "- op : foo\n  pd_op_renames : {lambda : 3}\n",
            "ops/op_traits.yaml:2:29: op 'foo': pd_op_renames.lambda must be a string, not a number",
            id="rename_to_a_number",
        ),
        pytest.param(
            "- op : foo\n  pd_op_only : {bias : [1]}\n",
            "ops/op_traits.yaml:2:24: op 'foo': pd_op_only.bias must be null, true, false, a "
            "number or a string, not a list",
            id="pd_op_only_value_not_a_scalar",
        ),
        pytest.param(
            "- op : foo\n  promotes : [x, z]\n",
            "ops/op_traits.yaml:2:18: op 'foo': promotes: 'z' is not an input of op 'foo'\n"
            "  hint: its inputs: x, y",
            id="promotes_names_no_input",
        ),
        pytest.param(
            "- op : foo\n  value_attributes : [axes]\n",
            "ops/op_traits.yaml:2:23: op 'foo': value_attributes: 'axes' is not an attribute of "
            "op 'foo'\n  hint: did you mean 'axis'?",
            id="value_attribute_names_no_attribute",
        ),
        pytest.param(
            "- op : foo\n  float_math : [float32]\n",
            "ops/op_traits.yaml:2:17: op 'foo': float_math: 'float32' is not an integer dtype\n"
            "  hint: one of uint8, int8, int16, int32, int64",
            id="float_math_names_no_integer_dtype",
        ),
        pytest.param(
            "- op : foo\n  same_dtype : [x, y]\n  kernel_transform : complex\n",
            "ops/op_traits.yaml:3:22: op 'foo': kernel_transform: 'complex' is not a data "
            "transform\n  hint: did you mean 'into_complex'?",
            id="unknown_kernel_transform",
        ),
        pytest.param(
            "- op : foo\n  promotes : [x, y]\n  kernel_transform : matmul\n",
            "ops/op_traits.yaml:3:22: op 'foo': kernel_transform: only an op whose inputs are "
            "'same_dtype' has one",
            id="kernel_transform_without_same_dtype",
        ),
        pytest.param(
            "- op : foo\n  promotes : [x, y]\n  zero_d_promotion : numbers\n",
            "ops/op_traits.yaml:3:22: op 'foo': zero_d_promotion: 'numbers' is not a 0-D "
            "promotion rule\n  hint: did you mean 'number'?",
            id="unknown_zero_d_promotion",
        ),
        pytest.param(
            "- op : foo\n  same_dtype : [x, y]\n  zero_d_promotion : table\n",
            "ops/op_traits.yaml:3:22: op 'foo': zero_d_promotion: only an op whose inputs "
            "'promote' has one",
            id="zero_d_promotion_without_promotes",
        ),
        pytest.param(
            "- op : foo\n  operators : [__plus__]\n",
            "ops/op_traits.yaml:2:16: op 'foo': operators: '__plus__' is not a binary operator "
            "method\n  hint: did you mean '__lt__'?",
            id="unknown_operator",
        ),
        pytest.param(
            "- op : foo\n  operators : [__add__]\n  scalar_operators : {__add__ : add}\n",
            "ops/op_traits.yaml:3:33: op 'foo': scalar_operators.__add__: 'add' is not a scale "
            "rule\n  hint: one of plus, minus, rminus, times, over, power",
            id="unknown_scale_rule",
        ),
        pytest.param(
            "- op : foo\n  operators : [__add__]\n  numpy_int16_own_dtype : [__radd__]\n",
            "ops/op_traits.yaml:3:28: op 'foo': numpy_int16_own_dtype: '__radd__' is not one of "
            "the entry's operators\n  hint: add it to 'operators' or remove it here",
            id="int16_own_dtype_not_an_operator",
        ),
        pytest.param(
            "- op : foo\n  small_numpy_scalars : yes please\n",
            "ops/op_traits.yaml:2:25: op 'foo': 'small_numpy_scalars' must be true or false, "
            "not a string",
            id="small_numpy_scalars_not_a_bool",
        ),
        pytest.param(
            "- op : foo\n  operators : [__add__]\n  static_unswapped : [__add__]\n",
            "ops/op_traits.yaml:3:23: op 'foo': static_unswapped: '__add__' is not one of the "
            "entry's reflected operators\n  hint: name a reflected operator (__radd__, ...) of "
            "'operators'",
            id="static_unswapped_not_reflected",
        ),
        pytest.param(
            "- op : bar\n  method_aliases : [baz_]\n",
            "ops/op_traits.yaml:2:21: op 'bar': method_aliases: 'baz_' calls the in-place "
            "'bar_', which op 'bar' does not have\n  hint: give the op 'inplace', or drop the "
            "trailing '_'",
            id="inplace_alias_without_inplace",
        ),
        pytest.param(
            "- op : foo\n  method_aliases : [f]\n- op : bar\n  method_aliases : [f]\n",
            "ops/op_traits.yaml:4:21: op 'bar': method_aliases: 'f' already belongs to op 'foo'"
            "\n  hint: an operator, alias or legacy op type calls one op: remove one of them",
            id="alias_claimed_twice",
        ),
        pytest.param(
            "- op : foo\n  promotes : [x, y]\n- op : foo\n  integer_kernel : true\n",
            "ops/op_traits.yaml:3:3: op 'foo': a second entry for op 'foo' (the first is at "
            "line 1)\n  hint: merge the two entries",
            id="second_entry",
        ),
        pytest.param(
            "- op : foo\n  promotes : [x, y]\n  same_dtype : [x, y]\n",
            "ops/op_traits.yaml:3:16: op 'foo': an op either promotes its inputs or takes one "
            "dtype: give 'promotes' or 'same_dtype', not both",
            id="promotes_and_same_dtype",
        ),
    ],
)
def test_op_traits_diagnostic(tmp_path: Path, traits: str, expected: str) -> None:
    assert diagnostics_of(tmp_path, traits) == [expected]


def test_a_good_entry_has_no_diagnostic(tmp_path: Path) -> None:
    traits = (
        "- op : foo\n  promotes : [x, y]\n  operators : [__add__, __radd__]\n"
        "  scalar_operators : {__add__ : plus}\n  method_aliases : [f, f_]\n"
    )
    assert diagnostics_of(tmp_path, traits) == []


def test_traits_alone_are_checked_for_their_schema_only(tmp_path: Path) -> None:
    """Without op specs beside it, an entry for an op nobody knows is not an error."""
    assert diagnostics_of(tmp_path, "- op : nobody\n  promotes : [a, b]\n", with_specs=False) == []


def test_lint_reports_op_traits_errors(tmp_path: Path) -> None:
    paths = write_files(tmp_path, {API: SPEC, TRAITS: "- op : foo\n  promotes : [x, q]\n"})
    result = subprocess.run(
        [sys.executable, "-m", "phiops", "lint", *[str(p.relative_to(tmp_path)) for p in paths]],
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "ops/op_traits.yaml:2:18: op 'foo': promotes: 'q' is not an input of op 'foo'",
        "  hint: its inputs: x, y",
        "2 ops, 0 backward ops: 1 error, 0 inconsistencies",
    ]


def test_the_repositorys_op_traits_agree_with_its_specs() -> None:
    paths = [REPO / API, REPO / "ops/backward.yaml", REPO / TRAITS]
    _, files, diagnostics = codegen.collect(paths, base=REPO)
    assert diagnostics == []
    assert files == [API, "ops/backward.yaml", TRAITS]


# ---------------------------------------------------------------------------- generation

SMALL_TRAITS = (
    "- op : add\n"
    "  promotes : [x, y]\n"
    "  operators : [__add__, __radd__]\n"
    "  scalar_operators : {__add__ : plus}\n"
    "  static_unswapped : [__radd__]\n"
    "- op : full\n"
    "  value_attributes : [shape, value]\n"
    "  pd_op_only : {extra : null}\n"
)


def _traits_project(root: Path) -> Path:
    make_project(root)
    (root / TRAITS).write_text(SMALL_TRAITS)
    return root


def test_generated_registry_holds_the_traits_and_defaults(tmp_path: Path) -> None:
    root = _traits_project(tmp_path / "proj")
    result = run_codegen(root)
    assert result.returncode == 0, result.stderr
    registry = (root / "generated" / "registry.py").read_text()
    assert "ops/op_traits.yaml via templates/registry.py.j2" in registry.splitlines()[0]
    assert (
        'traits=OpTraits(promotes=("x", "y"), operators=(OperatorInfo("__add__", '
        'scalar_rule="plus"), OperatorInfo("__radd__", reflected=True)))'
    ) in " ".join(registry.split()).replace("( ", "(").replace(", )", ")")
    flat = " ".join(registry.split())
    assert 'value_attributes=("shape", "value")' in flat
    assert 'pd_op_only=(("extra", None),)' in flat
    assert 'AttrInfo("dtype", "DataType", has_default=True, default=DataType.FLOAT32)' in flat
    assert 'AttrInfo("place", "Place", has_default=True, default=CPUPlace())' in flat


def test_an_op_traits_error_writes_nothing(tmp_path: Path) -> None:
    root = _traits_project(tmp_path / "proj")
    assert run_codegen(root).returncode == 0
    before = snapshot(root / "generated")
    (root / TRAITS).write_text(SMALL_TRAITS.replace("promotes : [x, y]", "promotes : [x, z]"))
    result = run_codegen(root)
    assert result.returncode == 1
    assert "ops/op_traits.yaml:2:18: op 'add': promotes: 'z' is not an input of op 'add'" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr
    assert snapshot(root / "generated") == before


def test_op_traits_yaml_is_part_of_the_fingerprint(tmp_path: Path) -> None:
    from phiops.codegen.generate import Project

    project = Project(make_project(tmp_path / "proj"))
    without = project.fingerprint()
    (project.root / TRAITS).write_text(SMALL_TRAITS)
    first = project.fingerprint()
    (project.root / TRAITS).write_text(SMALL_TRAITS.replace("plus", "minus"))
    assert len({without, first, project.fingerprint()}) == 3
