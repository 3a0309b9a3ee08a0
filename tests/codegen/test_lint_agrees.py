"""lint and generation share one validation: what generation rejects without asking the runtime,
lint rejects too, with the same message; lint fails on inconsistencies unless told not to."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phiops import codegen
from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files
from phiops.codegen.lint import main as lint_main
from tests.codegen.project import REPO, SMALL_SPEC
from tests.codegen.test_spec_fuzz import mutation, mutate

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

ADD = """
- op : add
  args : (Tensor x, Tensor y)
  output : Tensor(out)
  infer_meta :
    func : ElementwiseInferMeta
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
    # Formerly found only by generation, although the runtime has no say in them:
    "invoke of a C++ helper": (
        "- op : copy\n  args : (Tensor x)\n  output : Tensor(out)\n  invoke : copy_to_impl(x)\n",
        "api.yaml:4:12: op 'copy': invoke target 'copy_to_impl' (a C++ helper of PaddlePaddle) is "
        "not an op generated from these specs",
    ),
    "only a sparse kernel": (
        ADD + "  kernel :\n    func : add_coo_coo {sparse_coo, sparse_coo -> sparse_coo}\n",
        "api.yaml:7:12: op 'add': kernel.func has no dense or SelectedRows kernel (add_coo_coo "
        "{sparse_coo, sparse_coo -> sparse_coo}); the ops of the sparse kinds are generated from "
        "sparse_ops.yaml",
    ),
    "neither kernel nor invoke": (
        ADD,
        "api.yaml:1:8: op 'add': op needs both infer_meta and kernel, or invoke, to be generated",
    ),
    "an attribute type the Python API cannot take": (
        ADD.replace("Tensor y)", "Tensor y, DataLayout layout = DataLayout::NCHW)")
        + "  kernel :\n    func : add\n",
        "api.yaml:2:31: op 'add': argument 'layout' of type DataLayout is not supported by the "
        "Python API",
    ),
    "Tensor[] output without a size": (
        "- op : split\n  args : (Tensor x, int num)\n  output : Tensor[](out)\n"
        "  infer_meta :\n    func : SplitWithNumInferMeta\n  kernel :\n    func : split\n",
        "api.yaml:3:12: op 'split': output 'out' is a Tensor[] without a {size} expression; its "
        "size cannot be known before the kernel runs",
    ),
    "unsupported size expression": (
        "- op : split\n  args : (Tensor x, int num)\n  output : Tensor[](out){num * 2}\n"
        "  infer_meta :\n    func : SplitWithNumInferMeta\n  kernel :\n    func : split\n",
        "api.yaml:3:12: op 'split': size expression {num * 2} of output 'out' is not supported",
    ),
    "DataType the runtime lacks": (
        SMALL_SPEC.replace(
            "dtype=DataType::FLOAT32, Place", "dtype=DataType::FLOAT8_E4M3FN, Place"
        ),
        "api.yaml:10:10: op 'full': default DataType::FLOAT8_E4M3FN of argument 'dtype': the "
        "runtime has no DataType.FLOAT8_E4M3FN",
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


def test_paddle_mode_leaves_out_what_only_the_python_api_needs(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    spec = "- op : copy\n  args : (Tensor x)\n  output : Tensor(out)\n  invoke : copy_to_impl(x)\n"
    (tmp_path / "api.yaml").write_text(spec, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert lint_main(["--paddle", "api.yaml"]) == 0
    assert capsys.readouterr().out == "1 ops, 0 backward ops: 0 errors, 0 inconsistencies\n"


def _lint_and_generate(spec: str, workdir: Path) -> bool:
    """Assert that lint and generation find the same problems in ``spec``; whether it is clean."""
    root = Path(tempfile.mkdtemp(dir=workdir))
    (root / "ops").mkdir()
    (root / "ops" / "api.yaml").write_text(spec, encoding="utf-8", errors="surrogatepass")
    shutil.copytree(REPO / "templates", root / "templates")
    _, _, lint_found = codegen.collect([root / "ops" / "api.yaml"], base=root)
    try:
        build_files(Project(root))
    except SpecError as error:
        generation_found = list(error.diagnostics)
    else:
        generation_found = []
    assert [str(d) for d in lint_found] == [str(d) for d in generation_found], spec
    shutil.rmtree(root)
    return not lint_found


def test_mutated_specs_lint_and_generation_agree(monkeypatch) -> None:
    """With the runtime's own checks (InferMeta functions, kernel signatures) out of the way,
    generation rejects a mutated spec exactly when lint does, with the same diagnostics."""
    monkeypatch.setattr("phiops.runtime.dispatch.checks.check_op", lambda info: [])
    outcomes = []
    with tempfile.TemporaryDirectory() as workdir:

        @settings(
            max_examples=150,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.lists(mutation, min_size=1, max_size=3))
        def one_spec(steps: list[tuple]) -> None:
            outcomes.append(_lint_and_generate(mutate(steps), Path(workdir)))

        one_spec()
    assert True in outcomes and False in outcomes, "the mutations must give both outcomes"
