"""`FlagRegistry`, a thread-safe table of typed flags, and the `Flag` objects it holds."""

from __future__ import annotations

import difflib
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from phiops.runtime.errors import (
    AlreadyExistsError,
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
)
from phiops.runtime.flags import command_line
from phiops.runtime.flags.location import Location, caller_location
from phiops.runtime.flags.values import ENV_PREFIX, FlagType, FlagValue

__all__ = ["Flag", "FlagRegistry", "Listener"]

Listener = Callable[[str, FlagValue, FlagValue], object]
"""Called as ``listener(name, old_value, new_value)`` after a flag's value changed."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Flag:
    """One defined flag: its name, type, default, help, where it was defined, and its value.

    `value` is a plain attribute, so reading it is as fast as Python allows. Every attribute is
    read-only: a value changes only through the registry (set_flags, flags_guard, the command
    line), which checks it and tells the listeners.
    """

    __slots__ = ("name", "type", "default", "help", "location", "value", "minimum")

    name: str
    type: FlagType
    default: FlagValue
    help: str
    location: Location
    value: FlagValue
    minimum: int | float | None

    def __init__(
        self,
        name: str,
        flag_type: FlagType,
        default: FlagValue,
        help: str,
        location: Location,
        value: FlagValue,
        minimum: int | float | None = None,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", flag_type)
        object.__setattr__(self, "default", default)
        object.__setattr__(self, "help", help)
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "minimum", minimum)

    @property
    def defined_at(self) -> str:
        """``file:line`` of the define_* call."""
        return str(self.location)

    def __setattr__(self, attribute: str, value: object) -> None:
        raise PreconditionNotMetError(
            f"Flag.{attribute} is read-only; change flag {self.name!r} with "
            f"set_flags({{{self.name!r}: ...}}) or flags_guard"
        )

    def __delattr__(self, attribute: str) -> None:
        raise PreconditionNotMetError(f"Flag.{attribute} of flag {self.name!r} cannot be deleted")

    def __repr__(self) -> str:
        return (
            f"<Flag {self.name} ({self.type.value}) default={self.default!r} "
            f"value={self.value!r} defined at {self.location}>"
        )


class FlagRegistry:
    """A table of flags by name. Every method is safe to call from several threads at once.

    The module-level functions of `phiops.runtime.flags` are the methods of one registry,
    `phiops.runtime.flags.DEFAULT_REGISTRY`; tests make their own registry to stay isolated.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: dict[str, Flag] = {}
        self._listeners: tuple[Listener, ...] = ()

    # Definition ----------------------------------------------------------------------------

    def define_flag(self, name: str, default: FlagValue, help: str) -> Flag:
        """Define a flag whose type follows its default: bool, int64, double or string."""
        for python_type, flag_type in _INFERRED_TYPES:
            if isinstance(default, python_type):
                return self._define(name, flag_type, default, help)
        raise InvalidArgumentError(
            f"cannot infer the type of flag {name!r} from its default {default!r} "
            f"({type(default).__name__}): give a bool, int, float or str, or use define_<type>"
        )

    def define_bool(self, name: str, default: bool, help: str) -> Flag:
        """Define a bool flag."""
        return self._define(name, FlagType.BOOL, default, help)

    def define_int32(
        self, name: str, default: int, help: str, *, minimum: int | None = None
    ) -> Flag:
        """Define an int32 flag (-2**31 to 2**31 - 1; not below ``minimum`` when given)."""
        return self._define(name, FlagType.INT32, default, help, minimum)

    def define_uint32(self, name: str, default: int, help: str) -> Flag:
        """Define a uint32 flag (0 to 2**32 - 1)."""
        return self._define(name, FlagType.UINT32, default, help)

    def define_int64(
        self, name: str, default: int, help: str, *, minimum: int | None = None
    ) -> Flag:
        """Define an int64 flag (-2**63 to 2**63 - 1; not below ``minimum`` when given)."""
        return self._define(name, FlagType.INT64, default, help, minimum)

    def define_uint64(self, name: str, default: int, help: str) -> Flag:
        """Define a uint64 flag (0 to 2**64 - 1)."""
        return self._define(name, FlagType.UINT64, default, help)

    def define_double(
        self, name: str, default: float, help: str, *, minimum: float | None = None
    ) -> Flag:
        """Define a double flag (not below ``minimum`` when given); an int default is stored
        as a float."""
        return self._define(name, FlagType.DOUBLE, default, help, minimum)

    def define_string(self, name: str, default: str, help: str) -> Flag:
        """Define a string flag."""
        return self._define(name, FlagType.STRING, default, help)

    def _define(
        self,
        name: str,
        flag_type: FlagType,
        default: object,
        help: str,
        minimum: int | float | None = None,
    ) -> Flag:
        location = caller_location()
        _check_name(name, location)
        name = str.__str__(name)  # a str subclass's __hash__/__eq__ must not run under the lock
        if not isinstance(help, str):
            raise InvalidArgumentError(
                f"flag {name!r} defined at {location}: help must be a str, got {help!r}"
            )
        try:
            default = _at_least(minimum, flag_type.check(default))
        except InvalidArgumentError as error:
            raise InvalidArgumentError(
                f"flag {name!r} ({flag_type.value}) defined at {location} has a bad default: "
                f"{error}"
            ) from None
        with self._lock:
            existing = self._flags.get(name)
            if existing is not None:
                raise AlreadyExistsError(_duplicate_message(name, existing.location, location))
            value = _value_from_environment(name, flag_type, location, default, minimum)
            flag = Flag(name, flag_type, default, help, location, value, minimum)
            self._flags[name] = flag
        return flag

    # Reading -------------------------------------------------------------------------------

    def flag_value(self, name: str) -> FlagValue:
        """The current value of flag `name` (no FLAGS_ prefix): the fast path for the runtime."""
        try:
            return self._flags[name].value
        except KeyError:
            raise NotFoundError(self._unknown_flag_message(name)) from None

    def get_flags(self, names: str | Sequence[str]) -> dict[str, FlagValue]:
        """Values of one flag name or a list of them, keyed ``FLAGS_<name>`` like paddle.get_flags.

        Names may carry the FLAGS_ prefix or not. The values are read together, so they never
        mix values from before and after one concurrent set_flags call.
        """
        if isinstance(names, str):
            names = [names]
        elif not isinstance(names, (list, tuple)):
            raise InvalidArgumentError(
                f"get_flags takes a flag name or a list of names, got {names!r} "
                f"({type(names).__name__})"
            )
        # Resolved before taking the lock: iterating a list subclass or hashing a str subclass
        # runs user code, which may call back into this registry.
        flags = [self._resolve(name) for name in list(names)]
        with self._lock:
            return {ENV_PREFIX + flag.name: flag.value for flag in flags}

    def all_flags(self) -> tuple[Flag, ...]:
        """Every defined flag, sorted by name."""
        with self._lock:
            return tuple(sorted(self._flags.values(), key=lambda flag: flag.name))

    # Changing ------------------------------------------------------------------------------

    def set_flags(self, mapping: Mapping[str, object]) -> None:
        """Set several flags at once, by name with or without the FLAGS_ prefix.

        Every entry is checked first: an unknown name raises NotFoundError, a value of the wrong
        type or out of range raises InvalidArgumentError, and then no flag is changed.
        """
        _previous, changes = self._assign(mapping)
        self._notify(changes)

    def compare_and_set_flag(self, name: str, expected: object, new: object) -> bool:
        """Set flag `name` to `new` only if its value is `expected`; return whether it did.

        The comparison and the change happen under the registry's lock, so concurrent
        read-modify-write loops (counters, toggles) lose no update.
        """
        flag = self._resolve(name)
        expected = _checked(flag, expected)
        new = _checked(flag, new)
        with self._lock:
            if not _same_value(flag.type, flag.value, expected):
                return False
            changes = _store(flag, new)
        self._notify(changes)
        return True

    @contextmanager
    def flags_guard(self, mapping: Mapping[str, object]) -> Iterator[None]:
        """Set flags like set_flags for the duration of a ``with`` block, then restore them.

        Guards nest. Restoring writes the values from before the block, also over changes that
        other threads made meanwhile: guard flags that only the guarded code changes.
        """
        previous, changes = self._assign(mapping)
        try:
            self._notify(changes)
            yield
        finally:
            self.set_flags(previous)

    def parse_command_line_flags(
        self,
        argv: Sequence[str],
        *,
        remove_flags: bool = True,
        allow_undefined: bool = False,
    ) -> list[str]:
        """Set flags from a gflags-style command line; see `phiops.runtime.flags.command_line`."""
        return command_line.parse_command_line_flags(
            self, argv, remove_flags=remove_flags, allow_undefined=allow_undefined
        )

    # Listeners -----------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> Listener:
        """Call ``listener(name, old, new)`` after every change of any flag's value.

        Listeners run in the thread that made the change, after the registry's lock is released
        (so they may read and set flags), once per flag whose value actually changed, in the
        order they were added. Every listener runs even if an earlier one raises; the first
        exception is re-raised afterwards, and the change stays made. Notifications of changes
        made by different threads may arrive in either order: read the flag for its latest value.
        Returns `listener`, so this works as a decorator.
        """
        if not callable(listener):
            raise InvalidArgumentError(f"a flag listener must be callable, got {listener!r}")
        while True:
            # `in` and the message call the listener's __eq__ and __repr__: user code, run
            # outside the lock; the swap below retries if another thread changed the tuple.
            listeners = self._listeners
            if listener in listeners:
                raise AlreadyExistsError(f"flag listener {listener!r} is already added")
            with self._lock:
                if self._listeners is listeners:
                    self._listeners = (*listeners, listener)
                    return listener

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling a listener that add_listener added."""
        while True:
            listeners = self._listeners
            if listener not in listeners:
                raise NotFoundError(f"flag listener {listener!r} was never added or was removed")
            remaining = tuple(added for added in listeners if added != listener)
            with self._lock:
                if self._listeners is listeners:
                    self._listeners = remaining
                    return

    # Internals -----------------------------------------------------------------------------

    def _assign(
        self, mapping: Mapping[str, object]
    ) -> tuple[dict[str, FlagValue], list[tuple[str, FlagValue, FlagValue]]]:
        """Check every entry, then store them all; return the previous values and the changes."""
        if not isinstance(mapping, Mapping):
            raise InvalidArgumentError(
                f"set_flags takes a mapping of flag names to values, got {mapping!r} "
                f"({type(mapping).__name__})"
            )
        # Everything that can run user code (the mapping's iteration, a key's methods, a value's
        # conversions and __repr__ in messages) happens before the lock is taken: that code may
        # call back into this registry. Only checked, plain values are stored under the lock.
        staged: dict[str, tuple[str, Flag, FlagValue]] = {}
        for key, value in list(mapping.items()):
            flag = self._resolve(key)
            if flag.name in staged:
                raise InvalidArgumentError(
                    f"set_flags got flag {flag.name!r} twice, as {staged[flag.name][0]!r} "
                    f"and as {key!r}"
                )
            staged[flag.name] = (key, flag, _checked(flag, value))
        with self._lock:
            previous = {name: flag.value for name, (_key, flag, _value) in staged.items()}
            changes = [
                change for _key, flag, value in staged.values() for change in _store(flag, value)
            ]
        return previous, changes

    def _resolve(self, name: object) -> Flag:
        if not isinstance(name, str):
            raise InvalidArgumentError(f"flag names are str, got {name!r} ({type(name).__name__})")
        # A plain str copy: a str subclass's methods (removeprefix, __hash__, __eq__) never run.
        name = str.__str__(name)
        flag = self._flags.get(name.removeprefix(ENV_PREFIX))
        if flag is None:
            raise NotFoundError(self._unknown_flag_message(name))
        return flag

    def _unknown_flag_message(self, name: object) -> str:
        close = difflib.get_close_matches(
            str(name).removeprefix(ENV_PREFIX), list(self._flags), n=1
        )
        hint = f"; did you mean {close[0]!r}?" if close else " (phiops flags lists them)"
        return f"no flag named {name!r} is defined{hint}"

    def _notify(self, changes: list[tuple[str, FlagValue, FlagValue]]) -> None:
        listeners = self._listeners
        first_error: Exception | None = None
        for name, old, new in changes:
            for listener in listeners:
                try:
                    listener(name, old, new)
                except Exception as error:
                    if first_error is None:
                        first_error = error
        if first_error is not None:
            raise first_error


_INFERRED_TYPES = (
    (bool, FlagType.BOOL),
    (int, FlagType.INT64),
    (float, FlagType.DOUBLE),
    (str, FlagType.STRING),
)


def _check_name(name: object, location: Location) -> None:
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise InvalidArgumentError(
            f"flag name {name!r} defined at {location} is not an identifier "
            "([A-Za-z_][A-Za-z0-9_]*), which it must be to be spelled FLAGS_<name> and --<name>"
        )
    if name.startswith(ENV_PREFIX):
        raise InvalidArgumentError(
            f"flag name {name!r} defined at {location} starts with {ENV_PREFIX!r}: define it as "
            f"{name.removeprefix(ENV_PREFIX)!r}, the prefix belongs to environment variables"
        )
    if name in command_line.RESERVED_NAMES:
        raise InvalidArgumentError(
            f"flag name {name!r} defined at {location} is taken by the command line's --{name}"
        )


def _duplicate_message(name: str, first: Location, second: Location) -> str:
    message = (
        f"flag {name!r} is already defined at {first}; it cannot be defined again at {second} "
        "(flag names are process-wide: rename one of them)"
    )
    if first == second:
        message += "; both are the same line, so its module was probably imported twice"
    return message


def _value_from_environment(
    name: str,
    flag_type: FlagType,
    location: Location,
    default: FlagValue,
    minimum: int | float | None,
) -> FlagValue:
    variable = ENV_PREFIX + name
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        return _at_least(minimum, flag_type.parse(text))
    except InvalidArgumentError as error:
        raise InvalidArgumentError(
            f"environment variable {variable}={text!r} does not hold a {flag_type.value} for "
            f"flag {name!r} defined at {location}: {error}"
        ) from None


def _checked(flag: Flag, value: object) -> FlagValue:
    try:
        return _at_least(flag.minimum, flag.type.check(value))
    except InvalidArgumentError as error:
        raise InvalidArgumentError(
            f"flag {flag.name!r} ({flag.type.value}, defined at {flag.location}) cannot be set "
            f"to {value!r}: {error}"
        ) from None


def _at_least(minimum: int | float | None, value: FlagValue) -> FlagValue:
    """``value``, checked against the flag's ``minimum`` (None: no bound but its type's)."""
    if minimum is not None and value < minimum:  # type: ignore[operator]
        raise InvalidArgumentError(f"{value!r} is below the flag's minimum {minimum!r}")
    return value


def _same_value(flag_type: FlagType, first: FlagValue, second: FlagValue) -> bool:
    # Canonical text tells NaN equal to NaN and -0.0 apart from 0.0, as a value change should.
    return flag_type.format(first) == flag_type.format(second)


def _store(flag: Flag, value: FlagValue) -> list[tuple[str, FlagValue, FlagValue]]:
    """Give `flag` its new value (caller holds the lock); return the change, if it is one."""
    old = flag.value
    if _same_value(flag.type, old, value):
        return []
    object.__setattr__(flag, "value", value)
    return [(flag.name, old, value)]
