"""Writes tests/data/parity_kernels.json: which phiops kernels the parity tests run, that is, which
ops (forward and backward) have a case compared with PaddlePaddle 3.3.1.

It runs the parity tests (tests/parity/ and every tests/**/test_*_paddle.py) in the side venv, where
PaddlePaddle is installed, with every registered kernel wrapped to note that it ran; a kernel
counts for a test only when the test passed. tests/ops/test_parity_coverage.py then fails for an
op whose kernel no parity test runs (unless it lists the op with its reason), so a new op
needs a parity case, and the record is rewritten with it:

    PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/record_parity_kernels.py
"""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "data" / "parity_kernels.json"


class KernelRecorder:
    """A pytest plugin: wraps every kernel, and counts per kernel the passing tests that ran it."""

    def __init__(self) -> None:
        self.current: set[str] = set()
        self.passed: Counter[str] = Counter()
        self.tests = 0

    def pytest_configure(self, config: Any) -> None:
        import phiops.generated  # noqa: F401  (registers every kernel)
        from phiops.runtime.kernels import KERNEL_FACTORY

        from phiops.runtime.dispatch.dispatcher import clear_dispatch_caches

        for name, per_key in KERNEL_FACTORY.kernels.items():
            for kernel in per_key.values():
                kernel.fn = self._wrap(name, kernel.fn)
        # plans made before this (tests/conftest.py runs ops) hold the unwrapped functions
        clear_dispatch_caches()

    def _wrap(self, name: str, fn: Any) -> Any:
        current = self.current

        @functools.wraps(fn)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            current.add(name)
            return fn(*args, **kwargs)

        # dispatch calls xp's ufunc itself for a kernel marked with one (add, multiply, ...),
        # which would bypass the recording
        recorded.__dict__.pop("xp_ufunc", None)
        return recorded

    def pytest_runtest_setup(self, item: Any) -> None:
        self.current.clear()

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.tests += 1
            self.passed.update(self.current)


def main() -> int:
    import paddle

    assert paddle.__version__ == "3.3.1", paddle.__version__
    files = sorted(
        str(path.relative_to(REPO))
        for path in [*(REPO / "tests" / "parity").glob("test_*.py"), *REPO.glob("tests/**/test_*_paddle.py")]
    )
    recorder = KernelRecorder()
    status = pytest.main(["-q", "-p", "no:cacheprovider", *files], plugins=[recorder])
    if recorder.tests == 0:
        print("no parity test passed: is PaddlePaddle importable here?", file=sys.stderr)
        return 1
    OUT.write_text(
        "{\n"
        + ",\n".join(f"{json.dumps(k)}: {n}" for k, n in sorted(recorder.passed.items()))
        + "\n}\n"
    )
    print(f"{len(recorder.passed)} kernels ran in {recorder.tests} passing parity tests -> {OUT}")
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
