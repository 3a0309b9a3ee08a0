"""The gradient-check case type and the input makers the case tables share.

Kept apart from test_gradcheck_ops.py, which imports every ``cases_*`` table at its end: a table
module collected on its own (test_rnn_gradcheck.py) imports these from here without importing
test_gradcheck_ops.py half-way through its own import."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Case:
    """One gradient check: ``fn`` applied to ``inputs``, covering ``ops``."""

    ops: tuple[str, ...]
    label: str
    fn: Callable[..., Any]
    inputs: tuple[np.ndarray, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{'+'.join(self.ops)}-{self.label}"


def case(
    ops: str | Sequence[str],
    label: str,
    fn: Callable[..., Any],
    *inputs: np.ndarray,
    **options: Any,
) -> Case:
    """Declare a case; ``ops`` is one op name or several; ``options`` go to the check."""
    names = (ops,) if isinstance(ops, str) else tuple(ops)
    return Case(names, label, fn, tuple(inputs), options)


def shape_label(*shapes: Sequence[int]) -> str:
    return "x".join(str(list(s)).replace(" ", "") for s in shapes)


# -- inputs -------------------------------------------------------------------------------------


def uniform(shape: Sequence[int], seed: int, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, size=tuple(shape))
