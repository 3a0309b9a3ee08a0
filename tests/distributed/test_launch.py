"""``phiops launch`` and ``python -m phiops.distributed.launch``: the mpiexec command they build
(host files, host lists), and examples/train_data_parallel.py run through them on 2 ranks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from phiops.runtime.distributed.launch import launch_command
from phiops.runtime.errors import InvalidArgumentError
from tests.distributed.launching import ROOT, mpiexec, run_ranks

EXAMPLE = str(ROOT / "examples" / "train_data_parallel.py")


def test_launch_runs_the_script_on_nproc_per_node_ranks_with_this_python() -> None:
    command = launch_command(["--nproc_per_node", "3", "train.py", "--lr", "0.1"])
    assert Path(command[0]).name in ("mpiexec", "mpirun")
    assert command[-4:] == [sys.executable, "train.py", "--lr", "0.1"]
    assert command[command.index("-n") + 1] == "3"


def test_launch_spreads_ranks_over_the_hosts_of_a_host_file(tmp_path: Path) -> None:
    hostfile = tmp_path / "hosts"
    hostfile.write_text("# the cluster\nnode1\nnode2 slots=4\n\n")
    command = launch_command(
        ["--nproc_per_node", "2", "--hostfile", str(hostfile), "--mpiexec", mpiexec(), "t.py"]
    )
    assert command[command.index("-hosts") + 1] == "node1,node2"
    assert command[command.index("-ppn") + 1] == "2"
    assert command[command.index("-n") + 1] == "4"
    ips = launch_command(["--nproc_per_node", "1", "--ips", "a,b,c", "--mpiexec", mpiexec(), "t.py"])
    assert ips[ips.index("-hosts") + 1] == "a,b,c" and ips[ips.index("-n") + 1] == "3"


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--nproc_per_node", "0", "t.py"], "at least 1"),
        (["--hostfile", "/nonexistent/hosts", "t.py"], "cannot read --hostfile"),
        (["--hostfile", "h", "--ips", "a", "t.py"], "not both"),
    ],
)
def test_launch_rejects_bad_options_naming_them(arguments: list[str], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        launch_command(["--mpiexec", "mpiexec", *arguments])


def _check_training(output: str) -> None:
    assert "training on 2 rank(s)" in output, output
    assert "parameters identical on all 2 ranks: True" in output, output
    losses = [float(line.split()[-1]) for line in output.splitlines() if line.startswith("epoch")]
    assert len(losses) == 2 and losses[-1] < losses[0], output


@pytest.mark.parametrize(
    "launcher",
    [
        [sys.executable, "-m", "phiops", "launch", "--nproc_per_node", "2"],
        [sys.executable, "-m", "phiops.distributed.launch", "--nproc_per_node", "2"],
    ],
    ids=["phiops launch", "python -m phiops.distributed.launch"],
)
def test_the_data_parallel_example_trains_on_two_ranks_through_the_launcher(
    launcher: list[str],
) -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    mpiexec()
    result = run_ranks(EXAMPLE, 2, "--epochs", "2", launcher=launcher, timeout=300)
    assert result.returncode == 0, result.stdout
    _check_training(result.stdout)


def test_the_data_parallel_example_runs_under_mpiexec_directly() -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    result = run_ranks(EXAMPLE, 2, "--epochs", "2", timeout=300)
    assert result.returncode == 0, result.stdout
    _check_training(result.stdout)


def test_a_failing_rank_makes_launch_fail_with_the_ranks_error() -> None:
    launcher = [sys.executable, "-m", "phiops", "launch", "--nproc_per_node", "2"]
    mpiexec()
    result = run_ranks(
        str(ROOT / "tests" / "distributed" / "workers" / "faults.py"),
        2,
        "raise",
        launcher=launcher,
        timeout=120,
        env={"PHIOPS_COMM_TIMEOUT": "5"},
    )
    assert result.returncode != 0
    assert "rank 1 failed: ValueError: boom on rank 1" in result.stdout
    assert "phiops launch: the job failed" in result.stdout
