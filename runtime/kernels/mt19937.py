"""PaddlePaddle 3.3.1's CPU random numbers: its engine, std::mt19937_64, and the libstdc++
distributions its kernels draw through, so that phiops's random ops give PaddlePaddle's numbers
after the same ``paddle.seed``.

An engine is a uint64 array of 313 words (runtime/random.py makes and keeps them: the 312 state
words, then the position of the next word, 312 meaning "twist first"); these functions draw from
it and advance it in place. The compiled extension (runtime/kernels/csrc/mt19937.h) draws when it
is built; otherwise numpy does, with the same results except that the normal distribution's
logarithm is the float64 log rounded to T, which can differ from the C library's ``logf``
(PaddlePaddle's) in the last bit of a rare value.

- ``uniform``: std::uniform_real_distribution<T>(a, b): ``u * (b - a) + a`` with
  ``u = T(word) / 2**64`` (std::generate_canonical: one word, rounded to nearest; 1 becomes the
  largest T below 1).
- ``normal``: std::normal_distribution<T>(mean, stddev), one distribution per call (PHI's
  NormalDistribution): Marsaglia's polar method, the second value of each accepted pair used for
  the next element.
- ``randint``: std::uniform_int_distribution over [low, low + range) with libstdc++ 11's
  nearly divisionless method (the high word of ``word * range``, words whose low word falls
  below ``2**64 mod range`` drawn again).
- ``bounded``: one such draw over [0, range) per given range, in order (the ranges may differ).
- ``shuffle``: libstdc++'s std::shuffle of 0..n-1 (GCC 10 and later, which PaddlePaddle's
  manylinux build uses): while n * n fits the engine's range, it swaps two elements per draw
  (``__gen_two_uniform_ints``: one draw over [0, b * (b + 1)) split into its quotient and
  remainder by b + 1), after a single draw over [0, 2) when n is even.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.kernels.native import native_kernels

__all__ = ["raw", "uniform", "normal", "randint", "bounded", "shuffle", "STATE_WORDS"]

STATE_WORDS = 313
_N, _M = 312, 156
_UPPER, _LOWER = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
_MATRIX = np.uint64(0xB5026F5AA96619E9)


def _native(name: str):  # noqa: ANN202
    module = native_kernels(np.empty(1, np.float64))
    return None if module is None else getattr(module, name, None)


def _twist(mt: np.ndarray) -> None:
    """The engine's twist of the 312 words in place, in three vectorised runs: words 0-155 read
    only old words, 156-310 read the new words 0-154, and 311 the new word 0 and 155."""
    one = np.uint64(1)

    def update(i0: int, i1: int, follow: np.ndarray, partner: np.ndarray) -> None:
        x = (mt[i0:i1] & _UPPER) | (follow & _LOWER)
        mt[i0:i1] = partner ^ (x >> one) ^ np.where(x & one, _MATRIX, np.uint64(0))

    update(0, _M, mt[1 : _M + 1].copy(), mt[_M:_N].copy())
    update(_M, _N - 1, mt[_M + 1 : _N].copy(), mt[0 : _N - 1 - _M].copy())
    update(_N - 1, _N, mt[0:1].copy(), mt[_M - 1 : _M].copy())


def _temper(x: np.ndarray) -> np.ndarray:
    x = x ^ ((x >> np.uint64(29)) & np.uint64(0x5555555555555555))
    x = x ^ ((x << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000))
    x = x ^ ((x << np.uint64(37)) & np.uint64(0xFFF7EEE000000000))
    return x ^ (x >> np.uint64(43))


def raw(state: np.ndarray, n: int) -> np.ndarray:
    """The engine's next ``n`` 64-bit words (uint64), advancing ``state``."""
    out = np.empty(n, dtype=np.uint64)
    function = _native("mt_raw")
    if function is not None:
        function(state, out, n)
        return out
    done = 0
    while done < n:
        position = int(state[_N])
        if position >= _N:
            _twist(state[:_N])
            position = 0
        take = min(_N - position, n - done)
        out[done : done + take] = _temper(state[position : position + take])
        state[_N] = position + take
        done += take
    return out


def _canonical(words: np.ndarray, dtype: type) -> np.ndarray:
    u = words.astype(dtype) * dtype(2.0**-64)
    u[u >= 1] = np.nextafter(dtype(1), dtype(0))
    return u


def uniform(state: np.ndarray, n: int, a: float, b: float, dtype: type) -> np.ndarray:
    """``n`` draws of std::uniform_real_distribution<dtype>(a, b) (dtype float32 or float64;
    ``a`` and ``b`` already the values the kernel passes, rounded to dtype here)."""
    a, b = dtype(a), dtype(b)
    out = np.empty(n, dtype=dtype)
    function = _native("mt_uniform")
    if function is not None:
        function(state, out, n, float(a), float(b))
        return out
    return _canonical(raw(state, n), dtype) * (b - a) + a


def normal(state: np.ndarray, n: int, mean: float, stddev: float, dtype: type) -> np.ndarray:
    """``n`` draws of one std::normal_distribution<dtype>(mean, stddev)."""
    mean, stddev = dtype(mean), dtype(stddev)
    out = np.empty(n, dtype=dtype)
    function = _native("mt_normal")
    if function is not None:
        function(state, out, n, float(mean), float(stddev))
        return out
    pairs = (n + 1) // 2
    budget = 2 * pairs + 16
    while True:
        # draw from a copy, then advance the engine by the words the accepted pairs used
        trial = state.copy()
        u = _canonical(raw(trial, 2 * budget), dtype).reshape(budget, 2)
        xy = ((u * dtype(2)).astype(np.float64) - 1.0).astype(dtype)
        r2 = xy[:, 0] * xy[:, 0] + xy[:, 1] * xy[:, 1]
        accepted = np.flatnonzero(~((r2 > 1) | (r2 == 0)))
        if accepted.size >= pairs:
            break
        budget *= 2
    chosen = accepted[:pairs]
    raw(state, 2 * (int(chosen[-1]) + 1) if pairs else 0)
    r2 = r2[chosen]
    # the C library's log of T (logf for float32) stood in for by the float64 log rounded to T
    logarithm = np.log(r2.astype(np.float64)).astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        mult = np.sqrt(dtype(-2) * logarithm / r2)
    values = np.empty((pairs, 2), dtype=dtype)
    values[:, 0] = xy[chosen, 1] * mult  # the returned value, then the saved one
    values[:, 1] = xy[chosen, 0] * mult
    return values.reshape(-1)[:n] * stddev + mean


def randint(state: np.ndarray, n: int, low: int, high: int) -> np.ndarray:
    """``n`` draws (int64) of std::uniform_int_distribution over [low, high)."""
    span = (high - 1 - low) % 2**64 + 1
    out = np.empty(n, dtype=np.int64)
    function = _native("mt_randint")
    if function is not None:
        function(state, out, n, int(low), span)
        return out
    threshold = (2**64 - span) % span
    for i in range(n):
        product = int(raw(state, 1)[0]) * span
        while product % 2**64 < threshold:
            product = int(raw(state, 1)[0]) * span
        value = (low + (product >> 64)) % 2**64
        out[i] = value - 2**64 if value >= 2**63 else value
    return out


def bounded(state: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """One draw (int64) of std::uniform_int_distribution over [0, r) for each r of ``ranges``
    (each >= 1), in order, as libstdc++ draws them one after another from the engine."""
    ranges = np.asarray(ranges, dtype=np.uint64).reshape(-1)
    count = int(ranges.size)
    out = np.empty(count, dtype=np.int64)
    if count == 0:
        return out
    if int(ranges.max()) >= 2**32:
        for i, span in enumerate(ranges.tolist()):
            out[i] = randint(state, 1, 0, int(span))[0]
        return out
    # ranges below 2**32: the whole 128-bit product from 32-bit halves, vectorised; a word the
    # method rejects (its low product word below 2**64 mod range, rare) shifts the words after
    # it, so the draws are redone from there
    thirty_two = np.uint64(32)
    thresholds = (np.uint64(0) - ranges) % ranges
    done = 0
    while done < count:
        spans = ranges[done:]
        trial = state.copy()
        words = raw(trial, spans.size)
        low = words * spans
        rejected = np.flatnonzero(low < thresholds[done:])
        take = int(rejected[0]) if rejected.size else spans.size
        high_half = (words[:take] >> thirty_two) * spans[:take]
        low_half = ((words[:take] & np.uint64(_MASK32_WORD)) * spans[:take]) >> thirty_two
        out[done : done + take] = ((high_half + low_half) >> thirty_two).astype(np.int64)
        raw(state, take)
        done += take
        if rejected.size:
            out[done] = randint(state, 1, 0, int(spans[take]))[0]
            done += 1
    return out


_MASK32_WORD = 0xFFFFFFFF


def shuffle(state: np.ndarray, n: int) -> np.ndarray:
    """libstdc++'s std::shuffle (GCC 10 and later) of 0..n-1 (int64) over the engine."""
    values = list(range(n))
    if n <= 1:
        return np.asarray(values, dtype=np.int64)
    if (2**64 - 1) // n >= n:
        start = 1
        first: list[int] = []
        if n % 2 == 0:
            first = [2]
            start = 2
        positions = np.arange(start, n, 2, dtype=np.uint64)
        ranges = np.concatenate(
            [np.asarray(first, dtype=np.uint64), (positions + np.uint64(1)) * (positions + np.uint64(2))]
        )
        draws = bounded(state, ranges).tolist()
        if first:
            j = draws[0]
            values[1], values[j] = values[j], values[1]
            draws = draws[1:]
        for i, x in zip(range(start, n, 2), draws):
            b1 = i + 2
            j, k = x // b1, x % b1
            values[i], values[j] = values[j], values[i]
            values[i + 1], values[k] = values[k], values[i + 1]
    else:
        draws = bounded(state, np.arange(2, n + 1, dtype=np.uint64)).tolist()
        for i, j in zip(range(1, n), draws):
            values[i], values[j] = values[j], values[i]
    return np.asarray(values, dtype=np.int64)
