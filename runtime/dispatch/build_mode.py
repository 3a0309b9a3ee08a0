"""Where an op's slow path sends a call: to its kernel (eager, the default) or to a builder that
appends an operation to a program (static mode).

``OpDispatcher.call`` (the path a generated API function takes when its plan cache misses) checks
``BUILD_MODE.builder`` first: None runs the kernel; a function ``builder(dispatcher, inputs,
attrs)`` builds instead. runtime/static/mode.py installs its builder in ``enable_static()`` (and
empties every plan cache, so that every call misses) and removes it in ``disable_static()``. The
check costs only the slow path; the dispatchers stay what they are.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["BUILD_MODE", "BuildMode", "in_static_mode"]


class BuildMode:
    """``builder``: None in eager mode, else the function that builds a call into a program."""

    __slots__ = ("builder",)

    def __init__(self) -> None:
        self.builder: Callable[[Any, tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]] | None = (
            None
        )


BUILD_MODE = BuildMode()


def in_static_mode() -> bool:
    """True while a builder is installed (between ``enable_static()`` and ``disable_static()``)."""
    return BUILD_MODE.builder is not None
