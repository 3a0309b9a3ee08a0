"""Writing a command's output to stdout when the reader may stop early (``| head``)."""

from __future__ import annotations

import os
import sys

__all__ = ["write_stdout", "BROKEN_PIPE_EXIT"]

BROKEN_PIPE_EXIT = 141
"""What a shell reports for a command ended by SIGPIPE (128 + 13), as ``cat | head`` gives."""


def write_stdout(text: str) -> int:
    """Write ``text`` to stdout and flush; 0, or ``BROKEN_PIPE_EXIT`` without a traceback when
    the reader closed the pipe (stdout is then pointed at devnull so that Python's own flush at
    exit does not fail again, as the Python documentation on SIGPIPE advises)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    return 0
