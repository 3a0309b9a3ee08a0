"""Kernels on StringTensors (PHI's ``paddle/phi/kernels/strings/``): strings_empty,
strings_empty_like, strings_lower and strings_upper (``strings_ops.yaml``).

The case conversions work character by character, as PHI's UTF-8 case tables do: each
character maps to one character (``"ΣΑΣ"`` lowers to ``"σασ"``, with no final sigma; ``"ß"``
uppers to ``"ẞ"``, ``"İ"`` lowers to ``"i"``; a character whose Unicode case mapping has
several characters, as ``"ﬁ"``, and a titlecase letter, as ``"ǅ"``, stay as they are). With ``use_utf8_encoding`` false only the
ASCII letters change. PaddlePaddle 3.3.1's CPU kernels give empty strings there instead
(every string, ASCII or not; tests/strings/ records it): phiops converts the ASCII letters, as
the option says. The kernels run on the host (PHI registers them for CPU and GPU; strings have
no device arrays here).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.tensor.sparse import StringTensor

__all__ = [
    "strings_empty_kernel",
    "strings_empty_like_kernel",
    "strings_lower_kernel",
    "strings_upper_kernel",
]

# one-character case mappings PHI's tables have where Python's mapping has several characters
_UPPER_SPECIAL = {"ß": "ẞ"}


def _upper_char(c: str) -> str:
    if unicodedata.category(c) == "Lt":
        return c
    mapped = c.upper()
    return mapped if len(mapped) == 1 else _UPPER_SPECIAL.get(c, c)


def _lower_char(c: str) -> str:
    if unicodedata.category(c) == "Lt":
        return c
    mapped = c.lower()
    return mapped if len(mapped) == 1 else mapped[0]


def _ascii(convert: Callable[[str], str]) -> Callable[[str], str]:
    return lambda c: convert(c) if c.isascii() else c


def _map(x: StringTensor, convert: Callable[[str], str]) -> StringTensor:
    flat = [
        "".join(convert(c) for c in item) for item in x.strings.reshape(-1).tolist()
    ]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return StringTensor(out.reshape(x.strings.shape))


def _check(op: str, x: Any) -> None:
    if not isinstance(x, StringTensor):
        raise InvalidArgumentError(
            f"{op}(): argument 'x' must be a StringTensor, got {type(x).__name__}"
        )


def strings_lower_kernel(x: StringTensor, use_utf8_encoding: bool) -> StringTensor:
    """Each string in lower case (the ASCII letters only unless ``use_utf8_encoding``)."""
    _check("strings_lower", x)
    return _map(x, _lower_char if use_utf8_encoding else _ascii(str.lower))


def strings_upper_kernel(x: StringTensor, use_utf8_encoding: bool) -> StringTensor:
    """Each string in upper case (the ASCII letters only unless ``use_utf8_encoding``)."""
    _check("strings_upper", x)
    return _map(x, _upper_char if use_utf8_encoding else _ascii(str.upper))


def strings_empty_kernel(shape: Sequence[int]) -> StringTensor:
    """A StringTensor of ``shape`` holding empty strings."""
    try:
        dims = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"strings_empty(): argument 'shape' must be a list of ints, got {shape!r}"
        ) from None
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(
            f"strings_empty(): argument 'shape' must not have negative extents, got {list(dims)}"
        )
    out = np.empty(dims, dtype=object)
    out.fill("")
    return StringTensor(out)


def strings_empty_like_kernel(x: StringTensor) -> StringTensor:
    """A StringTensor of ``x``'s shape holding empty strings."""
    _check("strings_empty_like", x)
    return strings_empty_kernel(x.strings.shape)
