"""User code reached from the flags registry (a value's __repr__, a mapping's iteration, a key's
methods, a listener's __eq__) may call back into it: no deadlock, because none of it runs under
the registry's lock. Each call runs in a thread with a timeout, so a deadlock fails the test."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping

import pytest

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.flags import FlagRegistry


def finishes(action: Callable[[], object], seconds: float = 5.0) -> object:
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = action()
        except Exception as error:  # noqa: BLE001 - handed to the test
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the registry deadlocked on re-entry"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


@pytest.fixture
def registry() -> FlagRegistry:
    registry = FlagRegistry()
    registry.define_int64("count", 1, "a counter")
    registry.define_string("label", "a", "a label")
    return registry


def test_a_bad_values_repr_that_reads_flags_gives_an_error_not_a_deadlock(
    registry: FlagRegistry,
) -> None:
    class Reentrant:
        def __repr__(self) -> str:
            return f"Reentrant({registry.get_flags('count')})"

    with pytest.raises(InvalidArgumentError, match="Reentrant"):
        finishes(lambda: registry.set_flags({"count": Reentrant()}))


def test_a_mapping_whose_iteration_sets_flags_does_not_deadlock(registry: FlagRegistry) -> None:
    class Mapping_(Mapping):
        def __getitem__(self, key: str) -> int:
            return 5

        def __iter__(self) -> Iterator[str]:
            registry.set_flags({"label": "b"})
            return iter(["count"])

        def __len__(self) -> int:
            return 1

    finishes(lambda: registry.set_flags(Mapping_()))
    assert registry.get_flags(["count", "label"]) == {"FLAGS_count": 5, "FLAGS_label": "b"}


def test_a_key_whose_methods_read_flags_does_not_deadlock(registry: FlagRegistry) -> None:
    class Key(str):
        def __hash__(self) -> int:
            registry.get_flags("label")
            return str.__hash__(self)

        def removeprefix(self, prefix: str) -> str:
            registry.get_flags("label")
            return str.removeprefix(self, prefix)

    finishes(lambda: registry.set_flags({Key("count"): 7}))
    assert finishes(lambda: registry.get_flags([Key("count")])) == {"FLAGS_count": 7}
    assert finishes(lambda: registry.compare_and_set_flag(Key("count"), 7, 8)) is True


def test_a_name_list_whose_iteration_reads_flags_does_not_deadlock(registry: FlagRegistry) -> None:
    class Names(list):
        def __iter__(self) -> Iterator[str]:
            registry.get_flags("label")
            return super().__iter__()

    assert finishes(lambda: registry.get_flags(Names(["count"]))) == {"FLAGS_count": 1}


def test_a_listener_whose_eq_reads_flags_does_not_deadlock(registry: FlagRegistry) -> None:
    class Listener:
        def __call__(self, name: str, old: object, new: object) -> None:
            return None

        def __eq__(self, other: object) -> bool:
            registry.get_flags("count")
            return self is other

        __hash__ = object.__hash__

    first, second = Listener(), Listener()
    finishes(lambda: registry.add_listener(first))
    finishes(lambda: registry.add_listener(second))
    finishes(lambda: registry.remove_listener(first))
    finishes(lambda: registry.set_flags({"count": 2}))
