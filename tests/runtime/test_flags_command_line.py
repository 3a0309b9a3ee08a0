"""Setting flags from a gflags-style command line."""

from __future__ import annotations

import pytest

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.flags import FlagRegistry


@pytest.fixture
def registry() -> FlagRegistry:
    registry = FlagRegistry()
    registry.define_int32("size", 1, "How many.")
    registry.define_string("name", "default", "What to call it.")
    registry.define_bool("verbose", False, "Talk more.")
    registry.define_double("ratio", 0.5, "How much.")
    return registry


def define_elsewhere(registry: FlagRegistry, source: str) -> None:
    """Run define_* calls as if they were in another module, other_module.py."""
    exec(compile(source, "other_module.py", "exec"), {"registry": registry})


# Spellings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "items",
    [["--size=7"], ["--size", "7"], ["-size=7"], ["-size", "7"], ["--size=0x7"]],
)
def test_a_flag_takes_its_value_after_equals_or_as_the_next_item(registry, items):
    registry.parse_command_line_flags(["prog", *items])
    assert registry.flag_value("size") == 7


@pytest.mark.parametrize("items", [["--name=a b"], ["--name", "a b"]])
def test_a_value_may_contain_spaces(registry, items):
    registry.parse_command_line_flags(["prog", *items])
    assert registry.flag_value("name") == "a b"


@pytest.mark.parametrize(
    ("item", "value"),
    [
        ('--name="a b"', "a b"),
        ("--name='a b'", "a b"),
        ('--name=""', ""),
        ('--name=""a b""', '"a b"'),
        ("--name=\"a b'", "\"a b'"),
        ('--name="', '"'),
    ],
)
def test_one_pair_of_matching_quotes_inside_the_item_is_stripped(registry, item, value):
    registry.parse_command_line_flags(["prog", item])
    assert registry.flag_value("name") == value


def test_quotes_stay_on_a_value_given_as_the_next_item(registry):
    registry.parse_command_line_flags(["prog", "--name", '"quoted"'])
    assert registry.flag_value("name") == '"quoted"'


def test_a_quoted_value_is_unquoted_before_it_is_parsed(registry):
    registry.parse_command_line_flags(["prog", '--size="12"'])
    assert registry.flag_value("size") == 12


def test_a_value_starting_with_a_dash_is_taken_as_the_next_item(registry):
    registry.parse_command_line_flags(["prog", "--ratio", "-2.5"])
    assert registry.flag_value("ratio") == -2.5


@pytest.mark.parametrize(
    ("items", "value"),
    [
        (["--verbose"], True),
        (["-verbose"], True),
        (["--verbose=false"], False),
        (["--verbose=YES"], True),
        (["--verbose", "--noverbose"], False),
        (["--noverbose"], False),
    ],
)
def test_a_bool_flag_is_set_by_name_negated_by_no_or_given_a_value(registry, items, value):
    registry.set_flags({"verbose": not value})
    registry.parse_command_line_flags(["prog", *items])
    assert registry.flag_value("verbose") is value


def test_a_bool_flag_does_not_take_the_next_item_as_its_value(registry):
    remaining = registry.parse_command_line_flags(["prog", "--verbose", "false"])
    assert registry.flag_value("verbose") is True
    assert remaining == ["prog", "false"]


def test_the_last_of_several_settings_of_one_flag_wins(registry):
    registry.parse_command_line_flags(["prog", "--size=2", "--size", "3"])
    assert registry.flag_value("size") == 3


# What comes back -----------------------------------------------------------------------------


def test_the_program_name_and_the_arguments_come_back_in_order(registry):
    remaining = registry.parse_command_line_flags(
        ["prog", "a", "--size=2", "-", "b", "--verbose", "c"]
    )
    assert remaining == ["prog", "a", "-", "b", "c"]


def test_double_dash_ends_the_flags(registry):
    remaining = registry.parse_command_line_flags(["prog", "--size=2", "--", "--size=3", "x"])
    assert remaining == ["prog", "--size=3", "x"]
    assert registry.flag_value("size") == 2


def test_without_remove_flags_argv_comes_back_unchanged_and_flags_are_set(registry):
    argv = ["prog", "a", "--size=2", "--", "--verbose"]
    remaining = registry.parse_command_line_flags(argv, remove_flags=False)
    assert remaining == ["prog", "a", "--size=2", "--", "--verbose"]
    assert remaining is not argv
    assert registry.flag_value("size") == 2


def test_the_argv_list_itself_is_not_changed(registry):
    argv = ["prog", "--size=2", "a"]
    registry.parse_command_line_flags(argv)
    assert argv == ["prog", "--size=2", "a"]


@pytest.mark.parametrize("argv", [[], "prog --size=2", None, ["prog", 3]])
def test_argv_must_be_a_list_of_str_starting_with_the_program_name(registry, argv):
    with pytest.raises(InvalidArgumentError, match="argv"):
        registry.parse_command_line_flags(argv)


# Errors --------------------------------------------------------------------------------------


def test_an_unknown_flag_is_an_error_suggesting_the_closest_name(registry):
    with pytest.raises(
        InvalidArgumentError, match="--sise=2: no flag named 'sise'.*did you mean --size"
    ):
        registry.parse_command_line_flags(["prog", "--sise=2"])


def test_a_misspelled_negation_suggests_the_negated_name(registry):
    with pytest.raises(InvalidArgumentError, match="did you mean --noverbose"):
        registry.parse_command_line_flags(["prog", "--noverbos"])


def test_with_allow_undefined_an_unknown_flag_stays_among_the_arguments(registry):
    remaining = registry.parse_command_line_flags(
        ["prog", "a", "--unknown=1", "--size=2", "-x", "b"], allow_undefined=True
    )
    assert remaining == ["prog", "a", "--unknown=1", "-x", "b"]
    assert registry.flag_value("size") == 2


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("--size=big", "--size=big: 'big' is not a valid int32"),
        ("--size=2147483648", "'2147483648' is out of range for int32"),
        ("--verbose=maybe", "'maybe' is not a bool"),
        ("--noverbose=true", "--noverbose takes no value; write --verbose=true or --verbose=false"),
        ("--nosize", "only bool flags can be negated, and --size is int32"),
        ("--help=yes", "--help takes no value"),
        ("--ratio", "--ratio: missing its value"),
    ],
)
def test_a_bad_item_is_an_error_saying_what_is_wrong(registry, item, message):
    with pytest.raises(InvalidArgumentError) as raised:
        registry.parse_command_line_flags(["prog", item])
    assert message in str(raised.value)


def test_every_error_is_reported_at_once_one_line_each_and_nothing_is_set(registry):
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    with pytest.raises(InvalidArgumentError) as raised:
        registry.parse_command_line_flags(
            ["prog", "--name=set", "--sise=2", "--ratio=half", "--verbose=maybe"]
        )
    lines = str(raised.value).splitlines()
    assert lines[0] == "the command line has 3 errors:"
    assert [line.split(":")[0] for line in lines[1:]] == [
        "  --sise=2",
        "  --ratio=half",
        "  --verbose=maybe",
    ]
    assert registry.flag_value("name") == "default"
    assert heard == []


# --help and --helpfull -----------------------------------------------------------------------


def test_help_prints_the_calling_modules_flags_and_exits_zero(registry, capsys):
    define_elsewhere(registry, "registry.define_int32('elsewhere', 3, 'Not from the test.')")
    registry.set_flags({"size": 4})
    with pytest.raises(SystemExit) as raised:
        registry.parse_command_line_flags(["prog", "--help"])
    assert raised.value.code == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"Flags defined in {__file__}:\n")
    assert "  --size (int32)  default: 1  current: 4\n      How many.\n" in printed
    assert '  --name (string)  default: "default"  current: "default"\n' in printed
    assert "--verbose (bool)" in printed and "--ratio (double)" in printed
    assert "elsewhere" not in printed


def test_helpfull_prints_every_flag_grouped_by_file_and_exits_zero(registry, capsys):
    define_elsewhere(registry, "registry.define_int32('elsewhere', 3, 'Not from the test.')")
    with pytest.raises(SystemExit) as raised:
        registry.parse_command_line_flags(["prog", "--size=2", "-helpfull"])
    assert raised.value.code == 0
    printed = capsys.readouterr().out
    assert (
        "Flags defined in other_module.py:\n  --elsewhere (int32)  default: 3  current: 3\n"
        in printed
    )
    assert f"Flags defined in {__file__}:\n" in printed
    assert "--size (int32)  default: 1  current: 1" in printed


def test_help_with_no_flags_in_the_calling_module_points_to_helpfull(capsys):
    registry = FlagRegistry()
    define_elsewhere(registry, "registry.define_int32('elsewhere', 3, '')")
    with pytest.raises(SystemExit):
        registry.parse_command_line_flags(["prog", "--help"])
    assert (
        capsys.readouterr().out
        == f"No flags are defined in {__file__}; --helpfull lists all 1 flags.\n"
    )


def test_help_sets_none_of_the_other_flags_on_the_line(registry, capsys):
    with pytest.raises(SystemExit):
        registry.parse_command_line_flags(["prog", "--size=9", "--help"])
    assert registry.flag_value("size") == 1


def test_errors_are_reported_before_help(registry, capsys):
    with pytest.raises(InvalidArgumentError, match="sise"):
        registry.parse_command_line_flags(["prog", "--help", "--sise=9"])
    assert capsys.readouterr().out == ""


# --fromenv and --tryfromenv ------------------------------------------------------------------


@pytest.mark.parametrize("items", [["--fromenv=size,name"], ["--fromenv", "size,name"]])
def test_fromenv_sets_the_named_flags_from_their_variables(registry, monkeypatch, items):
    monkeypatch.setenv("FLAGS_size", "0x20")
    monkeypatch.setenv("FLAGS_name", "from env")
    registry.parse_command_line_flags(["prog", *items])
    assert registry.get_flags(["size", "name"]) == {"FLAGS_size": 32, "FLAGS_name": "from env"}


def test_fromenv_requires_every_variable_and_sets_nothing_without_one(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "5")
    monkeypatch.delenv("FLAGS_name", raising=False)
    with pytest.raises(
        InvalidArgumentError,
        match="--fromenv=size,name: environment variable FLAGS_name is not set",
    ):
        registry.parse_command_line_flags(["prog", "--fromenv=size,name"])
    assert registry.flag_value("size") == 1


def test_tryfromenv_skips_unset_variables(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "5")
    monkeypatch.delenv("FLAGS_name", raising=False)
    registry.parse_command_line_flags(["prog", "--tryfromenv=size,name"])
    assert registry.get_flags(["size", "name"]) == {"FLAGS_size": 5, "FLAGS_name": "default"}


@pytest.mark.parametrize("option", ["fromenv", "tryfromenv"])
def test_fromenv_and_tryfromenv_reject_an_unknown_flag(registry, option):
    with pytest.raises(
        InvalidArgumentError, match=f"--{option}=sise: no flag named 'sise'.*did you mean --size"
    ):
        registry.parse_command_line_flags(["prog", f"--{option}=sise"])


def test_fromenv_names_a_malformed_variable(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "five")
    with pytest.raises(
        InvalidArgumentError, match="environment variable FLAGS_size: 'five' is not a valid int32"
    ):
        registry.parse_command_line_flags(["prog", "--tryfromenv=size"])


def test_a_later_item_overrides_fromenv(registry, monkeypatch):
    monkeypatch.setenv("FLAGS_size", "5")
    registry.parse_command_line_flags(["prog", "--fromenv=size", "--size=6"])
    assert registry.flag_value("size") == 6


# Listeners -----------------------------------------------------------------------------------


def test_listeners_hear_the_changes_a_command_line_makes(registry):
    heard = []
    registry.add_listener(lambda *change: heard.append(change))
    registry.parse_command_line_flags(["prog", "--size=2", "--verbose"])
    assert sorted(heard) == [("size", 1, 2), ("verbose", False, True)]
