"""Tensors: DenseTensor (array + meta), Tensor (a DenseTensor with autograd state, the user
handle), MetaTensor (meta only)."""

from phiops.runtime.core.dense_tensor import DenseTensor, DenseTensorMeta, TensorBase
from phiops.runtime.core.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.core.tensor import Tensor, install_operators, to_tensor, wrap_array

__all__ = [
    "DenseTensor",
    "DenseTensorMeta",
    "TensorBase",
    "MetaConfig",
    "MetaTensor",
    "Tensor",
    "install_operators",
    "to_tensor",
    "wrap_array",
]
