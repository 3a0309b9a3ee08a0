"""The samplers and batch samplers: the index sequences PaddlePaddle 3.3.1 gives where they are
deterministic (tests/data/io/paddle_io_3_3_1.json, written by tests/tools/record_paddle_io.py),
and the random ones' semantics and reproducibility under ``phiops.seed``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from phiops.io import (
    BatchSampler,
    DistributedBatchSampler,
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from phiops.runtime.errors import InvalidArgumentError
from tests.io.datasets import Indices

PADDLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "io" / "paddle_io_3_3_1.json").read_text(
        encoding="utf-8"
    )
)


def _batches(sampler) -> list[list[int]]:
    return [[int(i) for i in batch] for batch in sampler]


# ---- deterministic: PaddlePaddle's sequences


@pytest.mark.parametrize("n", ["0", "1", "7"])
def test_sequence_sampler_gives_paddles_indices(n: str) -> None:
    sampler = SequenceSampler(Indices(int(n)))
    assert list(sampler) == PADDLE["sequence_sampler"][n]
    assert len(sampler) == int(n)


@pytest.mark.parametrize(
    "case", PADDLE["batch_sampler"], ids=lambda c: f"n{c['n']}-b{c['batch_size']}-d{c['drop_last']}"
)
def test_batch_sampler_gives_paddles_batches(case: dict) -> None:
    sampler = BatchSampler(
        Indices(case["n"]), batch_size=case["batch_size"], drop_last=case["drop_last"]
    )
    assert _batches(sampler) == case["batches"]
    assert len(sampler) == case["len"]


def test_batch_sampler_over_a_given_sampler_gives_paddles_batches() -> None:
    sampler = BatchSampler(sampler=[5, 3, 1, 0, 2], batch_size=2)
    assert _batches(sampler) == PADDLE["batch_sampler_given_sampler"]["batches"]
    assert len(sampler) == PADDLE["batch_sampler_given_sampler"]["len"]


def _distributed_id(case: dict) -> str:
    return (
        f"n{case['n']}-b{case['batch_size']}-r{case['rank']}of{case['num_replicas']}"
        f"-s{case['shuffle']}-d{case['drop_last']}"
    )


@pytest.mark.parametrize("case", PADDLE["distributed_batch_sampler"], ids=_distributed_id)
def test_distributed_batch_sampler_gives_paddles_split(case: dict) -> None:
    sampler = DistributedBatchSampler(
        Indices(case["n"]),
        case["batch_size"],
        num_replicas=case["num_replicas"],
        rank=case["rank"],
        shuffle=case["shuffle"],
        drop_last=case["drop_last"],
    )
    assert (sampler.num_samples, sampler.total_size) == (case["num_samples"], case["total_size"])
    assert [_batches(sampler), _batches(sampler)] == case["epochs"]
    sampler.set_epoch(5)
    assert _batches(sampler) == case["after_set_epoch_5"]
    assert len(sampler) == case["len"]


def test_distributed_batch_sampler_ranks_cover_the_padded_dataset_once() -> None:
    seen = []
    for rank in range(3):
        sampler = DistributedBatchSampler(Indices(10), 2, num_replicas=3, rank=rank)
        seen.extend(i for batch in sampler for i in batch)
    assert sorted(seen) == sorted(list(range(10)) + [0, 1])


def test_distributed_batch_sampler_defaults_to_one_replica_rank_zero(monkeypatch) -> None:
    monkeypatch.delenv("PADDLE_TRAINERS_NUM", raising=False)
    monkeypatch.delenv("PADDLE_TRAINER_ID", raising=False)
    sampler = DistributedBatchSampler(Indices(5), 2)
    assert (sampler.nranks, sampler.local_rank) == (1, 0)
    assert _batches(sampler) == [[0, 1], [2, 3], [4]]


def test_distributed_batch_sampler_reads_paddles_environment(monkeypatch) -> None:
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "2")
    monkeypatch.setenv("PADDLE_TRAINER_ID", "1")
    sampler = DistributedBatchSampler(Indices(8), 2)
    assert (sampler.nranks, sampler.local_rank) == (2, 1)
    assert _batches(sampler) == [[2, 3], [6, 7]]


# ---- random samplers


def test_random_sampler_is_a_permutation_without_replacement() -> None:
    assert sorted(RandomSampler(Indices(20))) == list(range(20))


def test_random_sampler_takes_num_samples_with_replacement() -> None:
    drawn = list(RandomSampler(Indices(3), replacement=True, num_samples=50))
    assert len(drawn) == 50 and set(drawn) <= {0, 1, 2}


def test_random_sampler_order_follows_phiops_seed() -> None:
    phiops.seed(7)
    first = list(RandomSampler(Indices(30)))
    phiops.seed(7)
    again = list(RandomSampler(Indices(30)))
    phiops.seed(8)
    other = list(RandomSampler(Indices(30)))
    assert first == again
    assert first != other


def test_random_sampler_takes_indices_from_a_generator_argument() -> None:
    sampler = RandomSampler(Indices(5), generator=iter([4, 0, 3, 1, 2, 9]))
    assert list(sampler) == [4, 0, 3, 1, 2]
    short = RandomSampler(Indices(5), generator=iter([1, 2]))
    assert list(short) == [1, 2]


def test_subset_random_sampler_permutes_the_indices_under_the_seed() -> None:
    phiops.seed(3)
    first = list(SubsetRandomSampler([10, 20, 30, 40]))
    phiops.seed(3)
    assert list(SubsetRandomSampler([10, 20, 30, 40])) == first
    assert sorted(first) == [10, 20, 30, 40]
    assert len(SubsetRandomSampler([10, 20, 30, 40])) == 4


def test_weighted_random_sampler_never_draws_a_zero_weight() -> None:
    phiops.seed(1)
    sampler = WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 200)
    drawn = list(sampler)
    assert set(drawn) <= {1, 3} and len(drawn) == len(sampler) == 200
    assert drawn.count(3) > drawn.count(1)


def test_weighted_random_sampler_without_replacement_draws_distinct_indices() -> None:
    drawn = list(WeightedRandomSampler(np.array([1.0, 2.0, 3.0, 4.0]), 4, replacement=False))
    assert sorted(drawn) == [0, 1, 2, 3]


def test_weighted_random_sampler_takes_tensor_and_2d_weights() -> None:
    weights = phiops.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    sampler = WeightedRandomSampler(weights, 3)
    assert list(sampler) == [0, 0, 0, 1, 1, 1]
    assert len(sampler) == 6


def test_weighted_random_sampler_follows_phiops_seed() -> None:
    phiops.seed(11)
    first = list(WeightedRandomSampler([1.0, 1.0, 1.0], 20))
    phiops.seed(11)
    assert list(WeightedRandomSampler([1.0, 1.0, 1.0], 20)) == first


def test_batch_sampler_with_shuffle_batches_a_seeded_permutation() -> None:
    phiops.seed(5)
    first = _batches(BatchSampler(Indices(10), shuffle=True, batch_size=4))
    phiops.seed(5)
    assert _batches(BatchSampler(Indices(10), shuffle=True, batch_size=4)) == first
    assert [len(batch) for batch in first] == [4, 4, 2]
    assert sorted(i for batch in first for i in batch) == list(range(10))


def test_the_base_sampler_asks_subclasses_for_iter() -> None:
    with pytest.raises(NotImplementedError, match="__iter__"):
        iter(Sampler())


# ---- bad arguments


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: RandomSampler(Indices(3), replacement=1), "'replacement' must be a bool"),
        (lambda: RandomSampler(Indices(3), num_samples=4), "'num_samples' must be <= len"),
        (lambda: RandomSampler(Indices(3), num_samples=0), "'num_samples' must be a positive"),
        (lambda: RandomSampler(Indices(3), generator=[1, 2]), "'generator' must be None"),
        (lambda: WeightedRandomSampler([1.0], 0), "'num_samples' must be a positive"),
        (lambda: WeightedRandomSampler([1.0], 1, replacement=0), "'replacement' must be a bool"),
        (lambda: WeightedRandomSampler([1.0, -1.0], 1), "'weights' must be >= 0"),
        (lambda: WeightedRandomSampler([0.0, 0.0], 1), "needs a positive weight"),
        (lambda: WeightedRandomSampler([1.0, np.nan], 1), "inf or NaN"),
        (lambda: WeightedRandomSampler([1.0, 0.0], 2, False), "at least num_samples=2"),
        (lambda: WeightedRandomSampler("abc", 1), "'weights' must be a Tensor"),
        (lambda: SubsetRandomSampler([]), "'indices' must not be empty"),
        (lambda: BatchSampler(), "either argument 'dataset' or argument 'sampler'"),
        (lambda: BatchSampler(Indices(3), sampler=[0]), "not both"),
        (lambda: BatchSampler(sampler=[0], shuffle=True), "'shuffle' must be False"),
        (lambda: BatchSampler(Indices(3), batch_size=0), "'batch_size' must be a positive"),
        (lambda: BatchSampler(Indices(3), batch_size=-2), "'batch_size' must be a positive"),
        (lambda: BatchSampler(Indices(3), drop_last=1), "'drop_last' must be a bool"),
        (lambda: DistributedBatchSampler(Indices(3), 0), "'batch_size' must be a positive"),
        (lambda: DistributedBatchSampler(Indices(3), 1, num_replicas=0), "'num_replicas'"),
        (lambda: DistributedBatchSampler(Indices(3), 1, rank=-1), "'rank' must be a non-neg"),
        (lambda: DistributedBatchSampler(Indices(3), 1, 2, 2), "must be less than num_replicas"),
        (lambda: DistributedBatchSampler(Indices(3), 1, shuffle="yes"), "'shuffle' must be"),
    ],
)
def test_bad_sampler_arguments_are_named(make, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


def test_batch_sampler_refuses_an_iterable_dataset() -> None:
    from tests.io.datasets import Stream

    with pytest.raises(InvalidArgumentError, match="must not be a paddle.io.IterableDataset"):
        BatchSampler(Stream(0, 3))
