"""``phiops.sparse`` (PaddlePaddle 3.3.1's ``paddle.sparse``): sparse COO and CSR tensors and
their ops, with autograd (docs/tensor_kinds.md).

creation.py makes and converts them and gives Tensor its sparse methods
(``install_sparse_methods``, which the facade phiops/sparse/ calls once the API has given Tensor
its own); unary.py, binary.py and shape.py hold the ops, over the sparse ops generated from
ops/sparse_ops.yaml (registry.py; their kernels in runtime/kernels/impl/sparse_*.py, with the
array helpers they share, sparse_arrays.py); infermeta.py the sparse InferMeta functions; nn.py
the activations as functions and layers; autograd.py the grad node of a sparse op.
"""

from __future__ import annotations

from phiops.runtime.sparse.binary import (
    add,
    addmm,
    divide,
    mask_as,
    masked_matmul,
    matmul,
    multiply,
    mv,
    subtract,
)
from phiops.runtime.sparse.creation import (
    coalesce,
    install_sparse_methods,
    is_same_shape,
    sparse_coo_tensor,
    sparse_csr_tensor,
)
from phiops.runtime.sparse.shape import reshape, slice, sum, transpose
from phiops.runtime.sparse.unary import (
    abs,
    asin,
    asinh,
    atan,
    atanh,
    cast,
    deg2rad,
    expm1,
    isnan,
    log1p,
    neg,
    pow,
    rad2deg,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
)

__all__ = [
    "sparse_coo_tensor",
    "sparse_csr_tensor",
    "coalesce",
    "is_same_shape",
    "sin",
    "tan",
    "asin",
    "atan",
    "sinh",
    "tanh",
    "asinh",
    "atanh",
    "sqrt",
    "square",
    "log1p",
    "abs",
    "pow",
    "cast",
    "neg",
    "deg2rad",
    "rad2deg",
    "expm1",
    "isnan",
    "mv",
    "matmul",
    "masked_matmul",
    "addmm",
    "add",
    "subtract",
    "multiply",
    "divide",
    "mask_as",
    "sum",
    "transpose",
    "reshape",
    "slice",
]


def _install_into_static() -> None:
    """The static layer below builds and runs sparse ops through this library: give ``Value``
    its sparse methods and the executor the sparse ops' definitions."""
    from phiops.runtime.sparse import creation as _creation
    from phiops.runtime.sparse.registry import sparse_op_defs
    from phiops.runtime.static.executor.steps.sparse import register_sparse_op_defs
    from phiops.runtime.static.sparse import install_sparse_value_methods

    install_sparse_value_methods(_creation)
    register_sparse_op_defs(sparse_op_defs)


_install_into_static()
