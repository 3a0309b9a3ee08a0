"""``phiops.sparse.nn`` (``paddle.sparse.nn``): activation layers on sparse tensors (``ReLU``,
``ReLU6``, ``LeakyReLU``, ``Softmax``) and ``functional`` (runtime/sparse/nn.py). PaddlePaddle's
convolution, pooling and batch-norm layers on sparse tensors are not in phiops."""

from __future__ import annotations

from phiops.runtime.sparse.nn import LeakyReLU, ReLU, ReLU6, Softmax

from phiops.sparse.nn import functional

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax", "functional"]
