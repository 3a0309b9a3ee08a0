"""PaddlePaddle's samplers: iterables of dataset indices. Random ones draw from phiops's global
generator (``phiops.seed``), in the main process."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.io.shuffle import global_generator

__all__ = [
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
]


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class Sampler:
    """Base class of the samplers: subclasses give ``__iter__`` (indices) and usually
    ``__len__``."""

    def __init__(self, data_source: Any | None = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"'__iter__' not implemented in class {type(self).__name__}")


class SequenceSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """``num_samples`` (default ``len(data_source)``) random indices of ``data_source``, without
    repeats unless ``replacement``. ``generator``, as in PaddlePaddle, is an iterator of indices
    to take instead (its first ``num_samples``); without it the indices come from phiops's global
    generator, so ``phiops.seed(n)`` fixes the order."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Any | None = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise InvalidArgumentError(
                f"RandomSampler: argument 'replacement' must be a bool, got {replacement!r}"
            )
        if generator is not None and not hasattr(generator, "__next__"):
            raise InvalidArgumentError(
                "RandomSampler: argument 'generator' must be None or an iterator of indices "
                f"(a Python generator), got {type(generator).__name__}"
            )
        if num_samples is not None and (not _is_int(num_samples) or num_samples <= 0):
            raise InvalidArgumentError(
                "RandomSampler: argument 'num_samples' must be a positive integer, got "
                f"num_samples={num_samples!r}"
            )
        if not replacement and self.num_samples > len(data_source):
            raise InvalidArgumentError(
                "RandomSampler: argument 'num_samples' must be <= len(data_source) when "
                f"replacement is False, got num_samples: {self.num_samples} > data_source: "
                f"{len(data_source)}"
            )
        if self.num_samples <= 0:
            raise InvalidArgumentError(
                "RandomSampler: argument 'data_source' is empty, so there is nothing to sample"
            )

    @property
    def num_samples(self) -> int:
        """How many indices one pass yields."""
        if self._num_samples is None:
            return len(self.data_source)
        return int(self._num_samples)

    def __iter__(self) -> Iterator[int]:
        if self.generator is not None:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        drawn = global_generator().choice(
            len(self.data_source), self.num_samples, replace=self.replacement
        )
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


def _weights_array(weights: Any) -> np.ndarray:
    if hasattr(weights, "numpy") and not isinstance(weights, np.ndarray):
        weights = weights.numpy()
    if not isinstance(weights, (np.ndarray, list, tuple)):
        raise InvalidArgumentError(
            "WeightedRandomSampler: argument 'weights' must be a Tensor, numpy.ndarray, list or "
            f"tuple, got {type(weights).__name__}"
        )
    array = np.asarray(weights, dtype=np.float64)
    if array.ndim not in (1, 2) or array.shape[-1] == 0:
        raise InvalidArgumentError(
            "WeightedRandomSampler: argument 'weights' must be a non-empty 1-D or 2-D array, "
            f"got shape {list(array.shape)}"
        )
    return array.reshape(-1, array.shape[-1])


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices of ``range(len(weights))`` drawn with probabilities proportional
    to ``weights`` (with replacement unless ``replacement=False``); a 2-D ``weights`` draws
    ``num_samples`` for each row, one row after another."""

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True) -> None:
        if not _is_int(num_samples) or num_samples <= 0:
            raise InvalidArgumentError(
                "WeightedRandomSampler: argument 'num_samples' must be a positive integer, got "
                f"{num_samples!r}"
            )
        if not isinstance(replacement, bool):
            raise InvalidArgumentError(
                "WeightedRandomSampler: argument 'replacement' must be a bool, got "
                f"{replacement!r}"
            )
        rows = _weights_array(weights)
        if not np.all(np.isfinite(rows)):
            raise InvalidArgumentError(
                "WeightedRandomSampler: argument 'weights' must not hold inf or NaN"
            )
        if np.any(rows < 0):
            raise InvalidArgumentError("WeightedRandomSampler: argument 'weights' must be >= 0")
        positives = np.sum(rows > 0, axis=1)
        if np.any(positives == 0):
            raise InvalidArgumentError(
                "WeightedRandomSampler: every row of argument 'weights' needs a positive weight"
            )
        if not replacement and np.any(positives < num_samples):
            raise InvalidArgumentError(
                "WeightedRandomSampler: with replacement=False each row of 'weights' needs at "
                f"least num_samples={num_samples} positive weights, got {positives.tolist()}"
            )
        self.weights = weights
        self.num_samples = int(num_samples)
        self.replacement = replacement
        self._rows = rows

    def __iter__(self) -> Iterator[int]:
        generator = global_generator()
        drawn = [
            generator.choice(
                row.shape[0], self.num_samples, replace=self.replacement, p=row / row.sum()
            )
            for row in self._rows
        ]
        return iter(np.concatenate(drawn).tolist())

    def __len__(self) -> int:
        return self.num_samples * self._rows.shape[0]


class SubsetRandomSampler(Sampler):
    """The elements of ``indices`` in a random order (phiops's global generator)."""

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise InvalidArgumentError("SubsetRandomSampler: argument 'indices' must not be empty")
        self.indices = indices

    def __iter__(self) -> Iterator[Any]:
        for position in global_generator().permutation(len(self.indices)).tolist():
            yield self.indices[position]

    def __len__(self) -> int:
        return len(self.indices)
