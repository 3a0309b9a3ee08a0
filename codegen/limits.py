"""Limits on what a spec file may ask of the generator, so that hostile or broken input ends in a
located error instead of a hang, a memory blow-up or a crash.  Each message names its constant.

PaddlePaddle's own files stay far below every limit: their largest file has about 300 KB and
12,000 YAML nodes, entries nest 4 levels deep, values 3 brackets deep, numbers have at most 20
digits.
"""

from __future__ import annotations

__all__ = [
    "MAX_SPEC_FILE_BYTES",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "MAX_NUMBER_DIGITS",
    "MAX_BRACKET_DEPTH",
    "MAX_CONSTANT_BITS",
]

# Bytes of one spec file.
MAX_SPEC_FILE_BYTES = 16 * 1024 * 1024
# Nesting of YAML mappings and lists (an op entry needs 4: list > entry > kernel > param).
MAX_YAML_DEPTH = 64
# Nodes a YAML document may expand to, each alias counting as the nodes it stands for: a
# "billion laughs" bomb expands exponentially.  Composing costs a few microseconds a node, so
# this also bounds the time any one file can take (about a second), whatever its size.
MAX_YAML_NODES = 200_000
# Digits of one number, in YAML or in a spec string (an int64 has 19).
MAX_NUMBER_DIGITS = 400
# Nesting of (), [] and {} inside one spec string such as a default or a size expression, and
# of unary operators (`- - - 1`) in a constant expression.
MAX_BRACKET_DEPTH = 32
# Bits of an integer a constant expression may compute on the way (`1 << 99999999999`).
MAX_CONSTANT_BITS = 1024
