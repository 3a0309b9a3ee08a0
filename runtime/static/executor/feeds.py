"""A run's inputs: the fed values checked against the program's data ops and made arrays of their
declared dtype and dims, and the parameters' arrays read from the scope."""

from __future__ import annotations

import operator

from typing import Any

import numpy as np

from phiops.runtime.backends import is_array, to_backend
from phiops.runtime.common import Backend, Place
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.core import Operation, Value
from phiops.runtime.static.executor.metas import dtype_of
from phiops.runtime.static.scope import Scope
from phiops.runtime.tensor.lod import carry_lod

__all__ = ["Feed", "feed_arrays", "scope_arrays"]


class Feed:
    """One ``pd_op.data`` (or ``pd_op.feed``) op: its name, declared dims and dtype, and whether
    it is persistable (then, when not fed, it is read from the scope, as PaddlePaddle reads a
    learning rate)."""

    __slots__ = ("name", "value", "dims", "dtype", "np_dtype", "persistable", "known")

    def __init__(self, op: Operation) -> None:
        self.name = op.attributes["name"].value
        self.value = op.results[0]
        value_type = self.value.type
        self.dims = value_type.dims
        self.dtype = dtype_of(value_type.element, f"pd_op.data '{self.name}'")
        self.np_dtype = self.dtype.numpy_dtype
        persistable = op.attributes.get("persistable")
        self.persistable = persistable is not None and any(a.value for a in persistable.value)
        self.known = tuple((i, d) for i, d in enumerate(self.dims) if d != -1)

    def fits(self, shape: tuple[int, ...]) -> bool:
        """Whether ``shape`` has the declared dims (-1: any extent)."""
        if shape == self.dims:
            return True
        if len(shape) != len(self.dims):
            return False
        for index, extent in self.known:
            if shape[index] != extent:
                return False
        return True


def feed_arrays(
    feeds: list[Feed], feed_names: set[str], feed: dict[str, Any], place: Place, scope: Scope
) -> tuple[list, tuple]:
    """The arrays of the program's data ops ``feeds`` (named ``feed_names``), checked against
    their declared dtype and dims, and the signature (their shapes) that selects a plan."""
    if len(feed) > len(feeds) or not feed_names.issuperset(feed):
        unknown = sorted(name for name in feed if name not in feed_names)
        raise InvalidArgumentError(
            f"Executor.run(): feed '{unknown[0]}' is not a data op of the program; its data "
            f"ops are {sorted(feed_names)}"
        )
    on_cpu = place.backend is Backend.CPU
    arrays = []
    shapes = []
    for spec in feeds:
        value = feed.get(spec.name)
        if (
            type(value) is np.ndarray
            and on_cpu
            and (value.dtype is spec.np_dtype or value.dtype == spec.np_dtype)
            and spec.fits(value.shape)
        ):
            # the common case: a numpy array of exactly the declared meta. Copied, as
            # PaddlePaddle's feed copies into the scope's tensor: an op updating its input
            # in place (batch_norm's running statistics) never writes into the caller's array
            array = value.copy()
        else:
            array = _fed_array(value, spec, place, scope)
        arrays.append(array)
        shapes.append(array.shape)
    return arrays, tuple(shapes)


def _fed_array(value: Any, spec: Feed, place: Place, scope: Scope) -> Any:
    """The array of data op ``spec`` on ``place``: ``value`` checked and converted, else (a
    persistable data op not fed) the scope's."""
    if value is None:
        if spec.persistable:
            var = scope.find_var(spec.name)
            if var is not None and var.is_initialized():
                value = var.array
        if value is None:
            raise InvalidArgumentError(
                f"Executor.run(): feed '{spec.name}' is missing: the program reads data "
                f"'{spec.name}' ({spec.dtype.name.lower()} {list(spec.dims)})"
            )
        array = _checked_array(value, spec)  # the scope's own array: updated in place
    else:
        array = _checked_array(value, spec)
        if array is value or (isinstance(value, Tensor) and array is value.array):
            array = array.copy()  # the caller's array: never written (see feed_arrays)
    source = value.array if isinstance(value, Tensor) else value
    if place.backend is not Backend.CPU or type(array) is not np.ndarray:
        array = to_backend(array, place)
    return carry_lod(source, array)  # a fed LoD tensor's sequences reach the kernels


def _checked_array(value: Any, spec: Feed) -> Any:
    """``value`` as an array of the feed's declared dtype and dims; InvalidArgumentError naming
    the feed otherwise. A Python number or list takes the declared dtype."""
    if isinstance(value, Tensor):
        array = value.array
    elif is_array(value):
        array = value
    else:
        try:
            array = np.asarray(value, dtype=spec.np_dtype)
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"Executor.run(): feed '{spec.name}' cannot be made a "
                f"{spec.dtype.name.lower()} array: {error}"
            ) from None
    if array.dtype != spec.np_dtype:
        raise InvalidArgumentError(
            f"Executor.run(): feed '{spec.name}' must be {spec.dtype.name.lower()}, as its data op "
            f"declares, got {array.dtype}"
        )
    if not spec.fits(array.shape):
        raise InvalidArgumentError(
            f"Executor.run(): feed '{spec.name}' has shape {list(array.shape)}, but its data op "
            f"declares {list(spec.dims)} (-1: any extent)"
        )
    return array


def scope_arrays(params: list[tuple[str, Value]], scope: Scope, place: Place) -> list:
    """The arrays of the parameters ``params`` (name, value), from ``scope`` (moved to ``place``
    there, once, when they are elsewhere)."""
    on_cpu = place.backend is Backend.CPU
    variables = scope.find_vars(_names(params))
    try:
        arrays = list(map(_ARRAY_OF, variables))
    except AttributeError:  # a parameter not in the scope: named below
        arrays = [None if var is None else var.array for var in variables]
    if on_cpu and (not arrays or set(map(type, arrays)) == _NUMPY_ONLY):
        return arrays  # the usual case, checked at C speed
    for i, ((name, _), var) in enumerate(zip(params, variables)):
        array = arrays[i]
        if array is None:
            raise PreconditionNotMetError(
                f"Executor.run(): parameter '{name}' is not in the scope (run the startup "
                "program first, or set it with scope.var(name).set(array))"
            )
        if on_cpu is not (type(array) is np.ndarray):
            array = arrays[i] = var.array = to_backend(array, place)
    return arrays


_ARRAY_OF = operator.attrgetter("array")
_NUMPY_ONLY = {np.ndarray}

# id(params) -> (params, their names): one names tuple per parameter list, for Scope.find_vars
_NAMES: dict[int, tuple[Any, tuple[str, ...]]] = {}


def _names(params: list[tuple[str, Value]]) -> tuple[str, ...]:
    known = _NAMES.get(id(params))
    if known is not None and known[0] is params and len(known[1]) == len(params):
        return known[1]
    names = tuple(name for name, _ in params)
    if len(_NAMES) >= 256:
        _NAMES.clear()
    _NAMES[id(params)] = (params, names)
    return names
