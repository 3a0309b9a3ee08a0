"""generate: specs -> views -> templates -> black -> FileManager, and the up-to-date check."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from phiops.codegen.errors import Diagnostic, SpecError
from phiops.codegen.files import (
    FileManager,
    body_is_intact,
    fingerprint_inputs,
    header,
    stale_files,
)
from phiops.codegen.model import OpSpec

__all__ = ["Project", "TEMPLATES", "SPARSE_TEMPLATES", "up_to_date", "build_files"]

# generated file -> template
TEMPLATES = {
    "__init__.py": "__init__.py.j2",
    "api.py": "api.py.j2",
    "backward.py": "backward.py.j2",
    "infer_meta.py": "infer_meta.py.j2",
    "registry.py": "registry.py.j2",
    "signatures.py": "signatures.py.j2",
    "pd_op_dialect.py": "pd_op_dialect.py.j2",
    "compat_signatures.py": "compat_signatures.py.j2",
    "inplace.py": "inplace.py.j2",
    "tensor_methods.py": "tensor_methods.py.j2",
    "python_api.py": "python_api.py.j2",
}
# written when the project has sparse spec files (SPARSE_SPEC_FILES)
SPARSE_TEMPLATES = {"sparse_api.py": "sparse_api.py.j2"}
SPEC_FILES = ("ops/api.yaml", "ops/backward.yaml")
# the sparse ops (PaddlePaddle's sparse_ops.yaml entries phiops implements): their own namespace,
# generated into generated/sparse_api.py (codegen/api/sparse.py, docs/tensor_kinds.md)
SPARSE_SPEC_FILES = ("ops/sparse_ops.yaml", "ops/sparse_backward.yaml")
COMPAT_SPEC_FILE = "ops/op_compat.yaml"
PYTHON_API_SPEC_FILE = "ops/python_api.yaml"
DOCS_SPEC_FILE = "ops/docs.yaml"
OP_TRAITS_SPEC_FILE = "ops/op_traits.yaml"
# generated file -> the context list its template places between `# fmt: off` and `# fmt: on`:
# the template writes the rest black-formatted, so black checks the file without that table
# (codegen/render.py::format_source) instead of formatting 1,700 rows
FMT_OFF_TABLES = {"pd_op_dialect.py": "pd_ops"}
# the generated files whose docstrings come from ops/docs.yaml
DOCUMENTED_FILES = ("api.py", "inplace.py")
# codegen's modules that only out-of-tree op packages use (`phiops codegen --package`, the
# setuptools hook): phiops's own generated/ does not depend on them
PACKAGE_MODE_SOURCES = frozenset({"package.py", "setuptools.py"})


@dataclass(frozen=True)
class Project:
    """Where things are: the root holds ops/, templates/, generated/ and codegen/."""

    root: Path

    @property
    def out_dir(self) -> Path:
        return self.root / "generated"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def spec_paths(self) -> list[Path]:
        return [self.root / name for name in SPEC_FILES if (self.root / name).exists()]

    def sparse_spec_paths(self) -> list[Path]:
        return [self.root / name for name in SPARSE_SPEC_FILES if (self.root / name).exists()]

    def generated_templates(self) -> dict[str, str]:
        """Generated file -> template, for this project (sparse_api.py with sparse specs)."""
        return {**TEMPLATES, **SPARSE_TEMPLATES} if self.sparse_spec_paths() else dict(TEMPLATES)

    def compat_path(self) -> Path:
        return self.root / COMPAT_SPEC_FILE

    def python_api_path(self) -> Path:
        return self.root / PYTHON_API_SPEC_FILE

    def docs_path(self) -> Path:
        return self.root / DOCS_SPEC_FILE

    def op_traits_path(self) -> Path:
        return self.root / OP_TRAITS_SPEC_FILE

    def fingerprint(self) -> str:
        codegen_dir = Path(__file__).resolve().parent
        from phiops.codegen.pd_op import pd_op_input_files

        files = [(p.relative_to(self.root).as_posix(), p) for p in self.spec_paths()]
        files += [(p.relative_to(self.root).as_posix(), p) for p in self.sparse_spec_paths()]
        if self.compat_path().exists():
            files.append((COMPAT_SPEC_FILE, self.compat_path()))
        if self.python_api_path().exists():
            files.append((PYTHON_API_SPEC_FILE, self.python_api_path()))
        if self.docs_path().exists():
            files.append((DOCS_SPEC_FILE, self.docs_path()))
        if self.op_traits_path().exists():
            files.append((OP_TRAITS_SPEC_FILE, self.op_traits_path()))
        files += [(p.relative_to(self.root).as_posix(), p) for p in pd_op_input_files(self.root)]
        files += [(f"templates/{p.name}", p) for p in self.templates.glob("*.j2")]
        files += [
            (f"codegen/{p.relative_to(codegen_dir).as_posix()}", p)
            for p in codegen_dir.rglob("*.py")
            if p.relative_to(codegen_dir).as_posix() not in PACKAGE_MODE_SOURCES
        ]
        return fingerprint_inputs(files, runtime_facts())


def runtime_facts() -> bytes:
    """What generation reads from the runtime, as text: the DataType and DataLayout names, every
    InferMeta function and every kernel with its signature. Part of the fingerprint, so that
    swapping a kernel's parameters or renaming an InferMeta function makes generated/ stale.

    Importing every kernel module takes about half a second, so the facts are cached in the
    runtime's ``__pycache__`` keyed on a hash of the runtime's sources: an up-to-date
    ``phiops codegen`` then imports nothing from the runtime. An unwritable cache is skipped.
    When the runtime is already imported, its registries (which code in this process may have
    changed) are read directly and the cache is neither read nor written."""
    if "phiops.runtime.kernels" in sys.modules:
        return _runtime_facts_uncached()
    key = _runtime_source_hash()
    cache = _RUNTIME_DIR / "__pycache__" / "codegen_runtime_facts.txt" if _RUNTIME_DIR else None
    if key is not None and cache is not None:
        try:
            cached = cache.read_bytes()
        except OSError:
            cached = b""
        head, _, facts = cached.partition(b"\n")
        if head == key.encode():
            return facts
    facts = _runtime_facts_uncached()
    if key is not None and cache is not None:
        temp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        try:
            cache.parent.mkdir(exist_ok=True)
            temp.write_bytes(key.encode() + b"\n" + facts)
            os.replace(temp, cache)
        except OSError:
            temp.unlink(missing_ok=True)
    return facts


def _find_runtime_dir() -> Path | None:
    spec = importlib.util.find_spec("runtime")
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


_RUNTIME_DIR = _find_runtime_dir()


def _runtime_source_hash() -> str | None:
    """sha256 of every runtime source file's path and contents; None when they cannot be read."""
    if _RUNTIME_DIR is None:
        return None
    hasher = hashlib.sha256()
    try:
        # the facts' format is this module's: a change here must not reuse facts cached before it
        hasher.update(Path(__file__).read_bytes() + b"\0")
        for path in sorted(_RUNTIME_DIR.rglob("*.py")):
            hasher.update(path.relative_to(_RUNTIME_DIR).as_posix().encode() + b"\0")
            hasher.update(path.read_bytes() + b"\0")
    except OSError:
        return None
    return hasher.hexdigest()


def _runtime_facts_uncached() -> bytes:
    import inspect

    from phiops.runtime.common import DataLayout, DataType
    from phiops.runtime.infermeta import INFER_META_FUNCTIONS
    from phiops.runtime.sparse.infermeta import SPARSE_INFER_META_FUNCTIONS
    from phiops.runtime.kernels import KERNEL_FACTORY

    lines = [
        "DataType " + " ".join(DataType.__members__),
        "DataLayout " + " ".join(DataLayout.__members__),
    ]
    for name, function in sorted(INFER_META_FUNCTIONS.items()):
        lines.append(f"infer_meta {name}{inspect.signature(function)}")
    for name, function in sorted(SPARSE_INFER_META_FUNCTIONS.items()):
        lines.append(f"sparse infer_meta {name}{inspect.signature(function)}")
    for name, registrations in sorted(KERNEL_FACTORY.kernels.items()):
        functions = {f"{k.fn.__module__}.{k.fn.__qualname__}": k.fn for k in registrations.values()}
        for where, function in sorted(functions.items()):
            lines.append(f"kernel {name} {where}{inspect.signature(function)}")
    lines.append("hand-written mappings " + " ".join(hand_written_mappings()))
    return "\n".join(lines).encode()


def hand_written_mappings() -> list[str]:
    """The legacy ops mapped by hand in runtime/compat/, sorted."""
    import phiops.runtime.compat.mappings  # noqa: F401  (registers the hand-written functions)
    from phiops.runtime.compat.registry import hand_written_op_types

    return hand_written_op_types()


def up_to_date(project: Project) -> bool:
    """True when every generated file carries the current fingerprint and an intact body, and
    no stale generated file is left: nothing is rendered or formatted to decide this."""
    fingerprint = project.fingerprint()
    templates = project.generated_templates()
    for name in templates:
        path = project.out_dir / name
        if not path.exists() or not body_is_intact(path.read_text(encoding="utf-8"), fingerprint):
            return False
    return not stale_files(project.out_dir, templates)


def build_files(project: Project) -> FileManager:
    """Load, check and render everything; SpecError (nothing written) on any problem."""
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
    from phiops.codegen.op_traits import op_traits_by_op
    from phiops.codegen.pd_op import pd_op_context
    from phiops.codegen.render import (
        format_source,
        make_environment,
        prune_black_cache,
        render_template,
    )
    from phiops.runtime.dispatch.checks import check_op

    paths = project.spec_paths()
    if not paths:
        raise SpecError(
            [
                Diagnostic(
                    None, None, f"no spec files: expected {SPEC_FILES[0]} under {project.root}"
                )
            ]
        )
    specs = codegen.load(paths, base=project.root)
    ops = list(specs.ops) + list(specs.backward_ops)
    compat_context = _compat_context(project, specs)
    docs = docs_by_op(project.docs_path(), specs, base=project.root)
    traits = op_traits_by_op(project.op_traits_path(), specs, base=project.root)
    generated_names = {op.name for op in ops}
    # codegen.load has run every check but the runtime's own (InferMeta functions, kernel
    # signatures), including building these views once (codegen.api.views.generation_problems).
    views: dict[str, OpViews] = {}
    diagnostics: list[Diagnostic] = []
    for op in ops:
        backward = specs.find(op.backward) if op.backward is not None else None
        views[op.name] = op_views(op, generated_names, backward, docs.get(op.name))
        info = views[op.name].info
        diagnostics.extend(
            Diagnostic(op.loc_of(key), op.name, message) for key, message in check_op(info)
        )
    if diagnostics:
        raise SpecError(diagnostics)

    spec_text = ", ".join(p.relative_to(project.root).as_posix() for p in paths)
    fingerprint = project.fingerprint()
    templates = project.generated_templates()

    def context_for(selected: Sequence[OpSpec]) -> dict[str, Any]:
        kernel_ops = [op for op in selected if op.invoke is None]
        forward = [op for op in selected if not op.is_backward]
        backward = [op for op in selected if op.is_backward]
        return {
            "spec_files": spec_text,
            "run_fingerprint": fingerprint,
            "other_files": tuple(sorted(name for name in templates if name != "__init__.py")),
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
                    "info": op_info_source(views[op.name].info, op, traits.get(op.name)),
                    "signature": views[op.name].signature,
                    "grad_spec": views[op.name].api.grad_spec,
                }
                for op in selected
            ],
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
    context.update(_sparse_context(project))
    context.update(pd_op_context(project.root))
    context.update(compat_context)
    context.update(_python_api_context(project, specs))
    for name, template in templates.items():
        rendered = render_template(env, template, context, ops, context_for)
        skeleton = None
        if name in FMT_OFF_TABLES:
            table = FMT_OFF_TABLES[name]
            skeleton = render_template(env, template, {**context, table: []}, ops, context_for)
        body = format_source(rendered, f"generated/{name}", skeleton)
        sources = spec_text
        if name == "pd_op_dialect.py":
            sources = context["pd_op_files"] or spec_text
        elif name == "compat_signatures.py" and project.compat_path().exists():
            sources = f"{spec_text}, {COMPAT_SPEC_FILE}"
        elif name == "python_api.py" and project.python_api_path().exists():
            sources = f"{PYTHON_API_SPEC_FILE}, {spec_text}"
        elif name == "registry.py" and traits:
            sources = f"{spec_text}, {OP_TRAITS_SPEC_FILE}"
        elif name in DOCUMENTED_FILES and docs:
            sources = f"{spec_text}, {DOCS_SPEC_FILE}"
        elif name == "sparse_api.py":
            sources = context["sparse_spec_files"]
        manager.add(name, header(sources, f"templates/{template}", fingerprint, body) + body)
    prune_black_cache()
    return manager


def _sparse_context(project: Project) -> dict[str, Any]:
    """The sparse ops of ops/sparse_ops.yaml and ops/sparse_backward.yaml, as views, each
    kernel checked against the runtime (InferMeta function, kernel signature) as a dense op's."""
    from phiops import codegen
    from phiops.codegen.api.python import GenerationError
    from phiops.codegen.api.sparse import is_sparse_infer_meta, sparse_op_view
    from phiops.runtime.dispatch.checks import check_op

    paths = project.sparse_spec_paths()
    spec_text = ", ".join(p.relative_to(project.root).as_posix() for p in paths)
    if not paths:
        return {
            "sparse_ops": [],
            "sparse_functions": [],
            "sparse_invoked": [],
            "sparse_spec_files": "no sparse spec files",
        }
    # PaddlePaddle's own entries: its argument names are the API's, as for its dense files
    specs = codegen.load(paths, base=project.root, python_api=False)
    by_name = {op.name: op for op in (*specs.ops, *specs.backward_ops)}
    views = []
    diagnostics: list[Diagnostic] = []
    for op in (*specs.ops, *specs.backward_ops):
        backward = by_name.get(op.backward) if op.backward is not None else None
        try:
            view = sparse_op_view(op, backward, op.loc.file)
        except GenerationError as error:
            diagnostics.append(error.diagnostic)
            continue
        views.append(view)
        for kernel in view.kernels:
            problems = check_op(kernel.info)
            if is_sparse_infer_meta(kernel.info.infer_meta):
                problems = [p for p in problems if p[0] != "infer_meta"]
                problems += _sparse_infer_meta_problems(kernel.info)
            diagnostics.extend(
                Diagnostic(op.loc_of(key), op.name, f"kernel '{kernel.name}': {message}")
                for key, message in problems
            )
    if diagnostics:
        raise SpecError(diagnostics)
    functions = sorted(
        {
            (
                view.infer_meta.function,
                view.infer_meta.phi_name,
                is_sparse_infer_meta(view.infer_meta.phi_name),
            )
            for view in views
            if view.infer_meta is not None
        }
    )
    invoked = sorted({op.invoke.name for op in specs.backward_ops if op.invoke is not None})
    return {
        "sparse_ops": views,
        "sparse_functions": functions,
        "sparse_invoked": invoked,
        "sparse_spec_files": spec_text,
    }


def _sparse_infer_meta_problems(info) -> list[tuple[str, str]]:
    """A ``sparse::`` InferMeta function's problems, as check_op gives a dense one's."""
    import inspect

    from phiops.runtime.errors import NotFoundError
    from phiops.runtime.sparse.infermeta import get_sparse_infer_meta

    try:
        function = get_sparse_infer_meta(info.infer_meta)
    except NotFoundError as error:
        return [("infer_meta", str(error))]
    expected = list(info.infer_meta_params) + [o.name for o in info.outputs]
    parameters = [p.name for p in inspect.signature(function).parameters.values()]
    parameters = [name for name in parameters if name != "config"]
    if parameters != expected:
        return [
            (
                "infer_meta",
                f"InferMeta {info.infer_meta} takes ({', '.join(parameters)}) besides config; "
                f"the spec passes ({', '.join(expected)})",
            )
        ]
    return []


def _python_api_context(project: Project, specs) -> dict[str, Any]:
    """The paddle.* functions of ops/python_api.yaml (checked against ``specs``), as views."""
    from phiops.codegen.api.python import GenerationError
    from phiops.codegen.api.python_api import python_api_view
    from phiops.codegen.python_api import check_python_api

    if not project.python_api_path().exists():
        return {"python_apis": [], "python_api_file": PYTHON_API_SPEC_FILE}
    by_name = {op.name: op for op in (*specs.ops, *specs.backward_ops)}
    found, diagnostics = check_python_api(project.python_api_path(), by_name, base=project.root)
    if found is None:
        raise SpecError(diagnostics)
    views = []
    for api in found.apis:
        try:
            views.append(python_api_view(api, by_name))
        except GenerationError as error:
            diagnostics.append(error.diagnostic)
    if diagnostics:
        raise SpecError(diagnostics)
    return {"python_apis": views, "python_api_file": PYTHON_API_SPEC_FILE}


def _compat_context(project: Project, specs) -> dict[str, Any]:
    """The legacy ops' mapping functions from ops/op_compat.yaml (checked against ``specs``)."""
    from phiops.codegen.api.compat import mapping_views, pd_op_names
    from phiops.codegen.compat import CompatSet, check_compat

    if project.compat_path().exists():
        by_name = {op.name: op for op in (*specs.ops, *specs.backward_ops)}
        compat, diagnostics = check_compat(project.compat_path(), by_name, base=project.root)
        if compat is None or diagnostics:
            raise SpecError(diagnostics)
    else:
        compat = CompatSet((), COMPAT_SPEC_FILE)
    views, problems = mapping_views(specs, compat, set(hand_written_mappings()))
    if problems:
        raise SpecError(problems)
    return {"mappings": views, "pd_op_names": pd_op_names(specs, compat)}
