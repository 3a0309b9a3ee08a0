"""Errors of ops that ``invoke`` another op, renamed for the op the user called.

``ones(shape)`` runs ``full(shape, 1, ...)``; an error raised inside says ``full(): ...``, which
names a function the user never called. The generated function of an invoking op re-raises it
through ``as_called`` so it says ``ones(): ...``.
"""

from __future__ import annotations

import re

from phiops.runtime.errors import PhiError

__all__ = ["as_called"]

_OP_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\(\): ")


def as_called(error: PhiError, op: str) -> PhiError:
    """A copy of ``error`` (same class) whose message starts with ``op(): `` instead of the
    invoked op's name."""
    message = str(error)
    match = _OP_PREFIX.match(message)
    rest = message[match.end() :] if match else message
    renamed = type(error)(f"{op}(): {rest}")
    renamed.__traceback__ = error.__traceback__
    return renamed
