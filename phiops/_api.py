"""What ``import phiops`` gives: PaddlePaddle's top-level Python API (phiops/__init__.py loads
this module on first use)."""

from __future__ import annotations

from phiops.generated import *  # noqa: F401,F403
from phiops.generated import __all__ as _generated_names
from phiops.runtime import ir, static

__all__ = [*_generated_names, "ir", "static"]
