"""Tensors below the user handle: DenseTensor (an array with its interned meta and version
counter), DenseTensorMeta, MetaTensor (a meta only, what InferMeta functions fill) and the
version counters that in-place writes bump. Kernels, InferMeta functions and dispatch work on
these; the user ``Tensor`` (runtime/eager/) is a DenseTensor with autograd state."""

from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta, TensorBase
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = ["DenseTensor", "DenseTensorMeta", "TensorBase", "MetaConfig", "MetaTensor"]
