"""The runtime's error types, one base class so callers can catch broadly or precisely."""

from __future__ import annotations

__all__ = [
    "PhiError",
    "InvalidArgumentError",
    "NotFoundError",
    "UnimplementedError",
    "AlreadyExistsError",
    "PreconditionNotMetError",
    "OutOfRangeError",
    "ResourceExhaustedError",
]


class PhiError(Exception):
    """Base class of every error phiops raises on purpose."""


class InvalidArgumentError(PhiError, ValueError):
    """An argument has the wrong type, shape, dtype or value."""


class NotFoundError(PhiError, LookupError):
    """A kernel, op, flag or InferMeta function that was asked for does not exist."""


class UnimplementedError(PhiError, NotImplementedError):
    """A path that phiops does not implement (yet); the message says which."""


class AlreadyExistsError(PhiError):
    """Something was registered twice (a flag, a kernel)."""


class PreconditionNotMetError(PhiError, RuntimeError):
    """An operation was attempted in a state that does not allow it."""


class OutOfRangeError(PhiError, IndexError):
    """An index addresses an element outside a tensor (named with the axis and its size)."""


class ResourceExhaustedError(PhiError, MemoryError):
    """An allocation too large for the machine or for FLAGS_max_alloc_bytes."""
