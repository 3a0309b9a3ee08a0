"""LocalCommContext: the ring of one process, for programs not started by a launcher.

PaddlePaddle's collectives on a world of one rank return their input; so do these, without
loading a communication library. A send to oneself is kept until the matching recv.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Sequence

from phiops.runtime.comm.context import (
    CommContext,
    CommunicationError,
    DoneWork,
    ReduceOp,
    Work,
    check_reducible,
)
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["LocalCommContext"]


class LocalCommContext(CommContext):
    """A ring whose only rank is this process (any backend: it copies arrays of their module)."""

    backend_name = "local"

    def __init__(self, ring_id: int = 0) -> None:
        super().__init__(ring_id, 0, 1)
        self._sent: deque[Any] = deque()

    def drop_unreceived(self) -> int:
        """Forget the messages sent and not received yet (a test's leftovers); their count."""
        count = len(self._sent)
        self._sent.clear()
        return count

    def all_reduce(self, x: Any, out: Any, op: ReduceOp) -> Work:
        check_reducible(x.dtype, op, self.where("all_reduce"))
        out[...] = x
        return DoneWork()

    def broadcast(self, buffer: Any, root: int) -> Work:
        self.check_root("broadcast", root)
        return DoneWork()

    def reduce(self, x: Any, out: Any, root: int, op: ReduceOp) -> Work:
        self.check_root("reduce", root)
        check_reducible(x.dtype, op, self.where("reduce"))
        out[...] = x
        return DoneWork()

    def all_gather(self, x: Any, out: Any) -> Work:
        out.reshape(x.shape)[...] = x
        return DoneWork()

    def reduce_scatter(self, x: Any, out: Any, op: ReduceOp) -> Work:
        check_reducible(x.dtype, op, self.where("reduce_scatter"))
        out[...] = x
        return DoneWork()

    def all_to_all(self, x: Any, out: Any) -> Work:
        out[...] = x
        return DoneWork()

    def send(self, x: Any, peer: int) -> Work:
        self.check_root("send", peer)
        self._sent.append(x.copy())
        return DoneWork()

    def recv(self, out: Any, peer: int) -> Work:
        self.check_root("recv", peer)
        if not self._sent:
            raise CommunicationError(
                f"{self.where('recv')}: nothing was sent to this rank by rank {peer}; in a "
                "world of one rank a recv needs an earlier send to itself"
            )
        message = self._sent.popleft()
        if message.shape != out.shape or message.dtype != out.dtype:
            raise InvalidArgumentError(
                f"{self.where('recv')}: rank {peer} sent {message.dtype}{list(message.shape)}, "
                f"the receiving tensor is {out.dtype}{list(out.shape)}"
            )
        out[...] = message
        return DoneWork()

    def send_with_shape(self, x: Any, peer: int) -> Work:
        return self.send(x, peer)

    def recv_with_shape(self, dtype: Any, peer: int) -> tuple[Any, Work]:
        self.check_root("recv", peer)
        if not self._sent:
            raise CommunicationError(
                f"{self.where('recv')}: nothing was sent to this rank by rank {peer}; in a "
                "world of one rank a recv needs an earlier send to itself"
            )
        message = self._sent.popleft()  # taken even when it does not fit, as MPI's is
        self.check_received_dtype("recv", message.dtype, dtype, peer)
        return message, DoneWork()

    def barrier(self) -> Work:
        return DoneWork()

    def split(self, ranks: Sequence[int], ring_id: int) -> CommContext | None:
        if list(ranks) != [0]:
            raise InvalidArgumentError(
                f"{self.where('new_group')}: ranks must be [0] in a world of one rank, got "
                f"{list(ranks)}"
            )
        return LocalCommContext(ring_id)
