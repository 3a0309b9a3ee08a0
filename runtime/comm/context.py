"""CommContext: one communicator (a ring of ranks) that the collective kernels call.

PHI keeps one ``CommContext`` per ring id in ``CommContextManager``; a collective kernel finds
its ring's context and calls it (paddle/phi/core/distributed/comm_context_manager.h). Here a
context works on arrays of its backend (numpy for the MPI context, CuPy for the NCCL one) and
every call returns a ``Work`` whose ``wait()`` finishes it: the kernels wait at once, the
functional API's ``sync_op=False`` and DataParallel's gradient buckets wait later.

Before a collective that needs the same tensor on every rank, a context compares a small
signature (which collective, dtype, shape, root or reduce op) across the ranks, so a mismatch is
an ``InvalidArgumentError`` naming the ranks and what each had, never a hang or a wrong answer.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, PhiError, UnimplementedError

__all__ = [
    "ReduceOp",
    "reduce_op",
    "CommContext",
    "Work",
    "DoneWork",
    "CommunicationError",
    "signature_of",
    "describe_signature",
    "reduce_arrays",
    "check_reducible",
    "divide_in_place",
    "mismatch_error",
    "SIGNATURE_LENGTH",
    "message_of_signature",
]


class CommunicationError(PhiError, RuntimeError):
    """A collective could not finish: a rank failed, exited or did not join within the timeout.
    The message names the ring, the collective and the rank."""


class ReduceOp(IntEnum):
    """PaddlePaddle's ``paddle.distributed.ReduceOp`` values (reduce_type of the ops)."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


def reduce_op(value: Any, where: str) -> ReduceOp:
    """``value`` (a ReduceOp or its int) as a ReduceOp, else an InvalidArgumentError."""
    try:
        return ReduceOp(int(value))
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{where}: reduce_type must be one of {[f'{op.name}={op.value}' for op in ReduceOp]}, "
            f"got {value!r}"
        ) from None


_UFUNCS = {
    ReduceOp.SUM: np.add,
    ReduceOp.MAX: np.maximum,
    ReduceOp.MIN: np.minimum,
    ReduceOp.PROD: np.multiply,
}


def check_reducible(dtype: np.dtype, op: ReduceOp, where: str) -> None:
    """Reject the reductions that have no meaning for ``dtype``."""
    if dtype.kind == "c" and op in (ReduceOp.MAX, ReduceOp.MIN):
        raise InvalidArgumentError(f"{where}: {op.name} is not defined for {dtype} tensors")
    if dtype.kind == "b" and op is ReduceOp.AVG:
        raise InvalidArgumentError(f"{where}: AVG is not defined for bool tensors")


def reduce_arrays(xp: Any, stacked: Any, op: ReduceOp) -> Any:
    """Reduce ``stacked`` (one row per rank, in rank order) over its first axis with ``op``, in
    the arrays' dtype: the reference every context's result equals."""
    dtype = stacked.dtype
    if op is ReduceOp.AVG:
        total = _accumulate(xp, stacked, np.add)
        return divide_in_place(xp, total, stacked.shape[0])
    return _accumulate(xp, stacked, _UFUNCS[op])


def _accumulate(xp: Any, stacked: Any, ufunc: np.ufunc) -> Any:
    out = stacked[0].copy()
    for row in stacked[1:]:
        getattr(xp, ufunc.__name__)(out, row, out=out)
    return out.astype(stacked.dtype, copy=False)


def divide_in_place(xp: Any, total: Any, count: int) -> Any:
    """``total / count`` in ``total``'s dtype (integers truncate toward zero, as NCCL's avg)."""
    if total.dtype.kind in "iu":
        quotient = xp.trunc(total.astype(np.float64) / count)
        total[...] = quotient.astype(total.dtype)
        return total
    total /= total.dtype.type(count)
    return total


class Work:
    """A collective in flight; ``wait()`` finishes it (and raises what went wrong)."""

    def wait(self) -> None:
        raise NotImplementedError

    def is_completed(self) -> bool:
        raise NotImplementedError


class DoneWork(Work):
    """A collective that finished when it was called, with an optional step to run at wait."""

    __slots__ = ("_finish",)

    def __init__(self, finish: Callable[[], None] | None = None) -> None:
        self._finish = finish

    def wait(self) -> None:
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()

    def is_completed(self) -> bool:
        return True


_NAME_WORDS = 2  # the collective's name, up to 16 ASCII characters, packed into int64s
_MAX_DIMS = 9
SIGNATURE_LENGTH = _NAME_WORDS + 3 + _MAX_DIMS


def signature_of(kind: str, array: Any, extra: int = 0) -> np.ndarray:
    """A fixed-length int64 description of one rank's part in a collective: which collective
    (its name), the dtype, ``extra`` (root or reduce op) and the shape. Shapes beyond 9 dims
    compare by their first 9 extents and rank."""
    dims = tuple(array.shape)
    signature = np.full(SIGNATURE_LENGTH, -1, dtype=np.int64)
    name = kind.encode("ascii")[: 8 * _NAME_WORDS].ljust(8 * _NAME_WORDS, b"\0")
    signature[:_NAME_WORDS] = np.frombuffer(name, dtype=np.int64)
    rest = signature[_NAME_WORDS:]
    rest[0] = _dtype_code(array.dtype)
    rest[1] = extra
    rest[2] = len(dims)
    rest[3 : 3 + min(len(dims), _MAX_DIMS)] = dims[:_MAX_DIMS]
    return signature


_DTYPE_NAMES = (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
)


def _dtype_code(dtype: np.dtype) -> int:
    name = str(np.dtype(dtype))
    return _DTYPE_NAMES.index(name) if name in _DTYPE_NAMES else len(_DTYPE_NAMES)


def describe_signature(signature: Sequence[int]) -> str:
    """``all_reduce of float32[4, 3] (root/op 0)`` for one rank's signature."""
    words = np.asarray(signature[:_NAME_WORDS], dtype=np.int64)
    kind = words.tobytes().rstrip(b"\0").decode("ascii", "replace")
    rest = [int(value) for value in signature[_NAME_WORDS:]]
    dims = ", ".join(str(d) for d in rest[3 : 3 + min(rest[2], _MAX_DIMS)])
    dtype = _DTYPE_NAMES[rest[0]] if rest[0] < len(_DTYPE_NAMES) else "another dtype"
    return f"{kind} of {dtype}[{dims}] (root/op {rest[1]})"


def message_of_signature(signature: Sequence[int], where: str) -> tuple[np.dtype, tuple[int, ...]]:
    """The dtype and shape a sender's signature describes (what a receiver that does not know
    them allocates); a tensor of more than 9 dims is an UnimplementedError (its signature keeps
    the first 9 extents only)."""
    rest = [int(value) for value in signature[_NAME_WORDS:]]
    if not 0 <= rest[0] < len(_DTYPE_NAMES):
        raise InvalidArgumentError(f"{where}: the sender's tensor has a dtype phiops cannot receive")
    if rest[2] > _MAX_DIMS:
        raise UnimplementedError(
            f"{where}: receiving a tensor of unknown shape with more than {_MAX_DIMS} dims is not "
            f"implemented (the sender's has {rest[2]})"
        )
    return np.dtype(_numpy_name(_DTYPE_NAMES[rest[0]])), tuple(rest[3 : 3 + rest[2]])


def _numpy_name(name: str) -> Any:
    if name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return name


def mismatch_error(where: str, signatures: np.ndarray) -> None:
    """Raise an InvalidArgumentError when the ranks' signatures (one row per rank) differ."""
    if (signatures == signatures[0]).all():
        return
    parts = [f"rank {rank}: {describe_signature(row)}" for rank, row in enumerate(signatures)]
    raise InvalidArgumentError(
        f"{where}: the ranks disagree on the collective or its tensor ({'; '.join(parts)}); "
        "every rank must call the same collective with a tensor of the same dtype and shape"
    )


class CommContext:
    """One ring of ranks. Subclasses implement the collectives on their backend's arrays."""

    backend_name = "?"

    def __init__(self, ring_id: int, rank: int, size: int) -> None:
        self.ring_id = ring_id
        self.rank = rank
        self.size = size

    def where(self, what: str) -> str:
        return f"{what} on ring {self.ring_id} ({self.backend_name}, rank {self.rank} of {self.size})"

    def check_root(self, what: str, root: int) -> None:
        if not isinstance(root, (int, np.integer)) or not 0 <= root < self.size:
            raise InvalidArgumentError(
                f"{self.where(what)}: root/peer must be a rank in [0, {self.size}), got {root!r}"
            )

    def check_divisible(self, what: str, array: Any) -> None:
        if array.ndim == 0 or array.shape[0] % self.size:
            raise InvalidArgumentError(
                f"{self.where(what)}: x's first dimension must be divisible by the {self.size} "
                f"ranks, got shape {list(array.shape)}"
            )

    # The collectives; each returns a Work.
    def all_reduce(self, x: Any, out: Any, op: ReduceOp) -> Work:
        raise NotImplementedError

    def broadcast(self, buffer: Any, root: int) -> Work:
        raise NotImplementedError

    def reduce(self, x: Any, out: Any, root: int, op: ReduceOp) -> Work:
        raise NotImplementedError

    def all_gather(self, x: Any, out: Any) -> Work:
        raise NotImplementedError

    def reduce_scatter(self, x: Any, out: Any, op: ReduceOp) -> Work:
        raise NotImplementedError

    def all_to_all(self, x: Any, out: Any) -> Work:
        raise NotImplementedError

    def send(self, x: Any, peer: int) -> Work:
        raise NotImplementedError

    def recv(self, out: Any, peer: int) -> Work:
        raise NotImplementedError

    def send_with_shape(self, x: Any, peer: int) -> Work:
        """``send``, with x's dtype and shape told to the receiver, so that ``recv_with_shape``
        on ``peer`` can allocate what it receives (PHI's p_send with dynamic_shape)."""
        raise NotImplementedError

    def recv_with_shape(self, dtype: np.dtype, peer: int) -> tuple[Any, Work]:
        """Receive what ``peer`` sent with ``send_with_shape``: a new array of the sender's shape
        (its dtype must be ``dtype``) and the Work that fills it."""
        raise NotImplementedError

    def check_received_dtype(self, what: str, got: np.dtype, wanted: np.dtype, peer: int) -> None:
        if np.dtype(got) != np.dtype(wanted):
            raise InvalidArgumentError(
                f"{self.where(what)}: rank {peer} sent a {np.dtype(got)} tensor, the receiver "
                f"asked for dtype {np.dtype(wanted)}"
            )

    def barrier(self) -> Work:
        raise NotImplementedError

    def split(self, ranks: Sequence[int], ring_id: int) -> "CommContext | None":
        """A context over ``ranks`` of this one (None on the ranks outside it); every rank of this
        context calls it."""
        raise NotImplementedError
