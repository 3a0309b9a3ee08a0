"""Where the data pipeline's random numbers come from: phiops's process-wide CPU generator
(``runtime/random.py``), so ``phiops.seed(n)`` fixes every shuffle, as ``paddle.seed(n)`` fixes
``paddle.randperm``. Indices are drawn in the main process only, so the number of workers never
changes an order."""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import CPUPlace
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.random import generator_for

__all__ = ["global_generator", "permutation"]


def global_generator() -> np.random.Generator:
    """phiops's process-wide host generator (the CPU place's)."""
    return generator_for(CPUPlace())


def permutation(n: int, generator: Any, where: str) -> list[int]:
    """A random order of ``range(n)`` from ``generator`` (a numpy Generator or RandomState) or,
    when it is None, from the global generator."""
    if generator is None:
        generator = global_generator()
    elif not isinstance(generator, (np.random.Generator, np.random.RandomState)):
        raise InvalidArgumentError(
            f"{where}: argument 'generator' must be None or a numpy Generator/RandomState, got "
            f"{type(generator).__name__}"
        )
    return generator.permutation(n).tolist()
