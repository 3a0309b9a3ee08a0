"""The example op package's tests run against the installed package (`make test` installs it
with `pip install --no-deps --no-build-isolation ./examples/custom_op`)."""

from __future__ import annotations

import importlib.util

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if importlib.util.find_spec("phiops_custom_op_example") is None:
        skip = pytest.mark.skip(
            reason="phiops_custom_op_example is not installed: run `make test`, or "
            "`pip install --no-deps --no-build-isolation ./examples/custom_op`"
        )
        for item in items:
            if "custom_op" in str(item.fspath):
                item.add_marker(skip)
