"""The datasets: Dataset/IterableDataset contracts, TensorDataset, ComposeDataset, ChainDataset,
ConcatDataset, Subset and random_split (PaddlePaddle 3.3.1's outputs where recorded)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops
from phiops.io import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from phiops.runtime.errors import InvalidArgumentError
from tests.io.datasets import Indices, Pairs, Stream

PADDLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "io" / "paddle_io_3_3_1.json").read_text(
        encoding="utf-8"
    )
)


def test_a_dataset_subclass_must_give_getitem_and_len() -> None:
    with pytest.raises(NotImplementedError, match="__getitem__"):
        Dataset()[0]
    with pytest.raises(NotImplementedError, match="__len__"):
        len(Dataset())


def test_an_iterable_dataset_has_no_items_and_no_length() -> None:
    with pytest.raises(NotImplementedError, match="__iter__"):
        iter(IterableDataset())
    with pytest.raises(RuntimeError, match="__getitem__"):
        Stream(0, 2)[0]
    with pytest.raises(RuntimeError, match="__len__"):
        len(Stream(0, 2))


def test_tensor_dataset_gives_rows_of_each_tensor() -> None:
    x = phiops.to_tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    y = phiops.to_tensor([7, 8, 9])
    dataset = TensorDataset([x, y])
    assert len(dataset) == 3
    row, label = dataset[1]
    assert row.numpy().tolist() == [2.0, 3.0] and int(label.numpy()) == 8


def test_tensor_dataset_refuses_tensors_of_different_lengths() -> None:
    with pytest.raises(InvalidArgumentError, match="same first dimension, got \\[3, 2\\]"):
        TensorDataset([phiops.zeros([3, 2]), phiops.zeros([2])])


def test_tensor_dataset_refuses_an_empty_list_and_scalars() -> None:
    with pytest.raises(InvalidArgumentError, match="non-empty list"):
        TensorDataset([])
    with pytest.raises(InvalidArgumentError, match="tensors\\[0\\] must be a Tensor"):
        TensorDataset([phiops.to_tensor(1.0)])


def test_compose_dataset_joins_the_fields_as_paddle_does() -> None:
    compose = ComposeDataset([Indices(3), Pairs()])
    assert len(compose) == 3
    for i in range(3):
        item = compose[i]
        assert [type(field).__name__ for field in item] == PADDLE["compose_dataset"][i]
        assert item == (i, i * 10, f"s{i}")


def test_compose_dataset_refuses_bad_members() -> None:
    with pytest.raises(InvalidArgumentError, match="must not be empty"):
        ComposeDataset([])
    with pytest.raises(InvalidArgumentError, match="datasets\\[1\\] must be a paddle.io.Dataset"):
        ComposeDataset([Indices(3), [1, 2, 3]])
    with pytest.raises(InvalidArgumentError, match="datasets\\[0\\] is an IterableDataset"):
        ComposeDataset([Stream(0, 3)])
    with pytest.raises(InvalidArgumentError, match="same length, datasets\\[0\\] has 3"):
        ComposeDataset([Indices(3), Indices(4)])


def test_chain_dataset_reads_one_stream_after_another() -> None:
    assert [int(v) for v in ChainDataset([Stream(0, 2), Stream(5, 7)])] == [0, 1, 5, 6]


def test_chain_dataset_refuses_map_style_members() -> None:
    with pytest.raises(InvalidArgumentError, match="datasets\\[1\\] must be a paddle.io.Iter"):
        ChainDataset([Stream(0, 2), Indices(2)])
    with pytest.raises(InvalidArgumentError, match="must not be empty"):
        ChainDataset([])


def test_concat_dataset_indexes_like_paddle() -> None:
    concat = ConcatDataset([Indices(3), Indices(2)])
    assert len(concat) == 5
    assert [int(concat[i]) for i in range(-5, 5)] == PADDLE["concat_dataset"]
    with pytest.raises(InvalidArgumentError, match="index -6 is out of range"):
        concat[-6]
    with pytest.raises(InvalidArgumentError, match="is an IterableDataset"):
        ConcatDataset([Stream(0, 1)])


def test_subset_reads_the_given_indices_in_order() -> None:
    subset = Subset(Indices(10), [7, 2, 9])
    assert len(subset) == 3
    assert [int(subset[i]) for i in range(3)] == PADDLE["subset"]


def test_random_split_covers_the_dataset_without_overlap() -> None:
    parts = random_split(Indices(10), [3, 7])
    assert [len(part) for part in parts] == [3, 7]
    values = sorted(int(part[i]) for part in parts for i in range(len(part)))
    assert values == list(range(10))


def test_random_split_takes_fractions_and_spreads_the_remainder() -> None:
    parts = random_split(Indices(10), [0.35, 0.35, 0.3])
    assert [len(part) for part in parts] == [4, 3, 3]


def test_random_split_follows_phiops_seed() -> None:
    phiops.seed(21)
    first = [list(part.indices) for part in random_split(Indices(12), [6, 6])]
    phiops.seed(21)
    assert [list(part.indices) for part in random_split(Indices(12), [6, 6])] == first


def test_random_split_takes_a_numpy_generator() -> None:
    first = random_split(Indices(8), [4, 4], generator=np.random.default_rng(3))
    again = random_split(Indices(8), [4, 4], generator=np.random.default_rng(3))
    assert [list(p.indices) for p in first] == [list(p.indices) for p in again]


def test_random_split_warns_about_an_empty_split() -> None:
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(Indices(1), [1.0, 0.0])


@pytest.mark.parametrize(
    "lengths, generator, message",
    [
        ([3, 3], None, "add up to 6, not to the dataset's length 10"),
        ([11, -1], None, "lengths\\[1\\] must be an int >= 0"),
        ([1.5, -0.5], None, "fraction lengths\\[0\\] = 1.5 is not between 0 and 1"),
        ([5, 5], "seed", "'generator' must be None or a numpy Generator"),
    ],
)
def test_random_split_bad_arguments_are_named(lengths, generator, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        random_split(Indices(10), lengths, generator)
