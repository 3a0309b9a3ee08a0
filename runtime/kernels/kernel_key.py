"""KernelKey: (backend, layout, dtype, kind), the second-level key of the KernelFactory.

``kind`` is the tensor kind the kernel is for (runtime/tensor/kinds.py): DENSE for a kernel
whose tensor arguments are all DenseTensors (every kernel registered without naming another
kind), else the first other kind among its arguments (SELECTED_ROWS for PHI's ``*_sr`` and
``*_dense_param_sparse_grad`` kernels). PHI keys kernels by (backend, layout, dtype) and gives
each kind's kernel its own name; phiops registers it under the op's kernel name with its kind
in the key, so that selection finds it from the kinds of the call's inputs.
"""

from __future__ import annotations

from typing import NamedTuple

from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["KernelKey"]

_DENSE = TensorKind.DENSE


class KernelKey(NamedTuple):
    backend: Backend
    layout: DataLayout
    dtype: DataType
    kind: TensorKind = _DENSE

    def __str__(self) -> str:
        if self.kind is _DENSE:
            return f"({self.backend.name}, {self.layout.name}, {self.dtype.name})"
        return f"({self.backend.name}, {self.layout.name}, {self.dtype.name}, {self.kind.title})"
