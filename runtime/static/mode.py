"""Static mode: ``enable_static()`` makes every generated API call build an operation into the
current program instead of running a kernel; ``disable_static()`` returns to eager calls.

The switch costs eager calls nothing: the check sits on the slow path only.
``enable_static`` empties every op's plan cache (so the generated functions' fast path always
misses and calls the dispatcher) and installs ``build_call`` (runtime/static/build.py) as the
dispatchers' builder (runtime/dispatch/build_mode.py), which ``OpDispatcher.call`` hands each call
to; it also turns off eager gradient recording, since a program's backward is built from the
GradSpecs, not recorded. ``disable_static`` removes the builder; eager calls plan again on their
first call per key. The mode is process-wide (the dispatchers are shared); gradient recording is
switched for the calling thread.
"""

from __future__ import annotations

from phiops.runtime.autograd import GRAD_MODE
from phiops.runtime.dispatch.build_mode import BUILD_MODE
from phiops.runtime.dispatch.build_mode import in_static_mode as _building
from phiops.runtime.dispatch.dispatcher import clear_dispatch_caches
from phiops.runtime.static.build import build_call

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode"]


class _Mode:
    grad_enabled = True


_MODE = _Mode()


def enable_static() -> None:
    """Build programs from now on: API calls on Values append operations to the current program
    (``phi.static.default_main_program()`` or the one ``program_guard`` names)."""
    if _building():
        return
    clear_dispatch_caches()
    BUILD_MODE.builder = build_call
    _MODE.grad_enabled = GRAD_MODE.enabled
    GRAD_MODE.enabled = False


def disable_static() -> None:
    """Run API calls eagerly again (the default)."""
    if not _building():
        return
    BUILD_MODE.builder = None
    GRAD_MODE.enabled = _MODE.grad_enabled


def in_dynamic_mode() -> bool:
    """True when API calls run eagerly (not between ``enable_static`` and ``disable_static``)."""
    return not _building()


def in_static_mode() -> bool:
    """True between ``enable_static()`` and ``disable_static()``."""
    return _building()
