"""``phiops launch`` (``python -m phiops.distributed.launch``): start a training script once per
rank through the MPI runtime's own launcher.

``phiops launch --nproc_per_node 2 train.py --lr 0.1`` runs ``mpiexec -n 2 <python> train.py
--lr 0.1``, with the ``mpiexec`` installed beside this Python (MPICH's wheel brings it) or else
the one on PATH. ``--hostfile`` (one host per line) or ``--ips host1,host2`` spreads
``nproc_per_node`` ranks over each host. With MPICH's launcher (Hydra) the other ranks are not
killed the moment one fails (``-disable-auto-cleanup``): they stop with an error naming the rank
that failed (runtime/comm/mpi.py). The script may equally be started by ``mpiexec``/``mpirun``
directly; ``init_parallel_env`` then finds its rank the same way.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError

__all__ = ["find_mpiexec", "launch_command", "main", "launch"]


def find_mpiexec() -> str:
    """The mpiexec beside this Python (the distributed extra installs it), else PATH's."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpiexec") or shutil.which("mpirun")
    if found is None:
        raise PreconditionNotMetError(
            "phiops launch: no mpiexec found beside this Python or on PATH; install "
            "'phiops[distributed]' (MPICH's wheel brings mpiexec) or an MPI library"
        )
    return found


def _is_hydra(mpiexec: str) -> bool:
    try:
        shown = subprocess.run(
            [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "HYDRA" in (shown.stdout + shown.stderr).upper()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phiops launch",
        description="Run a training script on several processes through MPI (one per rank).",
    )
    parser.add_argument("--nproc_per_node", type=int, default=1, help="ranks per host (default 1)")
    parser.add_argument("--hostfile", default=None, help="a file of host names, one per line")
    parser.add_argument("--ips", default=None, help="comma-separated host names")
    parser.add_argument("--mpiexec", default=None, help="the MPI launcher to use")
    parser.add_argument("training_script", help="the script to run on every rank")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return parser


def _hosts(hostfile: str | None, ips: str | None) -> list[str]:
    if hostfile and ips:
        raise InvalidArgumentError("phiops launch: give --hostfile or --ips, not both")
    if hostfile:
        try:
            lines = Path(hostfile).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise InvalidArgumentError(
                f"phiops launch: cannot read --hostfile {hostfile!r}: {error.strerror}"
            ) from None
        hosts = [line.split("#")[0].split()[0] for line in lines if line.split("#")[0].strip()]
        if not hosts:
            raise InvalidArgumentError(f"phiops launch: --hostfile {hostfile!r} names no host")
        return hosts
    if ips:
        return [host.strip() for host in ips.split(",") if host.strip()]
    return []


def launch_command(arguments: list[str]) -> list[str]:
    """The mpiexec command line ``phiops launch arguments...`` runs."""
    options = _parser().parse_args(arguments)
    if options.nproc_per_node < 1:
        raise InvalidArgumentError(
            f"phiops launch: --nproc_per_node must be at least 1, got {options.nproc_per_node}"
        )
    mpiexec = options.mpiexec or find_mpiexec()
    hosts = _hosts(options.hostfile, options.ips)
    per_host = options.nproc_per_node
    command = [mpiexec]
    hydra = _is_hydra(mpiexec)
    if hydra:
        command.append("-disable-auto-cleanup")
    if hosts:
        if hydra:
            command += ["-hosts", ",".join(hosts), "-ppn", str(per_host)]
        else:
            command += ["--host", ",".join(f"{h}:{per_host}" for h in hosts)]
    command += ["-n", str(per_host * max(len(hosts), 1))]
    command += [sys.executable, options.training_script, *options.training_script_args]
    return command


def main(arguments: list[str] | None = None) -> int:
    """Run the launch command; its exit status (non-zero when a rank failed)."""
    try:
        command = launch_command(list(sys.argv[1:] if arguments is None else arguments))
    except (InvalidArgumentError, PreconditionNotMetError) as error:
        print(str(error), file=sys.stderr)
        return 2
    environment = dict(os.environ)
    environment.setdefault("PYTHONUNBUFFERED", "1")
    completed = subprocess.run(command, env=environment, check=False)
    if completed.returncode:
        print(
            f"phiops launch: the job failed (exit status {completed.returncode}); see the ranks' "
            "errors above",
            file=sys.stderr,
        )
    return completed.returncode


def launch() -> None:
    """``paddle.distributed.launch()``: run the launcher on this process's command line
    (``sys.argv[1:]``) and exit with its status."""
    raise SystemExit(main())
