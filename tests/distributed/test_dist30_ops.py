"""p_send/p_recv and c_embedding on 2 MPI ranks (workers/dist30_ops.py): eagerly for every dtype
and with the functional send/recv, in a static program phiops builds and its Executor runs on
each rank, and c_embedding sharded over the ranks (forward and gradient) against numpy."""

from __future__ import annotations

import re

from tests.distributed.launching import run_ranks


def test_the_dist30_ops_on_two_ranks_match_numpy() -> None:
    # one launch for the three parts: starting the ranks is most of the time
    result = run_ranks("dist30_ops.py", 2, "p2p", "embedding", "static", timeout=120)
    assert result.returncode == 0, result.stdout
    assert sorted(re.findall(r"rank \d+ ok", result.stdout)) == ["rank 0 ok", "rank 1 ok"], (
        result.stdout
    )
