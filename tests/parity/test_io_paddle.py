"""phiops.io against PaddlePaddle 3.3.1 itself, where it is installed: the recorded data that
tests/io/ compares with (tests/data/io/paddle_io_3_3_1.json) is still what PaddlePaddle gives,
and phiops's samplers give PaddlePaddle's live index sequences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.io  # noqa: E402
from tests.io.datasets import Indices  # noqa: E402
from tests.tools import record_paddle_io  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "io" / "paddle_io_3_3_1.json"


def test_the_recorded_data_is_what_paddle_gives() -> None:
    recorded = json.loads(DATA.read_text(encoding="utf-8"))
    live = json.loads(json.dumps(record_paddle_io.record(), sort_keys=True))
    assert live == recorded


@pytest.mark.parametrize("n", [5, 13])
@pytest.mark.parametrize("replicas", [2, 3])
@pytest.mark.parametrize("shuffle", [False, True])
def test_distributed_batch_sampler_matches_paddle_live(n: int, replicas: int, shuffle: bool):
    for rank in range(replicas):
        theirs = paddle.io.DistributedBatchSampler(
            record_paddle_io.Indices(n), 2, num_replicas=replicas, rank=rank, shuffle=shuffle
        )
        ours = phiops.io.DistributedBatchSampler(
            Indices(n), 2, num_replicas=replicas, rank=rank, shuffle=shuffle
        )
        for _ in range(3):
            assert list(ours) == list(theirs)
        assert len(ours) == len(theirs)
