"""``phiops.static.initializer``: the parameter initializers of ``phiops.nn.initializer`` (the same
classes, as ``paddle.nn.initializer`` serves both modes). ``create_parameter`` records the ops an
initializer appends in the startup program (runtime/static/initializer.py).

PaddlePaddle keeps its initializers in ``paddle.nn.initializer`` only; this module is phiops's
shorthand for static code. What PaddlePaddle has that phiops lacks is listed in
``phiops.nn.initializer``.
"""

from __future__ import annotations

from phiops.runtime.static.initializer import *  # noqa: F401,F403
from phiops.runtime.static.initializer import __all__ as _names

__all__ = list(_names)
