"""The backends kernels run on, registered in one place, each with an explicit priority.

A backend is its ``Backend`` value, the array module that serves it (numpy for CPU, CuPy for GPU),
a priority, and what the runtime needs to know of its arrays: their types, the device an array is
on, how arrays come to and from the host, how many devices there are, and how an indexed in-place
update (numpy's ``ufunc.at``) is done. When an op's inputs sit on several backends and the spec
names none, the kernel runs on the backend of highest priority (GPU over CPU, as PaddlePaddle does)
and the other inputs are moved there.

This is the only module that imports CuPy or knows which array module serves a backend: the rest
of the runtime asks it (``array_module``, ``module_of``, ``place_of_array``, ``is_array``,
``to_backend``, ``to_numpy``, ``device_count``, ``backend_available``, ``scatter_at``). A new
backend is one ``register_backend`` call; the kernels registered for every backend (the
xp-generic ones) follow it through ``on_backend_change``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable

import numpy as np

from phiops.runtime.common import Backend, CPUPlace, Place
from phiops.runtime.errors import AlreadyExistsError, NotFoundError, UnimplementedError

__all__ = [
    "BackendDef",
    "BACKENDS",
    "register_backend",
    "unregister_backend",
    "on_backend_change",
    "get_backend",
    "backend_priority",
    "backend_available",
    "unavailable_reason",
    "device_count",
    "place_for_inputs",
    "takes_kernel",
    "default_place",
    "set_default_place",
    "on_default_place_change",
    "array_module",
    "module_of",
    "is_array",
    "place_of_array",
    "to_backend",
    "to_numpy",
    "returns_scalars",
    "scatter_at",
    "assign_array",
    "arrays_writable",
]


def _default_array_types(module: ModuleType) -> tuple[type, ...]:
    return (module.ndarray,)


def _device_zero(array: Any) -> int:
    return 0


def _one_device(module: ModuleType) -> int:
    return 1


def _asarray_to_host(array: Any) -> np.ndarray:
    return np.asarray(array)


def _asarray_from_host(module: ModuleType, array: Any, device_id: int) -> Any:
    return module.asarray(array)


def _ufunc_at(module: ModuleType, op: str, array: Any, indices: Any, values: Any) -> None:
    getattr(module, op).at(array, indices, values)


def _every_kernel(name: str) -> bool:
    return True


@dataclass(frozen=True)
class BackendDef:
    """One backend.

    ``load_module()`` gives its array module or raises UnimplementedError saying what to
    install; among the backends of an op's inputs, the highest ``priority`` wins. The other
    fields have numpy-like defaults: ``array_types(module)`` the array classes it owns
    (``module.ndarray``), ``device_of(array)`` the device id of one of its arrays (0),
    ``device_count(module)`` how many devices it has (1), ``to_host(array)`` the array as a
    numpy array (``numpy.asarray``), ``from_host(module, array, device_id)`` a host array (or
    one of its own) on device ``device_id`` (``module.asarray``), ``scatter(module, op, array, indices, values)`` numpy's
    ``getattr(module, op).at(array, indices, values)`` (op: add, multiply, maximum, minimum),
    ``returns_scalars`` whether its ufuncs give scalars for 0-D inputs (numpy's do),
    ``missing_hint`` and ``no_device_hint`` why it has no device here (for error messages;
    an empty ``missing_hint``: the UnimplementedError of ``load_module``),
    ``takes_kernel(name)`` whether the xp-generic kernel ``name`` (one registered for every
    backend) runs on it (all of them do by default; a device whose arrays cannot do what a kernel
    needs, such as writing in place, leaves it out and the op falls back to CPU),
    ``writable`` whether its arrays can be written in place (JAX's cannot: an in-place op's
    result then becomes the tensor's new array, and gradients accumulate out of place).
    """

    backend: Backend
    priority: int
    load_module: Callable[[], ModuleType]
    array_types: Callable[[ModuleType], tuple[type, ...]] = _default_array_types
    device_of: Callable[[Any], int] = _device_zero
    device_count: Callable[[ModuleType], int] = _one_device
    to_host: Callable[[Any], np.ndarray] = _asarray_to_host
    from_host: Callable[[ModuleType, Any, int], Any] = _asarray_from_host
    scatter: Callable[[ModuleType, str, Any, Any, Any], None] = _ufunc_at
    returns_scalars: bool = False
    missing_hint: str = "its array module does not load"
    no_device_hint: str = "it sees no device"
    takes_kernel: Callable[[str], bool] = _every_kernel
    writable: bool = True
    # module (or the UnimplementedError's message) and device count, worked out once
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def module(self) -> ModuleType:
        """The array module; UnimplementedError (the same each time) when it cannot load."""
        cache = self._cache
        if "module" not in cache:
            try:
                cache["module"] = self.load_module()
            except UnimplementedError as error:
                cache["module"] = str(error)
        module = cache["module"]
        if isinstance(module, str):
            raise UnimplementedError(module)
        return module

    def available(self) -> bool:
        try:
            self.module()
        except UnimplementedError:
            return False
        return True

    def count(self) -> int:
        """How many devices the backend has (0 when its module does not load or fails)."""
        cache = self._cache
        if "count" not in cache:
            try:
                cache["count"] = int(self.device_count(self.module()))
            except Exception:  # noqa: BLE001 - any driver failure means "no usable device"
                cache["count"] = 0
        return cache["count"]

    def move_from_host(self, array: Any, device_id: int) -> Any:
        return self.from_host(self.module(), array, device_id)


BACKENDS: dict[Backend, BackendDef] = {}
# where an op without tensor inputs (and without a place argument) runs: set_default_place
_DEFAULT: list[Place] = [CPUPlace()]
_DEFAULT_LISTENERS: list[Callable[[Place], None]] = []

# functions told of every registration (True) and unregistration (False) after their own
_LISTENERS: list[Callable[[BackendDef, bool], None]] = []
# array type -> its backend's registration (None: not an array of any backend), worked out once
_TYPE_BACKENDS: dict[type, BackendDef | None] = {}
_UNKNOWN: Any = object()
# what module_of and place_of_array found per array type, for the next array of the type
_MODULES_OF_TYPE: dict[type, ModuleType] = {}
_PLACES_OF_TYPE: dict[type, Place] = {}
# one Place object per (backend, device id) that arrays were found on
_PLACES: dict[tuple[Backend, int], Place] = {(Backend.CPU, 0): CPUPlace()}


def register_backend(
    backend: Backend,
    priority: int,
    load_module: Callable[[], ModuleType],
    **fields: Any,
) -> BackendDef:
    """Register ``backend`` (``fields``: the other BackendDef fields); AlreadyExistsError if it
    or its priority is taken. The listeners of ``on_backend_change`` are told."""
    if backend in BACKENDS:
        raise AlreadyExistsError(f"backend {backend.name} is registered twice")
    for other in BACKENDS.values():
        if other.priority == priority:
            raise AlreadyExistsError(
                f"backend {backend.name} would share priority {priority} with {other.backend.name}"
            )
    definition = BACKENDS[backend] = BackendDef(backend, priority, load_module, **fields)
    _forget_types()
    for listener in list(_LISTENERS):
        listener(definition, True)
    return definition


def unregister_backend(backend: Backend) -> None:
    """Forget ``backend`` (NotFoundError when it is not registered); listeners are told."""
    definition = get_backend(backend)
    del BACKENDS[backend]
    _forget_types()
    if _DEFAULT[0].backend == backend:
        set_default_place(CPUPlace())
    for listener in list(_LISTENERS):
        listener(definition, False)


def _forget_types() -> None:
    _TYPE_BACKENDS.clear()
    _MODULES_OF_TYPE.clear()
    _PLACES_OF_TYPE.clear()


def on_backend_change(listener: Callable[[BackendDef, bool], None]) -> None:
    """Call ``listener(definition, registered)`` on every later (un)registration."""
    _LISTENERS.append(listener)


def get_backend(backend: Backend) -> BackendDef:
    """The registration of ``backend``; NotFoundError listing the registered ones."""
    try:
        return BACKENDS[backend]
    except KeyError:
        names = ", ".join(b.name for b in BACKENDS)
        raise NotFoundError(
            f"backend {backend.name} is not registered; registered: {names}"
        ) from None


def backend_priority(backend: Backend) -> int:
    return get_backend(backend).priority


def backend_available(backend: Backend) -> bool:
    """True when ``backend`` is registered and its array module loads."""
    definition = BACKENDS.get(backend)
    return definition is not None and definition.available()


def unavailable_reason(backend: Backend) -> str:
    """Why ``backend`` has no device here, for error messages ('' when it has one)."""
    definition = BACKENDS.get(backend)
    if definition is None:
        return f"backend {backend.name} is not registered"
    if not definition.available():
        return definition.missing_hint or str(definition._cache["module"])  # the loader's words
    return "" if definition.count() else definition.no_device_hint


def device_count(backend: Backend) -> int:
    """How many devices ``backend`` has here (0 when it is unregistered or unavailable)."""
    definition = BACKENDS.get(backend)
    return 0 if definition is None else definition.count()


def takes_kernel(backend: Backend, name: str) -> bool:
    """Whether the xp-generic kernel ``name`` is registered for ``backend`` (see BackendDef)."""
    definition = BACKENDS.get(backend)
    return definition is not None and definition.takes_kernel(name)


def default_place() -> Place:
    """Where an op without tensor inputs runs when no place is given (CPUPlace() unless
    ``set_default_place`` chose another: ``paddle.set_device``)."""
    return _DEFAULT[0]


def set_default_place(place: Place) -> None:
    """Make ``place`` the default place; the listeners of ``on_default_place_change`` are told
    (dispatch drops its plans, which recorded the old default)."""
    if place != _DEFAULT[0]:
        _DEFAULT[0] = place
        for listener in list(_DEFAULT_LISTENERS):
            listener(place)


def on_default_place_change(listener: Callable[[Place], None]) -> None:
    """Call ``listener(place)`` whenever the default place changes."""
    _DEFAULT_LISTENERS.append(listener)


def place_for_inputs(places: Iterable[Place]) -> Place:
    """The place an op with inputs on ``places`` runs on: the first place of the backend of
    highest priority; the default place for an op without tensor inputs."""
    best: Place | None = None
    best_priority = 0
    for place in places:
        priority = BACKENDS[place.backend].priority
        if best is None or priority > best_priority:
            best, best_priority = place, priority
    return _DEFAULT[0] if best is None else best


def array_module(backend: Backend) -> ModuleType:
    """The array module of ``backend`` (numpy for CPU, CuPy for GPU)."""
    return get_backend(backend).module()


def _backend_of_type(kind: type) -> BackendDef | None:
    """The registration owning arrays of type ``kind`` (the nearest class in its MRO that a
    loadable backend lists), None when none does."""
    found = _TYPE_BACKENDS.get(kind, _UNKNOWN)
    if found is not _UNKNOWN and (found is None or BACKENDS.get(found.backend) is found):
        return found  # type: ignore[return-value]
    owners: dict[type, BackendDef] = {}
    for definition in BACKENDS.values():
        if definition.available():
            for array_type in definition.array_types(definition.module()):
                owners.setdefault(array_type, definition)
    found = next((owners[base] for base in kind.__mro__ if base in owners), None)
    _TYPE_BACKENDS[kind] = found
    return found


def is_array(value: Any) -> bool:
    """True for an array of any registered backend."""
    return _backend_of_type(type(value)) is not None


def module_of(array: Any) -> ModuleType:
    """The array module ``array`` belongs to (numpy for anything that is no backend's array)."""
    kind = type(array)
    module = _MODULES_OF_TYPE.get(kind)
    if module is None:
        definition = _backend_of_type(kind)
        module = _MODULES_OF_TYPE[kind] = np if definition is None else definition.module()
    return module


def place_of_array(array: Any) -> Place:
    """The Place of an array of a registered backend; UnimplementedError for anything else."""
    kind = type(array)
    place = _PLACES_OF_TYPE.get(kind)
    if place is not None:
        return place
    definition = _backend_of_type(kind)
    if definition is None:
        raise UnimplementedError(f"arrays of type {kind.__name__} are not supported")
    key = (definition.backend, definition.device_of(array))
    place = _PLACES.get(key)
    if place is None:
        place = _PLACES[key] = Place(*key)
    if definition.device_of is _device_zero:  # every array of the type is on this place
        _PLACES_OF_TYPE[kind] = place
    return place


def to_backend(array: Any, place: Place) -> Any:
    """``array`` on ``place``: itself when it is there already, else a copy (through the host
    when it comes from another backend)."""
    target = get_backend(place.backend)
    source = _backend_of_type(type(array))
    if source is not None and source is not target:
        array = source.to_host(array)
    return target.move_from_host(array, place.device_id)


def to_numpy(array: Any) -> np.ndarray:
    """``array`` as a numpy array (copied to the host when it is on another backend)."""
    source = _backend_of_type(type(array))
    if source is None:
        return np.asarray(array)
    return source.to_host(array)


def arrays_writable(array: Any) -> bool:
    """Whether ``array``'s backend can write into its arrays in place (see BackendDef)."""
    if type(array) is np.ndarray:
        return True
    definition = _backend_of_type(type(array))
    return definition is None or definition.writable


def assign_array(array: Any, values: Any) -> Any:
    """``values`` written into ``array`` (an in-place op's result into its input's storage);
    returns the array holding them: ``array`` itself, or where the backend's arrays are
    immutable a new array of ``array``'s dtype, for the tensor to hold instead."""
    if not arrays_writable(array):
        return values.astype(array.dtype)
    module_of(array).copyto(array, values, casting="unsafe")
    return array


def returns_scalars(backend: Backend) -> bool:
    """True when ``backend``'s ufuncs give scalars for 0-D inputs (numpy's do, CuPy's do not)."""
    return get_backend(backend).returns_scalars


def scatter_at(op: str, array: Any, indices: Any, values: Any) -> None:
    """``array[indices] op= values`` in place, every occurrence of a repeated index counted, as
    numpy's ``getattr(np, op).at`` does (op: add, multiply, maximum, minimum), on the backend of
    ``array``: each backend does it with what its array module supports."""
    definition = _backend_of_type(type(array))
    if definition is None:
        raise UnimplementedError(f"arrays of type {type(array).__name__} are not supported")
    definition.scatter(definition.module(), op, array, indices, values)


# --- CPU: numpy -------------------------------------------------------------------------------


def _numpy() -> ModuleType:
    return np


def _numpy_from_host(module: ModuleType, array: Any, device_id: int) -> np.ndarray:
    return array if isinstance(array, np.ndarray) else np.asarray(array)


def _numpy_to_host(array: Any) -> np.ndarray:
    return array


register_backend(
    Backend.CPU,
    priority=0,
    load_module=_numpy,
    to_host=_numpy_to_host,
    from_host=_numpy_from_host,
    returns_scalars=True,
)


# --- GPU: CuPy ----------------------------------------------------------------------------------


def _cupy() -> ModuleType:
    try:  # CuPy is an optional extra; without it the GPU backend is unavailable.
        import cupy  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - depends on the machine
        raise UnimplementedError("GPU backend needs CuPy; install phiops[gpu]") from None
    return cupy


def _cupy_device_of(array: Any) -> int:
    return array.device.id


def _cupy_device_count(module: ModuleType) -> int:
    return module.cuda.runtime.getDeviceCount()


def _cupy_to_host(array: Any) -> np.ndarray:
    return array.get()


def _cupy_from_host(module: ModuleType, array: Any, device_id: int) -> Any:
    with module.cuda.Device(device_id):
        return module.asarray(array)


# The dtypes CuPy's scatter kernels (ufunc.at, cupyx.scatter_*) take, per op (CUDA's atomics;
# CuPy raises TypeError for the others): see cupy/_core/_routines_indexing.pyx.
_CUPY_SCATTER_DTYPES = {
    "add": frozenset("int32 uint32 uint64 float16 float32 float64".split()),
    "maximum": frozenset("int32 uint32 uint64 float32 float64".split()),
    "minimum": frozenset("int32 uint32 uint64 float32 float64".split()),
}
# Where an op takes a wider dtype with the same results: integer sums wrap alike in a wider
# type and back (int64 as uint64: two's complement), float16 extremes are exact in float32.
_CUPY_SCATTER_VIA = {
    ("add", "int8"): "int32",
    ("add", "int16"): "int32",
    ("add", "uint8"): "uint32",
    ("add", "uint16"): "uint32",
    ("maximum", "float16"): "float32",
    ("minimum", "float16"): "float32",
    ("maximum", "int8"): "int32",
    ("maximum", "int16"): "int32",
    ("maximum", "uint8"): "uint32",
    ("maximum", "uint16"): "uint32",
    ("minimum", "int8"): "int32",
    ("minimum", "int16"): "int32",
    ("minimum", "uint8"): "uint32",
    ("minimum", "uint16"): "uint32",
}


def _cupy_scatter(module: ModuleType, op: str, array: Any, indices: Any, values: Any) -> None:
    """``getattr(numpy, op).at`` for a CuPy array with the scatter kernels CuPy has (add, max,
    min for the dtypes its atomics take); every other case goes through the host, exactly."""
    name = array.dtype.name
    scatter = _cupy_scatter_kernel(module, op) if op in _CUPY_SCATTER_DTYPES else None
    values = module.asarray(values)
    if scatter is not None and name in _CUPY_SCATTER_DTYPES[op]:
        scatter(array, indices, values.astype(array.dtype, copy=False))
        return
    if scatter is not None and op == "add" and name == "int64":
        scatter(array.view(np.uint64), indices, values.astype(np.int64).view(np.uint64))
        return
    via = _CUPY_SCATTER_VIA.get((op, name)) if scatter is not None else None
    if via is not None:
        wide = array.astype(via)
        scatter(wide, indices, values.astype(array.dtype).astype(via))
        array[...] = wide.astype(array.dtype)
        return
    # bool, int64 extremes, complex sums, products: on the host, copied back
    host = array.get()
    getattr(np, op).at(host, _host_indices(indices), values.get())
    array[...] = module.asarray(host)


def _cupy_scatter_kernel(module: ModuleType, op: str) -> Callable[[Any, Any, Any], None]:
    """CuPy's ``ufunc.at`` (CuPy 13 and later have it for add, maximum and minimum), else the
    ``cupyx.scatter_*`` function that older versions have instead."""
    at = getattr(getattr(module, op), "at", None)
    if at is not None:
        return at
    import cupyx  # type: ignore[import-not-found]

    return getattr(cupyx, {"add": "scatter_add", "maximum": "scatter_max"}.get(op, "scatter_min"))


def _host_indices(indices: Any) -> Any:
    if isinstance(indices, tuple):
        return tuple(_host_indices(index) for index in indices)
    return indices.get() if hasattr(indices, "get") and not isinstance(indices, slice) else indices


register_backend(
    Backend.GPU,
    priority=10,
    load_module=_cupy,
    device_of=_cupy_device_of,
    device_count=_cupy_device_count,
    to_host=_cupy_to_host,
    from_host=_cupy_from_host,
    scatter=_cupy_scatter,
    missing_hint="CuPy is not installed: install phiops[gpu] for GPUs",
    no_device_hint="CuPy sees no GPU",
)


def nccl_module() -> ModuleType:
    """CuPy's NCCL bindings (``cupy.cuda.nccl``), for the GPU communication context
    (runtime/comm/nccl.py); this module stays the only one that imports CuPy."""
    _cupy()
    try:
        from cupy.cuda import nccl  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - depends on the machine
        raise UnimplementedError("GPU collectives need CuPy built with NCCL") from None
    if not getattr(nccl, "available", True):  # pragma: no cover - depends on the machine
        raise UnimplementedError("GPU collectives need NCCL, which this CuPy cannot load")
    return nccl
