"""Run a worker script on several MPI ranks, with a timeout that kills every process started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKERS = Path(__file__).resolve().parent / "workers"


def mpiexec() -> str:
    """The mpiexec of the distributed extra (beside this Python); the tests skip without it."""
    pytest.importorskip("mpi4py", reason="the distributed extra (mpi4py) is not installed")
    path = Path(sys.executable).parent / "mpiexec"
    if not path.exists():
        pytest.skip("no mpiexec beside this Python (install phiops[distributed])")
    return str(path)


def run_ranks(
    worker: str,
    ranks: int,
    *args: str,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    launcher: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``mpiexec -n ranks python workers/<worker> args...`` (or ``launcher + [worker, args]``;
    ``worker`` may be an absolute path);
    its output, with the whole process group killed if it outlives ``timeout``."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [environment.get("PYTHONPATH")])]
    )
    environment.setdefault("PHIOPS_COMM_TIMEOUT", "60")
    environment.update(env or {})
    script = worker if os.path.isabs(worker) else str(WORKERS / worker)
    if launcher is None:
        command = [mpiexec(), "-disable-auto-cleanup", "-n", str(ranks), sys.executable, script]
    else:
        command = [*launcher, script]
    process = subprocess.Popen(
        [*command, *args],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        raise AssertionError(f"{worker} on {ranks} ranks ran past {timeout} s:\n{output}")
    return subprocess.CompletedProcess(command, process.returncode, output, "")
