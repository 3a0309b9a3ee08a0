"""Batch samplers: iterables of lists of indices, one list per batch."""

from __future__ import annotations

import math
import os
from typing import Any, Iterable, Iterator

import numpy as np

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.io.dataset import IterableDataset
from phiops.runtime.io.sampler import RandomSampler, Sampler, SequenceSampler, _is_int

__all__ = ["BatchSampler", "DistributedBatchSampler", "InfiniteIterableSampler"]


def _check_batch_size(owner: str, batch_size: Any) -> int:
    if not _is_int(batch_size) or batch_size <= 0:
        raise InvalidArgumentError(
            f"{owner}: argument 'batch_size' must be a positive integer, got {batch_size!r}"
        )
    return int(batch_size)


def _check_bool(owner: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{owner}: argument '{name}' must be a bool, got {value!r}")
    return value


def _batches(indices: Iterable[Any], batch_size: int, drop_last: bool) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for index in indices:
        batch.append(index)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` (or of a SequenceSampler/RandomSampler over
    ``dataset``, by ``shuffle``) into lists of ``batch_size``; the last, shorter one is kept
    unless ``drop_last``. Give exactly one of ``dataset`` and ``sampler``."""

    def __init__(
        self,
        dataset: Any | None = None,
        sampler: Any | None = None,
        shuffle: bool = False,
        batch_size: int = 1,
        drop_last: bool = False,
    ) -> None:
        _check_bool("BatchSampler", "shuffle", shuffle)
        if dataset is None:
            if sampler is None:
                raise InvalidArgumentError(
                    "BatchSampler: either argument 'dataset' or argument 'sampler' must be set"
                )
            if not isinstance(sampler, (Sampler, Iterable)):
                raise InvalidArgumentError(
                    "BatchSampler: argument 'sampler' must be a paddle.io.Sampler or an "
                    f"iterable, got {type(sampler).__name__}"
                )
            if shuffle:
                raise InvalidArgumentError(
                    "BatchSampler: argument 'shuffle' must be False when 'sampler' is set"
                )
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise InvalidArgumentError(
                    "BatchSampler: argument 'dataset' must not be a paddle.io.IterableDataset"
                )
            if sampler is not None:
                raise InvalidArgumentError(
                    "BatchSampler: set argument 'dataset' or argument 'sampler', not both"
                )
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        self.batch_size = _check_batch_size("BatchSampler", batch_size)
        self.shuffle = shuffle
        self.drop_last = _check_bool("BatchSampler", "drop_last", drop_last)

    def __iter__(self) -> Iterator[list[Any]]:
        return _batches(self.sampler, self.batch_size, self.drop_last)

    def __len__(self) -> int:
        samples = len(self.sampler)
        if self.drop_last:
            return samples // self.batch_size
        return (samples + self.batch_size - 1) // self.batch_size


class InfiniteIterableSampler(Sampler):
    """The DataLoader's batch sampler for an IterableDataset: ``[None] * batch_size`` forever
    (the dataset ends the stream)."""

    def __init__(self, dataset: IterableDataset, batch_size: int = 1) -> None:
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[list[None]]:
        while True:
            yield [None] * self.batch_size


def _environment_int(name: str, default: int) -> int:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise InvalidArgumentError(
            f"DistributedBatchSampler: environment variable {name} must be an integer, got "
            f"{text!r}"
        ) from None


# Where a process finds its place in the job: PaddlePaddle's variables, then MPI launchers'.
_WORLD_SIZE_VARIABLES = ("PADDLE_TRAINERS_NUM", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE")
_RANK_VARIABLES = ("PADDLE_TRAINER_ID", "PMI_RANK", "OMPI_COMM_WORLD_RANK")


def _first_environment_int(names: tuple[str, ...], default: int) -> int:
    for name in names:
        if os.environ.get(name):
            return _environment_int(name, default)
    return default


class DistributedBatchSampler(BatchSampler):
    """The batches of one process (``rank``) of ``num_replicas``: the dataset's indices are
    padded by repeating from the start to a multiple of ``num_replicas``, optionally shuffled
    (by ``numpy.random.RandomState(epoch)``, as PaddlePaddle does, so every rank shuffles alike;
    ``set_epoch`` picks the epoch), and dealt out ``batch_size`` at a time to the ranks in turn.

    Without ``num_replicas``/``rank`` they come from the environment as PaddlePaddle's
    ParallelEnv reads it (``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ID``, which
    ``paddle.distributed.init_parallel_env`` sets), else from the MPI launcher that started the
    process (``PMI_SIZE``/``PMI_RANK``, ``OMPI_COMM_WORLD_SIZE``/``OMPI_COMM_WORLD_RANK``), which
    is 1 and 0 in a single process."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = False,
        drop_last: bool = False,
    ) -> None:
        owner = "DistributedBatchSampler"
        self.dataset = dataset
        self.batch_size = _check_batch_size(owner, batch_size)
        self.shuffle = _check_bool(owner, "shuffle", shuffle)
        self.drop_last = _check_bool(owner, "drop_last", drop_last)
        if num_replicas is None:
            num_replicas = _first_environment_int(_WORLD_SIZE_VARIABLES, 1)
        elif not _is_int(num_replicas) or num_replicas <= 0:
            raise InvalidArgumentError(
                f"{owner}: argument 'num_replicas' must be a positive integer, got "
                f"{num_replicas!r}"
            )
        if rank is None:
            rank = _first_environment_int(_RANK_VARIABLES, 0)
        elif not _is_int(rank) or rank < 0:
            raise InvalidArgumentError(
                f"{owner}: argument 'rank' must be a non-negative integer, got {rank!r}"
            )
        if rank >= num_replicas:
            raise InvalidArgumentError(
                f"{owner}: argument 'rank' ({rank}) must be less than num_replicas "
                f"({num_replicas})"
            )
        self.nranks = int(num_replicas)
        self.local_rank = int(rank)
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def _rank_indices(self) -> list[int]:
        count = len(self.dataset)
        indices = list(range(count))
        padding = self.total_size - count
        if padding and count:
            indices += (indices * math.ceil(padding / count))[:padding]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        stride = self.batch_size * self.nranks
        last = self.total_size % stride
        mine: list[int] = []
        for start in range(self.local_rank * self.batch_size, len(indices) - last, stride):
            mine.extend(indices[start : start + self.batch_size])
        tail = indices[len(indices) - last :]
        share = last // self.nranks
        mine.extend(tail[self.local_rank * share : (self.local_rank + 1) * share])
        return mine

    def __iter__(self) -> Iterator[list[int]]:
        return _batches(self._rank_indices(), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        if self.drop_last:
            return self.num_samples // self.batch_size
        return (self.num_samples + self.batch_size - 1) // self.batch_size

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch that seeds the next shuffle (all ranks must use the same one)."""
        if not _is_int(epoch):
            raise InvalidArgumentError(
                f"DistributedBatchSampler.set_epoch: argument 'epoch' must be an int, got "
                f"{epoch!r}"
            )
        self.epoch = int(epoch)
