"""PaddlePaddle's datasets: the map-style ``Dataset`` (``__getitem__`` and ``__len__``), the
``IterableDataset`` (``__iter__``), and the ones built from others (TensorDataset,
ComposeDataset, ChainDataset, ConcatDataset, Subset, ``random_split``)."""

from __future__ import annotations

import bisect
import math
import warnings
from typing import Any, Iterator, Sequence

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.io.shuffle import permutation

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
]


class Dataset:
    """A map-style dataset: subclasses give ``__getitem__(idx)`` and ``__len__()``."""

    def __init__(self) -> None:
        pass

    def __getitem__(self, idx: int) -> Any:
        raise NotImplementedError(f"'__getitem__' not implemented in class {type(self).__name__}")

    def __len__(self) -> int:
        raise NotImplementedError(f"'__len__' not implemented in class {type(self).__name__}")


class IterableDataset(Dataset):
    """A dataset read as a stream: subclasses give ``__iter__()``. With ``num_workers > 0`` every
    worker iterates its own copy; ``get_worker_info()`` tells a worker which share to yield."""

    def __init__(self) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"'__iter__' not implemented in class {type(self).__name__}")

    def __getitem__(self, idx: int) -> Any:
        raise RuntimeError(
            f"'__getitem__' should not be called for IterableDataset {type(self).__name__}"
        )

    def __len__(self) -> int:
        raise RuntimeError(
            f"'__len__' should not be called for IterableDataset {type(self).__name__}"
        )


class TensorDataset(Dataset):
    """Samples are the rows of ``tensors`` (a list of Tensors with the same first dimension):
    item ``i`` is ``(t[i] for t in tensors)`` as a tuple."""

    def __init__(self, tensors: Sequence[Any]) -> None:
        from phiops.runtime.static.mode import in_static_mode

        if in_static_mode():
            raise RuntimeError("TensorDataset can only be used in imperative (dynamic) mode")
        if not isinstance(tensors, (list, tuple)) or len(tensors) == 0:
            raise InvalidArgumentError(
                "TensorDataset: argument 'tensors' must be a non-empty list of Tensors, got "
                f"{tensors!r}"
            )
        firsts = [_first_dim(tensor, position) for position, tensor in enumerate(tensors)]
        if any(first != firsts[0] for first in firsts):
            raise InvalidArgumentError(
                "TensorDataset: the tensors in 'tensors' must have the same first dimension, "
                f"got {firsts}"
            )
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Any, ...]:
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].shape[0])


def _first_dim(tensor: Any, position: int) -> int:
    shape = getattr(tensor, "shape", None)
    if shape is None or len(shape) == 0:
        raise InvalidArgumentError(
            f"TensorDataset: tensors[{position}] must be a Tensor with at least one dimension, "
            f"got {type(tensor).__name__} of shape {shape}"
        )
    return int(shape[0])


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


class ComposeDataset(Dataset):
    """Zips map-style datasets of one length: item ``i`` is a tuple of every dataset's fields
    of item ``i`` (a tuple or list sample contributes its fields, anything else itself)."""

    def __init__(self, datasets: list[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise InvalidArgumentError("ComposeDataset: argument 'datasets' must not be empty")
        for position, dataset in enumerate(self.datasets):
            if not isinstance(dataset, Dataset):
                raise InvalidArgumentError(
                    f"ComposeDataset: datasets[{position}] must be a paddle.io.Dataset, got "
                    f"{type(dataset).__name__}"
                )
            if isinstance(dataset, IterableDataset):
                raise InvalidArgumentError(
                    f"ComposeDataset: datasets[{position}] is an IterableDataset, which it does "
                    "not support"
                )
            if position > 0 and len(dataset) != len(self.datasets[0]):
                raise InvalidArgumentError(
                    f"ComposeDataset: the datasets must have the same length, datasets[0] has "
                    f"{len(self.datasets[0])} and datasets[{position}] {len(dataset)}"
                )

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        sample: list[Any] = []
        for dataset in self.datasets:
            sample.extend(_as_list(dataset[idx]))
        return tuple(sample)


class ChainDataset(IterableDataset):
    """Iterable datasets read one after another."""

    def __init__(self, datasets: list[IterableDataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise InvalidArgumentError("ChainDataset: argument 'datasets' must not be empty")
        for position, dataset in enumerate(self.datasets):
            if not isinstance(dataset, IterableDataset):
                raise InvalidArgumentError(
                    f"ChainDataset: datasets[{position}] must be a paddle.io.IterableDataset, "
                    f"got {type(dataset).__name__}"
                )

    def __iter__(self) -> Iterator[Any]:
        for dataset in self.datasets:
            yield from dataset


class ConcatDataset(Dataset):
    """Map-style datasets one after another: item ``i`` of the whole is item ``i - offset`` of
    the dataset it falls in; negative indices count from the end."""

    @staticmethod
    def cumsum(sequence: Sequence[Any]) -> list[int]:
        """The running total of the lengths of ``sequence``'s datasets."""
        totals, total = [], 0
        for dataset in sequence:
            total += len(dataset)
            totals.append(total)
        return totals

    def __init__(self, datasets: Sequence[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise InvalidArgumentError("ConcatDataset: argument 'datasets' must not be empty")
        for position, dataset in enumerate(self.datasets):
            if isinstance(dataset, IterableDataset):
                raise InvalidArgumentError(
                    f"ConcatDataset: datasets[{position}] is an IterableDataset, which it does "
                    "not support"
                )
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise InvalidArgumentError(
                    f"ConcatDataset: index {idx} is out of range for length {len(self)}"
                )
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        offset = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - offset]


class Subset(Dataset):
    """The items of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: int) -> Any:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(
    dataset: Dataset, lengths: Sequence[int], generator: Any | None = None
) -> list[Subset]:
    """Split ``dataset`` into non-overlapping random Subsets of the given ``lengths`` (which add
    up to ``len(dataset)``), or of those fractions of it (which add up to 1; the remainder goes
    one by one to the first splits). The permutation comes from phiops's global generator
    (``phiops.seed``), as PaddlePaddle's comes from ``paddle.randperm``; ``generator``, when
    given, is a numpy ``Generator`` or ``RandomState`` to draw it from instead."""
    lengths = list(lengths)
    total = len(dataset)
    if lengths and math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        split_lengths = []
        for position, fraction in enumerate(lengths):
            if fraction < 0 or fraction > 1:
                raise InvalidArgumentError(
                    f"random_split: fraction lengths[{position}] = {fraction} is not between "
                    "0 and 1"
                )
            split_lengths.append(int(math.floor(total * fraction)))
        for position in range(total - sum(split_lengths)):
            split_lengths[position % len(split_lengths)] += 1
        for position, length in enumerate(split_lengths):
            if length == 0:
                warnings.warn(
                    f"Length of split at index {position} is 0. This might result in an empty "
                    "dataset.",
                    stacklevel=2,
                )
        lengths = split_lengths
    for position, length in enumerate(lengths):
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise InvalidArgumentError(
                f"random_split: lengths[{position}] must be an int >= 0 (or all of them "
                f"fractions adding up to 1), got {length!r}"
            )
    if sum(lengths) != total:
        raise InvalidArgumentError(
            f"random_split: the lengths {lengths} add up to {sum(lengths)}, not to the "
            f"dataset's length {total}"
        )
    order = permutation(total, generator, "random_split")
    subsets, offset = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, order[offset : offset + length]))
        offset += length
    return subsets
