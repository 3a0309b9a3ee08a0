"""Putting samples together into batches, and the two ends of the trip a batch makes from a
worker process: Tensors become numpy arrays to cross the process boundary, and numpy arrays
become Tensors in the main process."""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["default_collate_fn", "default_convert_fn", "to_host", "to_tensors"]


def default_collate_fn(batch: Sequence[Any]) -> Any:
    """A batch from a list of samples, as PaddlePaddle's: numpy arrays and numbers are stacked
    into one numpy array (the DataLoader makes it a Tensor), Tensors into one Tensor, dicts and
    lists/tuples field by field (tuples become lists), strings and bytes left as a list."""
    if len(batch) == 0:
        raise InvalidArgumentError("default_collate_fn: argument 'batch' is empty")
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        from phiops.runtime.dispatch.op_def import op_api

        return op_api("stack")(list(batch), 0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([item[key] for item in batch]) for key in sample}
    if isinstance(sample, Sequence):
        width = len(sample)
        if not all(len(item) == width for item in batch):
            raise InvalidArgumentError(
                "default_collate_fn: the samples of a batch have different numbers of fields: "
                f"{[len(item) for item in batch]}"
            )
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise InvalidArgumentError(
        "default_collate_fn: batch data can only contain Tensor, numpy.ndarray, dict, list, "
        f"tuple, number or str, got {type(sample).__name__}"
    )


def default_convert_fn(batch: Any) -> Any:
    """What the DataLoader does to a sample when it does not batch (``batch_size=None``): dicts
    and sequences are walked (tuples become lists), anything else kept."""
    if isinstance(batch, (Tensor, np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(item) for item in batch]
    return batch


def _walk(value: Any, leaf: Any) -> Any:
    if isinstance(value, Mapping) and not isinstance(value, Tensor):
        return {key: _walk(item, leaf) for key, item in value.items()}
    if isinstance(value, list):
        return [_walk(item, leaf) for item in value]
    if isinstance(value, tuple):
        return tuple(_walk(item, leaf) for item in value)
    return leaf(value)


def to_host(batch: Any) -> Any:
    """``batch`` with every Tensor replaced by a numpy copy of it, ready to be pickled."""
    return _walk(batch, lambda value: value.numpy().copy() if isinstance(value, Tensor) else value)


def to_tensors(batch: Any, place: Any = None) -> Any:
    """``batch`` with every numpy array made a Tensor (on ``place``, or the default place)."""
    return _walk(
        batch,
        lambda value: to_tensor(value, place=place) if isinstance(value, np.ndarray) else value,
    )
