"""KernelFactory: kernel name -> KernelKey -> Kernel, with PHI's selection fallbacks."""

from __future__ import annotations

from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.errors import AlreadyExistsError, NotFoundError
from phiops.runtime.kernels.kernel import Kernel
from phiops.runtime.kernels.kernel_key import KernelKey

__all__ = ["KernelFactory", "KERNEL_FACTORY"]


class KernelFactory:
    """Two-level map of every registered kernel."""

    def __init__(self) -> None:
        self.kernels: dict[str, dict[KernelKey, Kernel]] = {}

    def register(self, kernel: Kernel) -> None:
        per_key = self.kernels.setdefault(kernel.name, {})
        if kernel.key in per_key:
            raise AlreadyExistsError(
                f"kernel {kernel.name!r} is already registered for {kernel.key} by "
                f"{per_key[kernel.key].fn.__module__}.{per_key[kernel.key].fn.__qualname__}"
            )
        per_key[kernel.key] = kernel

    def has_kernel(self, name: str) -> bool:
        return name in self.kernels

    def kernels_of(self, name: str) -> dict[KernelKey, Kernel]:
        """Every registration of ``name``; NotFoundError when there is none."""
        try:
            return self.kernels[name]
        except KeyError:
            raise NotFoundError(f"no kernel named {name!r} is registered") from None

    def select(self, name: str, key: KernelKey, *, cpu_fallback: bool = True) -> Kernel:
        """The kernel for ``key``: the exact key, then ALL_LAYOUT, ALL_DTYPE and ALL_BACKEND
        variants, then (when ``cpu_fallback``) the same on CPU; else NotFoundError listing
        what is registered."""
        per_key = self.kernels_of(name)
        for candidate in _candidates(key):
            kernel = per_key.get(candidate)
            if kernel is not None:
                return kernel
        if cpu_fallback and key.backend is not Backend.CPU:
            cpu_key = KernelKey(Backend.CPU, key.layout, key.dtype)
            for candidate in _candidates(cpu_key):
                kernel = per_key.get(candidate)
                if kernel is not None:
                    return kernel
        registered = ", ".join(sorted(str(k) for k in per_key))
        fallback = (
            "" if cpu_fallback or key.backend is Backend.CPU else " (CPU fallback is disabled)"
        )
        raise NotFoundError(
            f"kernel {name!r} has no registration for {key}{fallback}; registered: {registered}"
        )


def _candidates(key: KernelKey) -> list[KernelKey]:
    backends = (key.backend, Backend.ALL_BACKEND)
    layouts = (key.layout, DataLayout.ALL_LAYOUT)
    dtypes = (key.dtype, DataType.ALL_DTYPE)
    return [KernelKey(b, l, d) for b in backends for l in layouts for d in dtypes]


KERNEL_FACTORY = KernelFactory()
