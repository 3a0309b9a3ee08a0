"""Backend and DataLayout enums of the kernel key."""

from __future__ import annotations

import enum

__all__ = ["Backend", "DataLayout"]


class Backend(enum.IntEnum):
    """Device family a kernel runs on; UNDEFINED doubles as ALL_BACKEND in kernel keys.

    CUSTOM (PaddlePaddle's custom-device backend) is the value a backend registered from outside
    phiops takes in runtime/backends.py; which array module serves it is the registry's business.
    """

    UNDEFINED = 0
    CPU = 1
    GPU = 2
    CUSTOM = 4

    ALL_BACKEND = 0

    def __repr__(self) -> str:
        return f"Backend.{self.name}"


class DataLayout(enum.IntEnum):
    """Memory layout; UNDEFINED doubles as ALL_LAYOUT (any layout) in kernel keys."""

    UNDEFINED = 0
    NCHW = 1
    NHWC = 2

    ALL_LAYOUT = 0
    ANY = 0

    def __repr__(self) -> str:
        return f"DataLayout.{self.name}"
