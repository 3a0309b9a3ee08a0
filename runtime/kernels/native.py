"""The optional compiled kernels, and when a numpy kernel may use them.

`phiops.runtime.kernels._native` is a C extension built from ``runtime/kernels/csrc/`` by setup.py
when a C compiler is at hand (README, "Native kernels"); without it, or with
``FLAGS_use_native_kernels`` off, every kernel runs its numpy code. The C code takes C-contiguous
buffers of one float format; the kernels using it make their arrays so
(`np.ascontiguousarray`) after `native_kernels` has checked the array type and dtype, so a CuPy
array or another dtype never reaches it.

The convolution and pooling kernels take a range of rows of their output, so that `parallel_rows`
can split a large call between ``FLAGS_intra_op_threads`` threads: the C loops release the GIL,
so the threads run on separate cores (issue 26).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Callable

import numpy as np

from phiops.runtime import flags, runtime_flags  # noqa: F401 (defines FLAGS_use_native_kernels)

try:
    from phiops.runtime.kernels import _native
except ImportError:  # not built: no compiler at install time, or a source checkout
    _native = None

__all__ = [
    "NATIVE_BUILT",
    "machine_busy",
    "native_kernels",
    "native_function",
    "intra_op_threads",
    "parallel_rows",
]

NATIVE_BUILT = _native is not None
"""Whether the extension is importable here."""

_NATIVE_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def native_kernels(x: object) -> ModuleType | None:
    """The extension module when it is built, the flag allows it and ``x`` is a non-empty numpy
    array of native-order float32 or float64; None where the caller must use its numpy code."""
    if (
        _native is not None
        and type(x) is np.ndarray
        and x.dtype in _NATIVE_DTYPES
        and x.size
        and flags.flag_value("use_native_kernels")
    ):
        return _native
    return None


def native_function(x: object, name: str) -> Callable[..., None] | None:
    """The extension's function ``name`` where `native_kernels` accepts ``x`` and the module has
    it (an in-place build from older sources may not: then the caller's other path runs)."""
    module = native_kernels(x)
    return None if module is None else getattr(module, name, None)


flags.define_int32(
    "intra_op_threads",
    -1,
    "Threads for one call of the compiled convolution and pooling kernels "
    "(runtime/kernels/native.py): -1 one per core this process may run on, for calls of at "
    "least PARALLEL_MIN_WORK elements (smaller ones run on the calling thread), and one while "
    "the load average shows the cores busy; 1 never split a call; N > 1 up to N threads.",
)

PARALLEL_MIN_WORK = 1 << 21
"""Elements (read plus written) below which a call runs on one thread: handing a range to a
worker of the pool costs tens of microseconds (and, after a threaded BLAS product, the second
core may still be held by OpenBLAS's spinning thread). Timed on the model zoo in one process,
the thresholds alternating run by run (2 cores, 2026-11-28): 2^17 against 2^21, U-Net 5.4 ->
4.1 ms, the CRNN 1.6 -> 1.3 ms, GoogLeNet at 224x224 58 -> 53 ms, DenseNet121 25.3 -> 23.4 ms,
ResNet50 26.8 -> 25.6 ms, and never splitting no faster than 2^21 on any of nine models."""

_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_workers = 0


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


BUSY_CHECK_SECONDS = 1.0
"""How long `machine_busy`'s answer is kept."""

_busy_checked = float("-inf")
_busy = False


def machine_busy() -> bool:
    """Whether other work already occupies the cores: the 1-minute load average is at least the
    cores this process may run on plus one (this process's own threads count in it too), read
    at most once per `BUSY_CHECK_SECONDS`. On a machine that busy a second thread of ours waits
    for a core instead of helping, and threads that wait for each other (OpenBLAS's do) turn a
    0.5 ms product into 50-150 ms (bench/conv.py on 2 cores at a load of 9), so the automatic
    setting of ``FLAGS_intra_op_threads`` stays on one thread then, as OpenMP's dynamic
    adjustment does (``FLAGS_blas_threads`` keeps its own policy: set it to 1 on a shared
    machine). Where the load average is unknown: not busy."""
    global _busy_checked, _busy
    now = time.monotonic()
    if now - _busy_checked >= BUSY_CHECK_SECONDS:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # not on this platform
            load = 0.0
        _busy, _busy_checked = load >= _cores() + 1, now
    return _busy


def intra_op_threads() -> int:
    """The threads one large call may use, from ``FLAGS_intra_op_threads``: -1 the cores, or 1
    while `machine_busy`; N > 0 is N."""
    setting = flags.flag_value("intra_op_threads")
    if setting < 0:
        return 1 if machine_busy() else _cores()
    return max(setting, 1)


def _workers(count: int) -> ThreadPoolExecutor:
    global _pool, _pool_workers
    with _pool_lock:
        if _pool is None or _pool_workers < count:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(count, thread_name_prefix="phiops-intra-op")
            _pool_workers = count
        return _pool


def _forget_pool() -> None:
    """In a forked child the pool's threads are gone: start a new pool on the next call."""
    global _pool, _pool_workers, _pool_lock
    _pool, _pool_workers, _pool_lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def parallel_rows(run: Callable[[int, int], None], rows: int, work: int) -> None:
    """``run(r0, r1)`` over the rows [0, rows), split into contiguous ranges between
    `intra_op_threads` threads when ``work`` (elements the call reads and writes) is at least
    `PARALLEL_MIN_WORK`; the calling thread runs the first range. ``run`` must release the GIL
    (the extension's kernels do) and write only its own rows."""
    threads = min(intra_op_threads(), rows) if work >= PARALLEL_MIN_WORK else 1
    if threads <= 1:
        run(0, rows)
        return
    bounds = [rows * k // threads for k in range(threads + 1)]
    pool = _workers(threads - 1)
    futures = [pool.submit(run, bounds[k], bounds[k + 1]) for k in range(1, threads)]
    try:
        run(bounds[0], bounds[1])
    finally:
        for future in futures:
            future.result()
