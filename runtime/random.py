"""Process-wide random generators, one per place, as PaddlePaddle keeps one per device.

``seed(n)`` reseeds every place's generator (the one that exists and any created later), so a
program that calls it first draws the same numbers from every random op each time it runs, as
after ``paddle.seed(n)``. Until it is called, the generators start from fresh OS entropy. A
random op's own nonzero ``seed`` attribute overrides the process generator: it draws from a
generator made from that seed alone, so the same call gives the same numbers every time.

Two kinds of generator, both drawn on the host for every place and moved to the op's place (a
GPU op gives the same numbers as the CPU op seeded alike):

- ``engine_for``: PaddlePaddle's engine, a std::mt19937_64 per place that ``seed(n)`` seeds as
  ``paddle.seed(n)`` seeds PaddlePaddle's (through std::seed_seq), or one of an op's own nonzero
  ``seed`` attribute. These ops draw from it through PaddlePaddle's distributions and samplers
  (runtime/kernels/mt19937.py), so they give PaddlePaddle 3.3.1's CPU numbers (integers
  exactly, floats to float rounding where PHI calls the C library's log): uniform, gaussian
  (complex ones included), randint, bernoulli, dropout, truncated_gaussian_random and the
  initializers; randperm (std::shuffle), exponential_, uniform_ (uniform_inplace), normal_
  (gaussian_inplace), uniform_random_batch_size_like, multinomial, gumbel_softmax, rrelu, the
  rnn op's dropout between layers; standard_gamma, dirichlet, poisson
  (std::poisson_distribution) and binomial (tests/ops/test_mt24_random.py and
  tests/ops/test_rng24.py).
- ``generator_for`` / ``draw_generator``: numpy's PCG64, which the remaining random ops draw
  from (their numbers are not PaddlePaddle's; their distributions are): shuffle_batch and the
  graph sampling ops of runtime/kernels/impl/sample24_kernel.py (PaddlePaddle seeds theirs from
  std::random_device, which no seed replays), and the data loader's shuffling.
"""

from __future__ import annotations

import os

import numpy as np

from phiops.runtime.common import Place
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "seed",
    "generator_for",
    "draw_generator",
    "engine_for",
    "engine_state",
    "GeneratorState",
]

_SEED: int | None = None
_GENERATORS: dict[Place, np.random.Generator] = {}
# PaddlePaddle's engine per place (std::mt19937_64 as uint64[313]: 312 words and the position),
# which the random ops whose numbers are PaddlePaddle's draw from (runtime/kernels/mt19937.py)
_ENGINES: dict[Place, np.ndarray] = {}


def seed(value: int) -> None:
    """Reseed every place's generator with ``value`` (an int >= 0)."""
    global _SEED
    value = int(value)
    if value < 0:
        raise InvalidArgumentError(f"seed(): argument 'value' must be >= 0, got {value}")
    _SEED = value
    _GENERATORS.clear()
    _ENGINES.clear()


def generator_for(place: Place) -> np.random.Generator:
    """The process-wide generator of ``place``."""
    generator = _GENERATORS.get(place)
    if generator is None:
        if _SEED is None:
            generator = np.random.default_rng()
        else:
            generator = np.random.default_rng([_SEED, int(place.backend), place.device_id])
        _GENERATORS[place] = generator
    return generator


def draw_generator(place: Place, op_seed: int) -> np.random.Generator:
    """The generator a random op draws from: its own when ``op_seed`` is nonzero, else the
    process-wide one of ``place``. A negative seed is taken modulo 2**64, as PHI's cast of the
    int attribute to its engine's uint64 seed does (PaddlePaddle 3.3.1 accepts seed=-5)."""
    if op_seed:
        return np.random.default_rng(op_seed % 2**64)
    return generator_for(place)


# --- PaddlePaddle's engine ------------------------------------------------------------------------

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1


def _seed_sequence(value: int, count: int) -> list[int]:
    """std::seed_seq({value}).generate of ``count`` 32-bit words (the value taken mod 2**32, as
    seed_seq stores it)."""
    v = [value & _MASK32]
    s, n = len(v), count
    b = [0x8B8B8B8B] * n
    t = 11 if n >= 623 else 7 if n >= 68 else 5 if n >= 39 else 3 if n >= 7 else (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)
    for k in range(m):
        x = b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = (1664525 * (x ^ (x >> 27))) & _MASK32
        r2 = (r1 + (s if k == 0 else (k % n + v[k - 1]) if k <= s else k % n)) & _MASK32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & _MASK32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & _MASK32
        b[k % n] = r2
    for k in range(m, m + n):
        x = (b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & _MASK32
        r3 = (1566083941 * (x ^ (x >> 27))) & _MASK32
        r4 = (r3 - k % n) & _MASK32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


def engine_state(value: int, sequence: bool = True) -> np.ndarray:
    """A new std::mt19937_64 of ``value``: seeded through std::seed_seq({value}) as
    PaddlePaddle's Generator (``paddle.seed``) seeds it, or with ``engine.seed(value)`` itself
    as its kernels seed their own engine from a nonzero ``seed`` attribute."""
    words = np.empty(313, dtype=np.uint64)
    if sequence:
        b = _seed_sequence(value, 624)
        mt = [(b[2 * i] | (b[2 * i + 1] << 32)) & _MASK64 for i in range(312)]
        if mt[0] >> 31 == 0 and not any(mt[1:]):
            mt[0] = 1 << 63
    else:
        mt = [value & _MASK64]
        for i in range(1, 312):
            previous = mt[-1]
            mt.append((6364136223846793005 * (previous ^ (previous >> 62)) + i) & _MASK64)
    words[:312] = mt
    words[312] = 312
    return words


def engine_for(place: Place, op_seed: int = 0) -> np.ndarray:
    """The engine a PaddlePaddle-exact random op draws from: a new one of ``op_seed`` when it
    is nonzero (a negative seed taken modulo 2**64, as PHI's cast), else the process-wide
    engine of ``place``, seeded by ``seed(n)`` as ``paddle.seed(n)`` seeds PaddlePaddle's (until
    then from OS entropy, 53 bits as PaddlePaddle's Generator::Seed takes)."""
    if op_seed:
        return engine_state(op_seed % 2**64, sequence=False)
    state = _ENGINES.get(place)
    if state is None:
        value = (
            _SEED if _SEED is not None else int.from_bytes(os.urandom(8), "little") & (2**53 - 1)
        )
        state = _ENGINES[place] = engine_state(value)
    return state


class GeneratorState:
    """A snapshot of one place's generators (``paddle.get_rng_state``'s items): PaddlePaddle's
    engine and numpy's generator, and whether ``seed`` had been called."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.seed = _SEED
        self.engine = engine_for(place).copy()
        self.generator = generator_for(place).bit_generator.state

    def restore(self) -> None:
        """Make the place's generators continue from this snapshot."""
        global _SEED
        _SEED = self.seed
        _ENGINES[self.place] = self.engine.copy()
        generator = np.random.default_rng()
        generator.bit_generator.state = self.generator
        _GENERATORS[self.place] = generator

    def __repr__(self) -> str:
        return f"GeneratorState(place={self.place}, seed={self.seed})"
