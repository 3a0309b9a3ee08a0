"""phiops runtime: common types, tensors, InferMeta functions, kernels and dispatch.

Hand-written; the generated API (``generated/``) is built on it. It never imports ``codegen``.
"""

from phiops.runtime import runtime_flags as _runtime_flags  # defines the runtime's own flags
from phiops.runtime.common import (
    Backend,
    CPUPlace,
    DataLayout,
    DataType,
    GPUPlace,
    IntArray,
    Place,
    Scalar,
)
from phiops.runtime.core import MetaConfig, MetaTensor, Tensor, to_tensor
from phiops.runtime.errors import (
    AlreadyExistsError,
    InvalidArgumentError,
    NotFoundError,
    PhiError,
    PreconditionNotMetError,
    UnimplementedError,
)

__all__ = [
    "Backend",
    "CPUPlace",
    "DataLayout",
    "DataType",
    "GPUPlace",
    "IntArray",
    "Place",
    "Scalar",
    "MetaConfig",
    "MetaTensor",
    "Tensor",
    "to_tensor",
    "AlreadyExistsError",
    "InvalidArgumentError",
    "NotFoundError",
    "PhiError",
    "PreconditionNotMetError",
    "UnimplementedError",
]
