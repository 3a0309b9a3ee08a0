"""Small datasets shared by the tests of phiops.io, at module level so that worker processes can
use them however they are started."""

from __future__ import annotations

import os
import time

import numpy as np

from phiops.io import Dataset, IterableDataset, get_worker_info


class Indices(Dataset):
    """Item ``i`` is ``numpy.int64(i)``."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> np.int64:
        return np.int64(i)


class Pairs(Dataset):
    """Item ``i`` is ``(i * 10, "s<i>")``, or ``(array([i, i]), i * 10, "s<i>")`` with arrays."""

    def __init__(self, arrays: bool = False) -> None:
        self.arrays = arrays

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i: int) -> tuple:
        if self.arrays:
            return (np.array([i, i], np.float32), i * 10, f"s{i}")
        return (i * 10, f"s{i}")


class Nested(Dataset):
    """Samples mixing every kind the default collate handles."""

    def __len__(self) -> int:
        return 5

    def __getitem__(self, i: int) -> dict:
        import phiops

        return {
            "image": np.full((2, 3), i, np.float32),
            "label": i,
            "weight": float(i) / 2,
            "flag": bool(i % 2),
            "name": f"item{i}",
            "pair": (np.int32(i), np.array([i, i + 1], np.int16)),
            "tensor": phiops.to_tensor([i, -i], dtype="float64"),
        }


class WhoReads(Dataset):
    """Item ``i`` is ``[i, worker id, process id]`` (worker id -1 in the main process)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> list:
        info = get_worker_info()
        return [i, -1 if info is None else info.id, os.getpid()]


class FailsAt(Dataset):
    """Raises KeyError on item ``bad``."""

    def __init__(self, n: int, bad: int) -> None:
        self.n, self.bad = n, bad

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.bad:
            raise KeyError(f"item {i} is missing from the store")
        return i


class Slow(Dataset):
    """Sleeps ``seconds`` on item ``slow``."""

    def __init__(self, n: int, slow: int, seconds: float) -> None:
        self.n, self.slow, self.seconds = n, slow, seconds

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.slow:
            time.sleep(self.seconds)
        return i


class Stream(IterableDataset):
    """Yields ``start ... stop - 1``; with workers, each worker its share (every
    ``num_workers``-th value from ``start + id``)."""

    def __init__(self, start: int, stop: int) -> None:
        self.start, self.stop = start, stop

    def __iter__(self):
        info = get_worker_info()
        step, first = (1, self.start) if info is None else (info.num_workers, self.start + info.id)
        for value in range(first, self.stop, step):
            yield np.int64(value)


class Unsharded(IterableDataset):
    """Yields ``0 ... n - 1`` in every worker (no use of get_worker_info)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        yield from (np.int64(value) for value in range(self.n))


class RandomDraws(Dataset):
    """Item ``i`` is a draw of numpy's global generator (seeded per worker)."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> float:
        return float(np.random.random())


INIT_MARK: int | None = None


def mark_worker(worker_id: int) -> None:
    """A worker_init_fn that leaves ``worker_id * 100`` where ``InitMark`` reads it."""
    global INIT_MARK
    INIT_MARK = worker_id * 100


def fail_init(worker_id: int) -> None:
    """A worker_init_fn that fails in worker 1."""
    if worker_id == 1:
        raise ValueError("worker_init_fn refused worker 1")


class InitMark(Dataset):
    """Item ``i`` is ``[i, INIT_MARK]`` as the reading process sees it."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> list:
        return [i, -1 if INIT_MARK is None else INIT_MARK]


class DiesAt(Dataset):
    """The reading process exits abruptly (exit code 3) on item ``bad``."""

    def __init__(self, n: int, bad: int) -> None:
        self.n, self.bad = n, bad

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.bad:
            os._exit(3)
        return i


class TwoArgumentError(Exception):
    """An exception class that cannot be built from one message."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(code, reason)


class FailsOddly(Dataset):
    """Raises TwoArgumentError on every item."""

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> int:
        raise TwoArgumentError(7, "odd failure")
