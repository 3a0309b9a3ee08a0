"""``phiops.strings``: StringTensors and their ops, PHI's ``strings_ops.yaml`` (``empty``,
``empty_like``, ``lower``, ``upper``), with the YAML's signatures.

PaddlePaddle 3.3.1 has no public ``paddle.strings``: it exposes the ops as
``paddle._C_ops.strings_empty``, ``strings_empty_like``, ``strings_lower`` and
``strings_upper``, and the class as ``paddle.base.core.eager.StringTensor``. Here they are
``phiops.strings.empty`` ... and ``phiops.strings.StringTensor`` (``to_string_tensor`` makes one
from a nested list or numpy array of str). The kernels (runtime/kernels/impl/string_kernels.py)
say where they differ from PaddlePaddle's (``use_utf8_encoding=False``). Strings live on the
host: a place other than the CPU is an UnimplementedError.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import Backend, Place
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.string_kernels import (
    strings_empty_kernel,
    strings_empty_like_kernel,
    strings_lower_kernel,
    strings_upper_kernel,
)
from phiops.runtime.tensor.sparse import StringTensor

__all__ = ["StringTensor", "to_string_tensor", "empty", "empty_like", "lower", "upper"]


def _check_place(op: str, place: Any) -> None:
    if place is None:
        return
    if not isinstance(place, Place):
        raise InvalidArgumentError(f"{op}(): argument 'place' must be a Place, got {place!r}")
    if place.backend not in (Backend.CPU, Backend.UNDEFINED):
        raise UnimplementedError(
            f"{op}(): StringTensors live on the host in phiops; place {place!r} is not implemented"
        )


def to_string_tensor(data: Any) -> StringTensor:
    """A StringTensor holding ``data`` (a str, a nested list or a numpy array of str)."""
    array = np.asarray(data, dtype=object)
    if array.size and not all(isinstance(item, str) for item in array.reshape(-1)):
        raise InvalidArgumentError("to_string_tensor(): every item of 'data' must be a str")
    return StringTensor(array)


def empty(shape: Sequence[int], place: Place | None = None) -> StringTensor:
    """A StringTensor of ``shape`` holding empty strings (``strings_empty``)."""
    _check_place("empty", place)
    return strings_empty_kernel(shape)


def empty_like(x: StringTensor, place: Place | None = None) -> StringTensor:
    """A StringTensor of ``x``'s shape holding empty strings (``strings_empty_like``)."""
    _check_place("empty_like", place)
    return strings_empty_like_kernel(x)


def lower(x: StringTensor, use_utf8_encoding: bool) -> StringTensor:
    """Each string of ``x`` in lower case (``strings_lower``): every letter with
    ``use_utf8_encoding``, the ASCII letters only without."""
    return strings_lower_kernel(x, bool(use_utf8_encoding))


def upper(x: StringTensor, use_utf8_encoding: bool) -> StringTensor:
    """Each string of ``x`` in upper case (``strings_upper``): every letter with
    ``use_utf8_encoding``, the ASCII letters only without."""
    return strings_upper_kernel(x, bool(use_utf8_encoding))
