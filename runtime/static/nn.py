"""``phi.static.nn``: the layers of static programs that PaddlePaddle keeps in
``paddle.static.nn``; so far its control flow, ``cond`` and ``while_loop``
(runtime/static/control_flow.py)."""

from __future__ import annotations

from phiops.runtime.static.control_flow import cond, while_loop

__all__ = ["cond", "while_loop"]
