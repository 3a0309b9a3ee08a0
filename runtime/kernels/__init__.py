"""Kernels: the KernelFactory and every registered kernel.

Importing this package imports every module under ``impl/`` (xp-generic kernels registered for
CPU and GPU) and ``cpu/``/``gpu/`` (backend-specific ones), which registers them.
"""

from __future__ import annotations

import importlib
import pkgutil

from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY, KernelFactory
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.kernels.registration import register_kernel, unregister_kernel

__all__ = [
    "Array",
    "Kernel",
    "KernelContext",
    "KERNEL_FACTORY",
    "KernelFactory",
    "KernelKey",
    "register_kernel",
    "unregister_kernel",
]


def _import_kernel_modules() -> None:
    for package in ("impl", "cpu", "gpu"):
        try:
            module = importlib.import_module(f"{__name__}.{package}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{package}":
                continue
            raise
        for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda i: i.name):
            importlib.import_module(f"{module.__name__}.{info.name}")


_import_kernel_modules()
