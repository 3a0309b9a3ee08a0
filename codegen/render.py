"""Jinja rendering, black formatting and compiling of the generated files."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Callable, Sequence

import jinja2

from phiops.codegen.errors import Diagnostic, SpecError
from phiops.codegen.model import OpSpec

__all__ = ["make_environment", "render_template", "format_source", "prune_black_cache"]


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


BLACK_MODE_ARGS = {"line_length": 100, "target_versions": ("PY310",)}
# black's output for a given input never changes for one black version and mode, and most
# regenerations re-render files whose bodies did not change (only their headers' fingerprints
# did): black's results are kept here, keyed on version, mode and input, so that such a
# regeneration formats nothing. An unwritable cache is skipped.
_CACHE_DIR = Path(__file__).resolve().parent / "__pycache__" / "black"
# enough for this project's seven files and the small projects of the generator's tests
CACHE_ENTRIES = 64


def _black_mode():
    import black

    return black.Mode(
        line_length=BLACK_MODE_ARGS["line_length"],
        target_versions={
            getattr(black.TargetVersion, v) for v in BLACK_MODE_ARGS["target_versions"]
        },
    )


def _cache_key(source: str) -> str:
    from importlib import metadata

    try:
        version = metadata.version("black")
    except metadata.PackageNotFoundError:
        version = "none"
    hasher = hashlib.sha256(f"black {version} {sorted(BLACK_MODE_ARGS.items())}\0".encode())
    hasher.update(source.encode())
    return hasher.hexdigest()


def _black(source: str, path: str) -> str:
    """black's formatting of ``source``, from the cache when it holds it (an entry starts with
    the sha256 of its text: a damaged one is formatted again)."""
    import black

    key = _cache_key(source)
    cached = _CACHE_DIR / f"{key}.txt"
    try:
        digest, _, formatted = cached.read_text(encoding="utf-8").partition("\n")
        if digest == hashlib.sha256(formatted.encode()).hexdigest():
            os.utime(cached)
            return formatted
    except OSError:
        pass
    try:
        formatted = black.format_str(source, mode=_black_mode())
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
    temp = cached.with_name(f"{key}.{os.getpid()}.tmp")
    try:
        _CACHE_DIR.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(formatted.encode()).hexdigest()
        temp.write_text(f"{digest}\n{formatted}", encoding="utf-8")
        os.replace(temp, cached)
    except OSError:
        temp.unlink(missing_ok=True)
    return formatted


def prune_black_cache(keep: int = CACHE_ENTRIES) -> None:
    """Keep the ``keep`` cached black results used last (a hit refreshes an entry's time)."""
    try:
        entries = sorted(_CACHE_DIR.glob("*.txt"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for entry in entries[keep:]:
        entry.unlink(missing_ok=True)


def format_source(source: str, path: str, skeleton: str | None = None) -> str:
    """black-format ``source`` and compile it; a failure is a generator bug, reported with the
    offending generated line.

    With ``skeleton`` (the same template rendered without its ``# fmt: off`` table), black runs
    on the skeleton only: when black leaves the skeleton unchanged, it leaves ``source`` unchanged
    too, because it never touches a ``# fmt: off`` region. That proof costs milliseconds where
    formatting a 130 KB table costs seconds."""
    if skeleton is not None:
        if _black(skeleton, path) != skeleton:
            raise SpecError(
                [
                    Diagnostic(
                        None,
                        None,
                        f"generated {path}: its template is not black-formatted outside its "
                        "'# fmt: off' table; this is a codegen bug",
                    )
                ]
            )
        formatted = source
    else:
        formatted = _black(source, path)
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
