"""ops/docs.yaml: its parser and checks (bad entry -> exact message), the repository's file, and
the docstrings generated from it."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.docs import check_docs

from .project import REPO, SMALL_SPEC, make_project, run_codegen, snapshot
from .spec_cases import Case, compare, load_case, write_files

API = "ops/api.yaml"
BACKWARD = "ops/backward.yaml"
DOCS = "ops/docs.yaml"

SPEC = (
    "- op : foo\n"
    "  args : (Tensor x, int axis = -1)\n"
    "  output : Tensor(out)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n    param : [x]\n"
    "  kernel :\n    func : foo\n"
    "  backward : foo_grad\n"
)
GRAD = (
    "- backward_op : foo_grad\n"
    "  forward : foo (Tensor x, int axis) -> Tensor(out)\n"
    "  args : (Tensor out_grad, int axis)\n"
    "  output : Tensor(x_grad)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n    param : [out_grad]\n"
    "  kernel :\n    func : foo_grad\n"
)
FOO_DOC = (
    "- op : foo\n"
    "  summary : Foos x.\n"
    "  args :\n"
    "    x : The input.\n"
    "    axis : The axis.\n"
    "  returns : The fooed x.\n"
)


def docs(text: str) -> dict[str, str]:
    """The spec files and an ops/docs.yaml holding ``text``."""
    return {API: SPEC, BACKWARD: GRAD, DOCS: text}


def foo_doc(summary="Foos x.", x="The input.", axis="The axis.", returns="The fooed x.", extra=""):
    """foo's entry with the given values (lines: 1 op, 2 summary, 3 args, 4 x, 5 axis, 6 returns)
    and ``extra`` after it."""
    return (
        f"- op : foo\n  summary : {summary}\n  args :\n    x : {x}\n    axis : {axis}\n"
        f"  returns : {returns}\n{extra}"
    )


CASES = [
    Case("valid_entry", docs(FOO_DOC), []),
    Case(
        "valid_backward_entry",
        docs(
            FOO_DOC + "- op : foo_grad\n  summary : The gradient of foo.\n"
            "  args : {out_grad : The gradient of out., axis : The axis.}\n"
            "  returns : The gradient of x.\n"
        ),
        [],
    ),
    Case(
        "folded_sentence",
        docs(foo_doc(summary="Foos x\n    over two lines.")),
        [],
    ),
    # ---- keys
    Case(
        "unknown_key_with_hint",
        docs(FOO_DOC.replace("  summary", "  sumary")),
        [
            "ops/docs.yaml:1:3: op 'foo': missing required key 'summary'",
            "ops/docs.yaml:2:3: op 'foo': unknown key 'sumary'\n" "  hint: did you mean 'summary'?",
        ],
    ),
    Case(
        "unknown_key_without_hint",
        docs(foo_doc(extra="  colour : red.\n")),
        [
            "ops/docs.yaml:7:3: op 'foo': unknown key 'colour'\n"
            "  hint: known keys: op, summary, args, returns"
        ],
    ),
    Case(
        "entry_without_op",
        docs(FOO_DOC + "- summary : Bars.\n  returns : Nothing.\n"),
        ["ops/docs.yaml:7:3: entry has no 'op' key\n  hint: start the entry with '- op : name'"],
    ),
    Case(
        "missing_returns",
        docs(FOO_DOC.replace("  returns : The fooed x.\n", "")),
        ["ops/docs.yaml:1:3: op 'foo': missing required key 'returns'"],
    ),
    Case(
        "duplicate_key",
        docs(foo_doc(extra="  summary : Foos again.\n")),
        ["ops/docs.yaml:7:3: op 'foo': duplicate key 'summary' (first given at line 2)"],
    ),
    Case(
        "duplicate_argument_key",
        docs(foo_doc(axis="The axis.\n    x : The input again.")),
        ["ops/docs.yaml:6:5: op 'foo': duplicate key 'args.x' (first given at line 4)"],
    ),
    Case(
        "duplicate_op",
        docs(FOO_DOC + FOO_DOC),
        [
            "ops/docs.yaml:7:3: op 'foo': a second entry for op 'foo' (the first is at line 1)\n"
            "  hint: merge the two entries"
        ],
    ),
    Case(
        "entry_not_a_mapping",
        docs(FOO_DOC + "- foo\n"),
        ["ops/docs.yaml:7:3: entry 2 is a string, expected a mapping with an 'op' key"],
    ),
    Case(
        "top_level_mapping",
        docs("op : foo\nsummary : Foos.\n"),
        ["ops/docs.yaml:1:1: expected a list of op entries at the top level, got a mapping"],
    ),
    # ---- types and sentences
    Case(
        "op_not_a_string",
        docs(FOO_DOC + "- op : [foo]\n  summary : Foos.\n  returns : Foo.\n"),
        ["ops/docs.yaml:7:8: 'op' must be a string, not a list"],
    ),
    Case(
        "op_not_a_name",
        docs(FOO_DOC + "- op : foo bar\n  summary : Foos.\n  returns : Foo.\n"),
        ["ops/docs.yaml:7:8: op: 'foo bar' is not an op name"],
    ),
    Case(
        "summary_not_a_string",
        docs(foo_doc(summary="[Foos, x.]")),
        ["ops/docs.yaml:2:13: op 'foo': 'summary' must be a string, not a list"],
    ),
    Case(
        "returns_a_number",
        docs(foo_doc(returns="42")),
        ["ops/docs.yaml:6:13: op 'foo': 'returns' must be a string, not a number"],
    ),
    Case(
        "args_not_a_mapping",
        docs(
            FOO_DOC.replace(
                "  args :\n    x : The input.\n    axis : The axis.\n", "  args : [x, axis]\n"
            )
        ),
        ["ops/docs.yaml:3:10: op 'foo': 'args' must be a mapping, not a list"],
    ),
    Case(
        "argument_sentence_null",
        docs(foo_doc(axis="")),
        ["ops/docs.yaml:5:11: op 'foo': 'args.axis' must be a string, not null"],
    ),
    Case(
        "argument_name_not_a_name",
        docs(foo_doc(axis="The axis.\n    2x : Twice x.")),
        ["ops/docs.yaml:6:5: op 'foo': args: '2x' is not an argument name"],
    ),
    Case(
        "empty_summary",
        docs(foo_doc(summary='""')),
        ["ops/docs.yaml:2:13: op 'foo': 'summary' is empty\n  hint: write a sentence"],
    ),
    Case(
        "blank_argument_sentence",
        docs(foo_doc(x='"   "')),
        ["ops/docs.yaml:4:9: op 'foo': 'args.x' is empty"],
    ),
    Case(
        "two_paragraphs",
        docs(foo_doc(returns="|\n    The fooed x.\n\n    And more.")),
        [
            "ops/docs.yaml:6:13: op 'foo': 'returns' has more than one paragraph\n"
            "  hint: a docstring line takes one paragraph: remove the blank line"
        ],
    ),
    Case(
        "two_paragraphs_in_a_plain_sentence",
        docs(foo_doc(x="The input.\n\n      And more.")),
        ["ops/docs.yaml:4:9: op 'foo': 'args.x' has more than one paragraph"],
    ),
    Case(
        "literal_block_lines_are_one_paragraph",
        docs(foo_doc(returns="|\n    The fooed\n    x.")),
        [],
    ),
    Case(
        "no_full_stop",
        docs(foo_doc(summary="Foos x")),
        [
            "ops/docs.yaml:2:13: op 'foo': 'summary' must end with '.'\n  hint: write whole sentences"
        ],
    ),
    Case(
        "control_character",
        docs(foo_doc(x='"The\\x07 input."')),
        ["ops/docs.yaml:4:9: op 'foo': 'args.x' holds the control character '\\x07'"],
    ),
    # ---- against the op specs
    Case(
        "unknown_op_with_hint",
        docs(FOO_DOC + "- op : fooo\n  summary : Foos.\n  returns : Foo.\n"),
        [
            "ops/docs.yaml:7:8: op 'fooo': inconsistency: phiops has no op 'fooo'\n"
            "  hint: did you mean 'foo'?"
        ],
    ),
    Case(
        "unknown_argument_with_hint",
        docs(foo_doc(axis="The axis.\n    axes : The axes.")),
        [
            "ops/docs.yaml:6:5: op 'foo': inconsistency: args: 'axes' is not an argument of "
            "op 'foo'\n  hint: did you mean 'axis'?"
        ],
    ),
    Case(
        "unknown_argument_lists_the_arguments",
        docs(foo_doc(axis="The axis.\n    name : The name.")),
        [
            "ops/docs.yaml:6:5: op 'foo': inconsistency: args: 'name' is not an argument of "
            "op 'foo'\n  hint: its arguments: x, axis"
        ],
    ),
    Case(
        "missing_argument_sentence",
        docs(FOO_DOC.replace("    axis : The axis.\n", "")),
        [
            "ops/docs.yaml:3:3: op 'foo': inconsistency: args: no sentence for argument 'axis'\n"
            "  hint: add 'axis : <what it means>.' under 'args'"
        ],
    ),
    Case(
        "missing_args_key",
        docs("- op : foo\n  summary : Foos x.\n  returns : The fooed x.\n"),
        [
            "ops/docs.yaml:1:3: op 'foo': inconsistency: args: no sentence for argument 'axis'",
            "ops/docs.yaml:1:3: op 'foo': inconsistency: args: no sentence for argument 'x'",
        ],
    ),
    Case(
        "missing_entry_for_a_forward_op",
        docs(
            "- op : foo_grad\n  summary : Grad.\n  args : {out_grad : G., axis : A.}\n"
            "  returns : X grad.\n"
        ),
        [
            "ops/api.yaml:1:8: op 'foo': inconsistency: no entry in ops/docs.yaml\n"
            "  hint: add '- op : foo' with a summary, a sentence for each argument (x, axis) "
            "and returns"
        ],
    ),
    Case(
        "backward_entry_must_be_complete",
        docs(
            FOO_DOC + "- op : foo_grad\n  summary : Grad.\n  args : {axis : A.}\n"
            "  returns : X grad.\n"
        ),
        [
            "ops/docs.yaml:9:3: op 'foo_grad': inconsistency: args: no sentence for argument "
            "'out_grad'"
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_docs_diagnostic(tmp_path: Path, case: Case) -> None:
    actual = load_case(tmp_path, case.files)
    assert compare(actual, case.expected) == case.expected


def test_case_names_are_unique() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


def test_docs_alone_are_checked_for_their_schema_only(tmp_path: Path) -> None:
    """Without op specs beside it, an entry for an op nobody knows is not an error."""
    (path,) = write_files(
        tmp_path, {DOCS: FOO_DOC + "- op : bar\n  summary : B.\n  returns : C.\n"}
    )
    doc_set, diagnostics = check_docs(path, base=tmp_path)
    assert diagnostics == []
    assert [e.op for e in doc_set.entries] == ["foo", "bar"]
    assert doc_set.find("foo").arg("axis") == "The axis."


def test_sentences_are_normalised_to_one_line(tmp_path: Path) -> None:
    (path,) = write_files(tmp_path, {DOCS: foo_doc(summary="Foos\n    x   gently.")})
    doc_set, diagnostics = check_docs(path, base=tmp_path)
    assert diagnostics == [] and doc_set.find("foo").summary == "Foos x gently."


def test_lint_reports_docs_errors(tmp_path: Path) -> None:
    paths = write_files(tmp_path, docs(foo_doc(axis="The axis.\n    axes : The axes.")))
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
        "ops/docs.yaml:6:5: op 'foo': inconsistency: args: 'axes' is not an argument of op 'foo'",
        "  hint: did you mean 'axis'?",
        "1 ops, 1 backward ops: 0 errors, 1 inconsistency",
    ]


# ------------------------------------------------------------------- the repository's file


def test_the_repositorys_docs_agree_with_its_specs() -> None:
    paths = [REPO / API, REPO / BACKWARD, REPO / DOCS]
    specs, files, diagnostics = codegen.collect(paths, base=REPO)
    assert diagnostics == []
    assert files == [API, BACKWARD, DOCS]


def _forward_defs():
    from phiops.runtime.dispatch.op_def import op_defs

    import phiops.generated  # noqa: F401  (registers the ops and binds their API functions)

    return [d for d in op_defs() if not d.is_backward]


def _repository_docs():
    doc_set, diagnostics = check_docs(REPO / DOCS, base=REPO)
    assert doc_set is not None, diagnostics
    return doc_set


def _argument_lines(function) -> dict[str, str]:
    """Each ``Args:`` line of ``function``'s docstring (continuations joined), by argument."""
    doc = inspect.getdoc(function)
    section = doc.split("\nArgs:\n", 1)[1].split("\n\n", 1)[0]
    lines: dict[str, str] = {}
    name = None
    for line in section.splitlines():
        if line.startswith("    ") and not line.startswith("        "):
            name = line.split()[0]
            lines[name] = line.strip()
        else:
            lines[name] += " " + line.strip()
    return lines


def test_every_forward_op_has_its_prose_in_its_docstring() -> None:
    doc_set = _repository_docs()
    defs = _forward_defs()
    spec = codegen.load([REPO / "ops" / "api.yaml", REPO / "ops" / "backward.yaml"], base=REPO)
    # the registry holds every forward op of the specs
    assert sorted(d.name for d in defs) == sorted(op.name for op in spec.ops if not op.is_backward)
    for op_def in defs:
        entry = doc_set.find(op_def.name)
        assert entry is not None, f"op {op_def.name!r} has no entry in ops/docs.yaml"
        function = op_def.api
        flat = " ".join(inspect.getdoc(function).split())
        assert flat.startswith(entry.summary), op_def.name
        assert f"Returns: " in flat and entry.returns in flat, op_def.name
        lines = _argument_lines(function)
        signature = list(inspect.signature(function).parameters.values())
        # PaddlePaddle's trailing name=None, unless the op has a name of its own (data)
        trailing = ["name"] if signature[-1].name == "name" and signature[-1].default is None else []
        parameters = [p.name for p in signature[: len(signature) - len(trailing)]]
        assert list(lines) == [*parameters, *trailing], op_def.name
        for parameter in parameters:
            assert lines[parameter].endswith(entry.arg(parameter)), (op_def.name, parameter)


def test_in_place_variants_reuse_the_forward_ops_prose() -> None:
    import phiops.generated.inplace as inplace

    doc_set = _repository_docs()
    names = inplace.__all__
    assert names
    for name in names:
        entry = doc_set.find(name[:-1])
        flat = " ".join(inspect.getdoc(getattr(inplace, name)).split())
        assert flat.startswith(f"In-place ``{name[:-1]}``: {entry.summary}"), name
        assert entry.returns in flat, name
        lines = _argument_lines(getattr(inplace, name))
        for arg_name, sentence in entry.args:
            assert lines[arg_name].endswith(sentence), (name, arg_name)


def test_tensor_methods_carry_the_ops_docstrings() -> None:
    """A generated Tensor method is the op's API function (or its in-place variant) itself."""
    from phiops.generated import api
    from phiops.runtime.eager.tensor import Tensor

    assert Tensor.relu is api.relu
    assert inspect.getdoc(Tensor.relu).startswith(_repository_docs().find("relu").summary)


# ------------------------------------------------------------------ generation from the file

SMALL_DOCS = """
- op : add
  summary : Adds x and y.
  args :
    x : The first addend.
    y : The second addend, broadcast against x.
  returns : x + y.

- op : full
  summary : 'Makes a tensor full of value, with a \\ backslash and three quotes: \"\"\".'
  args :
    shape : The shape.
    value : The value of every element.
    dtype : The data type.
    place : The device.
  returns : A full tensor.

- op : ones
  summary : Makes a tensor of ones.
  args :
    shape : The shape.
    dtype : The data type.
    place : The device.
  returns : A tensor of ones.
"""


def _docs_project(root: Path, text: str = SMALL_DOCS) -> Path:
    make_project(root)
    (root / DOCS).write_text(text.lstrip("\n"), encoding="utf-8")
    return root


def _function(root: Path, name: str) -> ast.FunctionDef:
    module = ast.parse((root / "generated" / "api.py").read_text())
    return next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name)


def test_generated_docstring_places_the_prose(tmp_path: Path) -> None:
    root = _docs_project(tmp_path / "proj")
    result = run_codegen(root)
    assert result.returncode == 0, result.stderr
    assert ast.get_docstring(_function(root, "add")) == (
        "Adds x and y.\n"
        "\n"
        "Args:\n"
        "    x (Tensor): The first addend.\n"
        "    y (Tensor): The second addend, broadcast against x.\n"
        "    name (str | None): Unused; accepted for PaddlePaddle compatibility.\n"
        "\n"
        "Returns:\n"
        "    Tensor: x + y.\n"
        "\n"
        "PHI op ``add``: (Tensor x, Tensor y) -> Tensor(out).\n"
        "Generated from ops/api.yaml:1 and ops/docs.yaml:1."
    )
    header = (root / "generated" / "api.py").read_text().splitlines()[0]
    assert header.startswith("# @generated by codegen from ops/api.yaml, ops/docs.yaml via")


def test_docstring_text_stays_data(tmp_path: Path) -> None:
    """Quotes and backslashes in the prose are escaped: the docstring is the sentence."""
    root = _docs_project(tmp_path / "proj")
    assert run_codegen(root).returncode == 0
    doc = ast.get_docstring(_function(root, "full"))
    assert doc.startswith(
        'Makes a tensor full of value, with a \\ backslash and three quotes: """.'
    )
    assert "    dtype (DataTypeLike, default DataType.FLOAT32): The data type." in doc


def test_a_docs_error_writes_nothing(tmp_path: Path) -> None:
    root = _docs_project(tmp_path / "proj")
    assert run_codegen(root).returncode == 0
    before = snapshot(root / "generated")
    (root / DOCS).write_text(SMALL_DOCS.replace("    y : The second", "    z : The second"))
    result = run_codegen(root)
    assert result.returncode == 1
    assert (
        "ops/docs.yaml:6:5: op 'add': inconsistency: args: 'z' is not an argument of op 'add'"
        in result.stderr
    )
    assert "op 'add': inconsistency: args: no sentence for argument 'y'" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(root / "generated") == before


def test_docs_output_is_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "12345"):  # each run renders the whole project: two seeds, one rerun
        root = _docs_project(tmp_path / f"seed{seed}")
        assert run_codegen(root, seed=seed).returncode == 0
        if seed == "0":
            (root / "generated" / "api.py").unlink()
            assert run_codegen(root, seed=seed).returncode == 0
        outputs.append(snapshot(root / "generated"))
    assert outputs[0] == outputs[1]


def test_docs_yaml_is_part_of_the_fingerprint(tmp_path: Path) -> None:
    from phiops.codegen.generate import Project

    project = Project(make_project(tmp_path / "proj"))
    without = project.fingerprint()
    (project.root / DOCS).write_text(SMALL_DOCS)
    first = project.fingerprint()
    (project.root / DOCS).write_text(SMALL_DOCS.replace("Adds x and y.", "Sums x and y."))
    assert len({without, first, project.fingerprint()}) == 3
