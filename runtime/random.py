"""Process-wide random generators, one per place, as PaddlePaddle keeps one per device.

``seed(n)`` reseeds every place's generator (the one that exists and any created later), so a
program that calls it first draws the same numbers from every random op each time it runs, as
after ``paddle.seed(n)``. Until it is called, the generators start from fresh OS entropy. A
random op's own nonzero ``seed`` attribute overrides the process generator: it draws from a
generator made from that seed alone, so the same call gives the same numbers every time.

Numbers are drawn with numpy's PCG64 on the host for every place and then moved to the op's
place, so a GPU op gives the same numbers as the CPU op seeded alike.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import Place
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["seed", "generator_for", "draw_generator"]

_SEED: int | None = None
_GENERATORS: dict[Place, np.random.Generator] = {}


def seed(value: int) -> None:
    """Reseed every place's generator with ``value`` (an int >= 0)."""
    global _SEED
    value = int(value)
    if value < 0:
        raise InvalidArgumentError(f"seed(): argument 'value' must be >= 0, got {value}")
    _SEED = value
    _GENERATORS.clear()


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
