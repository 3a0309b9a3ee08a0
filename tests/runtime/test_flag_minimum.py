"""A numeric flag may have a minimum: a value below it is refused wherever it comes from (its
default, set_flags, the environment, the command line), with an error naming the flag.
``max_alloc_bytes`` has minimum 0 (0: no limit)."""

from __future__ import annotations

import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.flags.registry import FlagRegistry


def test_a_negative_max_alloc_bytes_is_refused_at_set_flags() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"flag 'max_alloc_bytes' \(int64, defined at .*runtime_flags.py:\d+\) cannot be set "
        r"to -1: -1 is below the flag's minimum 0",
    ):
        phi.set_flags({"FLAGS_max_alloc_bytes": -1})
    assert flags.flag_value("max_alloc_bytes") == 0


def test_max_alloc_bytes_zero_and_positive_values_are_accepted() -> None:
    with flags.flags_guard({"max_alloc_bytes": 1 << 20}):
        assert flags.flag_value("max_alloc_bytes") == 1 << 20
    phi.set_flags({"max_alloc_bytes": 0})


def test_a_negative_max_alloc_bytes_on_the_command_line_is_refused() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"'max_alloc_bytes'.* below the flag's minimum 0"
    ):
        flags.parse_command_line_flags(["prog", "--max_alloc_bytes=-5"])
    assert flags.flag_value("max_alloc_bytes") == 0


def test_a_value_below_the_minimum_in_the_environment_is_refused(monkeypatch) -> None:
    monkeypatch.setenv("FLAGS_bounded", "-3")
    with pytest.raises(
        InvalidArgumentError, match=r"FLAGS_bounded='-3'.*-3 is below the flag's minimum 0"
    ):
        FlagRegistry().define_int32("bounded", 1, "a bounded flag", minimum=0)


def test_a_default_below_the_minimum_is_refused() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"bad default: 0.5 is below the flag's minimum 1"
    ):
        FlagRegistry().define_double("ratio", 0.5, "a ratio", minimum=1.0)


def test_the_minimum_is_kept_on_the_flag() -> None:
    registry = FlagRegistry()
    flag = registry.define_int64("size", 4, "a size", minimum=2)
    assert flag.minimum == 2
    registry.set_flags({"size": 2})
    with pytest.raises(InvalidArgumentError, match="1 is below the flag's minimum 2"):
        registry.set_flags({"size": 1})
    assert registry.flag_value("size") == 2
