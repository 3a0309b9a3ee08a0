"""The user tensor type, as the layers below the eager layer see it.

Dispatch hands back its outputs, and autograd its gradients, as the user ``Tensor``
(runtime/eager/tensor.py). That class sits above them and they never import it: they call
``TENSOR_TYPE.wrap(array, meta)`` and test ``isinstance(value, TENSOR_TYPE.cls)``. The eager layer
installs its class and its ``wrap_array`` here once, when runtime/eager/tensor.py loads (the
generated API imports it before any op runs). Before that, making an output is an error saying
what is missing, not a bare DenseTensor without autograd state.
"""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.errors import PreconditionNotMetError
from phiops.runtime.tensor.dense_tensor import DenseTensor, DenseTensorMeta

__all__ = ["TENSOR_TYPE", "TensorType", "install_tensor_type"]


def _not_installed(array: Any, meta: DenseTensorMeta) -> Any:
    raise PreconditionNotMetError(
        "no tensor type is installed for dispatch's outputs: import phiops (or "
        "phiops.runtime.eager), whose Tensor installs itself in runtime/dispatch/tensor_type.py"
    )


class TensorType:
    """``cls``: the user tensor class (a DenseTensor subclass); ``wrap(array, meta)``: a new one
    around an array whose meta is known."""

    __slots__ = ("cls", "wrap")

    def __init__(self) -> None:
        self.cls: type = DenseTensor
        self.wrap: Callable[[Any, DenseTensorMeta], Any] = _not_installed


TENSOR_TYPE = TensorType()


def install_tensor_type(cls: type, wrap: Callable[[Any, DenseTensorMeta], Any]) -> None:
    """Make ``cls`` the type of every tensor dispatch and autograd create (runtime/eager/tensor.py
    calls this once); ``cls`` must be a DenseTensor, since kernels read its array and meta."""
    if not (isinstance(cls, type) and issubclass(cls, DenseTensor)):
        raise PreconditionNotMetError(f"install_tensor_type: {cls!r} is not a DenseTensor subclass")
    TENSOR_TYPE.cls = cls
    TENSOR_TYPE.wrap = wrap
