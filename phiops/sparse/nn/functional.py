"""``phiops.sparse.nn.functional`` (``paddle.sparse.nn.functional``): ``relu``, ``relu6``,
``leaky_relu`` and ``softmax`` on sparse tensors (runtime/sparse/nn.py). PaddlePaddle's sparse
``conv2d``/``conv3d``, ``subm_conv2d``/``subm_conv3d``, ``max_pool3d`` and ``attention`` are not
in phiops."""

from __future__ import annotations

from phiops.runtime.sparse.nn import leaky_relu, relu, relu6, softmax

__all__ = ["relu", "relu6", "leaky_relu", "softmax"]
