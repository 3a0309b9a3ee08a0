"""Where automatic mixed precision meets the generated API functions without importing upward.

Every generated op function with tensor inputs (in-place ops and ``cast`` aside) starts with
``if AMP_STATE.active: inputs = AMP_STATE.cast_inputs(op_name, inputs)``, PaddlePaddle's "AMP
logic" at the head of each eager forward function. ``runtime/amp`` (the library layer) installs
``cast_inputs`` when it loads and sets ``active`` while an ``auto_cast`` context is on; outside one
the check is a single attribute test on the fast path.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["AMP_STATE", "AmpState"]


def _unchanged(op_name: str, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    return inputs


class AmpState:
    """``active``: whether an auto_cast context is on; ``cast_inputs(op_name, inputs)``: the
    inputs cast to the dtype auto-mixed precision picks for the op."""

    __slots__ = ("active", "cast_inputs")

    def __init__(self) -> None:
        self.active = False
        self.cast_inputs: Callable[[str, tuple[Any, ...]], tuple[Any, ...]] = _unchanged


AMP_STATE = AmpState()
