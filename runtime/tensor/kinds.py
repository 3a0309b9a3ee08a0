"""TensorKind: which implementation of TensorBase a tensor is (PHI's ``DenseTensor``,
``SelectedRows``, ``SparseCooTensor``, ``SparseCsrTensor``, ``TensorArray``, ``StringTensor``).

A tensor's meta carries its kind (``DenseTensorMeta.kind`` is DENSE; the metas of the other
kinds are DenseTensorMeta subclasses with their own). A kernel's argument definition
(``TensorArgDef.tensor_kind``) and its key (``KernelKey.kind``) carry the kinds it takes, and
dispatch selects by the kinds of the inputs: a dense kernel is never handed another kind.
The values are the names PaddlePaddle's op YAML uses in ``kernel.func`` signatures
(``sgd_dense_param_sparse_grad {dense, dense, selected_rows, dense -> dense}``).
"""

from __future__ import annotations

from enum import Enum

__all__ = ["TensorKind"]


class TensorKind(Enum):
    """The kinds of tensor PHI has; the value is the op YAML's name for it."""

    DENSE = "dense"
    SELECTED_ROWS = "selected_rows"
    SPARSE_COO = "sparse_coo"
    SPARSE_CSR = "sparse_csr"
    TENSOR_ARRAY = "tensor_array"
    STRING = "string"

    @property
    def title(self) -> str:
        """How error messages and ``phiops kernels`` name the kind (PHI's class name)."""
        return _TITLES[self]

    def __repr__(self) -> str:
        return f"TensorKind.{self.name}"


_TITLES = {
    TensorKind.DENSE: "DenseTensor",
    TensorKind.SELECTED_ROWS: "SelectedRows",
    TensorKind.SPARSE_COO: "SparseCooTensor",
    TensorKind.SPARSE_CSR: "SparseCsrTensor",
    TensorKind.TENSOR_ARRAY: "TensorArray",
    TensorKind.STRING: "StringTensor",
}
