"""``phiops.sparse.nn.functional`` (``paddle.sparse.nn.functional``): ``relu``, ``relu6``,
``leaky_relu`` and ``softmax`` on sparse tensors (runtime/sparse/nn.py); ``conv3d``,
``subm_conv3d`` and ``max_pool3d`` on COO tensors in NDHWC (runtime/sparse/conv.py).
PaddlePaddle's sparse ``conv2d``/``subm_conv2d``, the implicit-GEMM ``subm_conv*d_igemm`` and
``attention`` are not in phiops."""

from __future__ import annotations

from phiops.runtime.sparse.conv import conv3d, max_pool3d, subm_conv3d
from phiops.runtime.sparse.nn import leaky_relu, relu, relu6, softmax

__all__ = ["conv3d", "subm_conv3d", "max_pool3d", "relu", "relu6", "leaky_relu", "softmax"]
