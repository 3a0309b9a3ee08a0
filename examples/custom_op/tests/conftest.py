"""The example op package's tests run against the installed package (`make test` installs it
with `pip install --no-deps --no-build-isolation ./examples/custom_op`); they are skipped when
it is not installed.

The package is imported by the ``ops`` fixture, not while pytest collects: importing it
registers its ops, and phiops's own suite, which runs first in the same pytest process
(pyproject.toml's testpaths), checks that its registry holds exactly phiops's ops."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ops():
    """The example package, imported when the first test that needs it runs."""
    return pytest.importorskip(
        "phiops_custom_op_example",
        reason="phiops_custom_op_example is not installed: run `make test`, or "
        "`pip install --no-deps --no-build-isolation ./examples/custom_op`",
    )
