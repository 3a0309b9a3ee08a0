"""Test-wide setup: tests marked ``gpu`` run only where CuPy sees a GPU; a message a test sent
on the one-process communication ring and did not receive is dropped after it (p_send in the
registry-wide tests would otherwise reach the next p_recv of the same worker); FLAGS_check_nan_inf,
which the enable/disable_check_model_nan_inf ops (and their gradients) set as PaddlePaddle's do,
is put back after each test, so that the registry-wide tests calling them leave it as it was."""

from __future__ import annotations

import pytest

from phiops.runtime import flags, runtime_flags  # noqa: F401 (runtime_flags defines check_nan_inf)
from phiops.runtime.comm import COMM_CONTEXTS
from phiops.runtime.comm.local import LocalCommContext
from phiops.runtime.device import gpu_available


@pytest.fixture(autouse=True)
def _no_message_or_nan_check_outlives_its_test():
    check_nan_inf = flags.flag_value("check_nan_inf")
    yield
    for context in list(COMM_CONTEXTS._contexts.values()):
        if isinstance(context, LocalCommContext):
            context.drop_unreceived()
    if flags.flag_value("check_nan_inf") != check_nan_inf:
        flags.set_flags({"check_nan_inf": check_nan_inf})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and CuPy (pip install -e '.[gpu]')")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
