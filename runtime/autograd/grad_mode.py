"""Whether ops record gradient nodes: on by default, off inside ``no_grad()``.

Grad mode is per thread, as in PaddlePaddle and PyTorch: ``no_grad()`` in one thread leaves the
others recording, and every new thread starts with grad mode on.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, TypeVar

__all__ = ["GRAD_MODE", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]

F = TypeVar("F", bound=Callable[..., Any])


class _GradMode(threading.local):
    """Per-thread switch read by every generated op that has a backward (one attribute read).

    ``threading.local`` runs ``__init__`` again in each thread that first touches it, so every
    thread starts with grad mode on."""

    def __init__(self) -> None:
        self.enabled = True


GRAD_MODE = _GradMode()


def is_grad_enabled() -> bool:
    return GRAD_MODE.enabled


class set_grad_enabled:  # noqa: N801 - a context manager used like a function, as PaddlePaddle's
    """Set grad mode to ``mode`` for a ``with`` block (or for good, when not used as one)."""

    def __init__(self, mode: bool) -> None:
        self.previous = GRAD_MODE.enabled
        GRAD_MODE.enabled = bool(mode)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        GRAD_MODE.enabled = self.previous


class _GradModeGuard:
    """Context manager and decorator that runs code with grad mode ``mode``."""

    def __init__(self, mode: bool) -> None:
        self.mode = mode
        # One guard object may be entered by several threads at once: each keeps its own stack.
        self._local = threading.local()

    def __enter__(self) -> None:
        saved = self._local.__dict__.setdefault("saved", [])
        saved.append(GRAD_MODE.enabled)
        GRAD_MODE.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        GRAD_MODE.enabled = self._local.saved.pop()

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            with type(self)(self.mode):
                return fn(*args, **kwargs)

        return guarded  # type: ignore[return-value]


def no_grad(fn: F | None = None) -> Any:
    """``with no_grad():`` or ``@no_grad`` / ``@no_grad()``: ops record no gradient nodes."""
    guard = _GradModeGuard(False)
    return guard if fn is None else guard(fn)


def enable_grad(fn: F | None = None) -> Any:
    """``with enable_grad():`` or ``@enable_grad``: ops record gradient nodes again."""
    guard = _GradModeGuard(True)
    return guard if fn is None else guard(fn)
