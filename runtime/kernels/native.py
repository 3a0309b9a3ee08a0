"""The optional compiled kernels, and when a numpy kernel may use them.

`phiops.runtime.kernels._native` is a C extension built from ``runtime/kernels/csrc/`` by setup.py
when a C compiler is at hand (README, "Native kernels"); without it, or with
``FLAGS_use_native_kernels`` off, every kernel runs its numpy code. The C code takes C-contiguous
buffers of one float format; the kernels using it make their arrays so
(`np.ascontiguousarray`) after `native_kernels` has checked the array type and dtype, so a CuPy
array or another dtype never reaches it.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime import flags, runtime_flags  # noqa: F401 (defines FLAGS_use_native_kernels)

try:
    from phiops.runtime.kernels import _native
except ImportError:  # not built: no compiler at install time, or a source checkout
    _native = None

__all__ = ["NATIVE_BUILT", "native_kernels"]

NATIVE_BUILT = _native is not None
"""Whether the extension is importable here."""

_NATIVE_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def native_kernels(x: object) -> ModuleType | None:
    """The extension module when it is built, the flag allows it and ``x`` is a non-empty numpy
    array of native-order float32 or float64; None where the caller must use its numpy code."""
    if (
        _native is not None
        and type(x) is np.ndarray
        and x.dtype in _NATIVE_DTYPES
        and x.size
        and flags.flag_value("use_native_kernels")
    ):
        return _native
    return None
