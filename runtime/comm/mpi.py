"""MPICommContext: collectives on numpy arrays through MPI (mpi4py), the CPU engine.

Arrays go to MPI as they are, through the buffer protocol (no copy): MPI's own reductions serve
the dtypes it knows (integers, float32/64, complex); bool, float16 and bfloat16, which MPI cannot
reduce, are gathered as bytes and reduced with numpy in rank order. Every call is MPI's
non-blocking form, finished by a wait that polls it and, while it waits, watches for trouble:

- a rank that raised (``report_failure``, sent by the hook ``fail_fast_on_exception`` installs)
  makes the waiting ranks raise a ``CommunicationError`` naming it and its error;
- a rank on this host whose process is gone is named the same way;
- nothing finishing within the context's timeout (``PHIOPS_COMM_TIMEOUT`` seconds, 1800 unless
  set, as PaddlePaddle's default) is a ``CommunicationError`` too, never a silent hang.
"""

from __future__ import annotations

import os
import socket
import sys
import time
import traceback
from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime.comm.context import (
    SIGNATURE_LENGTH,
    CommContext,
    CommunicationError,
    DoneWork,
    ReduceOp,
    Work,
    check_reducible,
    divide_in_place,
    message_of_signature,
    mismatch_error,
    reduce_arrays,
    signature_of,
)
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError

__all__ = [
    "MPICommContext",
    "mpi",
    "launched_by_mpi",
    "default_timeout",
    "report_failure",
    "fail_fast_on_exception",
]

# Environment variables an MPI launcher sets in the processes it starts (MPICH's Hydra, Open MPI).
_LAUNCHER_VARIABLES = ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK")
_NATIVE_DTYPES = frozenset(
    np.dtype(name).str
    for name in ("int8", "uint8", "int16", "int32", "int64", "float32", "float64")
    + ("complex64", "complex128")
)
_HEADER_TAG, _DATA_TAG, _FAILURE_TAG = 11, 12, 13


def launched_by_mpi() -> bool:
    """Whether this process was started by an MPI launcher (mpiexec, mpirun, phiops launch)."""
    return any(name in os.environ for name in _LAUNCHER_VARIABLES)


def default_timeout() -> float:
    """Seconds a collective may wait for the other ranks: ``PHIOPS_COMM_TIMEOUT`` or 1800."""
    text = os.environ.get("PHIOPS_COMM_TIMEOUT", "1800")
    try:
        value = float(text)
    except ValueError:
        raise InvalidArgumentError(
            f"PHIOPS_COMM_TIMEOUT must be a number of seconds, got {text!r}"
        ) from None
    if not value > 0:
        raise InvalidArgumentError(f"PHIOPS_COMM_TIMEOUT must be positive, got {text!r}")
    return value


def mpi() -> Any:
    """mpi4py's MPI module (initialising MPI on first use)."""
    try:
        from mpi4py import MPI  # type: ignore[import-not-found]
    except ImportError:
        raise PreconditionNotMetError(
            "phiops.distributed on CPU needs mpi4py and an MPI library: install "
            "'phiops[distributed]' (mpi4py with MPICH's wheel)"
        ) from None
    return MPI


class _World:
    """What every context of this process shares: the failure channel and who the ranks are."""

    def __init__(self) -> None:
        MPI = mpi()
        world = MPI.COMM_WORLD
        self.rank = world.Get_rank()
        self.size = world.Get_size()
        self.failures = world.Dup()
        self.host = socket.gethostname()
        self.peers: list[tuple[str, int]] = world.allgather((self.host, os.getpid()))
        self.failed: str | None = None

    def check(self, where: str, world_ranks: Sequence[int]) -> None:
        """Raise a CommunicationError if a rank reported a failure or one of ``world_ranks`` on
        this host has exited."""
        MPI = mpi()
        status = MPI.Status()
        if self.failures.Iprobe(source=MPI.ANY_SOURCE, tag=_FAILURE_TAG, status=status):
            message = self.failures.recv(source=status.Get_source(), tag=_FAILURE_TAG)
            self.failed = f"rank {status.Get_source()} failed: {message}"
        if self.failed is None:
            for rank in world_ranks:
                host, pid = self.peers[rank]
                if host == self.host and rank != self.rank and not _alive(pid):
                    self.failed = f"rank {rank} (pid {pid} on {host}) exited"
                    break
        if self.failed is not None:
            raise CommunicationError(f"{where}: {self.failed}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True


_WORLD: _World | None = None


def _world() -> _World:
    global _WORLD
    if _WORLD is None:
        _WORLD = _World()
    return _WORLD


def report_failure(message: str) -> None:
    """Tell every other rank that this one failed with ``message`` (best effort, for about a
    second), so that they raise a CommunicationError naming it instead of waiting."""
    if _WORLD is None:
        return
    world = _WORLD
    requests = [
        world.failures.isend(message, dest=rank, tag=_FAILURE_TAG)
        for rank in range(world.size)
        if rank != world.rank
    ]
    deadline = time.monotonic() + 1.0
    while requests and time.monotonic() < deadline:
        requests = [request for request in requests if not request.Test()]
        time.sleep(0.001)


def fail_fast_on_exception() -> None:
    """Install a ``sys.excepthook`` that prints the error with this rank's number, reports it to
    the other ranks and ends the process at once (MPI_Finalize would wait for them)."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        rank = _WORLD.rank if _WORLD is not None else "?"
        text = "".join(traceback.format_exception_only(kind, error)).strip()
        sys.stderr.write(f"[rank {rank}] uncaught {text}\n")
        previous(kind, error, trace)
        sys.stderr.flush()
        sys.stdout.flush()
        report_failure(text)
        os._exit(1)

    sys.excepthook = hook


class _Request(Work):
    """An MPI request (or several), finished by polling with the context's watchdog."""

    __slots__ = ("_context", "_requests", "_what", "_finish")

    def __init__(
        self,
        context: "MPICommContext",
        requests: list[Any],
        what: str,
        finish: Callable[[], None] | None = None,
    ) -> None:
        self._context = context
        self._requests = requests
        self._what = what
        self._finish = finish

    def is_completed(self) -> bool:
        try:
            return bool(mpi().Request.Testall(self._requests))
        except mpi().Exception as error:
            self._context.raise_failure(self._what, error)
            raise

    def wait(self) -> None:
        if self._requests:
            self._context.wait_all(self._requests, self._what)
            self._requests = []
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()


_MPI_OPS = {ReduceOp.SUM: "SUM", ReduceOp.MAX: "MAX", ReduceOp.MIN: "MIN", ReduceOp.PROD: "PROD"}


def _bytes(array: np.ndarray) -> np.ndarray:
    """The array's memory as a flat uint8 view (no copy for a contiguous array)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


class MPICommContext(CommContext):
    """A ring of MPI processes (a communicator); arrays are numpy arrays."""

    backend_name = "MPI"

    def __init__(
        self,
        ring_id: int,
        comm: Any,
        world_ranks: Sequence[int],
        timeout: float | None = None,
    ) -> None:
        super().__init__(ring_id, comm.Get_rank(), comm.Get_size())
        self.comm = comm
        self.world_ranks = tuple(world_ranks)
        self.timeout = default_timeout() if timeout is None else float(timeout)

    @classmethod
    def world(cls, ring_id: int = 0, timeout: float | None = None) -> "MPICommContext":
        """The context over every process of the MPI job (collective: every rank calls it)."""
        world = _world()
        comm = mpi().COMM_WORLD.Dup()
        return cls(ring_id, comm, range(world.size), timeout)

    # --- waiting ---------------------------------------------------------------------------

    def wait_all(self, requests: list[Any], what: str) -> None:
        MPI = mpi()
        where = self.where(what)
        try:
            if MPI.Request.Testall(requests):
                return
            start = time.monotonic()
            next_check, spins = start + 0.05, 0
            while not MPI.Request.Testall(requests):
                now = time.monotonic()
                if now >= next_check:
                    _world().check(where, self.world_ranks)
                    if now - start > self.timeout:
                        raise CommunicationError(
                            f"{where}: the other ranks did not join within {self.timeout:g} s "
                            "(PHIOPS_COMM_TIMEOUT); every rank of the ring must call the same "
                            "collectives in the same order"
                        )
                    next_check = now + 0.05
                spins += 1
                if spins > 200:
                    time.sleep(0.0002 if spins < 2000 else 0.001)
        except MPI.Exception as error:
            self.raise_failure(what, error)
            raise

    def raise_failure(self, what: str, error: Exception) -> None:
        where = self.where(what)
        _world().check(where, self.world_ranks)
        raise CommunicationError(f"{where}: MPI failed: {error}") from None

    def agree(self, kind: str, array: Any, extra: int = 0) -> None:
        """Check that every rank calls ``kind`` with the same dtype, shape and ``extra``."""
        if self.size == 1:
            return
        mine = signature_of(kind, array, extra)
        every = np.empty((self.size, SIGNATURE_LENGTH), dtype=np.int64)
        self.wait_all([self.comm.Iallgather(mine, every)], f"{kind} (checking shapes)")
        mismatch_error(self.where(kind), every)

    # --- collectives -----------------------------------------------------------------------

    def all_reduce(self, x: np.ndarray, out: np.ndarray, op: ReduceOp) -> Work:
        what = "all_reduce"
        check_reducible(x.dtype, op, self.where(what))
        self.agree(what, x, int(op))
        if self._native(x.dtype):
            # The same array in and out (DataParallel's buckets, the functional API): MPI's
            # in-place form.
            source = mpi().IN_PLACE if x is out else np.ascontiguousarray(x)
            request = self.comm.Iallreduce(source, out, op=self._mpi_op(op))
            finish = (lambda: divide_in_place(np, out, self.size)) if op is ReduceOp.AVG else None
            return _Request(self, [request], what, finish)
        return self._gathered_reduce(what, x, op, lambda result: out.__setitem__(..., result))

    def reduce(self, x: np.ndarray, out: np.ndarray, root: int, op: ReduceOp) -> Work:
        what = "reduce"
        self.check_root(what, root)
        check_reducible(x.dtype, op, self.where(what))
        self.agree(what, x, int(op) * 1000 + root)
        if self._native(x.dtype):
            x = np.ascontiguousarray(x)
            if self.rank != root:
                out[...] = x
            request = self.comm.Ireduce(x, out if self.rank == root else None, self._mpi_op(op), root)
            finish = None
            if op is ReduceOp.AVG and self.rank == root:
                finish = lambda: divide_in_place(np, out, self.size)  # noqa: E731
            return _Request(self, [request], what, finish)

        def place(result: np.ndarray) -> None:
            out[...] = result if self.rank == root else x

        return self._gathered_reduce(what, x, op, place)

    def reduce_scatter(self, x: np.ndarray, out: np.ndarray, op: ReduceOp) -> Work:
        what = "reduce_scatter"
        self.check_divisible(what, x)
        check_reducible(x.dtype, op, self.where(what))
        self.agree(what, x, int(op))
        if self._native(x.dtype):
            x = np.ascontiguousarray(x)
            request = self.comm.Ireduce_scatter_block(x, out, op=self._mpi_op(op))
            finish = (lambda: divide_in_place(np, out, self.size)) if op is ReduceOp.AVG else None
            return _Request(self, [request], what, finish)
        part = x.shape[0] // self.size
        start = self.rank * part
        return self._gathered_reduce(
            what, x, op, lambda result: out.__setitem__(..., result[start : start + part])
        )

    def broadcast(self, buffer: np.ndarray, root: int) -> Work:
        what = "broadcast"
        self.check_root(what, root)
        self.agree(what, buffer, root)
        return _Request(self, [self.comm.Ibcast(_bytes(buffer), root)], what)

    def all_gather(self, x: np.ndarray, out: np.ndarray) -> Work:
        what = "all_gather"
        self.agree(what, x)
        return _Request(self, [self.comm.Iallgather(_bytes(x), _bytes(out))], what)

    def all_to_all(self, x: np.ndarray, out: np.ndarray) -> Work:
        what = "all_to_all"
        self.check_divisible(what, x)
        self.agree(what, x)
        return _Request(self, [self.comm.Ialltoall(_bytes(x), _bytes(out))], what)

    def barrier(self) -> Work:
        return _Request(self, [self.comm.Ibarrier()], "barrier")

    def send(self, x: np.ndarray, peer: int) -> Work:
        what = f"send to rank {peer}"
        self.check_root("send", peer)
        header = signature_of("send", x)
        data = _bytes(x)
        requests = [
            self.comm.Isend(header, peer, _HEADER_TAG),
            self.comm.Isend(data, peer, _DATA_TAG),
        ]
        return _Request(self, requests, what)

    def recv(self, out: np.ndarray, peer: int) -> Work:
        what = f"recv from rank {peer}"
        self.check_root("recv", peer)
        header = np.empty(SIGNATURE_LENGTH, dtype=np.int64)
        self.wait_all([self.comm.Irecv(header, peer, _HEADER_TAG)], what)
        expected = signature_of("send", out)
        if not (header == expected).all():
            mismatch_error(self.where(what), np.stack([header, expected]))
        return _Request(self, [self.comm.Irecv(_bytes(out), peer, _DATA_TAG)], what)

    def send_with_shape(self, x: np.ndarray, peer: int) -> Work:
        # every send carries its dtype and shape (the header ``recv`` checks)
        return self.send(x, peer)

    def recv_with_shape(self, dtype: np.dtype, peer: int) -> tuple[np.ndarray, Work]:
        what = f"recv from rank {peer}"
        self.check_root("recv", peer)
        header = np.empty(SIGNATURE_LENGTH, dtype=np.int64)
        self.wait_all([self.comm.Irecv(header, peer, _HEADER_TAG)], what)
        sent_dtype, shape = message_of_signature(header, self.where(what))
        out = np.empty(shape, dtype=sent_dtype)
        request = _Request(self, [self.comm.Irecv(_bytes(out), peer, _DATA_TAG)], what)
        if np.dtype(sent_dtype) != np.dtype(dtype):
            request.wait()  # the message is taken all the same, so the next recv gets the next
            self.check_received_dtype(what, sent_dtype, dtype, peer)
        return out, request

    def split(self, ranks: Sequence[int], ring_id: int) -> CommContext | None:
        ranks = list(ranks)
        if len(set(ranks)) != len(ranks) or not all(0 <= r < self.size for r in ranks):
            raise InvalidArgumentError(
                f"{self.where('new_group')}: ranks must be distinct ranks in [0, {self.size}), "
                f"got {ranks}"
            )
        group = self.comm.Get_group().Incl(ranks)
        comm = self.comm.Create(group)
        group.Free()
        if comm == mpi().COMM_NULL:
            return None
        world_ranks = [self.world_ranks[r] for r in ranks]
        return MPICommContext(ring_id, comm, world_ranks, self.timeout)

    # --- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _native(dtype: np.dtype) -> bool:
        return dtype.str in _NATIVE_DTYPES

    @staticmethod
    def _mpi_op(op: ReduceOp) -> Any:
        return getattr(mpi(), _MPI_OPS[ReduceOp.SUM if op is ReduceOp.AVG else op])

    def _gathered_reduce(
        self, what: str, x: np.ndarray, op: ReduceOp, place: Callable[[np.ndarray], None]
    ) -> Work:
        """A reduction MPI cannot do (bool, float16, bfloat16): gather every rank's bytes, then
        reduce them in rank order with numpy when the work is waited for."""
        gathered = np.empty((self.size,) + x.shape, dtype=x.dtype)
        request = self.comm.Iallgather(_bytes(x), _bytes(gathered))
        return _Request(self, [request], what, lambda: place(reduce_arrays(np, gathered, op)))
