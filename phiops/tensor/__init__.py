"""``phiops.tensor`` (``paddle.tensor``): the tensor-array functions ``create_array``,
``array_write``, ``array_read`` and ``array_length`` (runtime/static/tensor_array.py; Python lists
in dynamic mode, `pd_op.tensor_array` Values in static mode, as PaddlePaddle 3.3.1's).

PaddlePaddle's ``paddle.tensor`` also re-exports the tensor functions of the top level
(``paddle.tensor.add`` is ``paddle.add``); phiops keeps those at the top level only.
"""

from __future__ import annotations

from phiops.runtime.static.tensor_array import array_length, array_read, array_write, create_array
from phiops.tensor import array, manipulation

__all__ = ["array", "manipulation", "create_array", "array_write", "array_read", "array_length"]
