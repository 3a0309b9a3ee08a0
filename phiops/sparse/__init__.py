"""``phiops.sparse`` (``paddle.sparse``): sparse COO and CSR tensors (``sparse_coo_tensor``,
``sparse_csr_tensor``, ``Tensor.to_sparse_coo``/``to_sparse_csr``/``to_dense``) and their ops
with autograd: unary math on the stored values, ``add``/``subtract``/``multiply``/``divide``,
``matmul``, ``masked_matmul``, ``addmm``, ``mv``, ``sum``, ``transpose``, ``reshape``,
``slice``, ``coalesce``, ``cast``, ``mask_as``; ``phiops.sparse.nn`` has the activations
(runtime/sparse/, docs/tensor_kinds.md).

PaddlePaddle's ``paddle.sparse`` has more that phiops lacks: ``pca_lowrank``, and in
``paddle.sparse.nn`` the convolutions (``conv2d``, ``conv3d``, ``subm_conv2d``/``3d`` and their
``_igemm`` forms, the layers ``Conv2D``, ``Conv3D``, ``SubmConv2D``, ``SubmConv3D``),
``max_pool3d``/``MaxPool3D``, ``BatchNorm``, ``SyncBatchNorm`` and ``attention``.
"""

from __future__ import annotations

import phiops as _phiops

# The API first: it gives Tensor its methods and repr, which runtime/sparse then extends.
_phiops._load_api()

from phiops.runtime.sparse import *  # noqa: F401,F403
from phiops.runtime.sparse import __all__ as _names
from phiops.runtime.sparse import install_sparse_methods as _install_sparse_methods

from phiops.sparse import nn

__all__ = list(_names) + ["nn"]

_install_sparse_methods()
