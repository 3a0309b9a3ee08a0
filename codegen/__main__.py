"""Command line: ``phiops codegen [--check | --list] [--root DIR | --package DIR]`` and
``phiops lint FILE...``.

- no option: write ``generated/`` (only files whose content changed; stale ones removed);
- ``--check``: exit 1 with a unified diff when ``generated/`` is stale or was edited by hand;
- ``--list``: print the files a run would write;
- ``--package DIR``: the same for the out-of-tree op package in ``DIR``, into ``DIR/generated/``
  (codegen/package.py, docs/extending.md);
- ``lint FILE...``: parse and validate spec files without generating anything.

Spec errors print as ``file:line:col: op 'name': message`` with exit code 1 and no traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_DEFAULT_ROOT = Path(__file__).resolve().parent.parent
_GENERATOR_PACKAGES = {"yaml": "pyyaml", "jinja2": "jinja2", "black": "black"}


def _missing_generator_packages() -> list[str]:
    """The generator's own dependencies (the ``codegen`` extra) that are not installed."""
    from importlib.util import find_spec

    return [pip for module, pip in _GENERATOR_PACKAGES.items() if find_spec(module) is None]


def _not_a_project(root: Path) -> str | None:
    """Why ``root`` cannot be generated, or None. An installed wheel has generated/ but neither
    ops/ nor templates/: its default root (site-packages) is not a project."""
    if not (root / "ops" / "api.yaml").exists() and not (root / "templates").is_dir():
        return (
            f"{root} is not a phiops project (no ops/api.yaml, no templates/); an installed "
            "phiops ships the generated API, not its specs: pass --root with a phiops checkout"
        )
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["lint"]:
        missing = _missing_generator_packages()
        if "pyyaml" in missing:
            print("codegen lint needs pyyaml: pip install 'phiops[codegen]'", file=sys.stderr)
            return 1
        from phiops.codegen.lint import main as lint_main

        return lint_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="phiops codegen", description="Generate generated/ from ops/*.yaml."
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="exit 1 with a diff if generated/ is stale or hand-edited",
    )
    mode.add_argument("--list", action="store_true", help="print the files that would be written")
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--root", type=Path, default=_DEFAULT_ROOT, help="project root holding ops/ and templates/"
    )
    target.add_argument(
        "--package",
        type=Path,
        metavar="DIR",
        help="generate the out-of-tree op package in DIR (its ops.yaml) into DIR/generated/",
    )
    options = parser.parse_args(argv)
    missing = _missing_generator_packages()
    if missing:
        print(f"codegen needs {', '.join(missing)}: pip install 'phiops[codegen]'", file=sys.stderr)
        return 1
    if options.package is not None:
        from phiops.codegen.package import run

        return run(options.package, check=options.check, list_only=options.list)
    from phiops.codegen.errors import SpecError
    from phiops.codegen.files import stale_temp_files
    from phiops.codegen.generate import Project, build_files, up_to_date

    reason = _not_a_project(options.root)
    if reason is not None:
        print(reason, file=sys.stderr)
        return 1
    project = Project(options.root)

    if options.list:
        for name in project.generated_templates():
            print((project.out_dir / name).relative_to(project.root).as_posix())
        return 0
    leftovers = [] if options.check else stale_temp_files(project.out_dir)
    if up_to_date(project) and not leftovers:
        if not options.check:
            print("generated/ is up to date")
        return 0
    try:
        manager = build_files(project)
    except SpecError as error:
        print(error, file=sys.stderr)
        count = len(error.diagnostics)
        print(f"{count} error{'s' if count != 1 else ''}; nothing was written", file=sys.stderr)
        return 1
    if options.check:
        diff = manager.diff()
        if diff:
            sys.stdout.write(diff)
            print(
                "generated/ is stale or was edited by hand; run `phiops codegen`",
                file=sys.stderr,
            )
            return 1
        return 0
    try:
        changed = manager.write()
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"cannot write {project.out_dir}: {reason}; nothing was changed", file=sys.stderr)
        return 1
    for name in changed:
        print(f"wrote generated/{name}")
    if not changed:
        print("generated/ is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
