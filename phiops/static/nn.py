"""``phiops.static.nn`` (``paddle.static.nn``): static control flow, ``cond`` (a `pd_op.if`) and
``while_loop`` (a `pd_op.while`), from runtime/static/control_flow.py.

PaddlePaddle's ``paddle.static.nn`` also has what phiops lacks: the control flow ``case`` and
``switch_case``, and the static layers (``fc``, ``conv2d``, ``batch_norm``, ``embedding``,
``layer_norm``, ...); in phiops, ``phiops.nn``'s layers build static programs too, when made and
called in static mode.
"""

from __future__ import annotations

from phiops.runtime.static.control_flow import cond, while_loop

__all__ = ["cond", "while_loop"]
