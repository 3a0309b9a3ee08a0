"""Out-of-tree op packages: ``phiops codegen --package DIR`` (docs/extending.md).

An op package is a Python package of its own (``DIR``, imported by its folder's name) that
holds, beside its ``__init__.py``:

- ``op_package.yaml``, the manifest: ``dialect`` (the IR dialect its ops are built and saved
  in; default: the package's import name) and ``modules`` (the package's modules that define
  its InferMeta functions and kernels, imported before the specs are checked against them and
  before the generated registry registers the ops; default ``[infer_meta, kernels]``);
- ``ops.yaml`` and, for gradients, ``backward.yaml``: op specs in phiops's (PaddlePaddle's)
  schema, loaded, linted and validated exactly as phiops's own ``ops/api.yaml``;
- ``docs.yaml`` (optional): the docstrings' prose, checked as phiops's ``ops/docs.yaml``.

Generation writes ``DIR/generated/``: the API (``api.py``, ``backward.py``, ``inplace.py``),
the InferMeta wrappers, the kernel signatures and the Tensor methods from phiops's own
templates, and the package's ``registry.py`` (its OpDefs, registered through
``register_op_package``, which refuses an op that shadows one already registered),
``dialect.py`` (its dialect's op table) and ``__init__.py`` from ``templates/package/``.

Generation is atomic: the whole folder is written beside the old one and swapped in with
renames, so an interrupted run leaves the old folder or the new one, never a mix. ``--check``
renders without writing and fails, with a diff, when the folder is stale or was edited by
hand, as phiops's own ``--check`` does.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import tempfile
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from phiops.codegen.errors import Diagnostic, SpecError
from phiops.codegen.files import (
    GENERATED_MARK,
    FileManager,
    body_is_intact,
    fingerprint_inputs,
    header,
    stale_files,
)
from phiops.codegen.model import Location, OpSpec

__all__ = [
    "MANIFEST",
    "PACKAGE_TEMPLATES",
    "Manifest",
    "OpPackageProject",
    "read_manifest",
    "build_package_files",
    "package_up_to_date",
    "write_atomically",
]

MANIFEST = "op_package.yaml"
SPEC_FILES = ("ops.yaml", "backward.yaml")
DOCS_FILE = "docs.yaml"
OUT_DIR = "generated"
DEFAULT_MODULES = ("infer_meta", "kernels")
MANIFEST_KEYS = ("dialect", "modules")
# generated file -> template (under templates/)
PACKAGE_TEMPLATES = {
    "__init__.py": "package/__init__.py.j2",
    "registry.py": "package/registry.py.j2",
    "dialect.py": "package/dialect.py.j2",
    "api.py": "api.py.j2",
    "backward.py": "backward.py.j2",
    "infer_meta.py": "infer_meta.py.j2",
    "signatures.py": "signatures.py.j2",
    "inplace.py": "inplace.py.j2",
    "tensor_methods.py": "tensor_methods.py.j2",
}
DOCUMENTED_FILES = ("api.py", "inplace.py")
# attribute types an op package's ops may take -> their kinds in the package's IR dialect. A
# Scalar or IntArray, which pd_op builds as an operand that may come from a tensor, and a
# Place are not supported in op packages yet.
ATTRIBUTE_KINDS = {
    "bool": "bool",
    "int": "int32",
    "int64_t": "int64",
    "float": "float",
    "double": "double",
    "str": "str",
    "DataType": "dtype",
    "bool[]": "array<bool>",
    "int[]": "array<int32>",
    "int64_t[]": "array<int64>",
    "float[]": "array<float>",
    "double[]": "array<double>",
    "str[]": "array<str>",
}
# dialect names phiops (or PaddlePaddle) uses: an op package may not take them
RESERVED_DIALECTS = ("builtin", "pd_op", "cf", "pd_dist", "custom_op", "onednn_op")


def templates_dir() -> Path:
    """phiops's templates/: beside codegen/ in a checkout or an editable install, and
    ``phiops/templates`` in a wheel (setup.py ships them there)."""
    return Path(__file__).resolve().parent.parent / "templates"


@dataclass(frozen=True)
class Manifest:
    """An op package's ``op_package.yaml``."""

    dialect: str
    modules: tuple[str, ...]


@dataclass(frozen=True)
class OpPackageProject:
    """Where an op package's things are: ``directory`` is the package (its name is the
    folder's); messages name its files relative to the folder above it."""

    directory: Path
    manifest: Manifest

    @property
    def name(self) -> str:
        return self.directory.name

    @property
    def base(self) -> Path:
        return self.directory.parent

    @property
    def out_dir(self) -> Path:
        return self.directory / OUT_DIR

    @property
    def templates(self) -> Path:
        return templates_dir()

    def display(self, path: Path) -> str:
        return path.relative_to(self.base).as_posix()

    def spec_paths(self) -> list[Path]:
        return [self.directory / n for n in SPEC_FILES if (self.directory / n).exists()]

    def docs_path(self) -> Path:
        return self.directory / DOCS_FILE

    def module_names(self) -> tuple[str, ...]:
        return tuple(f"{self.name}.{module}" for module in self.manifest.modules)

    def sources(self) -> list[Path]:
        """The package's own Python sources (its kernels, InferMeta functions and whatever they
        import from the package), generated/ excepted."""
        return sorted(
            p
            for p in self.directory.rglob("*.py")
            if OUT_DIR not in p.relative_to(self.directory).parts[:1]
            and "__pycache__" not in p.parts
        )

    def fingerprint(self) -> str:
        """Hash of everything generation reads: the specs, the manifest, docs.yaml, the
        package's Python sources, phiops's templates and codegen's sources."""
        codegen_dir = Path(__file__).resolve().parent
        files = [(self.display(p), p) for p in self.spec_paths()]
        for path in (self.directory / MANIFEST, self.docs_path()):
            if path.exists():
                files.append((self.display(path), path))
        files += [(self.display(p), p) for p in self.sources()]
        files += [
            (f"templates/{p.relative_to(self.templates).as_posix()}", p)
            for p in sorted(self.templates.rglob("*.j2"))
        ]
        files += [
            (f"codegen/{p.relative_to(codegen_dir).as_posix()}", p)
            for p in sorted(codegen_dir.rglob("*.py"))
        ]
        return fingerprint_inputs(files)


def _not_a_package(directory: Path) -> str | None:
    if not directory.is_dir():
        return f"{directory}: no such directory (--package takes the op package's folder)"
    if not (directory / "__init__.py").exists():
        return f"{directory} is not a Python package (no __init__.py)"
    if not (directory / SPEC_FILES[0]).exists():
        return f"{directory} is not an op package: it has no {SPEC_FILES[0]}"
    if not directory.name.isidentifier():
        return f"{directory}: the folder's name {directory.name!r} is not an importable name"
    return None


def read_manifest(directory: Path) -> Manifest:
    """``directory/op_package.yaml`` (defaults where it is absent); SpecError with file:line:col
    for an unknown key, a value of the wrong kind, a reserved or malformed dialect name."""
    from phiops.codegen.loader import YMap, YScalar, YSeq, _compose, read_spec_file
    from phiops.codegen.parse import suggest
    import yaml

    path = directory / MANIFEST
    dialect, modules = directory.name, DEFAULT_MODULES
    if not path.exists():
        return Manifest(dialect, modules)
    display = f"{directory.name}/{MANIFEST}"
    text, diagnostics = read_spec_file(path, display)
    if text is None:
        raise SpecError(diagnostics)
    try:
        root = _compose(text, display)
    except yaml.MarkedYAMLError as error:
        from phiops.codegen.yaml_errors import syntax_error

        raise SpecError([syntax_error(text, display, error)]) from None
    except Exception as error:  # noqa: BLE001  (the loader's own rejections)
        found = getattr(error, "diagnostic", None)
        raise SpecError([found or Diagnostic(Location(display, 1, 1), None, str(error))]) from None
    if root is None:
        return Manifest(dialect, modules)
    if not isinstance(root, YMap):
        raise SpecError([Diagnostic(root.loc, None, "expected a mapping of dialect and modules")])
    for key, (key_node, _) in root.items.items():
        if key not in MANIFEST_KEYS:
            diagnostics.append(
                Diagnostic(
                    key_node.loc,
                    None,
                    f"unknown key '{key}' in {MANIFEST}",
                    suggest(key, MANIFEST_KEYS) or f"the keys are {', '.join(MANIFEST_KEYS)}",
                )
            )
    if "dialect" in root.items:
        node = root.items["dialect"][1]
        value = node.value if isinstance(node, YScalar) else None
        if not isinstance(value, str) or not value.isidentifier() or value != value.lower():
            diagnostics.append(
                Diagnostic(node.loc, None, "'dialect' must be a lower-case identifier")
            )
        elif value in RESERVED_DIALECTS:
            diagnostics.append(
                Diagnostic(node.loc, None, f"dialect '{value}' is phiops's own; choose another")
            )
        else:
            dialect = value
    if "modules" in root.items:
        node = root.items["modules"][1]
        items = node.items if isinstance(node, YSeq) else ()
        names = [item.value if isinstance(item, YScalar) else None for item in items]
        if not isinstance(node, YSeq) or not all(
            isinstance(n, str) and all(part.isidentifier() for part in n.split(".")) for n in names
        ):
            diagnostics.append(
                Diagnostic(
                    node.loc,
                    None,
                    "'modules' must be a list of the package's module names (like [kernels])",
                )
            )
        else:
            modules = tuple(names)
    if diagnostics:
        raise SpecError(diagnostics)
    return Manifest(dialect, modules)


def open_package(directory: Path) -> OpPackageProject:
    """The op package in ``directory``; SpecError when it is not one or its manifest is bad."""
    directory = Path(os.path.abspath(directory))
    reason = _not_a_package(directory)
    if reason is not None:
        raise SpecError([Diagnostic(None, None, reason)])
    return OpPackageProject(directory, read_manifest(directory))


def import_package_modules(project: OpPackageProject) -> list[Diagnostic]:
    """Import the package's InferMeta and kernel modules (registering them) without running
    its ``__init__.py``, which imports the generated folder this run is about to write: the
    package is entered in ``sys.modules`` as a bare module over its folder. Returns a
    diagnostic per module that cannot be imported."""
    import phiops._api  # noqa: F401  (phiops's runtime, ops and Tensor methods first)

    name = project.name
    existing = sys.modules.get(name)
    if (
        existing is None
        or Path(getattr(existing, "__file__", "") or "").parent != project.directory
    ):
        stub = types.ModuleType(name)
        stub.__path__ = [str(project.directory)]  # type: ignore[attr-defined]
        stub.__file__ = str(project.directory / "__init__.py")
        sys.modules[name] = stub
    if str(project.base) not in sys.path:
        sys.path.insert(0, str(project.base))
    problems = []
    manifest_display = f"{name}/{MANIFEST}"
    for module in project.module_names():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            problems.append(
                Diagnostic(
                    Location(manifest_display, 1, 1),
                    None,
                    f"cannot import module '{module}' ({error}); 'modules' of {MANIFEST} names "
                    "the modules that define the package's InferMeta functions and kernels",
                )
            )
        except Exception as error:  # noqa: BLE001  (the user's module failed: say how)
            problems.append(
                Diagnostic(
                    Location(manifest_display, 1, 1),
                    None,
                    f"importing module '{module}' failed: {type(error).__name__}: {error}",
                )
            )
    return problems


def _package_problems(project: OpPackageProject, ops: Sequence[OpSpec]) -> list[Diagnostic]:
    """What an op package may not do: redefine an op phiops (or another registered package)
    has, take a Tensor method name Tensor already has, or take an attribute type its dialect
    cannot carry."""
    from phiops.runtime.dispatch.op_def import OP_DEFS
    from phiops.runtime.eager.tensor import Tensor

    problems = []
    for op in ops:
        previous = OP_DEFS.get(op.name)
        if previous is not None and previous.info.dialect != project.manifest.dialect:
            owner = (
                "phiops"
                if previous.info.dialect == "pd_op"
                else f"the op package of dialect '{previous.info.dialect}'"
            )
            problems.append(
                Diagnostic(
                    op.loc,
                    op.name,
                    f"an op of this name is already defined by {owner} ({previous.location}); "
                    "an op package may not redefine an op",
                    "rename the package's op (a prefix of the package's own is the usual way)",
                )
            )
        elif (
            not op.is_backward
            and op.args
            and next(iter(op.args)).type.is_tensor_like
            and hasattr(Tensor, op.name)
        ):
            problems.append(
                Diagnostic(
                    op.loc,
                    op.name,
                    f"Tensor already has an attribute '{op.name}', which the op's Tensor method "
                    "would replace",
                    "rename the op",
                )
            )
        for arg in op.attrs:
            spelled = str(arg.type)
            if spelled not in ATTRIBUTE_KINDS:
                problems.append(
                    Diagnostic(
                        arg.loc,
                        op.name,
                        f"attribute '{arg.name}' is a {spelled}; the ops of op packages take "
                        f"attributes of the types {', '.join(ATTRIBUTE_KINDS)} (Scalar, "
                        "IntArray and Place attributes are not supported in op packages yet)",
                    )
                )
    return problems


def dialect_row(op: OpSpec) -> tuple[str, str, str]:
    """``op``'s row in its package's dialect table (runtime/ir/dialects/table.py): its inputs
    as operands, its attributes with their kinds, its outputs as results."""

    def word(name: str, is_list: bool, optional: bool) -> str:
        return name + ("?" if optional else "") + ("[]" if is_list else "")

    operands = " ".join(word(a.name, a.type.is_list, a.name in op.optional) for a in op.inputs)
    attributes = " ".join(f"{a.name}:{ATTRIBUTE_KINDS[str(a.type)]}" for a in op.attrs)
    results = " ".join(word(o.name, o.type.is_list, o.name in op.optional) for o in op.outputs)
    return operands, attributes, results


def package_up_to_date(project: OpPackageProject) -> bool:
    """True when every generated file carries the current fingerprint and an intact body and
    no stale generated file is left (nothing rendered to decide it)."""
    fingerprint = project.fingerprint()
    for name in PACKAGE_TEMPLATES:
        path = project.out_dir / name
        if not path.exists() or not body_is_intact(path.read_text(encoding="utf-8"), fingerprint):
            return False
    return not stale_files(project.out_dir, PACKAGE_TEMPLATES)


def build_package_files(project: OpPackageProject) -> FileManager:
    """Load, lint and check the package's specs against phiops and the package's runtime
    modules, and render its generated folder; SpecError (nothing written) on any problem."""
    from phiops import codegen
    from phiops.codegen.api.registry import op_info_source
    from phiops.codegen.api.views import (
        OpViews,
        infer_meta_function_variable,
        inplace_ops,
        inplace_view,
        op_views,
    )
    from phiops.codegen.docs import docs_by_op
    from phiops.codegen.render import format_source, make_environment, render_template
    from phiops.runtime.dispatch.checks import check_op

    if not project.templates.is_dir():
        raise SpecError(
            [
                Diagnostic(
                    None,
                    None,
                    f"phiops's templates are not at {project.templates}: generating an op "
                    "package needs phiops installed from a checkout (pip install -e)",
                )
            ]
        )
    paths = project.spec_paths()
    specs = codegen.load(paths, base=project.base)
    diagnostics = import_package_modules(project)
    ops = list(specs.ops) + list(specs.backward_ops)
    diagnostics += _package_problems(project, ops)
    if diagnostics:
        raise SpecError(diagnostics)
    docs = docs_by_op(project.docs_path(), specs, base=project.base)
    names = {op.name for op in ops}
    views: dict[str, OpViews] = {}
    for op in ops:
        backward = specs.find(op.backward) if op.backward is not None else None
        views[op.name] = op_views(op, names, backward, docs.get(op.name))
        diagnostics.extend(
            Diagnostic(op.loc_of(key), op.name, message)
            for key, message in check_op(views[op.name].info)
        )
    if diagnostics:
        raise SpecError(diagnostics)

    spec_text = ", ".join(project.display(p) for p in paths)
    fingerprint = project.fingerprint()
    dialect = project.manifest.dialect

    def context_for(selected: Sequence[OpSpec]) -> dict[str, Any]:
        kernel_ops = [op for op in selected if op.invoke is None]
        forward = [op for op in selected if not op.is_backward]
        backward = [op for op in selected if op.is_backward]
        return {
            "package": project.name,
            "dialect": dialect,
            "modules": project.module_names(),
            "spec_files": spec_text,
            "run_fingerprint": fingerprint,
            "other_files": tuple(sorted(n for n in PACKAGE_TEMPLATES if n != "__init__.py")),
            "ops": [views[op.name].api for op in forward],
            "backward_ops": [views[op.name].api for op in backward],
            "forward_invoked": sorted({op.invoke.name for op in forward if op.invoke is not None}),
            "invoked": sorted(
                {op.invoke.name for op in backward if op.invoke is not None}
                & {op.name for op in specs.ops}
            ),
            # backward ops a backward op invokes (PaddlePaddle's clip_double_grad: clip_grad),
            # defined in backward.py itself
            "backward_invoked": sorted(
                {op.invoke.name for op in backward if op.invoke is not None}
                & {op.name for op in specs.backward_ops}
            ),
            "infer_ops": [views[op.name].infer_meta for op in kernel_ops],
            "signatures": [views[op.name].signature for op in kernel_ops],
            "registrations": [
                {
                    "name": op.name,
                    "info": _with_dialect(op_info_source(views[op.name].info, op), dialect),
                    "signature": views[op.name].signature,
                    "grad_spec": views[op.name].api.grad_spec,
                }
                for op in selected
            ],
            "dialect_rows": [(op.name, dialect_row(op)) for op in selected],
            "api_names": [op.name for op in forward],
            "inplace_ops": [inplace_view(op, docs.get(op.name)) for op in inplace_ops(forward)],
            "tensor_methods": [
                op.name
                for op in forward
                if op.args
                and next(iter(op.args)).type.is_tensor_like
                and not next(iter(op.args)).type.is_list
                and not op.name.endswith("_")
            ],
            "backward_names": [op.name for op in backward],
            "functions": sorted(
                {
                    (infer_meta_function_variable(op.infer_meta.func), op.infer_meta.func)
                    for op in kernel_ops
                }
            ),
        }

    env = make_environment(project.templates)
    manager = FileManager(project.out_dir)
    context = context_for(ops)
    for name, template in PACKAGE_TEMPLATES.items():
        rendered = render_template(env, template, context, ops, context_for)
        body = format_source(rendered, f"{project.name}/{OUT_DIR}/{name}")
        sources = spec_text
        if name in DOCUMENTED_FILES and docs:
            sources = f"{spec_text}, {project.display(project.docs_path())}"
        manager.add(name, header(sources, f"templates/{template}", fingerprint, body) + body)
    return manager


def _with_dialect(source: str, dialect: str) -> str:
    """``OpInfo(...)`` source with the op package's dialect as its last field."""
    assert source.startswith("OpInfo(") and source.endswith(")")
    return f"{source[:-1]}, dialect={dialect!r})"


def _changed(manager: FileManager) -> bool:
    for name, content in manager.files.items():
        target = manager.out_dir / name
        if not target.exists() or target.read_text(encoding="utf-8") != content:
            return True
    return bool(manager.stale())


def _foreign_files(out_dir: Path) -> list[Path]:
    """Files in ``out_dir`` that codegen did not write (no @generated header; caches aside)."""
    if not out_dir.is_dir():
        return []
    found = []
    for path in sorted(out_dir.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir():
            continue
        try:
            with path.open(encoding="utf-8") as handle:
                first = handle.readline()
        except (OSError, UnicodeDecodeError):
            first = ""
        if not first.startswith(GENERATED_MARK):
            found.append(path)
    return found


def write_atomically(manager: FileManager) -> list[str]:
    """Write ``manager``'s files as a whole new folder swapped in for the old one (one rename
    each way), so that the folder is never half-written; returns the names that changed ([]
    when none did, and then nothing is touched). Refuses (OSError) a folder holding files
    codegen did not write. Folders left by a run that was killed are removed first."""
    out_dir = manager.out_dir
    parent = out_dir.parent
    parent.mkdir(parents=True, exist_ok=True)
    for leftover in parent.glob(f".{out_dir.name}.*.tmp"):
        shutil.rmtree(leftover, ignore_errors=True)
    if not _changed(manager):
        return []
    foreign = _foreign_files(out_dir)
    if foreign:
        raise OSError(
            0,
            f"{out_dir} holds files codegen did not write ("
            + ", ".join(p.relative_to(out_dir).as_posix() for p in foreign)
            + "); move them out of the generated folder",
        )
    changed = [
        name
        for name, content in sorted(manager.files.items())
        if not (manager.out_dir / name).exists()
        or (manager.out_dir / name).read_text(encoding="utf-8") != content
    ]
    changed += [f"{p.relative_to(out_dir).as_posix()} (removed)" for p in manager.stale()]
    umask = os.umask(0o022)
    os.umask(umask)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=parent))
    old = parent / f".{out_dir.name}.{os.getpid()}.old.tmp"
    try:
        os.chmod(staging, 0o777 & ~umask)
        for name, content in manager.files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(content)
            os.chmod(target, 0o666 & ~umask)
        if out_dir.exists():
            os.replace(out_dir, old)
        os.replace(staging, out_dir)
    except BaseException:
        if old.exists() and not out_dir.exists():
            os.replace(old, out_dir)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return changed


def run(directory: Path, *, check: bool = False, list_only: bool = False) -> int:
    """``phiops codegen --package DIRECTORY [--check | --list]``: the exit status."""
    try:
        project = open_package(directory)
    except SpecError as error:
        print(error, file=sys.stderr)
        return 1
    shown = f"{project.name}/{OUT_DIR}"
    if list_only:
        for name in PACKAGE_TEMPLATES:
            print(f"{shown}/{name}")
        return 0
    if package_up_to_date(project):
        if not check:
            print(f"{shown}/ is up to date")
        return 0
    try:
        manager = build_package_files(project)
    except SpecError as error:
        print(error, file=sys.stderr)
        count = len(error.diagnostics)
        print(f"{count} error{'s' if count != 1 else ''}; nothing was written", file=sys.stderr)
        return 1
    if check:
        diff = manager.diff()
        if diff:
            sys.stdout.write(diff)
            print(
                f"{shown}/ is stale or was edited by hand; run "
                f"`phiops codegen --package {directory}`",
                file=sys.stderr,
            )
            return 1
        return 0
    try:
        changed = write_atomically(manager)
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"cannot write {project.out_dir}: {reason}; nothing was changed", file=sys.stderr)
        return 1
    for name in changed:
        print(f"wrote {shown}/{name}")
    if not changed:
        print(f"{shown}/ is up to date")
    return 0
