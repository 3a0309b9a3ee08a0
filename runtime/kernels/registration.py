"""The ``register_kernel`` decorator and the dtype groups kernels register for."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from phiops.runtime.backends import BACKENDS, BackendDef, backend_available, on_backend_change
from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Kernel, args_def_from_signature
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY, KernelFactory
from phiops.runtime.kernels.kernel_key import KernelKey

__all__ = [
    "register_kernel",
    "FLOATING",
    "FLOATING_AND_COMPLEX",
    "INTEGRAL",
    "SIGNED_INTEGRAL",
    "ARITHMETIC",
    "ALL_TYPES",
]

D = DataType
FLOATING = (D.FLOAT16, D.FLOAT32, D.FLOAT64)
COMPLEX = (D.COMPLEX64, D.COMPLEX128)
FLOATING_AND_COMPLEX = FLOATING + COMPLEX
SIGNED_INTEGRAL = (D.INT8, D.INT16, D.INT32, D.INT64)
INTEGRAL = (D.UINT8,) + SIGNED_INTEGRAL
ARITHMETIC = INTEGRAL + FLOATING
# bfloat16 arrays are numpy arrays of ml_dtypes.bfloat16.
ALL_TYPES = (D.BOOL,) + ARITHMETIC + (D.BFLOAT16,) + COMPLEX


def register_kernel(
    name: str,
    *,
    dtypes: Iterable[DataType],
    backends: Iterable[str] | None = None,
    layout: str = "ALL_LAYOUT",
    configure: Callable[[Kernel], Any] | None = None,
    factory: KernelFactory = KERNEL_FACTORY,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as kernel ``name``, one Kernel per backend and dtype.

    ``configure(kernel)`` runs for each registration and may override single argument
    definitions, as PHI's registration body does, e.g.
    ``lambda k: k.output_at(0).set_dtype(DataType.BOOL)``. ``backends`` None (the default):
    every backend registered in runtime/backends.py, now and later (the kernel is xp-generic).
    Registrations for a backend whose array module does not load (GPU without CuPy) are
    skipped.
    """
    try:
        backend_list = None if backends is None else [Backend[b] for b in backends]
        layout_value = DataLayout[layout]
    except KeyError as error:
        raise InvalidArgumentError(
            f"register_kernel({name!r}): unknown backend or layout {error}"
        ) from None
    dtype_list = list(dtypes)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        registration = _Registration(name, fn, dtype_list, layout_value, configure, factory)
        for backend in list(BACKENDS) if backend_list is None else backend_list:
            registration.register_for(backend)
        if backend_list is None:
            _EVERY_BACKEND.append(registration)
        return fn

    return decorate


class _Registration:
    """One ``register_kernel`` call, kept to register it again for a backend registered
    later."""

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        dtypes: list[DataType],
        layout: DataLayout,
        configure: Callable[[Kernel], Any] | None,
        factory: KernelFactory,
    ) -> None:
        self.name, self.fn, self.dtypes, self.layout = name, fn, dtypes, layout
        self.configure, self.factory = configure, factory

    def register_for(self, backend: Backend) -> None:
        if not backend_available(backend):
            return
        for dtype in self.dtypes:
            key = KernelKey(backend, self.layout, dtype)
            kernel = Kernel(self.name, self.fn, key, args_def_from_signature(self.fn, key))
            if self.configure is not None:
                self.configure(kernel)
            self.factory.register(kernel)

    def forget(self, backend: Backend) -> None:
        per_key = self.factory.kernels.get(self.name, {})
        for dtype in self.dtypes:
            kernel = per_key.get(KernelKey(backend, self.layout, dtype))
            if kernel is not None and kernel.fn is self.fn:
                del per_key[kernel.key]


# the registrations made for every backend, in order
_EVERY_BACKEND: list[_Registration] = []


def _follow_backends(definition: BackendDef, registered: bool) -> None:
    """A backend registered after the kernels gets every xp-generic kernel that is still
    registered; an unregistered one loses them."""
    for registration in _EVERY_BACKEND:
        per_key = registration.factory.kernels.get(registration.name, {})
        if not any(kernel.fn is registration.fn for kernel in per_key.values()):
            continue  # removed or replaced since (a test's temporary kernel)
        if registered:
            registration.register_for(definition.backend)
        else:
            registration.forget(definition.backend)


on_backend_change(_follow_backends)
