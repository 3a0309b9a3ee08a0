"""IEEE results without warnings: PHI's kernels return inf and nan silently, and so do ours."""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

__all__ = ["ieee_results"]


def ieee_results(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``kernel`` with numpy's floating-point warnings (overflow, x/0, invalid) off.

    Only kernels that can produce inf or nan from finite input need it: the errstate block costs
    about a microsecond per call. CuPy never warns, so the block is harmless there.
    """

    @functools.wraps(kernel)
    def quiet(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return kernel(*args)

    return quiet
