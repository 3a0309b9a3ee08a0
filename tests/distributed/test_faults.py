"""A rank that raises, dies or comes late, and tensors that differ between ranks: the other
ranks stop with an error naming the rank (or the shapes), within the timeout, never a hang
(workers/faults.py)."""

from __future__ import annotations

import time

from tests.distributed.launching import run_ranks

TIMEOUT = {"PHIOPS_COMM_TIMEOUT": "3"}


def _run(mode: str) -> tuple[str, float, int]:
    start = time.monotonic()
    result = run_ranks("faults.py", 2, mode, timeout=120, env=TIMEOUT)
    return result.stdout, time.monotonic() - start, result.returncode


def test_a_rank_that_raises_makes_the_others_fail_naming_it() -> None:
    output, _, status = _run("raise")
    assert status != 0
    assert "[rank 1] uncaught ValueError: boom on rank 1" in output
    assert "[rank 0] uncaught" in output
    assert "rank 1 failed: ValueError: boom on rank 1" in output
    assert "second all_reduce done" not in output


def test_a_rank_that_dies_makes_the_others_fail_naming_it() -> None:
    output, _, status = _run("die")
    assert status != 0
    assert "CommunicationError" in output
    assert "rank 1 (pid " in output and ") exited" in output


def test_a_rank_killed_by_a_signal_ends_the_job_not_a_hang() -> None:
    """MPICH's launcher (hydra) stops every rank itself when one is killed by a signal, even with
    -disable-auto-cleanup, often before the others have named it (docs/distributed.md)."""
    output, elapsed, status = _run("sigkill")
    assert status != 0
    assert "rank 1 (pid " in output or "Killed (signal 9)" in output
    assert "second all_reduce done" not in output
    assert elapsed < 60


def test_a_rank_that_does_not_join_within_the_timeout_is_an_error_not_a_hang() -> None:
    output, elapsed, status = _run("late")
    assert status != 0
    assert "did not join within 3 s (PHIOPS_COMM_TIMEOUT)" in output
    assert "rank 0 failed" in output  # the late rank hears of it when it arrives
    assert elapsed < 60


def test_tensors_of_different_shapes_are_a_named_error_on_every_rank() -> None:
    output, _, status = _run("shape")
    assert status != 0
    message = "rank 0: all_reduce of float32[2, 2] (root/op 0); rank 1: all_reduce of float32[2, 3]"
    assert output.count(message) >= 2, output
    assert "[rank 0] uncaught phiops.runtime.errors.InvalidArgumentError" in output
    assert "[rank 1] uncaught phiops.runtime.errors.InvalidArgumentError" in output
