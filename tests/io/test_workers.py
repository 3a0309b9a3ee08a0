"""The DataLoader with worker processes: batches in order, get_worker_info and worker_init_fn in
each worker, iterable datasets, errors raised again in the main process, timeout, clean
shutdown (no process left: ``multiprocessing.active_children()``), persistent workers and
seeded shuffles. Tiny datasets and two workers keep these fast."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import phiops
from phiops.io import DataLoader, TensorDataset, get_worker_info
from tests.io.datasets import (
    FailsOddly,
    DiesAt,
    FailsAt,
    Indices,
    InitMark,
    Nested,
    RandomDraws,
    Slow,
    Stream,
    Unsharded,
    WhoReads,
    fail_init,
    mark_worker,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_workers_left_behind():
    yield
    assert multiprocessing.active_children() == []


def _values(loader) -> list:
    return [batch.numpy().tolist() for batch in loader]


def test_batches_come_back_in_order() -> None:
    loader = DataLoader(Indices(11), batch_size=2, num_workers=2)
    assert _values(loader) == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10]]


def test_drop_last_drops_the_short_batch_with_workers() -> None:
    loader = DataLoader(Indices(11), batch_size=3, num_workers=2, drop_last=True)
    assert _values(loader) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_the_workers_read_the_batches_in_other_processes() -> None:
    batches = list(DataLoader(WhoReads(6), batch_size=1, num_workers=2))
    assert [int(batch[0].numpy()[0]) for batch in batches] == [0, 1, 2, 3, 4, 5]
    assert [int(batch[1].numpy()[0]) for batch in batches] == [0, 1] * 3
    pids = {int(batch[2].numpy()[0]) for batch in batches}
    assert len(pids) == 2 and os.getpid() not in pids


def test_get_worker_info_is_none_in_the_main_process() -> None:
    assert get_worker_info() is None
    rows = [b[1].numpy().tolist() for b in DataLoader(WhoReads(2), batch_size=1)]
    assert rows == [[-1], [-1]]


def test_nested_batches_match_the_main_process_ones() -> None:
    def flat(batch):
        return [
            batch["image"].numpy().tolist(),
            batch["label"].numpy().tolist(),
            str(batch["weight"].dtype),
            batch["name"],
            batch["pair"][1].numpy().tolist(),
            batch["tensor"].numpy().tolist(),
        ]

    alone = [flat(b) for b in DataLoader(Nested(), batch_size=2)]
    workers = [flat(b) for b in DataLoader(Nested(), batch_size=2, num_workers=2)]
    assert workers == alone


def test_tensor_samples_are_stacked_in_the_workers_and_made_tensors_here() -> None:
    x = phiops.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    y = phiops.to_tensor([7, 8, 9])
    loader = DataLoader(TensorDataset([x, y]), batch_size=2, num_workers=2)
    batches = [[part.numpy().tolist() for part in batch] for batch in loader]
    assert batches == [[[[0.0, 1.0], [2.0, 3.0]], [7, 8]], [[[4.0, 5.0]], [9]]]


def test_worker_init_fn_runs_in_each_worker_first() -> None:
    loader = DataLoader(InitMark(), batch_size=1, num_workers=2, worker_init_fn=mark_worker)
    assert [b[1].numpy().tolist() for b in loader] == [[0], [100], [0], [100]]


def test_an_iterable_dataset_is_shared_out_through_get_worker_info() -> None:
    values = sorted(sum(_values(DataLoader(Stream(0, 9), batch_size=2, num_workers=2)), []))
    assert values == list(range(9))


def test_an_unsharded_iterable_dataset_is_read_once_per_worker() -> None:
    values = sorted(sum(_values(DataLoader(Unsharded(3), batch_size=2, num_workers=2)), []))
    assert values == [0, 0, 1, 1, 2, 2]


def test_an_error_in_a_worker_is_raised_naming_it_with_its_traceback() -> None:
    loader = DataLoader(FailsAt(6, bad=3), batch_size=1, num_workers=2)
    with pytest.raises(KeyError) as caught:
        list(loader)
    text = str(caught.value)
    assert "DataLoader worker(1) caught KeyError" in text
    assert "item 3 is missing from the store" in text
    assert "Traceback (most recent call last)" in text and "datasets.py" in text


def test_an_error_in_worker_init_fn_is_raised_naming_the_worker() -> None:
    loader = DataLoader(Indices(4), batch_size=1, num_workers=2, worker_init_fn=fail_init)
    with pytest.raises(ValueError, match="worker\\(1\\) caught ValueError(.|\n)*refused worker 1"):
        list(loader)


def test_an_error_class_that_takes_no_single_message_comes_back_as_runtime_error() -> None:
    loader = DataLoader(FailsOddly(), batch_size=1, num_workers=2)
    with pytest.raises(
        RuntimeError, match="worker\\(0\\) caught TwoArgumentError(.|\n)*odd failure"
    ):
        list(loader)


def test_an_error_in_the_main_process_dataset_is_raised_as_is() -> None:
    loader = DataLoader(FailsAt(3, bad=1), batch_size=1)
    with pytest.raises(KeyError, match="item 1 is missing"):
        list(loader)


def test_a_worker_that_dies_is_reported_with_its_exit_code() -> None:
    loader = DataLoader(DiesAt(4, bad=1), batch_size=1, num_workers=2)
    with pytest.raises(
        RuntimeError,
        match="DataLoader worker 1 \\(pid \\d+\\) exited unexpectedly " "with exit code 3",
    ):
        list(loader)


def test_a_batch_slower_than_timeout_is_an_error() -> None:
    loader = DataLoader(Slow(4, slow=1, seconds=3.0), batch_size=1, num_workers=2, timeout=0.3)
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="timed out after 0.3 seconds waiting for batch 1"):
        list(loader)
    assert time.monotonic() - started < 2.5


def test_a_batch_within_timeout_is_fine() -> None:
    loader = DataLoader(Slow(3, slow=1, seconds=0.05), batch_size=1, num_workers=2, timeout=5)
    assert _values(loader) == [[0], [1], [2]]


def test_breaking_out_of_the_loop_stops_the_workers() -> None:
    for batch in DataLoader(Indices(100), batch_size=1, num_workers=2):
        break
    assert multiprocessing.active_children() == []


def test_deleting_a_started_iterator_stops_the_workers() -> None:
    iterator = iter(DataLoader(Indices(100), batch_size=1, num_workers=2))
    next(iterator)
    assert len(multiprocessing.active_children()) == 2
    del iterator
    assert multiprocessing.active_children() == []


def test_exhausting_the_loader_stops_the_workers() -> None:
    iterator = iter(DataLoader(Indices(3), batch_size=2, num_workers=2))
    assert len(list(iterator)) == 2
    assert multiprocessing.active_children() == []


def test_persistent_workers_stay_across_epochs() -> None:
    loader = DataLoader(WhoReads(4), batch_size=2, num_workers=2, persistent_workers=True)
    first = [b[2].numpy().tolist() for b in loader]
    children = {p.pid for p in multiprocessing.active_children()}
    second = [b[2].numpy().tolist() for b in loader]
    assert len(children) == 2
    assert {p.pid for p in multiprocessing.active_children()} == children
    assert {pid for row in first + second for pid in row} == children
    del loader


def test_persistent_workers_restart_after_a_broken_epoch() -> None:
    loader = DataLoader(Indices(6), batch_size=1, num_workers=2, persistent_workers=True)
    for _ in loader:
        break
    assert _values(loader) == [[0], [1], [2], [3], [4], [5]]
    del loader


def test_persistent_workers_restart_an_iterable_dataset() -> None:
    loader = DataLoader(Stream(0, 5), batch_size=2, num_workers=2, persistent_workers=True)
    first = sorted(sum(_values(loader), []))
    second = sorted(sum(_values(loader), []))
    assert first == second == [0, 1, 2, 3, 4]
    del loader


def test_shuffled_order_with_workers_follows_phiops_seed_only() -> None:
    phiops.seed(4)
    with_workers = _values(DataLoader(Indices(10), batch_size=3, shuffle=True, num_workers=2))
    phiops.seed(4)
    alone = _values(DataLoader(Indices(10), batch_size=3, shuffle=True))
    assert with_workers == alone


def test_workers_draw_seeded_random_numbers() -> None:
    def draws() -> list:
        return _values(DataLoader(RandomDraws(), batch_size=1, num_workers=2))

    phiops.seed(12)
    first = draws()
    phiops.seed(12)
    assert draws() == first
    assert len({row[0] for row in first}) == 4


def test_an_unfinished_loader_does_not_hang_interpreter_exit() -> None:
    code = (
        "from phiops.io import DataLoader\n"
        "from tests.io.datasets import Indices\n"
        "it = iter(DataLoader(Indices(1000), batch_size=1, num_workers=2))\n"
        "next(it)\n"
        "persistent = DataLoader(Indices(50), num_workers=2, persistent_workers=True)\n"
        "for _ in persistent:\n"
        "    break\n"
        "print('done')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"
