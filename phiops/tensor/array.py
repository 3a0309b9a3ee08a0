"""``phiops.tensor.array`` (``paddle.tensor.array``): ``create_array``, ``array_write``,
``array_read``, ``array_length`` (runtime/static/tensor_array.py)."""

from __future__ import annotations

from phiops.runtime.static.tensor_array import array_length, array_read, array_write, create_array

__all__ = ["create_array", "array_write", "array_read", "array_length"]
