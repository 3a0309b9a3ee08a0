"""`phiops lint FILE...` via codegen.lint.main."""

from __future__ import annotations

from phiops.codegen.lint import main

from .spec_cases import write_files

GOOD = """
- op : abs
  args : (Tensor x)
  output : Tensor(out)
  infer_meta :
    func : UnchangedInferMeta
  kernel :
    func : abs
"""

BAD = GOOD.replace("(Tensor x)", "(Tensr x)")
INCONSISTENT = GOOD + "  backward : abs_grad\n"


def test_clean_file_exits_0_with_summary(tmp_path, capsys) -> None:
    (path,) = write_files(tmp_path, {"api.yaml": GOOD})
    assert main([str(path)]) == 0
    assert capsys.readouterr().out == "1 ops, 0 backward ops: 0 errors, 0 inconsistencies\n"


def test_schema_error_exits_1_with_message(tmp_path, capsys) -> None:
    (path,) = write_files(tmp_path, {"api.yaml": BAD})
    assert main([str(path)]) == 1
    assert capsys.readouterr().out == (
        f"{path.as_posix()}:2:11: op 'abs': args: unknown type 'Tensr'\n"
        "  hint: did you mean 'Tensor'?\n"
        "1 ops, 0 backward ops: 1 error, 0 inconsistencies\n"
    )


def test_inconsistencies_are_listed_and_pass_when_asked(tmp_path, capsys) -> None:
    (path,) = write_files(tmp_path, {"api.yaml": INCONSISTENT})
    assert main(["--no-fail-on-inconsistency", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"{path.as_posix()}:8:14: op 'abs': inconsistency: backward op 'abs_grad' is not "
        "defined in the loaded files\n"
        "1 ops, 0 backward ops: 0 errors, 1 inconsistency\n"
    )


def test_inconsistencies_fail_by_default(tmp_path, capsys) -> None:
    (path,) = write_files(tmp_path, {"api.yaml": INCONSISTENT})
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.endswith("0 errors, 1 inconsistency\n")


def test_files_are_checked_as_one_set(tmp_path, capsys) -> None:
    backward = """
- backward_op : abs_grad
  forward : abs (Tensor x) -> Tensor(out)
  args : (Tensor x, Tensor out_grad)
  output : Tensor(x_grad)
  infer_meta :
    func : UnchangedInferMeta
  kernel :
    func : abs_grad
"""
    paths = write_files(tmp_path, {"api.yaml": INCONSISTENT, "backward.yaml": backward})
    assert main([str(p) for p in paths]) == 0
    assert capsys.readouterr().out == "1 ops, 1 backward ops: 0 errors, 0 inconsistencies\n"


def test_garbage_input_has_no_traceback(tmp_path, capsys) -> None:
    paths = write_files(tmp_path, {"a.yaml": "- op: [unclosed\n", "b.yaml": "\x00\x01"})
    assert main([str(p) for p in paths] + [str(tmp_path / "missing.yaml")]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert out.splitlines()[-1] == "0 ops, 0 backward ops: 3 errors, 0 inconsistencies"


def test_usage_error_exits_2(capsys) -> None:
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err
