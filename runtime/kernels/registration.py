"""The ``register_kernel`` decorator and the dtype groups kernels register for."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable

from phiops.runtime.backends import (
    BACKENDS,
    BackendDef,
    backend_available,
    on_backend_change,
    takes_kernel,
)
from phiops.runtime.common import Backend, DataLayout, DataType, backend_named
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.kernel import Kernel, args_def_from_signature, kernel_kind
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY, KernelFactory
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.tensor.kinds import TensorKind

__all__ = [
    "register_kernel",
    "unregister_kernel",
    "load_kernel_plugins",
    "KERNEL_ENTRY_POINT_GROUP",
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
    priority: int = 0,
    variant_of: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as kernel ``name``, one Kernel per backend and dtype.

    ``configure(kernel)`` runs for each registration and may override single argument
    definitions, as PHI's registration body does, e.g.
    ``lambda k: k.output_at(0).set_dtype(DataType.BOOL)``. ``backends`` None (the default):
    every backend registered in runtime/backends.py, now and later (the kernel is xp-generic);
    names are ``Backend`` members (``"CPU"``, ``"GPU"``) or a custom device type's backend
    (``"JAX"``). Registrations for a backend whose array module does not load (GPU without
    CuPy) are skipped.

    The kernel's tensor kind comes from its annotations (runtime/kernels/kernel.py): a
    function taking or returning ``SelectedRows`` is registered with that kind in its key
    (``KernelKey.kind``). ``variant_of`` names the dense kernel it is the variant of for its
    kind, as PHI's op YAML lists ``sgd {dense, ...}, sgd_dense_param_sparse_grad {dense, dense,
    selected_rows, ...}``: the kernel is registered under its own (PHI's) ``name``, must take
    the arguments of ``variant_of``'s kernels, and dispatch selects it for calls of
    ``variant_of``'s ops whose inputs have its kind.

    ``priority`` decides between kernels registered for the same key: phiops's own have 0, the
    highest runs, two at the same priority are an AlreadyExistsError. A kernel registered for an
    existing op must take that op's arguments (InvalidArgumentError naming what differs
    otherwise).
    """
    if not isinstance(priority, int) or isinstance(priority, bool):
        raise InvalidArgumentError(
            f"register_kernel({name!r}): priority must be an int, got "
            f"{type(priority).__name__} {priority!r}"
        )
    try:
        backend_list = None if backends is None else [_backend(b) for b in backends]
        layout_value = DataLayout[layout]
    except KeyError as error:
        raise InvalidArgumentError(
            f"register_kernel({name!r}): unknown backend or layout {error}"
        ) from None
    dtype_list = list(dtypes)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        registration = _Registration(
            name, fn, dtype_list, layout_value, configure, factory, priority
        )
        registration.variant_of = variant_of
        registration.every_backend = backend_list is None
        for backend in list(BACKENDS) if backend_list is None else backend_list:
            registration.register_for(backend)
        if backend_list is None:
            _EVERY_BACKEND.append(registration)
        return fn

    return decorate


def unregister_kernel(
    name: str, fn: Callable[..., Any], factory: KernelFactory = KERNEL_FACTORY
) -> int:
    """Remove every registration of ``fn`` as kernel ``name`` (each backend and dtype); the
    kernels it had overridden win their keys again. Returns how many were removed;
    NotFoundError when there were none."""
    removed = [
        kernel
        for kernels in factory.candidates.get(name, {}).values()
        for kernel in kernels
        if kernel.fn is fn
    ]
    if not removed:
        raise NotFoundError(
            f"unregister_kernel: {fn.__module__}.{fn.__qualname__} is not registered as kernel "
            f"{name!r}"
        )
    for kernel in removed:
        factory.unregister(kernel)
    _EVERY_BACKEND[:] = [r for r in _EVERY_BACKEND if not (r.name == name and r.fn is fn)]
    return len(removed)


def _backend(name: str) -> Backend:
    try:
        return backend_named(name)  # type: ignore[return-value]
    except InvalidArgumentError:
        raise KeyError(name) from None


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
        priority: int = 0,
    ) -> None:
        self.name, self.fn, self.dtypes, self.layout = name, fn, dtypes, layout
        self.configure, self.factory, self.priority = configure, factory, priority
        self.every_backend = False
        self.variant_of: str | None = None

    def register_for(self, backend: Backend) -> None:
        if not backend_available(backend):
            return
        if self.every_backend and not takes_kernel(backend, self.name):
            return  # a device that does not run this xp-generic kernel (it falls back)
        for dtype in self.dtypes:
            key = KernelKey(backend, self.layout, dtype)
            args_def = args_def_from_signature(self.fn, key)
            kind = kernel_kind(args_def)
            if kind is not TensorKind.DENSE:
                # a kernel of another kind (PHI's ``*_sr`` kernels): registered under the op's
                # kernel name with its kind in the key, selected for inputs of that kind
                key = key._replace(kind=kind)
            kernel = Kernel(self.name, self.fn, key, args_def, self.priority)
            if self.configure is not None:
                self.configure(kernel)
            if self.variant_of is not None:
                self.factory.register_variant(self.variant_of, kernel)
            self.factory.register(kernel)

    def registered(self) -> bool:
        """Whether any kernel of this registration is still registered."""
        per_key = self.factory.candidates.get(self.name, {})
        if self.name not in self.factory.kernels:
            return False
        return any(kernel.fn is self.fn for kernels in per_key.values() for kernel in kernels)


# the registrations made for every backend, in order
_EVERY_BACKEND: list[_Registration] = []


def _follow_backends(definition: BackendDef, registered: bool) -> None:
    """A backend registered after the kernels gets every xp-generic kernel that is still
    registered (and that it takes); an unregistered one loses every kernel of its backend."""
    if not registered:
        for factory in {KERNEL_FACTORY, *(r.factory for r in _EVERY_BACKEND)}:
            factory.forget_backend(definition.backend)
        return
    for registration in _EVERY_BACKEND:
        if not registration.registered():
            continue  # removed or replaced since (a test's temporary kernel)
        registration.register_for(definition.backend)


on_backend_change(_follow_backends)


KERNEL_ENTRY_POINT_GROUP = "phiops.kernels"
_LOADED_PLUGINS: list[str] = []


def load_kernel_plugins() -> list[str]:
    """Import the module of every ``phiops.kernels`` entry point (sorted by entry name) that is
    not imported yet: a package of kernels registers them (``register_kernel(...,
    priority=...)``) when imported. Returns the entry names loaded by this call.

        [project.entry-points."phiops.kernels"]
        my_kernels = "my_package.kernels"
    """
    loaded = []
    for entry in sorted(entry_points(group=KERNEL_ENTRY_POINT_GROUP), key=lambda e: e.name):
        if entry.name in _LOADED_PLUGINS:
            continue
        importlib.import_module(entry.value.split(":")[0])
        _LOADED_PLUGINS.append(entry.name)
        loaded.append(entry.name)
    return loaded
