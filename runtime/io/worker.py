"""What runs inside a DataLoader worker process: ``get_worker_info``, the fetchers that turn
index lists into batches, and the worker loop with its protocol.

The main process sends each worker ``(epoch, task, indices)`` on the worker's own queue and
``None`` to stop it; the worker answers every task exactly once on the shared result queue with
``(epoch, task, worker_id, payload)``, where the payload is a batch (Tensors turned into numpy
arrays), a ``WorkerError``, or ``END`` when an IterableDataset has no more samples (every later
task of that epoch is answered ``END`` too). A task of a new epoch restarts the worker's
iteration of an IterableDataset (persistent workers)."""

from __future__ import annotations

import os
import queue
import random
import sys
import traceback
from typing import Any, Callable

import numpy as np

from phiops.runtime.io.collate import to_host

__all__ = ["WorkerInfo", "get_worker_info", "WorkerError", "END", "make_fetcher", "worker_loop"]

POLL_SECONDS = 0.5  # how often an idle worker checks that its parent is still alive

_worker_info: WorkerInfo | None = None


class WorkerInfo:
    """Who this worker is: ``id`` (0 ... num_workers - 1), ``num_workers``, ``dataset`` (this
    worker's copy) and ``seed`` (the base seed of this epoch's workers; worker ``id`` seeded
    ``random``, numpy and phiops with ``seed + id``). Read-only."""

    __slots__ = ("id", "num_workers", "dataset", "seed")

    def __init__(self, id: int, num_workers: int, dataset: Any, seed: int) -> None:
        for name, value in (("id", id), ("num_workers", num_workers), ("dataset", dataset)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "seed", seed)

    def __setattr__(self, name: str, value: Any) -> None:
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


def get_worker_info() -> WorkerInfo | None:
    """In a DataLoader worker process, its WorkerInfo; in the main process, None."""
    return _worker_info


class _End:
    """The payload that says an IterableDataset ran out in this worker."""

    def __reduce__(self) -> str:
        return "END"


END = _End()


class WorkerError:
    """An exception raised in a worker, carried to the main process as text (its class by
    module and name, so that an exception class the main process cannot unpickle does not
    hide the error)."""

    def __init__(self, worker_id: int) -> None:
        exc_type, _, _ = sys.exc_info()
        self.worker_id = worker_id
        self.type_module = getattr(exc_type, "__module__", "builtins")
        self.type_name = getattr(exc_type, "__qualname__", "Exception")
        self.traceback_text = traceback.format_exc()

    def _exception_type(self) -> type[BaseException]:
        module = sys.modules.get(self.type_module)
        found: Any = module
        for part in self.type_name.split("."):
            found = getattr(found, part, None)
        if isinstance(found, type) and issubclass(found, Exception):
            return found
        return RuntimeError

    def reraise(self) -> None:
        """Raise the worker's exception here: the same class where it can be built from one
        message, else RuntimeError; the message names the worker and holds its traceback."""
        message = (
            f"DataLoader worker({self.worker_id}) caught {self.type_name} with message:\n"
            f"{self.traceback_text}"
        )
        exc_type = self._exception_type()
        try:
            error = exc_type(message)
        except Exception:
            error = RuntimeError(message)
        raise error from None


class _MapFetcher:
    def __init__(self, dataset: Any, auto_collate: bool, collate_fn: Callable, drop_last: bool):
        self.dataset = dataset
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn

    def fetch(self, indices: Any) -> Any:
        if self.auto_collate:
            return self.collate_fn([self.dataset[index] for index in indices])
        return self.collate_fn(self.dataset[indices])


class _IterableFetcher:
    """Raises StopIteration when the dataset has no sample left for this batch (or, with
    ``drop_last``, too few for a full one)."""

    def __init__(self, dataset: Any, auto_collate: bool, collate_fn: Callable, drop_last: bool):
        self.iterator = iter(dataset)
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, indices: Any) -> Any:
        if not self.auto_collate:
            return self.collate_fn(next(self.iterator))
        samples = []
        for _ in indices:
            try:
                samples.append(next(self.iterator))
            except StopIteration:
                break
        if not samples or (self.drop_last and len(samples) < len(indices)):
            raise StopIteration
        return self.collate_fn(samples)


def make_fetcher(
    iterable: bool, dataset: Any, auto_collate: bool, collate_fn: Callable, drop_last: bool
) -> Any:
    """The object whose ``fetch(indices)`` gives one batch of ``dataset``."""
    kind = _IterableFetcher if iterable else _MapFetcher
    return kind(dataset, auto_collate, collate_fn, drop_last)


def _seed_worker(seed: int) -> None:
    from phiops.runtime.random import seed as phiops_seed

    random.seed(seed)
    np.random.seed(seed % 2**32)
    phiops_seed(seed)


def worker_loop(
    dataset: Any,
    iterable: bool,
    index_queue: Any,
    result_queue: Any,
    done_event: Any,
    auto_collate: bool,
    collate_fn: Callable,
    drop_last: bool,
    init_fn: Callable[[int], None] | None,
    worker_id: int,
    num_workers: int,
    base_seed: int,
    parent_pid: int,
) -> None:
    """The body of worker ``worker_id``: answer tasks until told to stop (``None``), the main
    process sets ``done_event``, or the parent process is gone."""
    global _worker_info
    try:
        _seed_worker(base_seed + worker_id)
        _worker_info = WorkerInfo(
            id=worker_id, num_workers=num_workers, dataset=dataset, seed=base_seed
        )
        init_error: WorkerError | None = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(iterable, dataset, auto_collate, collate_fn, drop_last)
        except Exception:
            init_error = WorkerError(worker_id)
        epoch: int | None = None
        drained = False
        while True:
            try:
                task = index_queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if os.getppid() != parent_pid or done_event.is_set():
                    break
                continue
            if task is None or done_event.is_set():
                break
            task_epoch, task_id, indices = task
            if task_epoch != epoch:
                if epoch is not None and iterable and init_error is None:
                    fetcher = make_fetcher(iterable, dataset, auto_collate, collate_fn, drop_last)
                epoch, drained = task_epoch, False
            payload: Any
            if init_error is not None:
                payload = init_error
            elif drained:
                payload = END
            else:
                try:
                    payload = to_host(fetcher.fetch(indices))
                except StopIteration:
                    if not iterable:
                        payload = WorkerError(worker_id)
                    else:
                        payload, drained = END, True
                except Exception:
                    payload = WorkerError(worker_id)
            result_queue.put((task_epoch, task_id, worker_id, payload))
    except KeyboardInterrupt:
        pass
    finally:
        # the main process may have stopped reading: do not wait at exit for a full pipe
        result_queue.cancel_join_thread()
