"""Where a flag was defined, and how the flags package finds the user's call on the stack."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

__all__ = ["Location", "caller_location"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class Location:
    """A file and a line, printed as ``file:line``."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def caller_location() -> Location:
    """The innermost stack frame outside this package: the user's call into the flags API.

    Walking out of the package, rather than counting frames, keeps this right however many
    layers (module-level function, registry method, helper) lie between the user and here.
    """
    frame = sys._getframe(1)
    while frame.f_back is not None and _in_package(frame.f_code.co_filename):
        frame = frame.f_back
    return Location(frame.f_code.co_filename, frame.f_lineno)


def _in_package(filename: str) -> bool:
    return os.path.dirname(os.path.abspath(filename)) == _PACKAGE_DIR
