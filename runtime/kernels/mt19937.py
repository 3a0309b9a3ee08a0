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
- ``gamma``, ``poisson``, ``binomial``: the samplers that loop, one element after another (PHI's
  Marsaglia-Tsang gamma, libstdc++'s poisson_distribution<int>, PHI's BTRS and inversion
  binomial). The compiled extension runs them in C (runtime/kernels/csrc/mt_samplers.h), in
  about PaddlePaddle's own time (bench/rng.py); without it they run here in Python over a
  ``Stream`` of the engine's words, float32 arithmetic rounded step by step as the C++ float
  arithmetic rounds it, about a hundred times slower. Both consume the same words and give the
  same integers; gamma's float32 values can differ in the last bits, where C's logf and powf
  (PaddlePaddle's) differ from the float64 ones rounded to float32 that Python uses.
"""

from __future__ import annotations

import functools
import math
import struct

import numpy as np

from phiops.runtime.kernels.native import native_kernels

__all__ = [
    "raw",
    "uniform",
    "normal",
    "randint",
    "bounded",
    "shuffle",
    "Stream",
    "gamma",
    "poisson",
    "binomial",
    "STATE_WORDS",
]

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
            [
                np.asarray(first, dtype=np.uint64),
                (positions + np.uint64(1)) * (positions + np.uint64(2)),
            ]
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


# --- scalar draws, for the samplers that loop (rejection methods) ---------------------------------

_FLOAT32 = struct.Struct("f")
_K0331 = float(np.float32(0.0331))  # PHI's 0.0331f


def round32(value: float) -> float:
    """``value`` rounded to float32 (as a Python float): after a float64 +, -, *, / or sqrt of
    float32 operands, the float32 operation's result."""
    try:
        return _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def same(value: float) -> float:
    """float64's rounding: none."""
    return value


def c_log(value: float) -> float:
    """The C library's log: -inf at 0, NaN below 0 or at NaN (Python's math.log raises)."""
    if value > 0:
        return math.log(value)
    return -math.inf if value == 0 else math.nan


def c_sqrt(value: float) -> float:
    """The C library's sqrt: NaN below 0."""
    return math.sqrt(value) if value >= 0 else math.nan


def c_pow(base: float, exponent: float) -> float:
    """The C library's pow for a base in (0, 1]: inf on overflow."""
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


class _Tables(dict):
    """Stream's tables by name, each made on first use."""

    def __init__(self, make) -> None:  # noqa: ANN001
        super().__init__()
        self._make = make

    def __missing__(self, name: str) -> list[float]:
        values = self[name] = self._make(name)
        return values


class Stream:
    """An engine's draws one by one, for the kernels whose samplers loop (rejection methods):
    std::generate_canonical<float or double> values of one word each, and values derived from
    them computed ahead for every position at once in numpy (``draw``: 1 - u, log u,
    log(1 - u) in the dtype; ``normal_pair``: the polar method's accepted pair from any
    position). The words are read ahead from a copy of the engine; ``close`` advances the
    engine by the words used."""

    def __init__(self, state: np.ndarray, dtype: type, expected: int = 0) -> None:
        self.state = state
        self.dtype = dtype
        self.round = round32 if dtype == np.float32 else same
        self._ahead = state.copy()
        self._u = np.empty(0, dtype)
        self._next = 0
        self._extend(max(int(expected), 256))

    def _extend(self, count: int) -> None:
        self._u = np.concatenate([self._u, _canonical(raw(self._ahead, count), self.dtype)])
        # each table is computed for every word read ahead the first time it is asked for
        self._tables = _Tables(self._table_values)
        self._pairs_ready = False

    def _table_values(self, name: str) -> list[float]:
        dtype, f64, u = self.dtype, np.float64, self._u
        with np.errstate(divide="ignore", invalid="ignore"):
            if name == "uniform":
                values = u
            elif name == "one_minus":
                values = dtype(1) - u
            elif name == "log":
                values = np.log(u.astype(f64)).astype(dtype)
            elif name == "log_one_minus":
                values = np.log((dtype(1) - u).astype(f64)).astype(dtype)
            elif name == "neg_log_one_minus":
                values = -np.log(1.0 - u.astype(f64))
            else:
                raise KeyError(name)
        return values.tolist()

    def _pairs(self) -> None:
        """The polar method from every position p (x of word p, y of word p + 1): the values
        an accepted pair returns and saves, and the first accepted pair at p, p + 2, ..."""
        if self._pairs_ready:
            return
        dtype, f64, u = self.dtype, np.float64, self._u
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((u * dtype(2)).astype(f64) - 1.0).astype(dtype)
            x, y = t[:-1], t[1:]
            r2 = x * x + y * y
            accepted = ~((r2 > 1) | (r2 == 0))
            mult = np.sqrt(dtype(-2) * np.log(r2.astype(f64)).astype(dtype) / r2)
            returned = y * mult
            # for the gamma sampler: x * x and 1 - 0.0331f * xx * xx of each returned value
            squares = returned * returned
            squeezes = dtype(1) - dtype(_K0331) * squares * squares
        self._returned = returned.tolist()
        self._saved = (x * mult).tolist()
        self.squares = squares.tolist()
        self.squeezes = squeezes.tolist()
        # len(u) where no accepted pair has been read ahead yet
        starts = np.where(accepted, np.arange(x.size), u.size)
        following = np.empty(x.size, np.int64)
        for parity in (0, 1):
            run = starts[parity::2]
            following[parity::2] = np.minimum.accumulate(run[::-1])[::-1]
        self._following = following.tolist()
        self._pairs_ready = True

    def draw(self, table: str = "uniform") -> float:
        """The value ``table`` (uniform, one_minus, log, log_one_minus or neg_log_one_minus) of the next word."""
        index = self._next
        if index >= len(self._u):
            self._extend(len(self._u))
        self._next = index + 1
        return self._tables[table][index]

    @property
    def position(self) -> int:
        """The index of the next unread word."""
        return self._next

    @position.setter
    def position(self, index: int) -> None:
        self._next = index

    def table(self, name: str, more: bool = False) -> list[float]:
        """The values ``name`` (uniform, one_minus, log, log_one_minus or neg_log_one_minus) of every word read ahead, indexed by position;
        with ``more``, after reading as many words again."""
        if more:
            self._extend(len(self._u))
        return self._tables[name]

    def take(self) -> tuple[int, dict[str, list[float]]]:
        """The next word's index and the tables to read it in."""
        index = self._next
        if index >= len(self._u):
            self._extend(len(self._u))
        self._next = index + 1
        return index, self._tables

    def uniform(self) -> float:
        """The next std::generate_canonical value, in [0, 1)."""
        return self.draw("uniform")

    def normal_pair(self) -> tuple[float, float]:
        """One accepted pair of std::normal_distribution's polar method: (the value it
        returns, the value it saves), each of mean 0 and standard deviation 1."""
        while True:
            self._pairs()
            index = self._next
            if index < len(self._following):
                pair = self._following[index]
                if pair < len(self._u):
                    self._next = pair + 2
                    return self._returned[pair], self._saved[pair]
            self._extend(len(self._u))

    def normal(self) -> float:
        """One draw of a new std::normal_distribution(0, 1) (its saved value dropped)."""
        return self.normal_pair()[0]

    def normal_index(self) -> int:
        """As ``normal``, the position of its pair (``returned[i]`` is the value)."""
        while True:
            self._pairs()
            index = self._next
            if index < len(self._following):
                pair = self._following[index]
                if pair < len(self._u):
                    self._next = pair + 2
                    return pair
            self._extend(len(self._u))

    @property
    def returned(self) -> list[float]:
        """The value each pair position's normal returns."""
        return self._returned

    def close(self) -> None:
        """Advance the engine by the words drawn."""
        raw(self.state, self._next)


class SavedNormal:
    """One std::normal_distribution<double>(0, 1) that lives across draws (a distribution's
    member, as poisson_distribution's): every other draw is the saved value."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream
        self.saved: float | None = None

    def __call__(self) -> float:
        if self.saved is not None:
            value, self.saved = self.saved, None
            return value
        value, self.saved = self.stream.normal_pair()
        return value


def gamma(state: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """PHI's CPU gamma sampler (standard_gamma, dirichlet): per element in flat order,
    sample_gamma (Marsaglia and Tsang, alpha < 1 boosted by u ** (1 / alpha)) in alpha's dtype
    T, its uniforms std::uniform_real_distribution<T>(0, 1) and its normals a new
    std::normal_distribution<T>(0, 1) each, then max(the smallest normal T, sample) (a NaN
    sample gives that smallest number). The float constants are float literals (1.0f / 3.0f,
    0.0331f) in T; T's log and pow are the float64 ones rounded to T."""
    dtype = np.float64 if alpha.dtype == np.float64 else np.float32
    function = _native("mt_gamma")
    if function is not None:
        values = np.asarray(alpha, dtype=dtype, order="C")
        out = np.empty(values.shape, dtype=dtype)
        function(state, values, out)
        return out
    stream = Stream(state, dtype, 5 * alpha.size + 64)
    r = stream.round
    draw, take, normal_index = stream.draw, stream.take, stream.normal_index
    third = float(np.float32(1.0) / np.float32(3.0))
    tiny = float(np.finfo(dtype).tiny)
    constants: dict[float, tuple[float, float, float]] = {}
    out = []
    for a in alpha.reshape(-1).tolist():
        sample = 0.0
        if a < 1.0 and a == 0.0:
            out.append(tiny)
            continue
        known = constants.get(a)
        if known is None:
            # d and c of alpha (boosted by 1 below 1), and the boost's exponent
            boosted = r(a + 1.0) if a < 1.0 else a
            d = r(boosted - third)
            known = constants[a] = (d, r(1.0 / r(c_sqrt(r(9.0 * d)))), r(1.0 / a))
        d, c, exponent = known
        scale = r(c_pow(draw("one_minus"), exponent)) if a < 1.0 else 1.0
        while True:
            while True:
                pair = normal_index()
                x = stream.returned[pair]
                y = r(1.0 + r(c * x))
                if not y <= 0:
                    break
            v = r(r(y * y) * y)
            index, tables = take()
            if tables["one_minus"][index] < stream.squeezes[pair]:
                sample = r(r(scale * d) * v)
                break
            xx = stream.squares[pair]
            bound = r(r(0.5 * xx) + r(d * r(r(1.0 - v) + r(c_log(v)))))
            if tables["log_one_minus"][index] < bound:
                sample = r(r(scale * d) * v)
                break
        out.append(sample if tiny < sample else tiny)
    stream.close()
    return np.asarray(out, dtype=dtype).reshape(alpha.shape)


def _c_round(value: float) -> float:
    """std::round: half away from zero."""
    return math.copysign(math.floor(abs(value) + 0.5), value)


_INT_MAX = 2**31 - 1
_NAF = (1 - 2.0**-52) / 2
_PI_4 = 0.7853981633974483096156608458198757
_SPI_2 = 1.2533141373155002512078826424055226
_E178 = 1.0129030479320018583185514777512983


@functools.lru_cache(maxsize=4096)
def _poisson_constants(mean: float) -> tuple[float, ...]:
    """libstdc++'s poisson_distribution constants of a mean >= 12 (its param_type and the
    operator's locals)."""
    m = math.floor(mean)
    lm_thr = math.log(mean)
    lfm = math.lgamma(m + 1)
    sm = math.sqrt(m)
    dx = math.sqrt(2 * m * math.log(32 * m / _PI_4))
    d = _c_round(max(6.0, min(m, dx)))
    cx = 2 * m + d
    scx = math.sqrt(cx / 2)
    one_cx = 1 / cx
    c2b = math.sqrt(_PI_4 * cx) * math.exp(one_cx)
    cb = 2 * cx * math.exp(-d * one_cx * (1 + d / 2)) / d
    thr = _INT_MAX + _NAF
    c1 = sm * _SPI_2
    c2 = c2b + c1
    c3 = c2 + 1
    c4 = c3 + 1
    c5 = c4 + _E178
    c = cb + c5
    two_cx = 2 * (2 * m + d)
    return m, lm_thr, lfm, sm, d, scx, one_cx, thr, c1, c2, c3, c4, c5, c, two_cx


def _poisson_one(stream: Stream, mean: float) -> int:
    uniform, draw = stream.uniform, stream.draw
    if not mean >= 12:
        threshold = math.exp(-mean) if mean == mean else math.nan
        x, product = 0, 1.0
        # the uniforms read in place (the loop's hot path), the position stored back
        uniforms, index = stream.table("uniform"), stream.position
        while True:
            if index >= len(uniforms):
                stream.position = index
                uniforms = stream.table("uniform", more=True)
            product *= uniforms[index]
            index += 1
            x += 1
            if not product > threshold:
                stream.position = index
                return x - 1
    normal = SavedNormal(stream)
    m, lm_thr, lfm, sm, d, scx, one_cx, thr, c1, c2, c3, c4, c5, c, two_cx = _poisson_constants(
        mean
    )
    while True:
        u = c * uniform()
        e = draw("neg_log_one_minus")
        w = 0.0
        if u <= c1:
            n = normal()
            y = -abs(n) * sm - 1
            x = math.floor(y)
            w = -n * n / 2
            if x < -m:
                continue
        elif u <= c2:
            n = normal()
            y = 1 + abs(n) * scx
            x = math.ceil(y)
            w = y * (2 - y) * one_cx
            if x > d:
                continue
        elif u <= c3:
            x = -1
        elif u <= c4:
            x = 0
        elif u <= c5:
            x = 1
        else:
            v = draw("neg_log_one_minus")
            y = d + v * two_cx / d
            x = math.ceil(y)
            w = -d * one_cx * (1 + y / 2)
        reject = w - e - x * lm_thr > lfm - math.lgamma(x + m + 1)
        reject = reject or x + m >= thr
        if not reject:
            return int(x + m + _NAF)


def poisson(state: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """PHI's CPU poisson: per element in flat order, a new std::poisson_distribution<int> of
    the rate (as double) drawn once (libstdc++: the product of uniforms below exp(-mean) for a
    mean below 12, else Devroye's rejection method with the distribution's own normal, its
    exponentials -log(1 - u) as in the libstdc++ PaddlePaddle 3.3.1 was built with; recorded
    draws tell this from later releases' -log(u)), its uniforms
    std::generate_canonical<double> of one word each. A rate <= 0 or NaN draws one
    word and gives 0, as libstdc++'s product method does. int64 results."""
    function = _native("mt_poisson")
    if function is not None:
        values = np.asarray(rates, dtype=np.float64, order="C")
        out = np.empty(values.shape, dtype=np.int64)
        function(state, values, out)
        return out
    with np.errstate(invalid="ignore"):
        small = np.nan_to_num(np.clip(rates.astype(np.float64), 0, 12)).sum()
    stream = Stream(state, np.float64, int(small) + 4 * rates.size + 64)
    out = [_poisson_one(stream, rate) for rate in rates.reshape(-1).astype(np.float64).tolist()]
    stream.close()
    return np.asarray(out, dtype=np.int64).reshape(rates.shape)


def _stirling_tail(k: int, r) -> float:  # noqa: ANN001
    """PHI's stirling_approx_tail<T>(k): its table of T below 10, else the series in double
    rounded to T."""
    if k <= 9:
        return r(_TAILS[k])
    kp1sq = r(float((k + 1) * (k + 1)))
    return r((1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1))


_TAILS = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


@functools.lru_cache(maxsize=4096)
def _btrs_constants(n: float, p: float, single: bool) -> tuple[float, ...]:
    """BTRS's a, b, c, v_r, p / (1 - p), alpha and m of (n, p), in float32 when ``single``."""
    r = round32 if single else same
    stddev = r(c_sqrt(r(r(n * p) * r(1 - p))))
    b = r(1.15 + 2.53 * stddev)
    a = r(-0.0873 + 0.0248 * b + 0.01 * p)
    c = r(r(n * p) + 0.5)
    v_r = r(0.92 - 4.2 / b)
    ratio = r(p / r(1 - p))
    alpha = r((2.83 + 5.1 / b) * stddev)
    m = r(math.floor(r(r(n + 1) * p)))
    return a, b, c, v_r, ratio, alpha, m


def _btrs(stream: Stream, n: float, p: float) -> int:
    """PHI's btrs<T> (Hormann's BTRS), T's arithmetic where PHI's is T's and double's where
    its literals are double."""
    r, uniform = stream.round, stream.uniform
    a, b, c, v_r, ratio, alpha, m = _btrs_constants(n, p, r is round32)
    while True:
        u = r(uniform() - 0.5)
        v = uniform()
        us = r(0.5 - abs(u))
        position = r(r(r(r(r(2 * a) / us) + b) * u) + c)
        if not math.isfinite(position):
            continue  # C++'s int64 cast of inf or NaN: INT64_MIN, below 0
        k = int(math.floor(position))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = r(c_log(r(r(v * alpha) / r(r(a / r(us * us)) + b))))
        kt = r(float(k))
        n_k1 = r(r(n - kt) + 1)
        upper = (
            (m + 0.5) * r(c_log(r(r(m + 1) / r(ratio * r(r(n - m) + 1)))))
            + r(r(n + 1) * r(c_log(r(r(r(n - m) + 1) / n_k1))))
            + (k + 0.5) * r(c_log(r(r(ratio * n_k1) / r(float(k + 1)))))
            + _stirling_tail(int(m), r)
            + _stirling_tail(int(r(n - m)), r)
            - _stirling_tail(k, r)
            - _stirling_tail(int(r(n - kt)), r)
        )
        if v <= r(upper):
            return k


_EXACT = float(2**24)


def _inversion(stream: Stream, n: float, p: float) -> int:
    """PHI's binomial_inversion<T>: geometric waiting times until their sum passes n."""
    r = stream.round
    geom_sum, count = 0.0, 0
    logprob = r(math.log1p(-p))
    # the words' logarithms read in place (the loop's hot path), the position stored back
    logs, index = stream.table("log"), stream.position
    while True:
        if index >= len(logs):
            stream.position = index
            logs = stream.table("log", more=True)
        quotient = r(logs[index] / logprob)
        index += 1
        # whole numbers below 2**24 are exact in float32: only larger ones need rounding
        if quotient < _EXACT:
            geom = float(math.ceil(quotient))
        elif math.isfinite(quotient):
            geom = r(float(math.ceil(quotient)))
        else:
            geom = quotient
        geom_sum = geom_sum + geom
        if geom_sum >= _EXACT:
            geom_sum = r(geom_sum)
        if geom_sum > n:
            stream.position = index
            return count
        count += 1


def _int64(value: float) -> int:
    """C++'s static_cast<int64_t> on x86: truncation, INT64_MIN for NaN and out of range."""
    if math.isfinite(value) and -(2.0**63) <= value < 2.0**63:
        return int(value)
    return -(2**63)


def binomial(state: np.ndarray, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """PHI's CPU BinomialFunctor<T> per element in flat order (int64): 0 where count <= 0 or
    prob <= 0, trunc(count) where prob >= 1, else BTRS where count * min(p, 1 - p) >= 10 and
    inversion otherwise (on 1 - p, subtracted from trunc(count), above 0.5), their uniforms
    std::uniform_real_distribution<T>(0, 1) of the engine. The caller refuses a NaN or
    infinite count or a NaN prob where a draw is needed (PHI's loops never end there)."""
    dtype = np.float64 if count.dtype == np.float64 else np.float32
    function = _native("mt_binomial")
    if function is not None:
        n = np.asarray(count, dtype=dtype, order="C")
        out = np.empty(n.shape, dtype=np.int64)
        function(state, n, np.asarray(prob, dtype=dtype, order="C").reshape(n.shape), out)
        return out
    stream = Stream(state, dtype, 4 * count.size + 64)
    r = stream.round
    out = []
    for n, p in zip(count.reshape(-1).tolist(), prob.reshape(-1).tolist()):
        if n <= 0.0 or p <= 0.0:
            out.append(0)
        elif p >= 1.0:
            out.append(_int64(n))
        elif p <= 0.5:
            draw = _btrs if r(n * p) >= 10.0 else _inversion
            out.append(draw(stream, n, p))
        else:
            q = r(1.0 - p)
            draw = _btrs if r(n * q) >= 10.0 else _inversion
            out.append(_int64(n) - draw(stream, n, q))
    stream.close()
    return np.asarray(out, dtype=np.int64).reshape(count.shape)
