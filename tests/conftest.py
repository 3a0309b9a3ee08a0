"""Test-wide setup: tests marked ``gpu`` run only where CuPy sees a GPU; a message a test sent
on the one-process communication ring and did not receive is dropped after it (p_send in the
registry-wide tests would otherwise reach the next p_recv of the same worker)."""

from __future__ import annotations

import pytest

from phiops.runtime.comm import COMM_CONTEXTS
from phiops.runtime.comm.local import LocalCommContext
from phiops.runtime.device import gpu_available


@pytest.fixture(autouse=True)
def _no_message_outlives_its_test():
    yield
    for context in list(COMM_CONTEXTS._contexts.values()):
        if isinstance(context, LocalCommContext):
            context.drop_unreceived()


# Files whose tests take seconds each (a wheel build, MPI jobs, codegen fuzzing): run first, so
# that under pytest-xdist the long ones start while the other workers have work left, not at the
# end with the other workers idle (the wheel build alone takes about two minutes).
SLOW_FIRST = (
    "tests/test_build.py",
    "tests/distributed/",
    "tests/codegen/test_spec_fuzz.py",
    "tests/extending/test_custom_op_codegen.py",
    "tests/codegen/test_hostile_specs.py",
    "tests/test_tutorials.py",
    "tests/test_examples.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(SLOW_FIRST))  # stable: order kept
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and CuPy (pip install -e '.[gpu]')")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
