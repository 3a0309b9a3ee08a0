"""``phi.static.nn``: the layers of static programs that PaddlePaddle keeps in
``paddle.static.nn``: its control flow, ``cond`` and ``while_loop``
(runtime/static/control_flow.py), and the classic layers ``fc``, ``conv2d``, ``batch_norm``, ``embedding``
and ``layer_norm`` (runtime/static/nn_layers.py)."""

from __future__ import annotations

from phiops.runtime.static.control_flow import case, cond, switch_case, while_loop
from phiops.runtime.static.nn_layers import batch_norm, conv2d, embedding, fc, layer_norm

__all__ = ["cond", "while_loop", "case", "switch_case", "fc", "conv2d", "batch_norm", "embedding", "layer_norm"]
