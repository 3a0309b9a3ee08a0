"""KernelFactory: kernel name -> KernelKey -> Kernel, with PHI's selection fallbacks.

Several kernels may be registered for one key: phiops's own (priority 0) and kernels registered
from outside with an explicit priority (docs/extending.md). The one of highest priority wins the
key; two at the same priority are refused. ``kernels`` holds only the winners, so selection costs
the same whatever was registered; ``candidates`` holds every registration.
"""

from __future__ import annotations

from typing import Callable

from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.kernel import Kernel
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["KernelFactory", "KERNEL_FACTORY", "signature_difference"]


class KernelFactory:
    """Two-level map of every registered kernel."""

    def __init__(self) -> None:
        # the winning kernel per key
        self.kernels: dict[str, dict[KernelKey, Kernel]] = {}
        # every kernel per key, highest priority first
        self.candidates: dict[str, dict[KernelKey, list[Kernel]]] = {}
        # (dense kernel name, kind) -> the name of its variant for that kind (PHI's
        # ``sgd_dense_param_sparse_grad`` for (sgd, SELECTED_ROWS))
        self.variants: dict[tuple[str, TensorKind], str] = {}
        self._listeners: list[Callable[[str], None]] = []
        # counts every change to the registry (a kernel registered, removed, a variant or a
        # backend's kernels dropped): a cache of what the registry holds is stale when the
        # count it was made at differs (amp's per-op dtype support)
        self.generation = 0

    def on_change(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(kernel name)`` whenever the winner of one of its keys changes after
        the kernel was first registered (a custom kernel overriding a built-in one, or removed),
        so that plans made with the old winner are dropped."""
        self._listeners.append(listener)

    def register(self, kernel: Kernel) -> None:
        """Add ``kernel`` under its name and key. AlreadyExistsError when a kernel of the same
        priority holds the key; InvalidArgumentError naming what differs when its arguments
        are not those of the kernels already registered under the name (the op's signature)."""
        name = kernel.name
        self.generation += 1
        if name not in self.kernels:  # removed from ``kernels`` directly (a test's kernel)
            self.candidates.pop(name, None)
        existing = self.candidates.get(name)
        if existing:
            reference = next(iter(existing.values()))[0]
            difference = signature_difference(kernel, reference)
            if difference:
                raise InvalidArgumentError(
                    f"kernel {name!r} from {_origin(kernel)} does not match the op's signature "
                    f"(as {_origin(reference)} takes it): {difference}"
                )
        if kernel.key not in self.kernels.get(name, {}):
            self.candidates.get(name, {}).pop(kernel.key, None)
        per_key = self.candidates.setdefault(name, {}).setdefault(kernel.key, [])
        for other in per_key:
            if other.priority == kernel.priority:
                raise AlreadyExistsError(
                    f"kernel {name!r} is already registered for {kernel.key} by "
                    f"{_origin(other)} at priority {other.priority}; register with another "
                    "priority to override it"
                )
        per_key.append(kernel)
        per_key.sort(key=lambda k: -k.priority)
        self._set_winner(name, kernel.key, notify=len(per_key) > 1)

    def register_variant(self, base: str, kernel: Kernel) -> None:
        """Record ``kernel`` (of a kind other than DENSE) as the variant of kernel ``base`` for
        its kind; InvalidArgumentError when it is dense, when another kernel name already is
        that variant, or when its arguments are not those of ``base``'s kernels."""
        kind = kernel.key.kind
        self.generation += 1
        if kind is TensorKind.DENSE:
            raise InvalidArgumentError(
                f"kernel {kernel.name!r} from {_origin(kernel)} is registered as a variant of "
                f"{base!r}, but takes and returns only dense tensors (annotate its SelectedRows "
                "arguments or results as SelectedRows)"
            )
        reference = next(iter(self.candidates.get(base, {}).values()), [None])[0]
        if reference is not None:
            difference = signature_difference(kernel, reference)
            if difference:
                raise InvalidArgumentError(
                    f"kernel {kernel.name!r} from {_origin(kernel)}, the {kind.title} variant "
                    f"of {base!r}, does not take {base!r}'s arguments (as {_origin(reference)} "
                    f"takes them): {difference}"
                )
        existing = self.variants.get((base, kind))
        if existing is not None and existing != kernel.name:
            raise AlreadyExistsError(
                f"kernel {base!r} already has a {kind.title} variant, {existing!r}; "
                f"{kernel.name!r} cannot be another"
            )
        self.variants[(base, kind)] = kernel.name

    def variant_name(self, base: str, kind: TensorKind) -> str | None:
        """The name of kernel ``base``'s variant for ``kind``, None when it has none."""
        return self.variants.get((base, kind))

    def unregister(self, kernel: Kernel) -> None:
        """Remove ``kernel`` (NotFoundError when it is not registered); the next candidate of
        its key, if any, wins the key again."""
        per_key = self.candidates.get(kernel.name, {}).get(kernel.key, [])
        if kernel not in per_key:
            raise NotFoundError(f"{kernel!r} is not registered")
        self.generation += 1
        per_key.remove(kernel)
        if not per_key:
            del self.candidates[kernel.name][kernel.key]
        self._set_winner(kernel.name, kernel.key, notify=True)
        if not self.candidates[kernel.name]:  # its last kernel: the name is not a kernel any more
            del self.candidates[kernel.name]
            if not self.kernels.get(kernel.name):
                self.kernels.pop(kernel.name, None)
            for variant, name in list(self.variants.items()):
                if name == kernel.name:
                    del self.variants[variant]

    def forget_backend(self, backend: Backend) -> None:
        """Remove every kernel registered for ``backend`` (an unregistered backend)."""
        self.generation += 1
        for name, per_key in list(self.candidates.items()):
            for key in [key for key in per_key if key.backend == backend]:
                del per_key[key]
                self._set_winner(name, key, notify=True)

    def _set_winner(self, name: str, key: KernelKey, notify: bool) -> None:
        per_key = self.candidates.get(name, {}).get(key)
        winners = self.kernels.setdefault(name, {})
        previous = winners.get(key)
        if per_key:
            winners[key] = per_key[0]
        else:
            winners.pop(key, None)
        if notify and winners.get(key) is not previous:
            for listener in list(self._listeners):
                listener(name)

    def has_kernel(self, name: str) -> bool:
        return name in self.kernels

    def kinds_of(self, name: str) -> list[TensorKind]:
        """The tensor kinds kernel ``name`` runs on, its own keys' and its variants' (DENSE
        first), [] when it has none."""
        kinds = {key.kind for key in self.kernels.get(name, {})}
        kinds.update(
            kind
            for (base, kind), variant in self.variants.items()
            if base == name and self.kernels.get(variant)
        )
        return sorted(kinds, key=lambda kind: (kind is not TensorKind.DENSE, kind.value))

    def kernels_of(self, name: str) -> dict[KernelKey, Kernel]:
        """Every registration of ``name``; NotFoundError when there is none."""
        try:
            return self.kernels[name]
        except KeyError:
            raise NotFoundError(f"no kernel named {name!r} is registered") from None

    def candidates_of(self, name: str) -> dict[KernelKey, list[Kernel]]:
        """Every kernel registered under ``name`` per key, the winner first; NotFoundError when
        there is none."""
        found = self.candidates.get(name)
        if not found:
            raise NotFoundError(f"no kernel named {name!r} is registered")
        return found

    def select(self, name: str, key: KernelKey, *, cpu_fallback: bool = True) -> Kernel:
        """The kernel for ``key``: the exact key, then ALL_LAYOUT, ALL_DTYPE and ALL_BACKEND
        variants, then (when ``cpu_fallback``) the same on CPU; else NotFoundError listing
        what is registered. The key's kind is never relaxed: a SelectedRows key finds only a
        SelectedRows kernel, a dense key only a dense one."""
        per_key = self.kernels_of(name)
        for candidate in _candidates(key):
            kernel = per_key.get(candidate)
            if kernel is not None:
                return kernel
        if cpu_fallback and key.backend is not Backend.CPU:
            cpu_key = KernelKey(Backend.CPU, key.layout, key.dtype, key.kind)
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


def signature_difference(kernel: Kernel, reference: Kernel) -> str:
    """What differs between two kernels' arguments (tensor inputs with their kind, attribute
    names, outputs), '' when nothing does."""
    got, want = kernel.args_def, reference.args_def
    actual = [(d.name, d.kind) for d in got.inputs] + [(a.name, "attribute") for a in got.attributes]
    expected = [(d.name, d.kind) for d in want.inputs]
    expected += [(a.name, "attribute") for a in want.attributes]
    for position, (have, need) in enumerate(zip(actual, expected)):
        if have != need:
            return (
                f"argument {position + 1} is {have[1]} '{have[0]}', the op passes {need[1]} "
                f"'{need[0]}'"
            )
    if len(actual) != len(expected):
        names = lambda items: ", ".join(n for n, _ in items) or "nothing"  # noqa: E731
        return (
            f"it takes {len(actual)} arguments ({names(actual)}), the op passes "
            f"{len(expected)} ({names(expected)})"
        )
    shape = lambda args: (  # noqa: E731
        "list[Array]"
        if args.outputs_are_list
        else (
            "Array"
            if len(args.outputs) == 1
            else "tuple[" + ", ".join("list[Array]" if o.is_list else "Array" for o in args.outputs) + "]"
        )
    )
    if shape(got) != shape(want):
        return f"it returns {shape(got)}, the op's outputs need {shape(want)}"
    return ""


def _origin(kernel: Kernel) -> str:
    return f"{kernel.fn.__module__}.{kernel.fn.__qualname__}"


def _candidates(key: KernelKey) -> list[KernelKey]:
    backends = (key.backend, Backend.ALL_BACKEND)
    layouts = (key.layout, DataLayout.ALL_LAYOUT)
    dtypes = (key.dtype, DataType.ALL_DTYPE)
    kind = key.kind
    return [KernelKey(b, l, d, kind) for b in backends for l in layouts for d in dtypes]


KERNEL_FACTORY = KernelFactory()
