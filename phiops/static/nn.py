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

from phiops.runtime.static.control_flow import case, cond, switch_case, while_loop
from phiops.runtime.static.nn_layers import (
    batch_norm,
    bilinear_tensor_product,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    deform_conv2d,
    embedding,
    fc,
    group_norm,
    instance_norm,
    layer_norm,
    prelu,
    row_conv,
    spectral_norm,
)

__all__ = [
    "cond",
    "while_loop",
    "case",
    "switch_case",
    "fc",
    "conv2d",
    "batch_norm",
    "embedding",
    "layer_norm",
    "conv2d_transpose",
    "conv3d",
    "conv3d_transpose",
    "group_norm",
    "instance_norm",
    "prelu",
    "bilinear_tensor_product",
    "spectral_norm",
    "deform_conv2d",
    "row_conv",
]
