"""The eager layer: the user ``Tensor`` (a DenseTensor with autograd state), its Python
operators, methods and indexing, and ``to_tensor``. It sits on dispatch and autograd; nothing
below it imports it (dispatch creates output tensors through the factory this layer installs,
runtime/dispatch/tensor_factory.py)."""

from phiops.runtime.eager.tensor import Tensor, install_operators, to_tensor, wrap_array

__all__ = ["Tensor", "install_operators", "to_tensor", "wrap_array"]
