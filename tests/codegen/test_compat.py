"""ops/op_compat.yaml: its parser and checks (bad snippet -> exact message), the files that must
load, and the mapping functions generated from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.api.compat import mapping_views, pd_op_names
from phiops.codegen.compat import check_compat

from .spec_cases import Case, compare, load_case, write_files

REPO = Path(__file__).resolve().parents[2]
API = "ops/api.yaml"
BACKWARD = "ops/backward.yaml"
COMPAT = "ops/op_compat.yaml"

# phiops ops the entries below are checked against
SPEC = (
    "- op : foo\n"
    "  args : (Tensor x, Tensor y, IntArray shape, Scalar value, int axis = -1)\n"
    "  output : Tensor(out)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n    param : [x]\n"
    "  kernel :\n    func : foo\n"
    "  backward : foo_grad\n"
)
GRAD = (
    "- backward_op : foo_grad\n"
    "  forward : foo (Tensor x, Tensor y, IntArray shape, Scalar value, int axis) -> Tensor(out)\n"
    "  args : (Tensor x, Tensor out_grad, int axis)\n"
    "  output : Tensor(x_grad)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n    param : [x]\n"
    "  kernel :\n    func : foo_grad\n"
)


def entry(body: str = "", head: str = "- op : foo (legacy_foo)\n") -> dict[str, str]:
    """The spec files and an op_compat.yaml holding one entry for `foo` (line 1) + `body`."""
    return {API: SPEC, BACKWARD: GRAD, COMPAT: head + body}


CASES = [
    Case("valid_entry", entry("  inputs : {x : X, y : Y}\n  outputs :\n    out : Out\n"), []),
    Case(
        "unknown_key_with_hint",
        entry("  input : {x : X}\n"),
        ["ops/op_compat.yaml:2:3: op 'foo': unknown key 'input'\n  hint: did you mean 'inputs'?"],
    ),
    Case(
        "entry_without_op",
        {API: SPEC, BACKWARD: GRAD, COMPAT: "- inputs : {x : X}\n"},
        [
            "ops/op_compat.yaml:1:3: entry has no 'op' key\n  hint: start the entry with '- op : name'"
        ],
    ),
    Case(
        "op_name_unclosed_parenthesis",
        entry(head="- op : foo (legacy_foo\n"),
        ["ops/op_compat.yaml:1:23: op: expected ')' after the legacy op name, found end of text"],
    ),
    Case(
        "op_name_list",
        entry(head="- op : foo, bar\n"),
        ["ops/op_compat.yaml:1:8: op: expected one op name, found a list"],
    ),
    Case(
        "input_the_op_does_not_have",
        entry("  inputs : {x : X, z : Z}\n"),
        [
            "ops/op_compat.yaml:2:20: op 'foo': inconsistency: inputs: 'z' is not an input of op "
            "'foo'\n  hint: inputs of 'foo': x, y"
        ],
    ),
    Case(
        "attr_the_op_does_not_have_with_hint",
        entry("  attrs : {axes : dims}\n"),
        [
            "ops/op_compat.yaml:2:12: op 'foo': inconsistency: attrs: 'axes' is not an attribute "
            "of op 'foo'\n  hint: did you mean 'axis'?"
        ],
    ),
    Case(
        "output_the_op_does_not_have",
        entry("  outputs : {out : Out, xshape : XShape}\n"),
        [
            "ops/op_compat.yaml:2:25: op 'foo': inconsistency: outputs: 'xshape' is not an output of op 'foo'"
        ],
    ),
    Case(
        "extra_output_may_be_named",
        entry("  outputs : {out : Out, xshape : XShape}\n  extra :\n    outputs : [xshape]\n"),
        [],
    ),
    Case(
        "int_array_on_a_scalar",
        entry("  int_array :\n    value : {data_type : int, tensor_name : ValueTensor}\n"),
        [
            "ops/op_compat.yaml:3:5: op 'foo': inconsistency: int_array: attribute 'value' of op 'foo' is Scalar, not IntArray"
        ],
    ),
    Case(
        "scalar_on_an_input",
        entry("  scalar :\n    x : {data_type : float}\n"),
        [
            "ops/op_compat.yaml:3:5: op 'foo': inconsistency: scalar: 'x' is not an attribute of op 'foo'"
        ],
    ),
    Case(
        "unknown_data_type_with_hint",
        entry("  int_array :\n    shape : {data_type : int64, tensor_name : Shape}\n"),
        [
            "ops/op_compat.yaml:3:26: op 'foo': int_array.shape.data_type: unknown type 'int64'\n"
            "  hint: did you mean 'int64_t'?"
        ],
    ),
    Case(
        "unknown_mutable_key_with_hint",
        entry("  scalar :\n    value : {tensors : ValueTensor}\n"),
        [
            "ops/op_compat.yaml:3:14: op 'foo': unknown key 'scalar.value.tensors'\n"
            "  hint: did you mean 'tensors_name'?"
        ],
    ),
    Case(
        "support_tensor_not_a_bool",
        entry("  scalar :\n    value : {support_tensor : yes please}\n"),
        [
            "ops/op_compat.yaml:3:31: op 'foo': 'scalar.value.support_tensor' must be true or false, not a string"
        ],
    ),
    Case(
        "legacy_name_with_a_space",
        entry("  inputs : {x : X Y}\n"),
        [
            "ops/op_compat.yaml:2:17: op 'foo': inputs.x: 'X Y' is not a legacy argument name [A-Za-z0-9_][A-Za-z0-9_@.-]*"
        ],
    ),
    Case("legacy_name_with_a_dash", entry("  outputs : {out : F1-Score}\n"), []),
    Case(
        "extra_attr_that_does_not_parse",
        entry("  extra :\n    attrs : [bool use_mkldnn = 3]\n"),
        [
            "ops/op_compat.yaml:3:32: op 'foo': extra.attrs: default 3 of argument 'use_mkldnn' does not fit type bool"
        ],
    ),
    Case(
        "extra_attr_with_a_cpp_default",
        entry("  extra :\n    attrs : ['int workspace = phi::gpu::DefaultWorkspace()']\n"),
        [],
    ),
    Case(
        "manual_signature_naming_another_op",
        entry("  backward : foo_grad (legacy_foo_grad)\n  manual_signature : [foo_grd]\n"),
        [
            "ops/op_compat.yaml:3:23: op 'foo': inconsistency: manual_signature: 'foo_grd' is "
            "neither op 'foo' nor one of its backward ops\n  hint: did you mean 'foo_grad'?"
        ],
    ),
    Case(
        "entry_for_an_op_phiops_lacks",
        entry(head="- op : bar (legacy_bar)\n"),
        ["ops/op_compat.yaml:1:8: op 'bar': inconsistency: phiops has no op 'bar'"],
    ),
    Case(
        "duplicate_key_in_inputs",
        entry("  inputs :\n    x : X\n    x : Y\n"),
        ["ops/op_compat.yaml:4:5: op 'foo': duplicate key 'inputs.x' (first given at line 3)"],
    ),
    Case(
        "inputs_not_a_mapping",
        entry("  inputs : [x, X]\n"),
        ["ops/op_compat.yaml:2:12: op 'foo': 'inputs' must be a mapping, not a list"],
    ),
    Case(
        "every_error_at_once",
        entry("  colour : red\n  inputs : {z : Z}\n  scalar :\n    value : {data_type : floaty}\n"),
        [
            "ops/op_compat.yaml:2:3: op 'foo': unknown key 'colour'",
            "ops/op_compat.yaml:3:13: op 'foo': inconsistency: inputs: 'z' is not an input of op 'foo'",
            "ops/op_compat.yaml:5:26: op 'foo': scalar.value.data_type: unknown type 'floaty'",
        ],
    ),
    Case(
        "second_entry_for_an_op",
        {API: SPEC, BACKWARD: GRAD, COMPAT: "- op : foo\n\n- op : foo (legacy_foo)\n"},
        [
            "ops/op_compat.yaml:3:8: op 'foo': inconsistency: a second entry for op 'foo' (the first is at line 1)"
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_op_compat_diagnostic(tmp_path: Path, case: Case) -> None:
    actual = load_case(tmp_path, case.files)
    assert compare(actual, case.expected) == case.expected


def test_paddles_whole_op_compat_yaml_loads() -> None:
    """ops/paddle/op_compat.yaml is PaddlePaddle's file as it is: every entry parses; what is
    left are its own inconsistencies (an op given two entries, a legacy grad op named twice)."""
    compat, diagnostics = check_compat(REPO / "ops/paddle/op_compat.yaml", base=REPO)
    assert compat is not None
    assert len(compat.entries) == 551
    assert not [d for d in diagnostics if d.is_error]
    assert len(diagnostics) == 9
    reshape = compat.find("reshape")
    assert str(reshape.op) == "reshape (reshape2)"
    assert [str(b) for b in reshape.backward] == ["reshape_grad (reshape2_grad)"]
    shape = reshape.mutable_attr("shape")
    assert (shape.kind, shape.data_type, shape.tensor_name, shape.tensors_name) == (
        "int_array",
        "int",
        "Shape",
        "ShapeTensor",
    )
    assert reshape.extra.attrs[0].name == "use_mkldnn"
    conv = compat.find("conv2d_transpose")
    assert (
        str(conv.extra.attrs[-1].default)
        == "phi::backends::gpu::GetDefaultConvWorkspaceSizeLimitMB()"
    )
    assert [str(b) for b in compat.find("abs").backward] == [
        "abs_grad",
        "abs_double_grad",
        "abs_triple_grad",
    ]


def test_phiops_op_compat_yaml_agrees_with_the_op_specs() -> None:
    paths = [REPO / API, REPO / BACKWARD, REPO / COMPAT]
    specs, files, diagnostics = codegen.collect(paths, base=REPO)
    assert diagnostics == []
    assert files == [API, BACKWARD, COMPAT]


def test_lint_checks_op_compat_yaml_against_the_specs_given_with_it(tmp_path: Path) -> None:
    paths = write_files(tmp_path, entry("  inputs : {z : Z}\n"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "phiops.codegen",
            "lint",
            *[str(p.relative_to(tmp_path)) for p in paths],
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "ops/op_compat.yaml:2:13: op 'foo': inconsistency: inputs: 'z' is not an input of op 'foo'",
        "  hint: inputs of 'foo': x, y",
        "1 ops, 1 backward ops: 0 errors, 1 inconsistency",
    ]


def _views(tmp_path: Path, body: str, hand_written: set[str] = frozenset()):
    paths = write_files(tmp_path, entry(body))
    specs = codegen.load(paths[:2], base=tmp_path)
    compat, diagnostics = check_compat(
        paths[2], {o.name: o for o in (*specs.ops, *specs.backward_ops)}
    )
    assert diagnostics == []
    return specs, compat, mapping_views(specs, compat, set(hand_written))


def test_generated_mapping_renames_and_takes_mutable_attributes_from_tensors(
    tmp_path: Path,
) -> None:
    body = (
        "  backward : foo_grad (legacy_foo_grad)\n"
        "  inputs : {x : X, y : Y}\n  outputs : {out : Out}\n  attrs : {axis : dim}\n"
        "  int_array :\n    shape : {data_type : int, tensor_name : Shape, tensors_name : ShapeList}\n"
        "  scalar :\n    value : {data_type : float, tensor_name : ValueTensor}\n"
    )
    specs, compat, (views, problems) = _views(tmp_path, body)
    assert problems == []
    forward, backward = views
    assert (forward.legacy, forward.pd_op, forward.kernel) == ("legacy_foo", "foo", "foo")
    assert forward.inputs == "('X', 'Y')"
    assert forward.attrs == "(shape_slot, value_slot, 'dim')"
    assert forward.choices == (
        (
            "shape_slot",
            "'Shape' if ctx.has_input('Shape') else 'ShapeList' if ctx.input_size('ShapeList') > 0 else 'shape'",
        ),
        ("value_slot", "'ValueTensor' if ctx.has_input('ValueTensor') else 'value'"),
    )
    assert forward.outputs == "('Out',)"
    assert (backward.legacy, backward.kernel) == ("legacy_foo_grad", "foo_grad")
    assert (backward.inputs, backward.attrs, backward.outputs) == (
        "('X', 'Out@GRAD')",
        "('dim',)",
        "('X@GRAD',)",
    )
    assert pd_op_names(specs, compat) == [("legacy_foo", "foo"), ("legacy_foo_grad", "foo_grad")]


def test_manual_signature_ops_get_no_generated_mapping(tmp_path: Path) -> None:
    _, _, (views, problems) = _views(tmp_path, "  manual_signature : [foo]\n")
    assert problems == [] and views == []


def test_a_hand_written_mapping_for_a_generated_op_is_a_spec_error(tmp_path: Path) -> None:
    _, _, (views, problems) = _views(tmp_path, "", hand_written={"legacy_foo"})
    assert [str(p) for p in problems] == [
        "ops/api.yaml:1:8: op 'foo': legacy op 'legacy_foo' has a hand-written mapping function "
        "(runtime/compat/mappings.py) and would get a generated one\n"
        "  hint: add 'foo' to the entry's manual_signature"
    ]


def test_op_compat_yaml_is_part_of_the_generated_files_fingerprint(tmp_path: Path) -> None:
    """So that `phiops codegen --check` finds generated/compat_signatures.py stale after an
    edit of ops/op_compat.yaml (the repository's own --check is test_generate's)."""
    from phiops.codegen.generate import TEMPLATES, Project

    from .project import make_project

    assert TEMPLATES["compat_signatures.py"] == "compat_signatures.py.j2"
    project = Project(make_project(tmp_path / "proj"))
    without = project.fingerprint()
    compat = project.root / COMPAT
    compat.write_text("- op : full (fill_constant)\n")
    first = project.fingerprint()
    compat.write_text("- op : full (fill_constant_v2)\n")
    assert len({without, first, project.fingerprint()}) == 3
