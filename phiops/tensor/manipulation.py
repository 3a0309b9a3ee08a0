"""``phiops.tensor.manipulation`` (``paddle.tensor.manipulation``): ``tensor_array_to_tensor``
(runtime/static/tensor_array.py); the module's other functions are at phiops's top level."""

from __future__ import annotations

from phiops.runtime.static.tensor_array import tensor_array_to_tensor

__all__ = ["tensor_array_to_tensor"]
