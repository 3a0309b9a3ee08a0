"""Property: any mutation of a fixture's tokens gives a program or an IRParseError, never another
exception, and never takes a second."""

from __future__ import annotations

import re
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import phiops.generated as phi
from tests.ir.fixtures import TEXTS

PIECE = re.compile(r'\s+|"[^"\n]*"|[A-Za-z0-9_.%<>-]+|.', re.S)
SOURCES = [PIECE.findall(p.read_text(encoding="utf-8")) for p in TEXTS]
JUNK = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "->",
    "^",
    '"',
    "%",
    "<<NULL VALUE>>",
    "<<NULL TYPE>>",
    "vec[",
    "tensor<",
    "-1x",
    "1e+999",
    "nan",
    "\n",
    "%999",
    "pd_op.if",
    '"pd_op.while"',
    "Place(",
    "\\",
]


@st.composite
def mutated(draw) -> tuple[str, bool]:
    pieces = list(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(pieces) - 1))
        action = draw(st.sampled_from(["truncate", "delete", "duplicate", "replace", "swap"]))
        if action == "truncate":
            pieces = pieces[:i]
            if not pieces:
                break
        elif action == "delete":
            del pieces[i]
        elif action == "duplicate":
            pieces.insert(i, pieces[i])
        elif action == "replace":
            pieces[i] = draw(st.one_of(st.sampled_from(JUNK), st.sampled_from(pieces)))
        else:
            j = draw(st.integers(0, len(pieces) - 1))
            pieces[i], pieces[j] = pieces[j], pieces[i]
        if not pieces:
            break
    return "".join(pieces), draw(st.booleans())


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_fixtures_give_only_parse_errors_quickly(case: tuple[str, bool]) -> None:
    text, allow_unregistered = case
    start = time.perf_counter()
    try:
        phi.ir.parse_program(text, "mutant", allow_unregistered=allow_unregistered)
    except phi.ir.IRParseError:
        pass
    assert time.perf_counter() - start < 1.0
