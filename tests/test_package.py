"""One import name, `phiops`: the facade loads on first use, a bare checkout imports without an
install, `phiops._C_ops` holds the spec-signature functions, and one `phiops` command runs the
command-line tools."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import phiops
from phiops.__main__ import COMMANDS, main

REPO = Path(__file__).resolve().parents[1]

# drops the editable install's finder, as in a checkout where nothing is installed
_BARE = (
    "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
    "if 'editable' not in getattr(f, '__name__', type(f).__name__).lower()]\n"
)


def _python(code: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_a_bare_checkout_imports_phiops_and_its_folders() -> None:
    result = _python(
        _BARE + "import phiops, phiops.runtime, phiops.codegen\n"
        "x = phiops.ones([2]); print((x + x).numpy().tolist())\n"
        "print(phiops.runtime.__file__, phiops.codegen.__file__)"
    )
    assert result.returncode == 0, result.stderr
    values, files = result.stdout.splitlines()
    assert values == "[2.0, 2.0]"
    assert files == f"{REPO / 'runtime' / '__init__.py'} {REPO / 'codegen' / '__init__.py'}"


def test_importing_phiops_loads_the_api_on_first_use() -> None:
    result = _python(
        "import sys, phiops\n"
        "print('phiops.generated' in sys.modules)\n"
        "phiops.add\n"
        "print('phiops.generated' in sys.modules)"
    )
    assert result.stdout.split() == ["False", "True"], result.stderr


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'phiops' has no attribute 'no_such_op'"):
        phiops.no_such_op  # noqa: B018


def test_dir_lists_the_api() -> None:
    names = dir(phiops)
    assert {"add", "Tensor", "nn", "static", "to_tensor"} <= set(names)


def test_C_ops_holds_every_generated_op_function() -> None:
    from phiops import _C_ops
    from phiops.generated import api, inplace

    assert set(_C_ops.__all__) == set(api.__all__) | set(inplace.__all__)
    assert _C_ops.flatten is api.flatten


def test_the_command_lists_its_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: phiops COMMAND [ARGS...]")
    for name in ("codegen", "lint", "ir", "run", "compat", "flags", "kernels"):
        assert f"\n  {name} " in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_subcommand_has_help(command: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "phiops", command, "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: phiops {command}"), result.stdout[:200]


def test_an_unknown_subcommand_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flag"]) == 2
    assert capsys.readouterr().err.startswith(
        "phiops: unknown command 'flag'; did you mean 'flags'?"
    )


def test_no_subcommand_prints_the_usage_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert capsys.readouterr().out.startswith("usage: phiops COMMAND")


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"phiops {phiops.__version__}"


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`phiops lint FILE | head -1`: the command ends quietly when its reader goes away."""
    spec = tmp_path / "broken.yaml"
    spec.write_text("".join(f"- op : op{i}\n" for i in range(2000)), encoding="utf-8")
    pipeline = subprocess.run(
        f"{sys.executable} -m phiops lint {spec} | head -1",
        shell=True,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert pipeline.stdout.count("\n") == 1
    assert "Traceback" not in pipeline.stderr, pipeline.stderr


def test_the_api_module_imported_directly_loads_once() -> None:
    result = _python("from phiops import _api\nimport phiops\nprint(phiops.add is _api.add)")
    assert result.stdout.strip() == "True", result.stderr


def test_a_facade_submodule_alone_gives_paddles_tensor_methods() -> None:
    """`import phiops.nn` without touching `phiops.<name>`: x.flatten() is paddle's (every axis)."""
    result = _python(
        "import numpy as np\nimport phiops.nn\n"
        "from phiops.runtime.eager.tensor import to_tensor\n"
        "print(to_tensor(np.ones((2, 3, 4), 'float32')).flatten().shape)"
    )
    assert result.stdout.strip() == "[24]", result.stderr
