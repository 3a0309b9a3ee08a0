"""Scope: the named arrays a static program reads and writes (parameters, persistable values).

As in PaddlePaddle, ``scope.var(name)`` creates a variable (or returns the existing one),
``scope.find_var(name)`` looks it up here and then in the parent scopes, and a variable holds one
array (numpy or CuPy), set with ``set`` and read with ``get``. ``global_scope()`` is the scope an
``Executor`` uses when ``run`` is given none; ``scope_guard(scope)`` makes another scope the global
one for the duration of a ``with`` block.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np

from phiops.runtime.common import Place
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.device import to_backend
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PreconditionNotMetError

__all__ = ["Variable", "Scope", "global_scope", "scope_guard"]

# counts the variables created and erased in every scope: a lookup made at another count may
# find other variables (Scope.find_vars)
_CHANGES = [0]


class Variable:
    """One named slot of a scope holding an array, or nothing until it is set."""

    __slots__ = ("name", "array")

    def __init__(self, name: str) -> None:
        self.name = name
        self.array: Any = None

    def set(self, value: Any, place: Place | None = None) -> None:
        """Hold a copy of ``value`` (an array, a Tensor or anything ``numpy.asarray`` takes),
        moved to ``place`` when one is given. A copy, as PaddlePaddle's ``set`` copies: the
        Executor's in-place ops (``momentum_``, the SelectedRows updates) write into the array
        held, which must not be the caller's."""
        given = value
        if isinstance(value, Tensor):
            value = value.array
        elif not hasattr(value, "__array_interface__") and not hasattr(
            value, "__cuda_array_interface__"
        ):
            value = np.asarray(value)
        if place is not None:
            value = to_backend(value, place)
        if value is given or isinstance(given, Tensor) and value is given.array:
            value = value.copy()
        self.array = value

    def get(self) -> Any:
        """The array held; PreconditionNotMetError when nothing was set."""
        if self.array is None:
            raise PreconditionNotMetError(f"scope variable '{self.name}' holds no array yet")
        return self.array

    def get_tensor(self) -> Variable:
        """The variable itself (PaddlePaddle's ``var.get_tensor().set(array, place)`` spelling)."""
        return self

    def is_initialized(self) -> bool:
        return self.array is not None

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = self.get()
        if not isinstance(array, np.ndarray):
            array = array.get()  # a CuPy array
        return array if dtype is None else array.astype(dtype)

    def __repr__(self) -> str:
        if self.array is None:
            return f"Variable({self.name!r}, empty)"
        return f"Variable({self.name!r}, {self.array.dtype} {list(self.array.shape)})"


class Scope:
    """Named variables, with an optional parent scope that ``find_var`` also searches."""

    __slots__ = ("vars", "parent", "_found", "__weakref__")

    def __init__(self, parent: Scope | None = None) -> None:
        self.vars: dict[str, Variable] = {}
        self.parent = parent
        # id(names) -> (names, _CHANGES at the lookup, the variables found): find_vars
        self._found: dict[int, tuple[Any, int, list[Variable | None]]] = {}

    def var(self, name: str) -> Variable:
        """The variable ``name`` of this scope, created (empty) when it does not exist."""
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(f"Scope.var(): name must be a non-empty str, got {name!r}")
        found = self.vars.get(name)
        if found is None:
            found = self.vars[name] = Variable(name)
            _CHANGES[0] += 1
        return found

    def find_var(self, name: str) -> Variable | None:
        """The variable ``name`` of this scope or the nearest parent that has it, else None."""
        scope: Scope | None = self
        while scope is not None:
            found = scope.vars.get(name)
            if found is not None:
                return found
            scope = scope.parent
        return None

    def find_vars(self, names: Any) -> list[Variable | None]:
        """``[find_var(name) for name in names]``, remembered for this very ``names`` object
        (a sequence the caller never changes, e.g. a program's parameter names) until a
        variable is created or erased in any scope: the executor asks it at every run."""
        known = self._found.get(id(names))
        if known is not None and known[0] is names and known[1] == _CHANGES[0]:
            return known[2]
        found = [self.find_var(name) for name in names]
        if len(self._found) >= 64:
            self._found.clear()
        self._found[id(names)] = (names, _CHANGES[0], found)
        return found

    def set(self, name: str, value: Any, place: Place | None = None) -> None:
        """``var(name).set(value, place)``."""
        self.var(name).set(value, place)

    def get(self, name: str) -> Any:
        """The array of variable ``name`` (searched as ``find_var`` does); NotFoundError naming
        it when there is none."""
        found = self.find_var(name)
        if found is None:
            raise NotFoundError(
                f"scope has no variable '{name}' (variables: {sorted(self.local_var_names())})"
            )
        return found.get()

    def new_scope(self) -> Scope:
        """A child scope whose ``find_var`` falls back to this one."""
        return Scope(self)

    def local_var_names(self) -> list[str]:
        return list(self.vars)

    def erase(self, names: list[str]) -> None:
        for name in names:
            self.vars.pop(name, None)
        _CHANGES[0] += 1

    def __contains__(self, name: str) -> bool:
        return self.find_var(name) is not None

    def __repr__(self) -> str:
        return f"Scope({len(self.vars)} variables)"


_GLOBAL = [Scope()]


def global_scope() -> Scope:
    """The scope ``Executor.run`` uses when it is given none."""
    return _GLOBAL[-1]


@contextlib.contextmanager
def scope_guard(scope: Scope) -> Iterator[Scope]:
    """Make ``scope`` the global scope inside the ``with`` block."""
    if not isinstance(scope, Scope):
        raise InvalidArgumentError(f"scope_guard(): expects a Scope, got {type(scope).__name__}")
    _GLOBAL.append(scope)
    try:
        yield scope
    finally:
        _GLOBAL.pop()
