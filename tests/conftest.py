"""Test-wide setup: tests marked ``gpu`` run only where CuPy sees a GPU."""

from __future__ import annotations

import pytest

from phiops.runtime.device import gpu_available


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and CuPy (pip install -e '.[gpu]')")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
