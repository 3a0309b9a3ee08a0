"""IEEE results without warnings: PHI's kernels return inf and nan silently, and so do ours."""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

__all__ = ["ieee_results"]

try:
    # numpy 2 keeps its floating-point error state in a context variable; setting it to a
    # prepared "ignore all" state is what ``np.errstate`` does, without building the state and
    # the context manager on every call (about a microsecond, more than a small kernel costs).
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    _IGNORE_ALL = _make_extobj(all="ignore")
except ImportError:  # numpy 1.x: no context variable, np.errstate below
    _extobj_contextvar = None


def ieee_results(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``kernel`` with numpy's floating-point warnings (overflow, x/0, invalid) off.

    Only kernels that can produce inf or nan from finite input need it. CuPy never warns, so
    the quiet state is harmless there.
    """
    if _extobj_contextvar is None:

        @functools.wraps(kernel)
        def quiet(*args: Any) -> Any:
            with np.errstate(all="ignore"):
                return kernel(*args)

        return quiet

    set_state, reset_state = _extobj_contextvar.set, _extobj_contextvar.reset

    @functools.wraps(kernel)
    def quiet_fast(*args: Any) -> Any:
        token = set_state(_IGNORE_ALL)
        try:
            return kernel(*args)
        finally:
            reset_state(token)

    return quiet_fast
