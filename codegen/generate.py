"""generate: specs -> views -> templates -> black -> FileManager, and the up-to-date check."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from codegen.errors import Diagnostic, SpecError
from codegen.files import FileManager, body_is_intact, fingerprint_inputs, header
from codegen.model import OpSpec, SpecSet

__all__ = ["Project", "TEMPLATES", "up_to_date", "build_files"]

# generated file -> template
TEMPLATES = {
    "__init__.py": "__init__.py.j2",
    "api.py": "api.py.j2",
    "infer_meta.py": "infer_meta.py.j2",
    "registry.py": "registry.py.j2",
    "signatures.py": "signatures.py.j2",
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
        files = [(p.relative_to(self.root).as_posix(), p) for p in self.spec_paths()]
        files += [(f"templates/{p.name}", p) for p in self.templates.glob("*.j2")]
        files += [
            (f"codegen/{p.relative_to(codegen_dir).as_posix()}", p) for p in codegen_dir.rglob("*.py")
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
    manager = FileManager(project.out_dir)
    for name in TEMPLATES:
        manager.files[name] = ""
    return not manager.stale()


def build_files(project: Project) -> FileManager:
    """Load, check and render everything; SpecError (nothing written) on any problem."""
    import codegen
    from codegen.api.python import GenerationError
    from codegen.api.views import api_view, infer_meta_function_variable, infer_meta_view, signature_view
    from codegen.api.registry import kernel_name, op_info, op_info_source
    from codegen.render import format_source, make_environment, render_template

    paths = project.spec_paths()
    if not paths:
        raise SpecError([Diagnostic(None, None, f"no spec files: expected {SPEC_FILES[0]} under {project.root}")])
    specs: SpecSet = codegen.load(paths, base=project.root)
    ops = list(specs.ops)
    generated_names = {op.name for op in ops}
    diagnostics: list[Diagnostic] = []
    views: dict[str, Any] = {}
    sources: dict[str, str] = {}

    from runtime.dispatch.checks import check_op

    for op in ops:
        try:
            views[op.name] = api_view(op, op.loc.file, generated_names)
            if op.invoke is None:
                views[op.name + ":infer_meta"] = infer_meta_view(op)
                views[op.name + ":signature"] = signature_view(op, kernel_name(op) or op.name)
            info = op_info(op)
            sources[op.name] = op_info_source(info)
            for key, message in check_op(info):
                diagnostics.append(Diagnostic(op.loc_of(key), op.name, message))
        except GenerationError as error:
            diagnostics.append(error.diagnostic)
    if diagnostics:
        raise SpecError(diagnostics)

    def context_for(selected: Sequence[OpSpec]) -> dict[str, Any]:
        kernel_ops = [op for op in selected if op.invoke is None]
        functions = sorted(
            {(infer_meta_function_variable(op.infer_meta.func), op.infer_meta.func) for op in kernel_ops}
        )
        return {
            "spec_files": spec_text,
            "ops": [views[op.name] for op in selected],
            "api_names": [op.name for op in selected],
            "functions": functions,
            "registrations": [(op.name, sources[op.name]) for op in selected],
            "signatures": [views[op.name + ":signature"] for op in kernel_ops],
        }

    spec_text = ", ".join(p.relative_to(project.root).as_posix() for p in paths)
    infer_ops = [op for op in ops if op.invoke is None]
    env = make_environment(project.templates)
    fingerprint = project.fingerprint()
    manager = FileManager(project.out_dir)
    for name, template in TEMPLATES.items():
        context = context_for(ops)
        if name == "infer_meta.py":
            context["ops"] = [views[op.name + ":infer_meta"] for op in infer_ops]

            def infer_context(selected: Sequence[OpSpec]) -> dict[str, Any]:
                ctx = context_for(selected)
                ctx["ops"] = [views[op.name + ":infer_meta"] for op in selected if op.invoke is None]
                return ctx

            rendered = render_template(env, template, context, ops, infer_context)
        else:
            rendered = render_template(env, template, context, ops, context_for)
        body = format_source(rendered, f"generated/{name}")
        manager.add(name, header(spec_text, f"templates/{template}", fingerprint, body) + body)
    return manager

