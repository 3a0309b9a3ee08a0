"""lint and generation share one validation: what generation rejects without asking the runtime,
lint rejects too, with the same message; lint fails on inconsistencies unless told not to."""

from __future__ import annotations

from pathlib import Path

import pytest

import codegen
from codegen.lint import main as lint_main
from tests.codegen.project import SMALL_SPEC

ONES_ZEROS = """
- op : ones
  args : (IntArray shape, DataType dtype=DataType::FLOAT32)
  output : Tensor(out)
  invoke : zeros(shape, dtype)

- op : zeros
  args : (IntArray shape, DataType dtype=DataType::FLOAT32)
  output : Tensor(out)
  invoke : ones(shape, dtype)
"""

SELF_INVOKE = """
- op : ones
  args : (IntArray shape)
  output : Tensor(out)
  invoke : ones(shape)
"""

WRONG_INVOKE_TYPES = SMALL_SPEC + """
- op : twos
  args : (Tensor x, IntArray shape)
  output : Tensor(out)
  invoke : full(x, "two")
"""

GRAD_OF_NOTHING = """
- op : exp
  args : (Tensor x)
  output : Tensor(out)
  infer_meta :
    func : UnchangedInferMeta
  kernel :
    func : exp
  backward : exp_grad

- backward_op : exp_grad
  forward : exp (Tensor x) -> Tensor(out)
  args : (Tensor out, Tensor out_grad)
  output : Tensor(y_grad)
  infer_meta :
    func : UnchangedInferMeta
    param : [out]
  kernel :
    func : exp_grad
"""

CLASS_ARG = SMALL_SPEC.replace("(IntArray shape, DataType dtype", "(IntArray class, DataType dtype")

CASES = {
    "invoke cycle ones <-> zeros": (
        ONES_ZEROS,
        "api.yaml:4:12: op 'ones': invoke cycle: ones -> zeros -> ones",
    ),
    "op invoking itself": (SELF_INVOKE, "api.yaml:4:12: op 'ones': invoke cycle: ones -> ones"),
    "invoke argument of the wrong type": (
        WRONG_INVOKE_TYPES,
        "api.yaml:29:12: op 'twos': invoke: argument 1 'x' of full(...) is a Tensor "
        "('Tensor x'); 'IntArray shape' is not",
    ),
    "grad output naming no forward input": (
        GRAD_OF_NOTHING,
        "api.yaml:13:12: op 'exp_grad': output 'y_grad' is the gradient of 'y', which is not a "
        "Tensor input or output of forward op 'exp'",
    ),
    "argument named class": (
        CLASS_ARG,
        "api.yaml:22:11: op 'ones': argument 'class' cannot be a Python parameter name",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_and_load_report_the_same_error(
    tmp_path: Path, case: str, capsys, monkeypatch
) -> None:
    spec, expected = CASES[case]
    (tmp_path / "api.yaml").write_text(spec.lstrip("\n"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert lint_main(["api.yaml"]) == 1
    assert expected in capsys.readouterr().out.splitlines()
    with pytest.raises(codegen.SpecError) as raised:
        codegen.load(["api.yaml"])
    assert expected in [str(d).split("\n")[0] for d in raised.value.diagnostics]


def test_references_to_a_file_not_given_are_summarised_once(capsys) -> None:
    repo = Path(__file__).resolve().parents[2]
    assert lint_main([str(repo / "ops" / "api.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    summary = [line for line in out if "none of the files given defines backward ops" in line]
    assert len(summary) == 1
    assert "is not defined in the loaded files" not in "\n".join(out)
    assert "  hint: add the backward spec file (e.g. ops/backward.yaml) to the files given" in out


def test_the_repository_specs_lint_clean(capsys) -> None:
    repo = Path(__file__).resolve().parents[2]
    assert lint_main([str(repo / "ops" / "api.yaml"), str(repo / "ops" / "backward.yaml")]) == 0
