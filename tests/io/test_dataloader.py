"""The DataLoader in the main process (``num_workers=0``): batching and order, the default
collate against PaddlePaddle 3.3.1's batches (tests/data/io/paddle_io_3_3_1.json), iterable
datasets, seeded shuffles and the arguments PaddlePaddle refuses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from phiops.io import DataLoader, DistributedBatchSampler, TensorDataset
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.io.collate import default_collate_fn
from tests import paddle_api
from tests.io.datasets import Indices, Nested, Pairs, Stream

PADDLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "io" / "paddle_io_3_3_1.json").read_text(
        encoding="utf-8"
    )
)


def describe(value):
    """The structure of a batch, written as tests/tools/record_paddle_io.py writes Paddle's."""
    if isinstance(value, phiops.Tensor):
        return {
            "tensor": str(value.dtype).rsplit(".", 1)[-1],
            "shape": list(value.shape),
            "values": value.numpy().tolist(),
        }
    if isinstance(value, dict):
        return {"dict": {key: describe(item) for key, item in value.items()}}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(item) for item in value]}
    if isinstance(value, np.generic):
        value = value.item()
    return {"python": type(value).__name__, "value": value}


def test_the_signature_is_paddles() -> None:
    assert paddle_api.parameters_of(DataLoader) == paddle_api.parameters("paddle.io.DataLoader")


@pytest.mark.parametrize(
    "case", PADDLE["dataloader"], ids=lambda c: f"n{c['n']}-b{c['batch_size']}-d{c['drop_last']}"
)
def test_batches_come_in_order_as_paddles(case: dict) -> None:
    loader = DataLoader(
        Indices(case["n"]), batch_size=case["batch_size"], drop_last=case["drop_last"]
    )
    assert [batch.numpy().tolist() for batch in loader] == case["batches"]
    assert len(loader) == case["len"]


def test_a_batch_sampler_chooses_the_batches() -> None:
    sampler = DistributedBatchSampler(Indices(10), 3, num_replicas=3, rank=1)
    loader = DataLoader(Indices(10), batch_sampler=sampler)
    assert [b.numpy().tolist() for b in loader] == PADDLE["dataloader_distributed"]["batches"]
    assert len(loader) == PADDLE["dataloader_distributed"]["len"]


def test_nested_samples_collate_as_paddles() -> None:
    batches = [describe(batch) for batch in DataLoader(Nested(), batch_size=2)]
    assert batches == PADDLE["collate_nested"]


def test_batch_size_none_gives_samples_one_by_one_as_paddle() -> None:
    items = [describe(item) for item in DataLoader(Pairs(arrays=True), batch_size=None)]
    assert items == PADDLE["dataloader_unbatched"]


def test_a_dataset_of_numpy_scalars_without_batching_gives_every_sample() -> None:
    # PaddlePaddle 3.3.1 gives no samples at all here; phiops gives them
    assert [int(v) for v in DataLoader(Indices(3), batch_size=None)] == [0, 1, 2]


def test_tensor_samples_are_stacked_into_a_tensor() -> None:
    x = phiops.to_tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    batches = list(DataLoader(TensorDataset([x]), batch_size=3))
    assert [b[0].shape for b in batches] == [[3, 2], [1, 2]]
    assert batches[1][0].numpy().tolist() == [[6.0, 7.0]]


def test_a_custom_collate_fn_gets_the_list_of_samples() -> None:
    loader = DataLoader(Indices(5), batch_size=2, collate_fn=lambda samples: sum(samples))
    assert [int(v) for v in loader] == [1, 5, 4]


def test_the_default_collate_refuses_samples_of_different_widths() -> None:
    with pytest.raises(InvalidArgumentError, match="different numbers of fields: \\[2, 3\\]"):
        default_collate_fn([[1, 2], [1, 2, 3]])


def test_the_default_collate_refuses_unknown_objects() -> None:
    with pytest.raises(InvalidArgumentError, match="got object"):
        default_collate_fn([object()])


def test_an_iterable_dataset_is_batched_until_it_ends() -> None:
    loader = DataLoader(Stream(0, 7), batch_size=3)
    assert [b.numpy().tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]]


def test_an_iterable_dataset_drops_its_short_last_batch() -> None:
    loader = DataLoader(Stream(0, 7), batch_size=3, drop_last=True)
    assert [b.numpy().tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]]


def test_an_iterable_dataset_has_no_length() -> None:
    with pytest.raises(InvalidArgumentError, match="length of an IterableDataset"):
        len(DataLoader(Stream(0, 7), batch_size=3))


def test_shuffle_is_reproducible_under_phiops_seed() -> None:
    def epoch() -> list[list[int]]:
        return [b.numpy().tolist() for b in DataLoader(Indices(12), batch_size=5, shuffle=True)]

    phiops.seed(99)
    first = epoch()
    phiops.seed(99)
    assert epoch() == first
    assert sorted(sum(first, [])) == list(range(12))
    assert first != [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]


def test_each_pass_is_a_new_epoch() -> None:
    loader = DataLoader(Indices(5), batch_size=2)
    assert [len(list(loader)) for _ in range(2)] == [3, 3]


def test_places_puts_the_batches_on_that_place() -> None:
    (batch,) = list(DataLoader(Indices(2), places="cpu", batch_size=2))
    assert batch.place == phiops.CPUPlace()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"batch_size": -1}, "'batch_size' must be None or a positive integer"),
        ({"batch_size": 0}, "'batch_size' must be None or a positive integer"),
        ({"batch_size": 2.5}, "'batch_size' must be None or a positive integer"),
        ({"num_workers": -1}, "'num_workers' must be a non-negative integer"),
        ({"prefetch_factor": 0}, "'prefetch_factor' must be a positive integer"),
        ({"timeout": -1}, "'timeout' must be a non-negative number"),
        ({"shuffle": 1}, "'shuffle' must be a bool"),
        ({"drop_last": "no"}, "'drop_last' must be a bool"),
        ({"collate_fn": 3}, "'collate_fn' must be callable"),
        ({"worker_init_fn": "f"}, "'worker_init_fn' must be callable"),
        ({"places": "tpu"}, "place"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        DataLoader(Indices(4), **kwargs)


@pytest.mark.parametrize("kwargs", [{"batch_size": 2}, {"shuffle": True}, {"drop_last": True}])
def test_a_batch_sampler_refuses_batch_size_shuffle_and_drop_last(kwargs: dict) -> None:
    sampler = DistributedBatchSampler(Indices(4), 2)
    with pytest.raises(InvalidArgumentError, match="should not be set when batch_sampler"):
        DataLoader(Indices(4), batch_sampler=sampler, **kwargs)


def test_an_iterable_dataset_refuses_shuffle_and_batch_sampler() -> None:
    with pytest.raises(InvalidArgumentError, match="cannot be shuffled"):
        DataLoader(Stream(0, 4), shuffle=True)
    with pytest.raises(InvalidArgumentError, match="takes no batch_sampler"):
        DataLoader(Stream(0, 4), batch_sampler=[[0, 1]])
