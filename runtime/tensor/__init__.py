"""Tensors below the user handle: DenseTensor (an array with its interned meta and version
counter), DenseTensorMeta, MetaTensor (a meta only, what InferMeta functions fill) and the
version counters that in-place writes bump. Kernels, InferMeta functions and dispatch work on
these; the user ``Tensor`` (runtime/eager/) is a DenseTensor with autograd state.

The other kinds of PHI's TensorBase (docs/tensor_kinds.md): SelectedRows (selected_rows.py),
SparseCooTensor, SparseCsrTensor, TensorArray and StringTensor (sparse.py); TensorKind
(kinds.py) names them, and each meta's ``kind`` says which one it describes."""

from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta, TensorBase
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.tensor.selected_rows import SelectedRows, SelectedRowsMeta
from phiops.runtime.tensor.sparse import (
    SparseCooMeta,
    SparseCooTensor,
    SparseCsrMeta,
    SparseCsrTensor,
    StringTensor,
    StringTensorMeta,
    TensorArray,
    TensorArrayMeta,
)

__all__ = [
    "DenseTensor",
    "DenseTensorMeta",
    "TensorBase",
    "TensorKind",
    "MetaConfig",
    "MetaTensor",
    "SelectedRows",
    "SelectedRowsMeta",
    "SparseCooMeta",
    "SparseCooTensor",
    "SparseCsrMeta",
    "SparseCsrTensor",
    "StringTensor",
    "StringTensorMeta",
    "TensorArray",
    "TensorArrayMeta",
]
