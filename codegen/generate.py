"""generate: specs -> views -> templates -> black -> FileManager, and the up-to-date check."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from codegen.errors import Diagnostic, SpecError
from codegen.files import FileManager, body_is_intact, fingerprint_inputs, header, stale_files
from codegen.model import OpSpec, SpecSet

__all__ = ["Project", "TEMPLATES", "up_to_date", "build_files"]

# generated file -> template
TEMPLATES = {
    "__init__.py": "__init__.py.j2",
    "api.py": "api.py.j2",
    "backward.py": "backward.py.j2",
    "infer_meta.py": "infer_meta.py.j2",
    "registry.py": "registry.py.j2",
    "signatures.py": "signatures.py.j2",
    "pd_op_dialect.py": "pd_op_dialect.py.j2",
}
SPEC_FILES = ("ops/api.yaml", "ops/backward.yaml")


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

    def fingerprint(self) -> str:
        codegen_dir = Path(__file__).resolve().parent
        from codegen.pd_op import pd_op_input_files

        files = [(p.relative_to(self.root).as_posix(), p) for p in self.spec_paths()]
        files += [(p.relative_to(self.root).as_posix(), p) for p in pd_op_input_files(self.root)]
        files += [(f"templates/{p.name}", p) for p in self.templates.glob("*.j2")]
        files += [
            (f"codegen/{p.relative_to(codegen_dir).as_posix()}", p)
            for p in codegen_dir.rglob("*.py")
        ]
        return fingerprint_inputs(files)


def up_to_date(project: Project) -> bool:
    """True when every generated file carries the current fingerprint and an intact body, and
    no stale generated file is left: nothing is rendered or formatted to decide this."""
    fingerprint = project.fingerprint()
    for name in TEMPLATES:
        path = project.out_dir / name
        if not path.exists() or not body_is_intact(path.read_text(encoding="utf-8"), fingerprint):
            return False
    return not stale_files(project.out_dir, TEMPLATES)


@dataclass(frozen=True)
class _OpViews:
    """Everything the templates place for one op."""

    api: Any
    infer_meta: Any | None
    signature: Any | None
    registration: str


def _views(
    op: OpSpec, generated_names: set[str], specs: SpecSet
) -> tuple[_OpViews | None, list[Diagnostic]]:
    """The views of ``op``, or the diagnostics that stop it from being generated."""
    from codegen.api.python import GenerationError
    from codegen.api.registry import kernel_name, op_info, op_info_source
    from codegen.api.views import api_view, infer_meta_view, signature_view
    from runtime.dispatch.checks import check_op

    try:
        backward = specs.find(op.backward) if op.backward is not None else None
        api = api_view(op, op.loc.file, generated_names, backward)
        infer_meta = signature = None
        if op.invoke is None:
            infer_meta = infer_meta_view(op)
            signature = signature_view(op, kernel_name(op) or op.name)
        info = op_info(op)
    except GenerationError as error:
        return None, [error.diagnostic]
    problems = [Diagnostic(op.loc_of(key), op.name, message) for key, message in check_op(info)]
    return _OpViews(api, infer_meta, signature, op_info_source(info)), problems


def build_files(project: Project) -> FileManager:
    """Load, check and render everything; SpecError (nothing written) on any problem."""
    import codegen
    from codegen.api.views import infer_meta_function_variable
    from codegen.pd_op import pd_op_context
    from codegen.render import format_source, make_environment, render_template

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
    generated_names = {op.name for op in ops}
    views: dict[str, _OpViews] = {}
    diagnostics: list[Diagnostic] = []
    for op in ops:
        op_views, problems = _views(op, generated_names, specs)
        diagnostics.extend(problems)
        if op_views is not None:
            views[op.name] = op_views
    if diagnostics:
        raise SpecError(diagnostics)

    spec_text = ", ".join(p.relative_to(project.root).as_posix() for p in paths)

    def context_for(selected: Sequence[OpSpec]) -> dict[str, Any]:
        kernel_ops = [op for op in selected if op.invoke is None]
        forward = [op for op in selected if not op.is_backward]
        backward = [op for op in selected if op.is_backward]
        return {
            "spec_files": spec_text,
            "ops": [views[op.name].api for op in forward],
            "backward_ops": [views[op.name].api for op in backward],
            "forward_invoked": sorted({op.invoke.name for op in forward if op.invoke is not None}),
            "invoked": sorted(
                {op.invoke.name for op in backward if op.invoke is not None}
                & {op.name for op in specs.ops}
            ),
            "infer_ops": [views[op.name].infer_meta for op in kernel_ops],
            "signatures": [views[op.name].signature for op in kernel_ops],
            "registrations": [(op.name, views[op.name].registration) for op in selected],
            "api_names": [op.name for op in forward],
            "backward_names": [op.name for op in backward],
            # forward ops the runtime calls back into (runtime/api_functions.py)
            "runtime_functions": [
                name
                for name in ("add", "ones_like", "sgd_", "adam_")
                if name in {op.name for op in forward}
            ],
            "functions": sorted(
                {
                    (infer_meta_function_variable(op.infer_meta.func), op.infer_meta.func)
                    for op in kernel_ops
                }
            ),
        }

    env = make_environment(project.templates)
    fingerprint = project.fingerprint()
    manager = FileManager(project.out_dir)
    context = context_for(ops)
    context.update(pd_op_context(project.root))
    for name, template in TEMPLATES.items():
        rendered = render_template(env, template, context, ops, context_for)
        body = format_source(rendered, f"generated/{name}")
        sources = (context["pd_op_files"] if name == "pd_op_dialect.py" else "") or spec_text
        manager.add(name, header(sources, f"templates/{template}", fingerprint, body) + body)
    return manager
