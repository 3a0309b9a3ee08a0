"""``phiops.sparse.nn`` (``paddle.sparse.nn``): layers on sparse tensors: the activations
(``ReLU``, ``ReLU6``, ``LeakyReLU``, ``Softmax``; runtime/sparse/nn.py), the 3-D convolutions
``Conv3D`` and ``SubmConv3D`` and ``MaxPool3D`` on COO tensors in NDHWC (runtime/sparse/conv.py),
``BatchNorm`` and ``SyncBatchNorm`` of the stored values (runtime/sparse/norm.py); and
``functional``. PaddlePaddle's 2-D sparse convolutions (``Conv2D``, ``SubmConv2D``) are not in
phiops."""

from __future__ import annotations

from phiops.runtime.sparse.nn import (
    Conv3D,
    LeakyReLU,
    MaxPool3D,
    ReLU,
    ReLU6,
    Softmax,
    SubmConv3D,
)
from phiops.runtime.sparse.norm import BatchNorm, SyncBatchNorm

from phiops.sparse.nn import functional

__all__ = [
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "Softmax",
    "BatchNorm",
    "SyncBatchNorm",
    "Conv3D",
    "SubmConv3D",
    "MaxPool3D",
    "functional",
]
