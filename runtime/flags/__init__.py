"""Typed process-wide flags, as PaddlePaddle's FLAGS_* and gflags provide them.

A flag has a name, one of seven types (`FlagType`), a default, help text, and the file:line that
defined it. Its value comes from the default, or from the environment variable FLAGS_<name> when
that is set at definition, and later from set_flags, flags_guard or the command line.

The functions below are the methods of `DEFAULT_REGISTRY`, the registry the runtime and user code
share. ``phiops flags`` lists every flag the runtime defines.
"""

from __future__ import annotations

from phiops.runtime.flags.location import Location
from phiops.runtime.flags.registry import Flag, FlagRegistry, Listener
from phiops.runtime.flags.values import ENV_PREFIX, FlagType, FlagValue

__all__ = [
    "DEFAULT_REGISTRY",
    "ENV_PREFIX",
    "Flag",
    "FlagRegistry",
    "FlagType",
    "FlagValue",
    "Listener",
    "Location",
    "add_listener",
    "all_flags",
    "compare_and_set_flag",
    "define_bool",
    "define_double",
    "define_flag",
    "define_int32",
    "define_int64",
    "define_string",
    "define_uint32",
    "define_uint64",
    "flag_value",
    "flags_guard",
    "get_flags",
    "parse_command_line_flags",
    "remove_listener",
    "set_flags",
]

DEFAULT_REGISTRY = FlagRegistry()
"""The registry behind this module's functions."""

define_flag = DEFAULT_REGISTRY.define_flag
define_bool = DEFAULT_REGISTRY.define_bool
define_int32 = DEFAULT_REGISTRY.define_int32
define_uint32 = DEFAULT_REGISTRY.define_uint32
define_int64 = DEFAULT_REGISTRY.define_int64
define_uint64 = DEFAULT_REGISTRY.define_uint64
define_double = DEFAULT_REGISTRY.define_double
define_string = DEFAULT_REGISTRY.define_string
flag_value = DEFAULT_REGISTRY.flag_value
get_flags = DEFAULT_REGISTRY.get_flags
all_flags = DEFAULT_REGISTRY.all_flags
set_flags = DEFAULT_REGISTRY.set_flags
compare_and_set_flag = DEFAULT_REGISTRY.compare_and_set_flag
flags_guard = DEFAULT_REGISTRY.flags_guard
parse_command_line_flags = DEFAULT_REGISTRY.parse_command_line_flags
add_listener = DEFAULT_REGISTRY.add_listener
remove_listener = DEFAULT_REGISTRY.remove_listener
