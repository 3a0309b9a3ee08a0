"""``paddle.nn.functional.sequence_mask`` over the ``sequence_mask`` op (issue 24)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["sequence_mask"]


def sequence_mask(
    x: Tensor, maxlen: Any = None, dtype: Any = "int64", name: str | None = None
) -> Tensor:
    """The mask of the lengths ``x``: ``out[..., j]`` is 1 (True) where ``j < x[...]``, else 0,
    for ``j`` in ``[0, maxlen)``; ``maxlen`` None (or negative) takes the largest length in
    ``x``, and may be an int or a 1-element integer Tensor. The result has ``x``'s shape plus a
    trailing ``maxlen``, of ``dtype`` (int64 by default), and stops gradients, as PaddlePaddle's.

    Raises InvalidArgumentError for a ``maxlen`` that is neither None, an int nor a Tensor, or a
    ``dtype`` that is not a data type."""
    if maxlen is None:
        maxlen = -1
    elif isinstance(maxlen, bool) or not (isinstance(maxlen, int) or hasattr(maxlen, "shape")):
        raise InvalidArgumentError(
            f"sequence_mask(): argument 'maxlen' must be None, an int or a Tensor, got {maxlen!r}"
        )
    out = op_api("sequence_mask")(x, maxlen, to_dtype(dtype, "sequence_mask", "dtype"))
    out.stop_gradient = True
    return out
