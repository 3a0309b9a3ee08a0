"""Static-mode tests build programs: each runs with phi.enable_static() and leaves eager mode on."""

from __future__ import annotations

from typing import Iterator

import pytest

import phiops.generated as phi


@pytest.fixture(autouse=True)
def static_mode() -> Iterator[None]:
    phi.enable_static()
    try:
        yield
    finally:
        phi.disable_static()


@pytest.fixture
def programs() -> Iterator[tuple[phi.static.Program, phi.static.Program]]:
    """A fresh (main, startup) pair, built into inside the test, unique names counted from 0."""
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
        yield main, startup
