"""``phiops COMMAND [ARGS...]`` (or ``python -m phiops``): the command-line tools in one place.

    phiops codegen [--check | --list] [--root DIR]   generate generated/ from the op specs
    phiops lint FILE...                               check spec files without generating
    phiops ir FILE... [--stats]                       parse, verify and print PIR programs
    phiops run MODEL [--input NAME=FILE.npy ...]      run a saved inference model
    phiops compat MODEL.pdmodel...                    which legacy ops of a model phiops runs
    phiops flags [--json]                             every flag, its value and where it is defined
    phiops kernels [--json]                           the registered kernels
    phiops kernels --coverage [--missing] [--json]    which PaddlePaddle 3.3.1 ops phiops runs
    phiops launch --nproc_per_node N SCRIPT [ARGS...] run SCRIPT on N ranks through MPI

``phiops COMMAND --help`` describes a command's options.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Sequence

__all__ = ["main", "COMMANDS"]

_BROKEN_PIPE_EXIT = 141  # as a shell reports a command ended by SIGPIPE (runtime/cli_output.py)


def _codegen(argv: list[str]) -> int:
    from phiops.codegen.__main__ import main

    return main(argv)


def _lint(argv: list[str]) -> int:
    from phiops.codegen.__main__ import main

    return main(["lint", *argv])


def _ir(argv: list[str]) -> int:
    from phiops.runtime.ir.__main__ import main

    return main(argv)


def _run(argv: list[str]) -> int:
    import phiops.generated  # noqa: F401  (registers the ops a program runs)
    from phiops.runtime.static.__main__ import main

    return main(["run", *argv])


def _compat(argv: list[str]) -> int:
    from phiops.runtime.compat.__main__ import main

    return main(argv)


def _flags(argv: list[str]) -> int:
    import phiops.generated  # noqa: F401  (every module that defines a flag)
    from phiops.runtime.flags.__main__ import main

    return main(argv)


def _kernels(argv: list[str]) -> int:
    from phiops.runtime.kernels.__main__ import main

    return main(argv)


def _launch(argv: list[str]) -> int:
    from phiops.runtime.distributed.launch import main

    return main(argv)


# name -> (what it does, the function that runs it)
COMMANDS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "codegen": ("generate generated/ from the op specs (--check: is it up to date?)", _codegen),
    "lint": ("check spec files without generating anything", _lint),
    "ir": ("parse, verify and print PIR programs (.txt or .json)", _ir),
    "run": ("run a saved inference model on .npy inputs", _run),
    "compat": ("report which legacy ops of a .pdmodel phiops runs", _compat),
    "flags": ("list every flag, its value and where it is defined", _flags),
    "kernels": ("list the registered kernels", _kernels),
    "launch": ("run a training script on several ranks through MPI (mpiexec)", _launch),
}


def _usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [
        "usage: phiops COMMAND [ARGS...]",
        "",
        "PaddlePaddle's PHI operator library for Python: the command-line tools.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<{width}}  {summary}" for name, (summary, _) in COMMANDS.items()]
    lines += ["", "`phiops COMMAND --help` describes a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``phiops COMMAND ARGS...``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from phiops import __version__

        print(f"phiops {__version__}")
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        import difflib

        close = difflib.get_close_matches(args[0], COMMANDS, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        print(f"phiops: unknown command '{args[0]}'{hint}\n\n{_usage()}", file=sys.stderr)
        return 2
    try:
        return command[1](args[1:])
    except SystemExit as exit_:  # argparse's --help and usage errors
        return exit_.code if isinstance(exit_.code, int) else 1
    except BrokenPipeError:  # the reader stopped early (`phiops lint ... | head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return _BROKEN_PIPE_EXIT


if __name__ == "__main__":
    sys.exit(main())
