"""Every collective on 2 and 3 MPI ranks, as an op and through paddle.distributed, for every
dtype and reduce op, against numpy on the gathered inputs (workers/collectives.py)."""

from __future__ import annotations

import re

import pytest

from tests.distributed.launching import run_ranks


@pytest.mark.parametrize("ranks", [2, 3])
def test_every_collective_matches_numpy_on_the_gathered_inputs(ranks: int) -> None:
    result = run_ranks("collectives.py", ranks, timeout=300)
    assert result.returncode == 0, result.stdout
    passed = re.findall(r"rank (\d+): (\d+) checks passed", result.stdout)
    assert sorted(int(rank) for rank, _ in passed) == list(range(ranks)), result.stdout
    assert all(int(count) > 300 for _, count in passed), result.stdout
