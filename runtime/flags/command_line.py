"""Setting flags from a command line, as gflags' ParseCommandLineFlags does.

Each flag item starts with one or two dashes:

- ``--name=value`` or ``--name value``: any flag. An item is already one shell word, so a value
  may contain spaces; a value after ``=`` wrapped in one pair of matching quotes
  (``--name="a b"``, the quotes inside the item) loses that pair.
- ``--name`` and ``--noname``: a bool flag, set true or false; ``--name=false`` works too.
- ``--``: the flags end; every later item is an argument.
- ``--help`` / ``--helpfull``: print the flags defined in the calling module / all flags,
  each with type, default, current value and help, then exit 0.
- ``--fromenv=a,b`` / ``--tryfromenv=a,b``: set flags a and b from FLAGS_a and FLAGS_b;
  fromenv requires each variable to be set, tryfromenv skips those that are not.

Anything else (``-`` alone, items not starting with a dash) is an argument. All the problems of
one command line are reported together, and nothing is set unless there are none.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import TYPE_CHECKING

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.flags.listing import format_help_entries
from phiops.runtime.flags.location import caller_location
from phiops.runtime.flags.values import ENV_PREFIX, FlagType, FlagValue

if TYPE_CHECKING:
    from phiops.runtime.flags.registry import Flag, FlagRegistry

__all__ = ["RESERVED_NAMES", "parse_command_line_flags"]

RESERVED_NAMES = frozenset({"help", "helpfull", "fromenv", "tryfromenv"})
"""Command-line options of their own, which no flag may be named."""


def parse_command_line_flags(
    registry: FlagRegistry,
    argv: Sequence[str],
    *,
    remove_flags: bool = True,
    allow_undefined: bool = False,
) -> list[str]:
    """Set `registry`'s flags from `argv`, whose first item is the program name.

    Returns argv[0] followed by the items that are not flags (and those after ``--``), or
    with remove_flags=False a copy of argv. An unknown flag is an error that suggests the
    closest name, unless allow_undefined, which leaves it among the returned items.
    """
    caller_file = caller_location().file
    if isinstance(argv, str) or not isinstance(argv, Sequence) or not argv:
        raise InvalidArgumentError(
            f"argv must be a non-empty list of str starting with the program name, got {argv!r}"
        )
    not_text = [item for item in argv if not isinstance(item, str)]
    if not_text:
        raise InvalidArgumentError(f"argv items must be str, got {not_text!r} in {argv!r}")
    flags = registry.all_flags()
    command_line = _CommandLine({flag.name: flag for flag in flags}, allow_undefined)
    command_line.read(argv[1:])
    if command_line.errors:
        count = len(command_line.errors)
        raise InvalidArgumentError(
            f"the command line has {count} error{'s' if count > 1 else ''}:\n"
            + "\n".join(f"  {error}" for error in command_line.errors)
        )
    if command_line.help_request is not None:
        print(_help_text(command_line.help_request, flags, caller_file), end="")
        raise SystemExit(0)
    registry.set_flags(command_line.values)
    return [argv[0], *command_line.arguments] if remove_flags else list(argv)


class _CommandLine:
    """What one pass over the items found: flag values, arguments, errors, a help request."""

    def __init__(self, flags: Mapping[str, Flag], allow_undefined: bool) -> None:
        self.flags = flags
        self.allow_undefined = allow_undefined
        self.values: dict[str, FlagValue] = {}
        self.arguments: list[str] = []
        self.errors: list[str] = []
        self.help_request: str | None = None

    def read(self, items: Sequence[str]) -> None:
        index = 0
        while index < len(items):
            item = items[index]
            index += 1
            if item == "--":
                self.arguments.extend(items[index:])
                return
            if item == "-" or not item.startswith("-"):
                self.arguments.append(item)
                continue
            body = item[2:] if item.startswith("--") else item[1:]
            name, equals, text = body.partition("=")
            index = self._read_flag(item, name, _unquote(text) if equals else None, items, index)

    def _read_flag(
        self, item: str, name: str, value: str | None, items: Sequence[str], index: int
    ) -> int:
        """Take in one flag item, and its value from the next item if it needs one.

        Returns the index of the next item to read.
        """
        if name in ("help", "helpfull"):
            if value is not None:
                self.errors.append(f"{item}: --{name} takes no value")
            elif self.help_request != "helpfull":
                self.help_request = name
            return index
        flag = self.flags.get(name)
        if flag is None and name not in RESERVED_NAMES:
            self._read_unknown(item, name, value)
            return index
        if value is None and flag is not None and flag.type is FlagType.BOOL:
            self.values[flag.name] = True
            return index
        if value is None:
            if index == len(items):
                self.errors.append(f"{item}: missing its value (write --{name}=VALUE)")
                return index
            value = items[index]
            index += 1
        if flag is None:
            self._read_environment(item, value, required=name == "fromenv")
        else:
            self._parse(item, flag, value)
        return index

    def _read_unknown(self, item: str, name: str, value: str | None) -> None:
        negated = self.flags.get(name[2:]) if name.startswith("no") else None
        if negated is not None and negated.type is not FlagType.BOOL:
            self.errors.append(
                f"{item}: only bool flags can be negated, and --{negated.name} is "
                f"{negated.type.value}"
            )
        elif negated is not None and value is not None:
            self.errors.append(
                f"{item}: --{name} takes no value; write --{negated.name}=true or "
                f"--{negated.name}=false"
            )
        elif negated is not None:
            self.values[negated.name] = False
        elif self.allow_undefined:
            self.arguments.append(item)
        else:
            self.errors.append(f"{item}: {self._unknown_message(name)}")

    def _read_environment(self, item: str, names: str, *, required: bool) -> None:
        for name in names.split(","):
            flag = self.flags.get(name)
            if flag is None:
                self.errors.append(f"{item}: {self._unknown_message(name)}")
                continue
            variable = ENV_PREFIX + name
            text = os.environ.get(variable)
            if text is not None:
                self._parse(f"{item}: environment variable {variable}", flag, text)
            elif required:
                self.errors.append(f"{item}: environment variable {variable} is not set")

    def _parse(self, where: str, flag: Flag, text: str) -> None:
        try:
            self.values[flag.name] = flag.type.parse(text)
        except InvalidArgumentError as error:
            self.errors.append(f"{where}: {error}")

    def _unknown_message(self, name: str) -> str:
        candidates = [
            *self.flags,
            *(f"no{flag.name}" for flag in self.flags.values() if flag.type is FlagType.BOOL),
            *RESERVED_NAMES,
        ]
        close = difflib.get_close_matches(name, candidates, n=1)
        hint = f"; did you mean --{close[0]}?" if close else " (--helpfull lists every flag)"
        return f"no flag named {name!r} is defined{hint}"


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _help_text(request: str, flags: Sequence[Flag], caller_file: str) -> str:
    if request == "help":
        own = [flag for flag in flags if flag.location.file == caller_file]
        if not own:
            return (
                f"No flags are defined in {caller_file}; --helpfull lists all "
                f"{len(flags)} flags.\n"
            )
        return f"Flags defined in {caller_file}:\n{format_help_entries(own)}"
    if not flags:
        return "No flags are defined.\n"
    by_file = sorted(flags, key=lambda flag: (flag.location.file, flag.name))
    return "\n".join(
        f"Flags defined in {file}:\n{format_help_entries(list(group))}"
        for file, group in groupby(by_file, key=lambda flag: flag.location.file)
    )
