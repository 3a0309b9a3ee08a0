"""Jinja rendering, black formatting and compiling of the generated files."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

import jinja2

from codegen.errors import Diagnostic, SpecError
from codegen.model import OpSpec

__all__ = ["make_environment", "render_template", "format_source"]


def make_environment(templates: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render_template(
    env: jinja2.Environment,
    template: str,
    context: dict[str, Any],
    ops: Sequence[OpSpec],
    context_for: Callable[[Sequence[OpSpec]], dict[str, Any]],
) -> str:
    """Render ``template``; if it fails, find the op it failed on (by rendering op by op) and
    raise a SpecError naming the op, its YAML line and the template."""
    try:
        return env.get_template(template).render(**context)
    except jinja2.TemplateError as error:
        failing: tuple[OpSpec | None, BaseException] = (None, error)
        for op in ops:
            try:
                env.get_template(template).render(**context_for([op]))
            except jinja2.TemplateError as op_error:
                failing = (op, op_error)
                break
        op, cause = failing
        raise SpecError(
            [
                Diagnostic(
                    op.loc if op is not None else None,
                    op.name if op is not None else None,
                    f"rendering templates/{template} failed: {type(cause).__name__}: {cause}",
                )
            ]
        ) from error


def format_source(source: str, path: str) -> str:
    """black-format ``source`` and compile it; a failure is a generator bug, reported with the
    offending generated line."""
    import black

    try:
        formatted = black.format_str(
            source, mode=black.Mode(line_length=100, target_versions={black.TargetVersion.PY310})
        )
    except black.InvalidInput as error:
        raise SpecError(
            [
                Diagnostic(
                    None,
                    None,
                    f"generated {path} is not valid Python ({error}); this is a codegen bug",
                )
            ]
        ) from None
    try:
        compile(formatted, path, "exec")
    except SyntaxError as error:
        raise SpecError(
            [
                Diagnostic(
                    None, None, f"generated {path} does not compile: {error}; this is a codegen bug"
                )
            ]
        ) from None
    return formatted
