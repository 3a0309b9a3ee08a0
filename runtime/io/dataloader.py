"""``DataLoader``: batches from a dataset, read in the main process (``num_workers=0``) or by
worker processes, returned as Tensors made in the main process.

With workers, the main process draws every batch's indices (so shuffles depend on
``phiops.seed`` only, never on the number of workers), sends them round-robin to the workers,
keeps ``prefetch_factor`` batches per worker in flight and hands batches back in order. Arrays
cross the process boundary pickled. An exception in a worker is raised again in the main
process, naming the worker and holding its traceback. Workers stop when the iterator is
exhausted, deleted or garbage-collected, on an error, and at interpreter exit; with
``persistent_workers=True`` they stay for the next epoch and stop with the DataLoader."""

from __future__ import annotations

import atexit
import itertools
import multiprocessing
import os
import queue
import time
import weakref
from typing import Any, Callable, Iterator


from phiops.runtime.common import to_place
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.io.batch_sampler import BatchSampler, InfiniteIterableSampler
from phiops.runtime.io.collate import default_collate_fn, default_convert_fn, to_tensors
from phiops.runtime.io.dataset import IterableDataset
from phiops.runtime.io.sampler import _is_int
from phiops.runtime.io.shuffle import global_generator
from phiops.runtime.io.worker import END, WorkerError, make_fetcher, worker_loop

__all__ = ["DataLoader"]

POLL_SECONDS = 0.5  # how often the main process checks its workers while it waits
JOIN_SECONDS = 5.0  # how long a stopping worker may take before it is terminated
FAILED_JOIN_SECONDS = 0.2  # the same after an error or a timeout: a worker may be stuck


class DataLoader:
    """Iterate over ``dataset`` in batches, as PaddlePaddle's ``paddle.io.DataLoader``.

    A batch is ``batch_size`` samples (or the indices of ``batch_sampler``; ``batch_size=None``
    gives the samples one by one) put together by ``collate_fn`` (default: numbers, numpy arrays
    and Tensors stacked into Tensors, dicts and lists/tuples field by field, strings kept as a
    list). ``shuffle`` draws the order from phiops's global generator (``phiops.seed``);
    ``drop_last`` drops a last, shorter batch. ``num_workers > 0`` reads in that many worker
    processes (``worker_init_fn(worker_id)`` runs first in each; ``prefetch_factor`` batches per
    worker are in flight; ``timeout`` > 0 seconds waiting for one batch is an error;
    ``persistent_workers`` keeps them across epochs).

    ``places`` is where the batches' Tensors go (the first place of a list). ``use_buffer_reader``,
    ``reader_buffer_size`` and ``use_shared_memory`` are accepted for PaddlePaddle's sake and
    change nothing: batches are read when asked for (in the main process) or prefetched by the
    workers, and cross from workers pickled. ``feed_list`` and ``return_list=False`` only matter
    to static programs, which phiops's DataLoader does not feed.
    """

    def __init__(
        self,
        dataset: Any,
        feed_list: Any = None,
        places: Any = None,
        return_list: bool = True,
        batch_sampler: Any = None,
        batch_size: int | None = 1,
        shuffle: bool = False,
        drop_last: bool = False,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        num_workers: int = 0,
        use_buffer_reader: bool = True,
        reader_buffer_size: int = 2,
        prefetch_factor: int = 2,
        use_shared_memory: bool = True,
        timeout: int = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        persistent_workers: bool = False,
    ) -> None:
        from phiops.runtime.static.mode import in_static_mode

        if not return_list and in_static_mode():
            raise UnimplementedError(
                "DataLoader: return_list=False (feeding a static program through feed_list) is "
                "not implemented in phiops; iterate in dynamic mode and pass the batches in feed"
            )
        self.return_list = return_list
        self.feed_list = feed_list
        self.places = self._places(places)
        self.dataset = dataset
        for name, value in (("shuffle", shuffle), ("drop_last", drop_last)):
            if not isinstance(value, bool):
                raise InvalidArgumentError(
                    f"DataLoader: argument '{name}' must be a bool, got {value!r}"
                )
        if not _is_int(num_workers) or num_workers < 0:
            raise InvalidArgumentError(
                f"DataLoader: argument 'num_workers' must be a non-negative integer, got "
                f"{num_workers!r}"
            )
        if not _is_int(prefetch_factor) or prefetch_factor <= 0:
            raise InvalidArgumentError(
                f"DataLoader: argument 'prefetch_factor' must be a positive integer, got "
                f"{prefetch_factor!r}"
            )
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0:
            raise InvalidArgumentError(
                f"DataLoader: argument 'timeout' must be a non-negative number of seconds, got "
                f"{timeout!r}"
            )
        for name, function in (("collate_fn", collate_fn), ("worker_init_fn", worker_init_fn)):
            if function is not None and not callable(function):
                raise InvalidArgumentError(
                    f"DataLoader: argument '{name}' must be callable or None, got "
                    f"{type(function).__name__}"
                )
        self.collate_fn = collate_fn
        self.num_workers = int(num_workers)
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = int(prefetch_factor)
        self.use_shared_memory = bool(use_shared_memory) and self.num_workers > 0
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.iterable = isinstance(dataset, IterableDataset)
        if self.iterable:
            if shuffle:
                raise InvalidArgumentError(
                    f"DataLoader: an IterableDataset cannot be shuffled, got shuffle={shuffle}"
                )
            if batch_sampler is not None:
                raise InvalidArgumentError("DataLoader: an IterableDataset takes no batch_sampler")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise InvalidArgumentError(
                    "DataLoader: batch_size/shuffle/drop_last should not be set when "
                    f"batch_sampler is given, got batch_size={batch_size!r}, shuffle={shuffle}, "
                    f"drop_last={drop_last}"
                )
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            if not _is_int(batch_size) or batch_size <= 0:
                raise InvalidArgumentError(
                    "DataLoader: argument 'batch_size' must be None or a positive integer when "
                    f"batch_sampler is not given, got {batch_size!r}"
                )
            self.batch_size = int(batch_size)
            if self.iterable:
                self.batch_sampler = InfiniteIterableSampler(dataset, self.batch_size)
            else:
                self.batch_sampler = BatchSampler(
                    dataset=dataset,
                    batch_size=self.batch_size,
                    shuffle=shuffle,
                    drop_last=drop_last,
                )
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self._persistent_workers = bool(persistent_workers)
        self._iterator: _MultiProcessIterator | None = None

    @staticmethod
    def _places(places: Any) -> list[Any]:
        if places is None:
            return []
        listed = list(places) if isinstance(places, (list, tuple)) else [places]
        return [to_place(place, "DataLoader(places)") for place in listed]

    def __len__(self) -> int:
        if self.iterable:
            raise InvalidArgumentError(
                "DataLoader: the length of an IterableDataset's loader is not known"
            )
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            return _SingleProcessIterator(self)
        if self._persistent_workers:
            if self._iterator is None or self._iterator.closed:
                self._iterator = _MultiProcessIterator(self)
            else:
                self._iterator.start_epoch()
            return self._iterator
        return _MultiProcessIterator(self)

    def __call__(self) -> Iterator[Any]:
        return self.__iter__()

    def __del__(self) -> None:
        iterator = getattr(self, "_iterator", None)
        if iterator is not None:
            iterator.close()


def _index_sampler(loader: DataLoader) -> Any:
    if loader.auto_collate_batch:
        return loader.batch_sampler
    if loader.iterable:
        return InfiniteIterableSampler(loader.dataset, 1)
    return range(len(loader.dataset))


def _draw_epoch_seed() -> int:
    """The workers' base seed for a pass, from phiops's global generator. Every pass draws one,
    with or without workers, so that the shuffles that follow it are the same whatever
    ``num_workers`` is."""
    return int(global_generator().integers(0, 2**62))


def _collate_fn(loader: DataLoader) -> Callable[[Any], Any]:
    if loader.collate_fn is not None:
        return loader.collate_fn
    return default_collate_fn if loader.auto_collate_batch else default_convert_fn


class _SingleProcessIterator:
    """Reads each batch in the main process when it is asked for."""

    def __init__(self, loader: DataLoader) -> None:
        self._fetcher = make_fetcher(
            loader.iterable,
            loader.dataset,
            loader.auto_collate_batch,
            _collate_fn(loader),
            loader.drop_last,
        )
        _draw_epoch_seed()
        self._indices = iter(_index_sampler(loader))
        self._place = loader.places[0] if loader.places else None
        self._length = None if loader.iterable else len(loader)

    def __iter__(self) -> _SingleProcessIterator:
        return self

    def __len__(self) -> int:
        if self._length is None:
            raise InvalidArgumentError(
                "DataLoader: the length of an IterableDataset's loader is not known"
            )
        return self._length

    def __next__(self) -> Any:
        indices = next(self._indices)
        return to_tensors(self._fetcher.fetch(indices), self._place)


_LIVE: weakref.WeakSet[_MultiProcessIterator] = weakref.WeakSet()


@atexit.register
def _close_live_iterators() -> None:
    for iterator in list(_LIVE):
        iterator.close()


class _MultiProcessIterator:
    """Worker processes, their queues and the bookkeeping that returns batches in order.

    Holds what it needs of the loader, not the loader itself, so that a DataLoader with
    persistent workers and its iterator form no reference cycle and both go when the user
    drops the loader."""

    def __init__(self, loader: DataLoader) -> None:
        self._index_sampler = _index_sampler(loader)
        self._length = None if loader.iterable else len(loader)
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor * loader.num_workers
        self._timeout = float(loader.timeout)
        self._persistent = loader._persistent_workers
        self._place = loader.places[0] if loader.places else None
        self.closed = False
        self._owner_pid = os.getpid()
        self._epoch = 0
        base_seed = _draw_epoch_seed()
        context = multiprocessing.get_context()
        self._done_event = context.Event()
        self._result_queue = context.Queue()
        self._index_queues = []
        self._workers = []
        try:
            for worker_id in range(self._num_workers):
                index_queue = context.Queue()
                # a task left in the pipe must not keep the main process from exiting
                index_queue.cancel_join_thread()
                worker = context.Process(
                    target=worker_loop,
                    args=(
                        loader.dataset,
                        loader.iterable,
                        index_queue,
                        self._result_queue,
                        self._done_event,
                        loader.auto_collate_batch,
                        _collate_fn(loader),
                        loader.drop_last,
                        loader.worker_init_fn,
                        worker_id,
                        self._num_workers,
                        base_seed,
                        os.getpid(),
                    ),
                    name=f"phiops-DataLoader-worker-{worker_id}",
                    daemon=True,
                )
                worker.start()
                self._index_queues.append(index_queue)
                self._workers.append(worker)
        except BaseException:
            self.close()
            raise
        _LIVE.add(self)
        self._begin_epoch()

    # ---- one epoch

    def start_epoch(self) -> None:
        """Begin another pass with the same (persistent) workers."""
        _draw_epoch_seed()
        self._begin_epoch()

    def _begin_epoch(self) -> None:
        """Begin a pass over the sampler: results still on their way from an earlier pass are
        recognised by their epoch and dropped."""
        self._epoch += 1
        self._indices = iter(self._index_sampler)
        self._sampler_done = False
        self._active = [True] * self._num_workers
        self._next_worker = itertools.cycle(range(self._num_workers))
        self._sent = 0
        self._received = 0
        self._owner: dict[int, int] = {}
        self._results: dict[int, Any] = {}
        for _ in range(self._prefetch):
            if not self._send_task():
                break

    def _send_task(self) -> bool:
        if self._sampler_done or not any(self._active):
            return False
        try:
            indices = next(self._indices)
        except StopIteration:
            self._sampler_done = True
            return False
        worker_id = next(self._next_worker)
        while not self._active[worker_id]:
            worker_id = next(self._next_worker)
        self._index_queues[worker_id].put((self._epoch, self._sent, indices))
        self._owner[self._sent] = worker_id
        self._sent += 1
        return True

    def __iter__(self) -> _MultiProcessIterator:
        return self

    def __len__(self) -> int:
        if self._length is None:
            raise InvalidArgumentError(
                "DataLoader: the length of an IterableDataset's loader is not known"
            )
        return self._length

    def __next__(self) -> Any:
        if self.closed:
            raise StopIteration
        while True:
            if self._received == self._sent:
                if not self._persistent:
                    self.close()
                raise StopIteration
            task = self._received
            if task not in self._results:
                self._wait_for(task)
                continue
            payload = self._results.pop(task)
            del self._owner[task]
            self._received += 1
            self._send_task()
            if payload is END:
                continue
            if isinstance(payload, WorkerError):
                self.close(FAILED_JOIN_SECONDS)
                payload.reraise()
            return to_tensors(payload, self._place)

    def _wait_for(self, task: int) -> None:
        """Take results off the queue until one arrives; raise if it takes longer than the
        timeout or a worker died."""
        started = time.monotonic()
        while True:
            wait = POLL_SECONDS
            if self._timeout > 0:
                left = self._timeout - (time.monotonic() - started)
                if left <= 0:
                    worker_id = self._owner[task]
                    self.close(FAILED_JOIN_SECONDS)
                    raise TimeoutError(
                        f"DataLoader timed out after {self._timeout:g} seconds waiting for "
                        f"batch {task} of worker {worker_id} (argument 'timeout')"
                    )
                wait = min(wait, left)
            try:
                epoch, task_id, worker_id, payload = self._result_queue.get(timeout=wait)
            except queue.Empty:
                self._check_workers_alive()
                continue
            if epoch != self._epoch:
                continue
            if payload is END:
                self._active[worker_id] = False
            self._results[task_id] = payload
            return

    def _check_workers_alive(self) -> None:
        for worker_id, worker in enumerate(self._workers):
            if not worker.is_alive():
                exit_code = worker.exitcode
                self.close(FAILED_JOIN_SECONDS)
                raise RuntimeError(
                    f"DataLoader worker {worker_id} (pid {worker.pid}) exited unexpectedly "
                    f"with exit code {exit_code}"
                )

    # ---- shutdown

    def close(self, patience: float = JOIN_SECONDS) -> None:
        """Stop the workers and release the queues (idempotent); a worker still running after
        ``patience`` seconds is terminated."""
        if self.closed or os.getpid() != self._owner_pid:
            return  # a forked worker's copy of an iterator owns none of its processes
        self.closed = True
        _LIVE.discard(self)
        self._done_event.set()
        for index_queue in self._index_queues:
            try:
                index_queue.put(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + patience
        for worker in self._workers:
            worker.join(timeout=max(0.0, deadline - time.monotonic()))
            if worker.is_alive():
                worker.terminate()
                worker.join()
        for index_queue in self._index_queues:
            index_queue.close()
        self._result_queue.cancel_join_thread()
        self._result_queue.close()

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close()
