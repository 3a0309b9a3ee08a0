"""The package build runs codegen, so a checkout without generated/ still builds a working
package, and the wheel installs one top-level package, `phiops`, that works beside other
packages named `runtime`, `generated` or `codegen`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.codegen.project import make_project

REPO = Path(__file__).resolve().parents[1]


def _copy_sources(target: Path) -> None:
    for name in (
        "phiops",
        "codegen",
        "runtime",
        "templates",
        "ops",
        "setup.py",
        "pyproject.toml",
        "README.md",
    ):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, target / name)


def _build_py(checkout: Path, lib: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_build_stops_on_a_spec_error(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    spec = checkout / "ops" / "api.yaml"
    spec.write_text(
        spec.read_text().replace("func : ElementwiseInferMeta", "func : ElementwiseInferMetaa", 1)
    )
    build = _build_py(checkout, tmp_path / "lib")
    assert build.returncode != 0
    assert "InferMeta function 'ElementwiseInferMetaa'" in build.stderr
    assert not (checkout / "generated").exists()


_USE_THE_WHEEL = """
import phiops as phi
x = phi.to_tensor([1.0, 2.0, 3.0])
x.stop_gradient = False
y = phi.sum(phi.multiply(x, x))
y.backward()
print(phi.add(phi.ones([2]), phi.ones([2])).numpy().tolist(), x.grad.numpy().tolist())
import phiops.generated, phiops.runtime.autograd
print(phiops.generated.__file__.startswith(SITE), phiops.runtime.autograd.__file__.startswith(SITE))
# the user's own packages of those names are untouched
import generated, runtime, codegen
print(generated.WHOSE, runtime.WHOSE, codegen.WHOSE)
for generator_package in ("jinja2", "yaml", "black"):
    try:
        __import__(generator_package)
    except ImportError:
        continue
    raise SystemExit(f"{generator_package} is importable: the test venv is not bare")
"""


def _bare_venv(where: Path) -> Path:
    """A venv without pip whose only third-party packages are numpy and ml_dtypes (phiops'
    run-time dependencies, linked from ours)."""
    import ml_dtypes
    import numpy

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    numpy_home = where / "numpy-only"
    numpy_home.mkdir()
    ours = Path(numpy.__file__).resolve().parent.parent
    for name in ("numpy", "numpy.libs"):
        if (ours / name).exists():
            (numpy_home / name).symlink_to(ours / name)
    (numpy_home / "ml_dtypes").symlink_to(Path(ml_dtypes.__file__).resolve().parent)
    Path(site, "numpy_only.pth").write_text(str(numpy_home) + "\n")
    return python


# The `codegen` extra (jinja2, pyyaml, black) and what they need, linked from our environment.
_CODEGEN_EXTRA = (
    "jinja2",
    "markupsafe",
    "yaml",
    "_yaml",
    "black",
    "blib2to3",
    "_black_version.py",
    "click",
    "mypy_extensions.py",
    "packaging",
    "pathspec",
    "platformdirs",
    "pytokens",
)


def _add_codegen_extra(python: Path) -> None:
    """Make the `codegen` extra importable in the bare venv of ``python``."""
    import black

    ours = Path(black.__file__).resolve().parent.parent
    extra = python.parent.parent / "codegen-extra"
    extra.mkdir()
    names = list(_CODEGEN_EXTRA) + [p.name for p in ours.glob("*__mypyc*")]
    names += [
        p.name
        for p in ours.glob("*.dist-info")
        if p.name.split("-")[0].lower()
        in {
            "jinja2",
            "markupsafe",
            "pyyaml",
            "black",
            "click",
            "mypy_extensions",
            "packaging",
            "pathspec",
            "platformdirs",
            "pytokens",
        }
    ]
    for name in names:
        if (ours / name).exists():
            (extra / name).symlink_to(ours / name)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "codegen_extra.pth").write_text(str(extra) + "\n")


def test_build_regenerates_a_missing_generated_folder(tmp_path: Path) -> None:
    """A checkout without generated/ (an sdist, a hand-deleted folder) gets it from the build's
    codegen, and the built package carries it. The project's specs are a small set of ops, so
    that the generator's whole run (black included) takes a second instead of a minute; the
    wheel test below builds the full project from what a clone holds."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    shutil.rmtree(checkout / "ops")
    make_project(checkout)
    assert not (checkout / "generated").exists()
    build = _build_py(checkout, tmp_path / "lib")
    assert build.returncode == 0, build.stdout + build.stderr
    written = {p.name for p in (checkout / "generated").glob("*.py")}
    assert {"__init__.py", "api.py", "registry.py", "infer_meta.py", "signatures.py"} <= written
    built = tmp_path / "lib" / "phiops" / "generated"
    assert {p.name for p in built.glob("*.py")} == written
    api = (built / "api.py").read_text()
    assert "\ndef add(" in api and "\ndef full(" in api and "\ndef ones(" in api
    assert "\ndef conv2d(" not in api  # the project's specs, not the repository's


def test_wheel_installs_and_works_outside_the_checkout(tmp_path: Path) -> None:
    """The wheel of a checkout as a clone holds it (generated/ committed and up to date: the
    build's codegen finds it so and writes nothing) installs and works outside the checkout."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _copy_sources(checkout)
    shutil.copytree(
        REPO / "generated", checkout / "generated", ignore=shutil.ignore_patterns("__pycache__")
    )
    before = {p.name: p.read_bytes() for p in (checkout / "generated").glob("*.py")}
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(tmp_path / "dist"), "."],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert {p.name: p.read_bytes() for p in (checkout / "generated").glob("*.py")} == before
    (wheel,) = (tmp_path / "dist").glob("phiops-*.whl")
    python = _bare_venv(tmp_path / "venv")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index"]
        + ["--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    elsewhere = tmp_path / "elsewhere"
    _users_own_packages(python, elsewhere)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    site = str(tmp_path / "venv")
    use = subprocess.run(
        [str(python), "-c", f"SITE = {site!r}\n" + _USE_THE_WHEEL],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert use.returncode == 0, use.stderr
    assert use.stdout.splitlines() == [
        "[2.0, 2.0] [2.0, 4.0, 6.0]",
        "True True",
        "user's generated/ site-packages runtime site-packages codegen",
    ]
    phiops_command = str(python.parent / "phiops")
    usage = subprocess.run(
        [phiops_command, "--help"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert usage.returncode == 0, usage.stderr
    assert usage.stdout.startswith("usage: phiops COMMAND [ARGS...]")
    flags = subprocess.run(
        [phiops_command, "flags"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert flags.returncode == 0, flags.stderr
    assert "check_nan_inf" in flags.stdout
    # The generator is not usable without its extra, and says so instead of a traceback.
    codegen = subprocess.run(
        [phiops_command, "codegen"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert codegen.returncode == 1
    assert codegen.stderr.strip().startswith("codegen needs pyyaml, jinja2, black: pip install")
    # With the extra, the installed generator works on a project given with --root.
    _add_codegen_extra(python)
    project = make_project(tmp_path / "project")
    generate = subprocess.run(
        [phiops_command, "codegen", "--root", str(project)],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generate.returncode == 0, generate.stderr
    assert (project / "generated" / "api.py").read_text().count("\ndef ") >= 3
    check = subprocess.run(
        [phiops_command, "codegen", "--root", str(project), "--check"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "phiops/runtime/autograd/__init__.py",
        "phiops/py.typed",
        "phiops/generated/api.py",
        "phiops/runtime/kernels/paddle_3_3_1_cpu.json",  # phiops kernels --coverage reads it
        "phiops/templates/api.py.j2",  # codegen --package renders op packages with them
        "phiops/templates/package/registry.py.j2",
    } <= names
    assert {name.split("/")[0] for name in names} == {"phiops", "phiops-0.1.0.dist-info"}
    assert not [name for name in names if name.endswith((".c", ".h"))]
    # The installed generator renders an op package (examples/custom_op's) with its templates.
    package = tmp_path / "ops_project" / "phiops_custom_op_example"
    shutil.copytree(
        REPO / "examples" / "custom_op" / "phiops_custom_op_example",
        package,
        ignore=shutil.ignore_patterns("generated", "__pycache__"),
    )
    op_package = subprocess.run(
        [phiops_command, "codegen", "--package", str(package)],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert op_package.returncode == 0, op_package.stdout + op_package.stderr
    assert (package / "generated" / "registry.py").is_file()


def _users_own_packages(python: Path, elsewhere: Path) -> None:
    """Packages named `runtime` and `codegen` in the venv (PyPI has both), and a `generated/`
    folder in the directory the user works in."""
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for name in ("runtime", "codegen"):
        (Path(site) / name).mkdir()
        (Path(site) / name / "__init__.py").write_text(f'WHOSE = "site-packages {name}"\n')
    elsewhere.mkdir()
    (elsewhere / "generated").mkdir()
    (elsewhere / "generated" / "__init__.py").write_text('WHOSE = "user\'s generated/"\n')
