"""Several threads defining, setting and reading flags: no torn, lost or invented values."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from phiops.runtime.errors import AlreadyExistsError
from phiops.runtime.flags import FlagRegistry

THREADS = 8


@pytest.fixture(autouse=True)
def frequent_thread_switches() -> Iterator[None]:
    """Switch threads every microsecond so that races show up within a short test."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.fixture
def registry() -> FlagRegistry:
    return FlagRegistry()


def run_together(*targets: Callable[[], None]) -> None:
    """Start every target at once and re-raise the first failure from any thread."""
    start = threading.Barrier(len(targets))
    failures: list[BaseException] = []

    def run(target: Callable[[], None]) -> None:
        start.wait()
        try:
            target()
        except BaseException as failure:
            failures.append(failure)

    threads = [threading.Thread(target=run, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def test_compare_and_set_increments_from_many_threads_lose_no_update(registry):
    registry.define_int64("counter", 0, "")
    increments = 300
    heard = []
    registry.add_listener(lambda *change: heard.append(change))

    def increment() -> None:
        for _ in range(increments):
            while True:
                current = registry.flag_value("counter")
                if registry.compare_and_set_flag("counter", current, current + 1):
                    break

    run_together(*[increment] * THREADS)
    assert registry.flag_value("counter") == THREADS * increments
    assert sorted(new for _name, _old, new in heard) == list(range(1, THREADS * increments + 1))


def test_threads_setting_their_own_flags_all_land(registry):
    for thread in range(THREADS):
        registry.define_int32(f"flag_{thread}", -1, "")

    def set_own(thread: int) -> Callable[[], None]:
        def run() -> None:
            for value in range(200):
                registry.set_flags({f"flag_{thread}": value})
                assert registry.flag_value(f"flag_{thread}") == value

        return run

    run_together(*[set_own(thread) for thread in range(THREADS)])
    assert registry.get_flags([f"flag_{thread}" for thread in range(THREADS)]) == {
        f"FLAGS_flag_{thread}": 199 for thread in range(THREADS)
    }


def test_get_flags_never_sees_half_of_a_set_flags_call(registry):
    registry.define_int64("low", 0, "")
    registry.define_int64("high", 0, "")
    writes = 300
    stop = threading.Event()
    seen: set[tuple[int, int]] = set()

    def write(writer: int) -> Callable[[], None]:
        def run() -> None:
            for step in range(1, writes + 1):
                value = writer * writes + step
                registry.set_flags({"low": value, "high": -value})

        return run

    def read() -> None:
        while not stop.is_set():
            values = registry.get_flags(["low", "high"])
            seen.add((values["FLAGS_low"], values["FLAGS_high"]))

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    try:
        run_together(*[write(writer) for writer in range(THREADS // 2)])
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    written = {0} | set(range(1, (THREADS // 2) * writes + 1))
    assert all(low == -high and low in written for low, high in seen)


def test_flag_value_readers_only_see_values_that_were_written(registry):
    flag = registry.define_string("mode", "initial", "")
    written = {"initial"} | {f"mode {writer} {step}" for writer in range(4) for step in range(200)}
    stop = threading.Event()
    seen: set[str] = set()

    def write(writer: int) -> Callable[[], None]:
        def run() -> None:
            for step in range(200):
                registry.set_flags({"mode": f"mode {writer} {step}"})

        return run

    def read() -> None:
        while not stop.is_set():
            seen.add(registry.flag_value("mode"))
            seen.add(flag.value)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        run_together(*[write(writer) for writer in range(4)])
    finally:
        stop.set()
        reader.join()
    assert seen <= written


def test_of_many_threads_defining_one_name_exactly_one_succeeds(registry):
    outcomes: list[str] = []

    def define() -> None:
        try:
            registry.define_int32("shared", 0, "")
            outcomes.append("defined")
        except AlreadyExistsError:
            outcomes.append("already exists")

    run_together(*[define] * THREADS)
    assert sorted(outcomes) == ["already exists"] * (THREADS - 1) + ["defined"]
    assert len(registry.all_flags()) == 1


def test_threads_defining_distinct_names_all_register(registry):
    def define(thread: int) -> Callable[[], None]:
        def run() -> None:
            for index in range(100):
                registry.define_int32(f"flag_{thread}_{index}", index, "")

        return run

    run_together(*[define(thread) for thread in range(THREADS)])
    assert len(registry.all_flags()) == THREADS * 100
    assert registry.flag_value("flag_3_42") == 42
