"""A per-channel affine map, ``y = x * scale + shift`` along the channel axis of a numpy array,
with relu after it when asked: what a test-mode batch_norm that folds into no producer runs as
(runtime/static/passes/batch_norm_affine.py). The compiled ``channel_affine``
(runtime/kernels/csrc/channel_affine.h) makes one pass over the array, split by rows between
threads for arrays of `PARALLEL_MIN_ELEMENTS` or more (`parallel_rows`); the numpy path
multiplies, adds (and takes the relu kernel's ``fmax(y, 0)`` then ``+ 0``) in place in the
result: the same bits."""

from __future__ import annotations

import numpy as np

from phiops.runtime.kernels.native import native_function, parallel_rows

__all__ = ["PARALLEL_MIN_ELEMENTS", "channel_affine"]

PARALLEL_MIN_ELEMENTS = 1 << 21
"""Elements below which the compiled kernel runs on the calling thread: its loop streams (a
multiply, an add and a compare an element, about 0.35 ns each), so handing half the rows to a
worker (tens of microseconds) pays only for millions of elements (2 cores: 2^16 elements 26 us
on one thread, 61 us on two; 2^18 95 us either way; 2^22 3.4 ms on one, 1.9 ms on two)."""


def channel_affine(
    x: np.ndarray, scale: np.ndarray, shift: np.ndarray, channels_last: bool, relu: bool
) -> np.ndarray:
    """``x * scale + shift`` per channel of ``x`` (rank >= 2; its channel axis 1, or the last
    one when ``channels_last``), rounded after the product and after the sum as numpy rounds
    them, then ``max(y, 0)`` with relu's semantics (NaN and -0.0 give +0.0) when ``relu``.
    ``scale`` and ``shift`` are vectors of one number per channel, of ``x``'s dtype."""
    out = np.empty(x.shape, x.dtype)
    native = native_function(x, "channel_affine") if scale.dtype == x.dtype else None
    if native is not None:
        x = np.ascontiguousarray(x)
        channels = scale.shape[0]
        columns = channels_last or x.ndim == 2
        n = channels if columns else x.size // (x.shape[0] * channels)
        rows = x.size // n
        if x.size < PARALLEL_MIN_ELEMENTS:
            native(x, scale, shift, rows, n, channels, columns, relu, 0, rows, out)
        else:
            parallel_rows(
                lambda r0, r1: native(
                    x, scale, shift, rows, n, channels, columns, relu, r0, r1, out
                ),
                rows,
                2 * x.size,
            )
        return out
    if not channels_last:
        broadcast = (scale.shape[0],) + (1,) * (x.ndim - 2)
        scale, shift = scale.reshape(broadcast), shift.reshape(broadcast)
    np.multiply(x, scale, out=out)
    np.add(out, shift, out=out)
    if relu:
        zero = out.dtype.type(0)
        np.fmax(out, zero, out=out)
        np.add(out, zero, out=out)
    return out
