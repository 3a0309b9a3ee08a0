"""Static mode: ``enable_static()`` makes every generated API call build an operation into the
current program instead of running a kernel; ``disable_static()`` returns to eager calls.

The switch costs eager calls nothing: there is no per-call check. ``enable_static`` empties every
op's plan cache (so the generated functions' fast path always misses and calls the dispatcher)
and turns each dispatcher into a ``StaticOpDispatcher``, whose ``call`` builds; it also turns off
eager gradient recording, since a program's backward is built from the GradSpecs, not recorded.
``disable_static`` turns the dispatchers back; eager calls plan again on their first call per key.
The mode is process-wide (the dispatchers are shared); gradient recording is switched for the
calling thread.
"""

from __future__ import annotations

from phiops.runtime.autograd import GRAD_MODE
from phiops.runtime.dispatch.dispatcher import DISPATCHERS, OpDispatcher
from phiops.runtime.static.build import StaticOpDispatcher

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode"]


class _Mode:
    static = False
    grad_enabled = True


_MODE = _Mode()


def enable_static() -> None:
    """Build programs from now on: API calls on Values append operations to the current program
    (``phi.static.default_main_program()`` or the one ``program_guard`` names)."""
    if _MODE.static:
        return
    for dispatcher in DISPATCHERS:
        dispatcher.cache.clear()
        dispatcher.dynamic_cache.clear()
        dispatcher.__class__ = StaticOpDispatcher
    _MODE.grad_enabled = GRAD_MODE.enabled
    GRAD_MODE.enabled = False
    _MODE.static = True


def disable_static() -> None:
    """Run API calls eagerly again (the default)."""
    if not _MODE.static:
        return
    for dispatcher in DISPATCHERS:
        dispatcher.__class__ = OpDispatcher
    GRAD_MODE.enabled = _MODE.grad_enabled
    _MODE.static = False


def in_dynamic_mode() -> bool:
    """True when API calls run eagerly (not between ``enable_static`` and ``disable_static``)."""
    return not _MODE.static


def in_static_mode() -> bool:
    """True between ``enable_static()`` and ``disable_static()``."""
    return _MODE.static
