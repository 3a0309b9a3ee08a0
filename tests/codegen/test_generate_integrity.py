"""What `import generated` sees is one whole codegen run: files of different runs are refused,
temp files of a killed run are cleaned, files follow the umask, a generated/ that cannot be
written is an error, and the up-to-date check sees what generation reads from the runtime."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from phiops.codegen.__main__ import main
from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files, up_to_date
from tests.codegen.project import REPO, SMALL_SPEC, make_project, snapshot

EXTRA_OP = """
- op : subtract
  args : (Tensor x, Tensor y)
  output : Tensor(out)
  infer_meta :
    func : ElementwiseInferMeta
  kernel :
    func : subtract
"""


def _generate(root: Path) -> None:
    build_files(Project(root)).write()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "proj")
    _generate(root)
    return root


def _import_generated(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import generated as phi; print(phi.add(phi.ones([1]), phi.ones([1])).numpy())",
        ],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{REPO}"),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_import_refuses_files_of_two_runs(tmp_path: Path, project: Path) -> None:
    other = make_project(tmp_path / "other", SMALL_SPEC + EXTRA_OP)
    _generate(other)
    # A run killed after writing __init__.py: the new __init__ next to the old api.py.
    shutil.copy(other / "generated" / "__init__.py", project / "generated" / "__init__.py")
    result = _import_generated(project)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: generated/api.py is not from the same codegen run")
    assert last.endswith("regenerate with `phiops codegen`")


def test_import_of_one_run_works(project: Path) -> None:
    result = _import_generated(project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[2.]"


def test_temp_files_of_a_killed_run_are_removed(project: Path, monkeypatch, capsys) -> None:
    leftover = project / "generated" / ".api.py.k2j3h4.tmp"
    leftover.write_text("half a file")
    monkeypatch.chdir(project)
    assert main(["--root", str(project)]) == 0
    assert not leftover.exists()
    assert "(removed)" not in capsys.readouterr().out


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664)])
def test_written_files_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    root = make_project(tmp_path)
    previous = os.umask(umask)
    try:
        _generate(root)
    finally:
        os.umask(previous)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (root / "generated").glob("*.py")}
    assert sorted(modes) == [
        "__init__.py",
        "api.py",
        "backward.py",
        "compat_signatures.py",
        "infer_meta.py",
        "inplace.py",
        "pd_op_dialect.py",
        "python_api.py",
        "registry.py",
        "signatures.py",
        "tensor_methods.py",
    ]
    assert set(modes.values()) == {mode}


def test_generated_replaced_by_a_file_is_an_error(tmp_path: Path, monkeypatch, capsys) -> None:
    root = make_project(tmp_path)
    (root / "generated").write_text("not a package")
    monkeypatch.chdir(root)
    assert main(["--root", str(root)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        f"cannot write {root / 'generated'}: {root / 'generated'} exists and is not a directory; "
        "nothing was changed"
    )


def test_unwritable_generated_is_an_error_and_changes_nothing(
    project: Path, monkeypatch, capsys
) -> None:
    spec = project / "ops" / "api.yaml"
    spec.write_text(spec.read_text() + EXTRA_OP)
    before = snapshot(project / "generated")

    def refuse(*args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.chdir(project)
    assert main(["--root", str(project)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"cannot write {project / 'generated'}: Permission denied; nothing was changed"
    )
    assert snapshot(project / "generated") == before
    assert not list((project / "generated").glob(".*.tmp"))


def test_renaming_an_infer_meta_function_makes_generated_stale(project: Path, monkeypatch) -> None:
    from phiops.runtime.infermeta import INFER_META_FUNCTIONS

    assert up_to_date(Project(project))
    function = INFER_META_FUNCTIONS["elementwise_infer_meta"]
    monkeypatch.delitem(INFER_META_FUNCTIONS, "elementwise_infer_meta")
    monkeypatch.setitem(INFER_META_FUNCTIONS, "elementwise_infer_meta_v2", function)
    assert not up_to_date(Project(project))


def test_swapping_a_kernels_parameters_makes_generated_stale(project: Path, monkeypatch) -> None:
    from phiops.runtime.kernels import KERNEL_FACTORY

    assert up_to_date(Project(project))
    registrations = KERNEL_FACTORY.kernels["add"]
    kernel = next(iter(registrations.values()))

    def add_kernel(ctx, y, x):  # type: ignore[no-untyped-def]
        return x + y

    swapped = {key: _with_fn(k, add_kernel) for key, k in registrations.items()}
    monkeypatch.setitem(KERNEL_FACTORY.kernels, "add", swapped)
    assert kernel.fn.__name__ == "add_kernel"
    assert not up_to_date(Project(project))


def _with_fn(kernel, fn):  # type: ignore[no-untyped-def]
    import copy

    clone = copy.copy(kernel)
    object.__setattr__(clone, "fn", fn)
    return clone


@pytest.mark.parametrize(
    "default, expected",
    [
        (
            "DataType::FLOAT8_E4M3FN",
            "ops/api.yaml:10:10: op 'full': default DataType::FLOAT8_E4M3FN of argument 'dtype': "
            "the runtime has no DataType.FLOAT8_E4M3FN",
        ),
        (
            "DataType::PSTRING",
            "ops/api.yaml:10:10: op 'full': default DataType::PSTRING of argument 'dtype': "
            "the runtime has no DataType.PSTRING",
        ),
    ],
)
def test_a_data_type_the_runtime_lacks_is_a_spec_error(
    tmp_path: Path, default: str, expected: str
) -> None:
    spec = SMALL_SPEC.replace(
        "DataType dtype=DataType::FLOAT32, Place place=CPUPlace())\n  output:",
        f"DataType dtype={default}, Place place=CPUPlace())\n  output:",
    )
    assert spec != SMALL_SPEC
    root = make_project(tmp_path, spec)
    with pytest.raises(SpecError) as raised:
        build_files(Project(root))
    assert str(raised.value.diagnostics[0]).split("\n")[0] == expected
    assert not (root / "generated").exists()


def test_a_root_that_is_not_a_project_is_named(tmp_path: Path, capsys) -> None:
    # What an installed wheel's default root (site-packages) looks like: no ops/, no templates/.
    (tmp_path / "generated").mkdir()
    assert main(["--root", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"{tmp_path} is not a phiops project (no ops/api.yaml, no templates/); an installed "
        "phiops ships the generated API, not its specs: pass --root with a phiops checkout"
    )
