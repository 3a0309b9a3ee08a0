"""Static programs with collective ops run in phiops' Executor with one process per rank: one
PaddlePaddle 3.3.1 saved (c_allreduce_sum and all_gather after a Linear) and one phiops builds
(workers/static_program.py)."""

from __future__ import annotations

import re

import pytest

from tests.distributed.launching import run_ranks


@pytest.mark.parametrize("mode", ["saved", "built"])
def test_a_program_with_collective_ops_runs_on_two_ranks(mode: str) -> None:
    result = run_ranks("static_program.py", 2, mode, timeout=180)
    assert result.returncode == 0, result.stdout
    # the ranks' lines reach mpiexec's stdout interleaved, not always one per line
    assert sorted(re.findall(r"rank \d+ ok", result.stdout)) == [
        "rank 0 ok",
        "rank 1 ok",
    ], result.stdout
