"""``phiops.static.nn`` (``paddle.static.nn``): static control flow, ``cond`` (a `pd_op.if`) and
``while_loop`` (a `pd_op.while`), from runtime/static/control_flow.py; and the classic layers
``fc``, ``conv2d``, ``batch_norm``, ``embedding``, ``layer_norm``, ``conv2d_transpose``,
``conv3d``, ``conv3d_transpose``, ``group_norm``, ``instance_norm``, ``prelu``,
``bilinear_tensor_product``, ``spectral_norm``, ``deform_conv2d`` and ``row_conv`` with
PaddlePaddle 3.3.1's signatures and parameter names (``fc_0.w_0``, ...), from
runtime/static/nn_layers.py.

``case`` and ``switch_case`` nest ``cond``\\ s as PaddlePaddle's do (the same program text).
PaddlePaddle's ``paddle.static.nn`` also has what phiops lacks: the LoD sequence layers
(``sequence_*``), ``nce``, ``sparse_embedding``, ``py_func`` and ``static_pylayer``; in phiops,
``phiops.nn``'s layers build static programs too, when made and called in static mode.
"""

from __future__ import annotations

from phiops.runtime.static.nn import *  # noqa: F401,F403
from phiops.runtime.static.nn import __all__  # noqa: F401 (the one list of these names)
