"""Defining flags, reading and setting them, the environment, listeners, guards, compare-and-set."""

from __future__ import annotations

import math
import sys
import threading
import uuid

import pytest

import phiops.runtime.flags
from phiops.runtime.errors import (
    AlreadyExistsError,
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
)
from phiops.runtime.flags import FlagRegistry, FlagType, Location


@pytest.fixture
def registry() -> FlagRegistry:
    return FlagRegistry()


def next_line() -> int:
    """The line after the caller's: where a define_* call on the next line is recorded."""
    return sys._getframe(1).f_lineno + 1


# Definition -----------------------------------------------------------------------------------


def test_a_defined_flag_records_name_type_default_value_help_and_location(registry):
    line = next_line()
    flag = registry.define_int32("batch_size", 32, "Examples per batch.")
    assert flag.name == "batch_size"
    assert flag.type is FlagType.INT32
    assert flag.default == 32
    assert flag.value == 32
    assert flag.help == "Examples per batch."
    assert flag.location == Location(__file__, line)
    assert flag.defined_at == f"{__file__}:{line}"


@pytest.mark.parametrize(
    ("helper", "default", "flag_type"),
    [
        ("define_bool", True, FlagType.BOOL),
        ("define_int32", -5, FlagType.INT32),
        ("define_uint32", 5, FlagType.UINT32),
        ("define_int64", -5, FlagType.INT64),
        ("define_uint64", 5, FlagType.UINT64),
        ("define_double", 0.5, FlagType.DOUBLE),
        ("define_string", "text", FlagType.STRING),
    ],
)
def test_each_typed_helper_defines_a_flag_of_its_type(registry, helper, default, flag_type):
    flag = getattr(registry, helper)("flag", default, "help")
    assert (flag.type, flag.value) == (flag_type, default)


@pytest.mark.parametrize(
    ("default", "flag_type"),
    [(True, FlagType.BOOL), (3, FlagType.INT64), (2.5, FlagType.DOUBLE), ("s", FlagType.STRING)],
)
def test_define_flag_infers_the_type_from_the_default(registry, default, flag_type):
    assert registry.define_flag("flag", default, "help").type is flag_type


@pytest.mark.parametrize("default", [None, [1], 1j])
def test_define_flag_rejects_a_default_whose_type_it_cannot_infer(registry, default):
    with pytest.raises(InvalidArgumentError, match=type(default).__name__):
        registry.define_flag("flag", default, "help")


@pytest.mark.parametrize(
    ("helper", "default"),
    [
        ("define_int32", 2**31),
        ("define_int32", -(2**31) - 1),
        ("define_uint32", -1),
        ("define_uint32", 2**32),
        ("define_int64", 2**63),
        ("define_int64", -(2**63) - 1),
        ("define_uint64", -1),
        ("define_uint64", 2**64),
        ("define_flag", 2**63),
    ],
)
def test_an_integer_default_out_of_range_is_rejected(registry, helper, default):
    with pytest.raises(InvalidArgumentError, match=rf"'flag'.*{default} is out of range"):
        getattr(registry, helper)("flag", default, "help")


@pytest.mark.parametrize(
    ("helper", "lowest", "highest"),
    [
        ("define_int32", -(2**31), 2**31 - 1),
        ("define_uint32", 0, 2**32 - 1),
        ("define_int64", -(2**63), 2**63 - 1),
        ("define_uint64", 0, 2**64 - 1),
    ],
)
def test_an_integer_default_at_either_end_of_the_range_is_accepted(
    registry, helper, lowest, highest
):
    assert getattr(registry, helper)("low", lowest, "").value == lowest
    assert getattr(registry, helper)("high", highest, "").value == highest


@pytest.mark.parametrize(
    ("helper", "default"),
    [
        ("define_bool", 1),
        ("define_int32", True),
        ("define_int64", 1.0),
        ("define_double", False),
        ("define_string", 5),
    ],
)
def test_a_default_of_the_wrong_type_is_rejected(registry, helper, default):
    with pytest.raises(InvalidArgumentError, match=r"'flag' \(\w+\) defined at .* bad default"):
        getattr(registry, helper)("flag", default, "help")


def test_a_double_flag_stores_an_int_default_as_a_float(registry):
    value = registry.define_double("ratio", 2, "help").value
    assert value == 2.0 and type(value) is float


def test_defining_a_name_twice_raises_already_exists_naming_both_places(registry):
    first_line = next_line()
    registry.define_bool("verbose", False, "help")
    with pytest.raises(AlreadyExistsError) as raised:
        second_line = next_line()
        registry.define_int32("verbose", 1, "help")
    assert f"{__file__}:{first_line}" in str(raised.value)
    assert f"{__file__}:{second_line}" in str(raised.value)


def test_defining_a_name_twice_from_one_line_suggests_a_double_import(registry):
    with pytest.raises(AlreadyExistsError, match="imported twice"):
        for _ in range(2):
            registry.define_bool("verbose", False, "help")


def test_a_failed_second_definition_keeps_the_first_flag(registry):
    registry.define_int32("size", 1, "first")
    with pytest.raises(AlreadyExistsError):
        registry.define_int32("size", 2, "second")
    assert [(flag.name, flag.help, flag.value) for flag in registry.all_flags()] == [
        ("size", "first", 1)
    ]


def test_two_registries_hold_separate_flags(registry):
    other = FlagRegistry()
    registry.define_int32("size", 1, "")
    other.define_int32("size", 2, "")
    assert (registry.flag_value("size"), other.flag_value("size")) == (1, 2)


@pytest.mark.parametrize("name", ["", "bad-name", "1st", "with space", "naïve", 7])
def test_a_flag_name_must_be_an_identifier(registry, name):
    with pytest.raises(InvalidArgumentError, match="not an identifier"):
        registry.define_bool(name, False, "help")


def test_a_flag_name_must_not_carry_the_env_prefix(registry):
    with pytest.raises(InvalidArgumentError, match="define it as 'verbose'"):
        registry.define_bool("FLAGS_verbose", False, "help")


@pytest.mark.parametrize("name", ["help", "helpfull", "fromenv", "tryfromenv"])
def test_a_flag_name_must_not_be_a_command_line_option(registry, name):
    with pytest.raises(InvalidArgumentError, match=f"--{name}"):
        registry.define_string(name, "", "help")


def test_help_must_be_text(registry):
    with pytest.raises(InvalidArgumentError, match="help must be a str"):
        registry.define_bool("verbose", False, None)


def test_all_flags_lists_every_flag_sorted_by_name(registry):
    for name in ("b", "c", "a"):
        registry.define_bool(name, False, "")
    assert [flag.name for flag in registry.all_flags()] == ["a", "b", "c"]


# Reading -------------------------------------------------------------------------------------


def test_flag_value_returns_the_current_value(registry):
    registry.define_int64("steps", 10, "")
    registry.set_flags({"steps": 11})
    assert registry.flag_value("steps") == 11


def test_flag_value_of_an_unknown_name_raises_not_found_with_a_suggestion(registry):
    registry.define_int64("steps", 10, "")
    with pytest.raises(NotFoundError, match="did you mean 'steps'"):
        registry.flag_value("step")


def test_flag_value_takes_bare_names_only(registry):
    registry.define_int64("steps", 10, "")
    with pytest.raises(NotFoundError):
        registry.flag_value("FLAGS_steps")


def test_get_flags_of_one_name_returns_its_value_keyed_with_the_prefix(registry):
    registry.define_bool("verbose", True, "")
    assert registry.get_flags("verbose") == {"FLAGS_verbose": True}


def test_get_flags_accepts_names_with_and_without_the_prefix(registry):
    registry.define_bool("verbose", True, "")
    registry.define_string("mode", "fast", "")
    assert registry.get_flags(["FLAGS_verbose", "mode"]) == {
        "FLAGS_verbose": True,
        "FLAGS_mode": "fast",
    }
    assert registry.get_flags(("mode",)) == {"FLAGS_mode": "fast"}


def test_get_flags_of_an_unknown_name_raises_not_found_with_a_suggestion(registry):
    registry.define_bool("verbose", True, "")
    with pytest.raises(NotFoundError, match="'FLAGS_verbos'.*did you mean 'verbose'"):
        registry.get_flags(["FLAGS_verbos"])


@pytest.mark.parametrize("names", [3, {"verbose"}, None])
def test_get_flags_rejects_names_that_are_neither_a_str_nor_a_list(registry, names):
    registry.define_bool("verbose", True, "")
    with pytest.raises(InvalidArgumentError, match="get_flags takes"):
        registry.get_flags(names)


# Setting -------------------------------------------------------------------------------------


def test_set_flags_accepts_names_with_and_without_the_prefix(registry):
    registry.define_int32("a", 0, "")
    registry.define_int32("b", 0, "")
    registry.set_flags({"a": 1, "FLAGS_b": 2})
    assert registry.get_flags(["a", "b"]) == {"FLAGS_a": 1, "FLAGS_b": 2}


def test_the_flag_object_sees_values_set_through_the_registry(registry):
    flag = registry.define_string("mode", "fast", "")
    registry.set_flags({"mode": "slow"})
    assert flag.value == "slow"


@pytest.mark.parametrize(
    ("helper", "default", "bad_value", "reason"),
    [
        ("define_bool", False, 1, "expected True or False, got 1 \\(int\\)"),
        ("define_bool", False, "true", "expected True or False, got 'true' \\(str\\)"),
        ("define_int32", 0, True, "expected an int, got True \\(bool\\)"),
        ("define_int64", 0, 1.0, "expected an int, got 1.0 \\(float\\)"),
        ("define_uint32", 0, "5", "expected an int, got '5' \\(str\\)"),
        ("define_double", 0.0, True, "expected a float or an int, got True \\(bool\\)"),
        ("define_double", 0.0, "1.5", "expected a float or an int, got '1.5' \\(str\\)"),
        ("define_string", "", 5, "expected a str, got 5 \\(int\\)"),
        ("define_string", "", None, "expected a str, got None \\(NoneType\\)"),
    ],
)
def test_set_flags_rejects_a_value_of_the_wrong_type_naming_flag_type_and_value(
    registry, helper, default, bad_value, reason
):
    flag = getattr(registry, helper)("flag", default, "")
    with pytest.raises(InvalidArgumentError, match=rf"'flag' \({flag.type.value}, .*{reason}"):
        registry.set_flags({"flag": bad_value})
    assert flag.value == default


@pytest.mark.parametrize(
    ("helper", "bad_value"),
    [
        ("define_int32", 2**31),
        ("define_int32", -(2**31) - 1),
        ("define_uint32", -1),
        ("define_uint32", 2**32),
        ("define_int64", 2**63),
        ("define_uint64", 2**64),
    ],
)
def test_set_flags_rejects_an_integer_out_of_range(registry, helper, bad_value):
    flag = getattr(registry, helper)("flag", 0, "")
    with pytest.raises(
        InvalidArgumentError, match=rf"{bad_value} is out of range for {flag.type.value}"
    ):
        registry.set_flags({"flag": bad_value})
    assert flag.value == 0


def test_a_double_flag_accepts_an_int_and_stores_a_float(registry):
    flag = registry.define_double("ratio", 0.5, "")
    registry.set_flags({"ratio": 3})
    assert flag.value == 3.0 and type(flag.value) is float


def test_a_double_flag_rejects_an_int_too_large_for_a_float(registry):
    registry.define_double("ratio", 0.5, "")
    with pytest.raises(InvalidArgumentError, match="too large for a double"):
        registry.set_flags({"ratio": 10**400})


def test_set_flags_of_an_unknown_name_raises_not_found_and_sets_nothing(registry):
    flag = registry.define_int32("size", 0, "")
    with pytest.raises(NotFoundError, match="'FLAGS_sise'.*did you mean 'size'"):
        registry.set_flags({"size": 1, "FLAGS_sise": 2})
    assert flag.value == 0


def test_set_flags_with_one_bad_value_sets_none_of_the_others(registry):
    first = registry.define_int32("first", 0, "")
    last = registry.define_int32("last", 0, "")
    with pytest.raises(InvalidArgumentError):
        registry.set_flags({"first": 1, "last": "two"})
    assert (first.value, last.value) == (0, 0)


def test_set_flags_rejects_one_flag_spelled_twice(registry):
    flag = registry.define_int32("size", 0, "")
    with pytest.raises(InvalidArgumentError, match="'size' twice, as 'size' and as 'FLAGS_size'"):
        registry.set_flags({"size": 1, "FLAGS_size": 2})
    assert flag.value == 0


@pytest.mark.parametrize("mapping", [[("size", 1)], "size=1", None])
def test_set_flags_rejects_anything_but_a_mapping(registry, mapping):
    registry.define_int32("size", 0, "")
    with pytest.raises(InvalidArgumentError, match="set_flags takes a mapping"):
        registry.set_flags(mapping)


def test_a_flag_object_cannot_be_changed_directly(registry):
    flag = registry.define_int32("size", 0, "")
    with pytest.raises(PreconditionNotMetError, match=r"set_flags\(\{'size': \.\.\.\}\)"):
        flag.value = 5
    with pytest.raises(PreconditionNotMetError):
        del flag.value
    assert flag.value == 0


# The environment -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("helper", "default", "text", "value"),
    [
        ("define_bool", False, "YES", True),
        ("define_int32", 0, "-0x10", -16),
        ("define_uint64", 0, "18446744073709551615", 2**64 - 1),
        ("define_double", 0.0, "inf", math.inf),
        ("define_string", "", "a b", "a b"),
    ],
)
def test_the_environment_variable_gives_the_value_at_definition(
    registry, monkeypatch, helper, default, text, value
):
    monkeypatch.setenv("FLAGS_flag", text)
    flag = getattr(registry, helper)("flag", default, "")
    assert (flag.value, flag.default) == (value, default)


def test_an_unset_environment_variable_leaves_the_default(registry, monkeypatch):
    monkeypatch.delenv("FLAGS_flag", raising=False)
    assert registry.define_int32("flag", 7, "").value == 7


def test_a_malformed_environment_variable_is_an_error_naming_the_variable(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "big")
    with pytest.raises(InvalidArgumentError, match=r"FLAGS_size='big'.*int32.*'size'"):
        registry.define_int32("size", 1, "")
    assert registry.all_flags() == ()


def test_an_environment_value_out_of_range_is_an_error(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "4294967296")
    with pytest.raises(InvalidArgumentError, match="FLAGS_size.*out of range for uint32"):
        registry.define_uint32("size", 1, "")


def test_the_environment_is_read_only_at_definition(registry, monkeypatch):
    flag = registry.define_int32("size", 1, "")
    monkeypatch.setenv("FLAGS_size", "2")
    assert flag.value == 1


# Listeners -----------------------------------------------------------------------------------


def test_a_listener_hears_name_old_and_new_after_the_change(registry):
    registry.define_int32("size", 1, "")
    heard = []
    registry.add_listener(
        lambda name, old, new: heard.append((name, old, new, registry.flag_value(name)))
    )
    registry.set_flags({"FLAGS_size": 2})
    assert heard == [("size", 1, 2, 2)]


def test_a_listener_hears_each_changed_flag_once_and_not_unchanged_ones(registry):
    registry.define_int32("a", 1, "")
    registry.define_int32("b", 1, "")
    registry.define_int32("c", 1, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    registry.set_flags({"a": 2, "b": 1, "c": 3})
    assert heard == [("a", 1, 2), ("c", 1, 3)]


def test_nan_to_nan_is_no_change_but_zero_to_negative_zero_is(registry):
    registry.define_double("x", math.nan, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    registry.set_flags({"x": math.nan})
    registry.set_flags({"x": 0.0})
    registry.set_flags({"x": -0.0})
    assert [repr(new) for _name, _old, new in heard] == ["0.0", "-0.0"]


def test_a_listener_hears_nothing_of_a_rejected_change(registry):
    registry.define_int32("size", 1, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    with pytest.raises(InvalidArgumentError):
        registry.set_flags({"size": 2.0})
    assert heard == []


def test_listeners_run_in_the_order_they_were_added(registry):
    registry.define_int32("size", 1, "")
    heard = []
    registry.add_listener(lambda *change: heard.append("first"))
    registry.add_listener(lambda *change: heard.append("second"))
    registry.set_flags({"size": 2})
    assert heard == ["first", "second"]


def test_a_listener_runs_outside_the_lock_so_it_may_set_flags(registry):
    registry.define_int32("size", 1, "")
    registry.define_int32("double_size", 2, "")

    def follow(name, old, new):
        if name == "size":
            registry.set_flags({"double_size": 2 * new})

    registry.add_listener(follow)
    setter = threading.Thread(target=registry.set_flags, args=({"size": 5},), daemon=True)
    setter.start()
    setter.join(timeout=10)
    assert not setter.is_alive(), "set_flags deadlocked: the listener ran under the lock"
    assert registry.flag_value("double_size") == 10


def test_a_removed_listener_hears_nothing(registry):
    registry.define_int32("size", 1, "")
    heard = []
    listener = registry.add_listener(lambda *change: heard.append(change))
    registry.remove_listener(listener)
    registry.set_flags({"size": 2})
    assert heard == []


def test_adding_a_listener_twice_raises_already_exists(registry):
    listener = registry.add_listener(lambda *change: None)
    with pytest.raises(AlreadyExistsError):
        registry.add_listener(listener)


def test_removing_a_listener_never_added_raises_not_found(registry):
    with pytest.raises(NotFoundError):
        registry.remove_listener(lambda *change: None)


def test_a_listener_must_be_callable(registry):
    with pytest.raises(InvalidArgumentError, match="callable"):
        registry.add_listener("not callable")


def test_a_failing_listener_does_not_stop_the_others_and_its_error_is_raised(registry):
    flag = registry.define_int32("size", 1, "")
    heard = []

    def fail(name, old, new):
        raise RuntimeError("listener failed")

    registry.add_listener(fail)
    registry.add_listener(lambda *change: heard.append(change))
    with pytest.raises(RuntimeError, match="listener failed"):
        registry.set_flags({"size": 2})
    assert heard == [("size", 1, 2)]
    assert flag.value == 2


# flags_guard ---------------------------------------------------------------------------------


def test_flags_guard_sets_flags_inside_the_block_and_restores_them_after(registry):
    registry.define_int32("size", 1, "")
    registry.define_string("mode", "fast", "")
    with registry.flags_guard({"size": 2, "FLAGS_mode": "slow"}):
        assert registry.get_flags(["size", "mode"]) == {"FLAGS_size": 2, "FLAGS_mode": "slow"}
    assert registry.get_flags(["size", "mode"]) == {"FLAGS_size": 1, "FLAGS_mode": "fast"}


def test_flags_guard_restores_when_the_block_raises(registry):
    registry.define_int32("size", 1, "")
    with pytest.raises(KeyError):
        with registry.flags_guard({"size": 2}):
            raise KeyError("inside")
    assert registry.flag_value("size") == 1


def test_nested_flags_guards_restore_in_turn(registry):
    registry.define_int32("size", 1, "")
    with registry.flags_guard({"size": 2}):
        with registry.flags_guard({"size": 3}):
            assert registry.flag_value("size") == 3
        assert registry.flag_value("size") == 2
    assert registry.flag_value("size") == 1


def test_flags_guard_with_a_bad_entry_changes_nothing(registry):
    registry.define_int32("size", 1, "")
    with pytest.raises(NotFoundError):
        with registry.flags_guard({"size": 2, "nonexistent": 3}):
            pytest.fail("the block must not run")
    assert registry.flag_value("size") == 1


def test_flags_guard_restores_even_when_a_listener_fails_on_entry(registry):
    registry.define_int32("size", 1, "")

    def fail_on_two(name, old, new):
        if new == 2:
            raise RuntimeError("listener failed")

    registry.add_listener(fail_on_two)
    with pytest.raises(RuntimeError):
        with registry.flags_guard({"size": 2}):
            pytest.fail("the block must not run")
    assert registry.flag_value("size") == 1


def test_listeners_hear_flags_guard_set_and_restore(registry):
    registry.define_int32("size", 1, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    with registry.flags_guard({"size": 2}):
        pass
    assert heard == [("size", 1, 2), ("size", 2, 1)]


# compare_and_set_flag ------------------------------------------------------------------------


def test_compare_and_set_sets_when_the_value_is_the_expected_one(registry):
    registry.define_int64("counter", 5, "")
    assert registry.compare_and_set_flag("FLAGS_counter", 5, 6) is True
    assert registry.flag_value("counter") == 6


def test_compare_and_set_leaves_the_flag_when_the_value_differs(registry):
    registry.define_int64("counter", 5, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    assert registry.compare_and_set_flag("counter", 4, 6) is False
    assert registry.flag_value("counter") == 5
    assert heard == []


def test_compare_and_set_checks_the_new_value_like_set_flags(registry):
    registry.define_int32("counter", 5, "")
    with pytest.raises(InvalidArgumentError, match="out of range"):
        registry.compare_and_set_flag("counter", 5, 2**31)


def test_compare_and_set_treats_nan_as_equal_to_nan(registry):
    registry.define_double("x", math.nan, "")
    assert registry.compare_and_set_flag("x", math.nan, 1.0) is True


def test_compare_and_set_notifies_listeners(registry):
    registry.define_int64("counter", 5, "")
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    registry.compare_and_set_flag("counter", 5, 6)
    assert heard == [("counter", 5, 6)]


# The module-level functions ------------------------------------------------------------------


def test_module_level_functions_use_the_default_registry():
    name = f"test_flags_{uuid.uuid4().hex}"
    line = next_line()
    flag = phiops.runtime.flags.define_int32(name, 1, "help")
    phiops.runtime.flags.set_flags({f"FLAGS_{name}": 2})
    assert phiops.runtime.flags.get_flags(name) == {f"FLAGS_{name}": 2}
    assert phiops.runtime.flags.flag_value(name) == 2
    assert flag in phiops.runtime.flags.DEFAULT_REGISTRY.all_flags()
    assert flag.location == Location(__file__, line)
