"""``phi.static.nn``: the layers of static programs that PaddlePaddle keeps in
``paddle.static.nn``: its control flow, ``cond`` and ``while_loop``
(runtime/static/control_flow.py), and the classic layers ``fc``, ``conv2d``, ``batch_norm``, ``embedding``,
``layer_norm``, ``conv2d_transpose``, ``conv3d``, ``conv3d_transpose``, ``group_norm``,
``instance_norm``, ``prelu``, ``bilinear_tensor_product``, ``spectral_norm``, ``deform_conv2d``
and ``row_conv`` (runtime/static/nn_layers.py)."""

from __future__ import annotations

from phiops.runtime.static.control_flow import case, cond, switch_case, while_loop
from phiops.runtime.static.nn_layers import *  # noqa: F401,F403
from phiops.runtime.static.nn_layers import __all__ as _layers

__all__ = ["cond", "while_loop", "case", "switch_case", *_layers]
